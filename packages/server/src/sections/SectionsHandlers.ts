/**
 * Handlers of the sections group: the labeled sections of one document (all, or the one a
 * `section` query names), and one kind of section across many documents.
 */
import { HttpApiBuilder } from "@effect/platform"
import type { DocType } from "@filings/domain"
import { Api, ApiError, Sections } from "@filings/domain"
import { SectionQuery } from "@filings/filings-parser"
import { DocumentStore } from "@filings/storage"
import { Effect, Option } from "effect"
import * as TickerAliases from "../companies/TickerAliases.js"
import { checkDateRange } from "../http/DateRange.js"
import { orServiceUnavailable } from "../http/StorageFailures.js"

// The answer is the document's Markdown: its chunks' blocks are not read.
const servedWithoutBlocks = { withoutBlocks: true } as const

const DefaultSearchLimit = 20
const DefaultSearchDocTypes: ReadonlyArray<DocType.DocType> = ["10-K", "10-Q"]

const trusted = { disableValidation: true } as const

const toSection = (section: DocumentStore.StoredSection) =>
  new Sections.Section({
    name: section.title,
    content: section.content,
    wordCount: section.wordCount,
    pageStart: section.pageStart,
    pageEnd: section.pageEnd
  }, trusted)

/** What a `section` query asks of documents of the given types, as the store's match. */
export const sectionMatch = (
  query: string,
  docTypes: ReadonlyArray<DocType.DocType>
): DocumentStore.SectionMatch => ({
  items: docTypes.flatMap((docType) => SectionQuery.itemKeysFor(query, docType).map((item) => ({ docType, item }))),
  names: docTypes.some(SectionQuery.hasNamedSections) ? [query] : []
})

/**
 * What a `section` query asks of documents of the given types, or a 400 when it asks nothing of
 * them (naming the sections they have); `/v1/sections` and `/v1/search` read `section` alike.
 */
export const requestedSections = (
  section: string,
  docTypes: ReadonlyArray<DocType.DocType>
): Effect.Effect<DocumentStore.SectionMatch, ApiError.InvalidRequest> => {
  const match = sectionMatch(section, docTypes)
  if (match.items.length > 0 || match.names.length > 0) return Effect.succeed(match)
  const known = [...new Set(docTypes.flatMap(SectionQuery.catalogNames))]
  return Effect.fail(
    new ApiError.InvalidRequest({
      message: `section ${JSON.stringify(section)} is not a section of ${docTypes.join(", ")}; ` +
        `sections are named like: ${known.join("; ")}`
    })
  )
}

export const layer = HttpApiBuilder.group(Api.FilingsApi, "sections", (handlers) =>
  Effect.gen(function*() {
    const store = yield* DocumentStore.DocumentStore
    const aliases = yield* TickerAliases.make()

    const getDocumentSections = Effect.fn("sections.getDocumentSections")(function*(
      publicationId: DocumentStore.DocumentMetadata["publicationId"],
      section: string | undefined
    ) {
      const found = yield* store.findByPublicationId(publicationId, servedWithoutBlocks)
      if (Option.isNone(found)) return yield* ApiError.DocumentNotFound.forId(publicationId)
      const document = found.value
      const chosen = section === undefined
        ? document.sections
        : document.sections.filter((candidate) => SectionQuery.matches(section, document.docType, candidate))
      if (section !== undefined && chosen.length === 0) {
        const names = document.sections.map((candidate) => candidate.title)
        return yield* new ApiError.SectionNotFound({
          message: `document ${publicationId} has no section ${JSON.stringify(section)}; ${
            names.length === 0 ? "it has no sections" : `its sections are: ${names.join("; ")}`
          }`
        })
      }
      return new Sections.DocumentSections({
        publicationId: document.publicationId,
        ticker: document.ticker,
        docType: document.docType,
        filingDate: document.filingDate,
        sections: chosen.map(toSection)
      }, trusted)
    })

    const searchSections = Effect.fn("sections.searchSections")(
      function*(params: typeof Sections.SectionSearchParams.Type) {
        const { end_date, start_date } = params
        yield* checkDateRange(start_date, end_date)
        const docTypes = params.doc_types ?? DefaultSearchDocTypes
        const match = yield* requestedSections(params.section, docTypes)
        const limit = params.limit ?? DefaultSearchLimit
        const offset = params.offset ?? 0
        const page = yield* store.searchSections({
          tickers: yield* aliases.widen(params.tickers),
          docTypes,
          startDate: start_date,
          endDate: end_date,
          match,
          limit,
          offset
        })
        return new Sections.SectionResults({
          section: params.section,
          results: page.results.map(({ document, section }) =>
            new Sections.SectionResult({
              publicationId: document.publicationId,
              ticker: document.ticker,
              companyName: document.companyName,
              docType: document.docType,
              filingDate: document.filingDate,
              period: document.period,
              content: section.content,
              wordCount: section.wordCount
            }, trusted)
          ),
          total: page.total,
          limit,
          offset
        }, trusted)
      }
    )

    return handlers
      .handle(
        "getDocumentSections",
        ({ path, urlParams }) => orServiceUnavailable(getDocumentSections(path.publication_id, urlParams.section))
      )
      .handle("searchSections", ({ urlParams }) => orServiceUnavailable(searchSections(urlParams)))
  }))
