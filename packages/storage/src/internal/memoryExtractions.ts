// In-memory ExtractionStore: extractions by publication id, joined to the document store's
// metadata when queried.
import { Effect, Option, Ref } from "effect"
import * as DocumentStore from "../DocumentStore.js"
import type * as ExtractionStore from "../ExtractionStore.js"

export const makeExtractionStore = Effect.gen(function*() {
  const documents = yield* DocumentStore.DocumentStore
  const extractions = yield* Ref.make(new Map<string, ExtractionStore.StoredExtraction>())

  /** Every stored extraction with its document's metadata, documents that are gone left out. */
  const withMetadata = Effect.flatMap(
    Ref.get(extractions),
    (map) =>
      Effect.forEach([...map.entries()], ([publicationId, extraction]) =>
        Effect.map(
          documents.findMetadata(publicationId as DocumentStore.DocumentMetadata["publicationId"]),
          Option.map((document) => ({ document, extraction }))
        )).pipe(Effect.map((found) => found.flatMap(Option.toArray)))
  )

  const service: ExtractionStore.Service = {
    save: (publicationId, extraction) =>
      Ref.update(extractions, (map) => new Map(map).set(publicationId, structuredClone(extraction))),
    find: (publicationId) => Effect.map(Ref.get(extractions), (map) => Option.fromNullable(map.get(publicationId))),
    metricSeries: (query) =>
      Effect.map(withMetadata, (entries) =>
        entries
          .filter(({ document }) => DocumentStore.matchesQuery(query)(document))
          .sort((a, b) => DocumentStore.compareForListing("asc")(a.document, b.document))
          .flatMap(({ document, extraction }) =>
            extraction.metrics.filter((metric) => query.metrics.includes(metric.name)).map((metric) => ({
              ticker: document.ticker,
              companyName: document.companyName,
              publicationId: document.publicationId,
              docType: document.docType,
              filingDate: document.filingDate,
              documentPeriod: document.period,
              metric
            }))
          )),
    tables: (query) =>
      Effect.map(withMetadata, (entries) => {
        const hits = entries
          .filter(({ document }) => DocumentStore.matchesQuery(query)(document))
          .sort((a, b) => DocumentStore.compareForListing("desc")(a.document, b.document))
          .flatMap(({ document, extraction }) =>
            extraction.tables
              .filter((table) => query.tableTypes === undefined || query.tableTypes.includes(table.tableType))
              .map((table) => ({ document, table }))
          )
        return { total: hits.length, results: hits.slice(query.offset, query.offset + query.limit) }
      })
  }
  return service
})
