/**
 * A search as the API answers it: the query read and checked, the filters and `section` turned into
 * the index's query, and each passage found given its snippet. `GET /v1/search`, the operator's
 * `/admin/search` and `filings search` all answer through here.
 */
import { ApiError, DocType, Search } from "@filings/domain"
import { DocumentStore, NamedCompanies, SearchIndex, SearchText, type StorageError } from "@filings/storage"
import { Context, Duration, Effect, Either, Layer } from "effect"
import { requestedSections } from "../sections/SectionsHandlers.js"

/** Results a page holds when `limit` is not given. */
export const defaultLimit = 10

/**
 * How long the names of the stored companies are kept before they are read again: a company
 * stored for the first time is recognized in queries (see `NamedCompanies`) within this long.
 */
export const companyNamesKeptFor = Duration.minutes(1)

const trusted = { disableValidation: true } as const

/**
 * A search with what it needs: the index, and the stored companies' names, read from the
 * document store and kept for `companyNamesKeptFor`.
 */
export const make = Effect.gen(function*() {
  const index = yield* SearchIndex.SearchIndex
  const documents = yield* DocumentStore.DocumentStore
  const [cached, invalidate] = yield* Effect.cachedInvalidateWithTTL(
    Effect.map(documents.companyNames, NamedCompanies.companyTerms),
    companyNamesKeptFor
  )
  // A failed read is not kept: the next search reads the names again.
  const known = Effect.tapError(cached, () => invalidate)
  return (params: Search.SearchParams) =>
    searchPassages(params, known).pipe(Effect.provideService(SearchIndex.SearchIndex, index))
})

/**
 * The search of `make`, built once for a server, so that its routes (`GET /v1/search` and
 * `/admin/search`) share one copy of the companies' names.
 */
export class PassageSearch extends Context.Tag("@filings/server/search/Search/PassageSearch")<
  PassageSearch,
  Effect.Effect.Success<typeof make>
>() {}

/** `PassageSearch` from the index and the document store. */
export const layer = Layer.effect(PassageSearch, make)

/**
 * One page of results for the parameters of `GET /v1/search`; fails with `InvalidRequest` for a
 * query with nothing to search for, dates out of order or an unknown section. A word of the query
 * that names a stored company weighs more (see `NamedCompanies`).
 */
const searchPassages = Effect.fn("search.searchPassages")(function*(
  params: Search.SearchParams,
  knownCompanies: Effect.Effect<NamedCompanies.CompanyTerms, StorageError.StorageError>
) {
  const { end_date, start_date } = params
  if (start_date !== undefined && end_date !== undefined && start_date > end_date) {
    return yield* new ApiError.InvalidRequest({ message: `start_date ${start_date} is after end_date ${end_date}` })
  }
  const query = SearchText.parseQuery(params.q)
  if (Either.isLeft(query)) return yield* new ApiError.InvalidRequest({ message: query.left.message })
  const sections = params.section === undefined
    ? undefined
    : yield* requestedSections(params.section, params.doc_types ?? DocType.DocumentTypes)
  const limit = params.limit ?? defaultLimit
  const offset = params.offset ?? 0
  const index = yield* SearchIndex.SearchIndex
  const named = NamedCompanies.namedIn(params.q, yield* knownCompanies)
  const page = yield* index.search({
    query: NamedCompanies.favoring(query.right, named),
    tickers: params.tickers,
    docTypes: params.doc_types,
    startDate: start_date,
    endDate: end_date,
    sections,
    limit,
    offset
  })
  return new Search.SearchResults({
    results: page.hits.map(({ chunk, document, score }) =>
      new Search.SearchResult({
        publicationId: document.publicationId,
        chunkId: chunk.id,
        ticker: document.ticker,
        companyName: document.companyName,
        docType: document.docType,
        title: document.title,
        filingDate: document.filingDate,
        period: document.period,
        section: chunk.section ?? null,
        pageStart: chunk.pageStart,
        pageEnd: chunk.pageEnd,
        score,
        snippet: SearchText.snippet(chunk.text, query.right)
      }, trusted)
    ),
    total: page.total,
    limit,
    offset
  }, trusted)
})
