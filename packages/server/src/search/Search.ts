/**
 * A search as the API answers it: the query read and checked, the filters and `section` turned into
 * the index's query, and each passage found given its snippet. `GET /v1/search`, the operator's
 * `/admin/search` and `filings search` all answer through here.
 */
import { ApiError, DocType, Search } from "@filings/domain"
import { DocumentStore, NamedCompanies, SearchIndex, SearchText, type StorageError } from "@filings/storage"
import { Array as Arr, Context, Duration, Effect, Either, Layer } from "effect"
import * as TickerAliases from "../companies/TickerAliases.js"
import { checkDateRange } from "../http/DateRange.js"
import { searchDuration, timed } from "../observability/ServerMetrics.js"
import { requestedSections } from "../sections/SectionsHandlers.js"

/** Results a page holds when `limit` is not given. */
export const defaultLimit = 10

/**
 * How long the names of the stored companies are kept before they are read again: a company
 * stored for the first time is recognized in queries (see `NamedCompanies`) within this long.
 */
export const companyNamesKeptFor = Duration.minutes(1)

const trusted = { disableValidation: true } as const

/** What a search found: the passages of one page, best first, and how many match. */
export interface Found {
  readonly query: SearchText.ParsedQuery
  readonly page: SearchIndex.SearchPage
}

/** Searching as the API does: a page of results, or the passages themselves for those who read them whole. */
export interface Service {
  /** One page of `GET /v1/search`. */
  readonly search: (
    params: Search.SearchParams
  ) => Effect.Effect<Search.SearchResults, ApiError.InvalidRequest | StorageError.StorageError>
  /**
   * The passages `search` would return, whole, with the query as read; `withBlocks` for each
   * passage's blocks too (see `SearchIndex.SearchQuery`).
   */
  readonly find: (
    params: Search.SearchParams,
    options?: { readonly withBlocks?: boolean }
  ) => Effect.Effect<Found, ApiError.InvalidRequest | StorageError.StorageError>
}

/**
 * A search with what it needs: the index, and the stored companies' names, read from the
 * document store and kept for `companyNamesKeptFor`.
 */
export const make = Effect.gen(function*() {
  const index = yield* SearchIndex.SearchIndex
  const documents = yield* DocumentStore.DocumentStore
  const aliases = yield* TickerAliases.make()
  const [cached, invalidate] = yield* Effect.cachedInvalidateWithTTL(
    Effect.map(documents.companyNames, NamedCompanies.companyTerms),
    companyNamesKeptFor
  )
  const known = Effect.tapError(cached, () => invalidate)
  const find: Service["find"] = (params, options) =>
    aliases.widenFilter(params.tickers).pipe(
      Effect.flatMap((tickers) =>
        findPassages(
          tickers !== undefined && Arr.isNonEmptyReadonlyArray(tickers) ? { ...params, tickers } : params,
          known,
          options?.withBlocks === true
        )
      ),
      Effect.provideService(SearchIndex.SearchIndex, index),
      (search) => timed(searchDuration, search)
    )
  const service: Service = {
    find,
    search: (params) => Effect.map(find(params), (found) => resultsOf(params, found))
  }
  return service
})

/**
 * The search of `make`, built once for a server, so that its routes (`GET /v1/search` and
 * `/admin/search`) share one copy of the companies' names.
 */
export class PassageSearch extends Context.Tag("@filings/server/search/Search/PassageSearch")<
  PassageSearch,
  Service
>() {}

/** `PassageSearch` from the index and the document store. */
export const layer = Layer.effect(PassageSearch, make)

/**
 * The passages of one page for the parameters of `GET /v1/search`; fails with `InvalidRequest` for a
 * query with nothing to search for, dates out of order or an unknown section. A word of the query
 * that names a stored company weighs more (see `NamedCompanies`).
 */
const findPassages = Effect.fn("search.findPassages")(function*(
  params: Search.SearchParams,
  knownCompanies: Effect.Effect<NamedCompanies.CompanyTerms, StorageError.StorageError>,
  withBlocks: boolean
) {
  const { end_date, start_date } = params
  yield* checkDateRange(start_date, end_date)
  const query = SearchText.parseQuery(params.q)
  if (Either.isLeft(query)) return yield* new ApiError.InvalidRequest({ message: query.left.message })
  const sections = params.section === undefined
    ? undefined
    : yield* requestedSections(params.section, params.doc_types ?? DocType.DocumentTypes)
  const index = yield* SearchIndex.SearchIndex
  const named = NamedCompanies.namedIn(params.q, yield* knownCompanies)
  const page = yield* index.search({
    query: NamedCompanies.favoring(query.right, named),
    tickers: params.tickers,
    docTypes: params.doc_types,
    startDate: start_date,
    endDate: end_date,
    sections,
    limit: params.limit ?? defaultLimit,
    offset: params.offset ?? 0,
    withBlocks
  })
  return { query: query.right, page }
})

/** The page as `GET /v1/search` answers it: each passage with its document, pages and snippet. */
const resultsOf = (params: Search.SearchParams, { page, query }: Found): Search.SearchResults =>
  new Search.SearchResults({
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
        snippet: SearchText.snippet(chunk.text, query)
      }, trusted)
    ),
    total: page.total,
    limit: params.limit ?? defaultLimit,
    offset: params.offset ?? 0
  }, trusted)
