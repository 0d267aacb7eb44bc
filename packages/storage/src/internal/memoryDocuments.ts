// In-memory DocumentStore and CompanyStore: maps behind a Ref, for tests and single-process use.
import { Effect, Option, Ref } from "effect"
import * as CompanyStore from "../CompanyStore.js"
import * as DocumentStore from "../DocumentStore.js"
import type * as SearchIndex from "../SearchIndex.js"
import { holdsNul, nulReason, UnstorableValue } from "../StorageError.js"
import { MemoryPassages } from "./memorySearch.js"

/** Every string of a value, for the check the SQL stores make on what they are given. */
const strings = (value: unknown): Array<string> => {
  if (typeof value === "string") return [value]
  if (Array.isArray(value)) return value.flatMap(strings)
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(strings)
  return []
}

/** A document store and the search index of its passages, which every save updates. */
export const makeDocumentStoreWithIndex = Effect.gen(function*() {
  const documents = yield* Ref.make(new Map<string, DocumentStore.StoredDocument>())
  const passages = new MemoryPassages()
  const find = (publicationId: string) =>
    Effect.map(Ref.get(documents), (map) => Option.fromNullable(map.get(publicationId)))
  const service: DocumentStore.Service = {
    save: (document) =>
      // Refused as PostgreSQL refuses it, so the memory store does not accept what a database would not.
      strings(document).some(holdsNul)
        ? Effect.fail(
          new UnstorableValue({
            operation: "DocumentStore.save",
            subject: `document ${document.publicationId}`,
            reason: nulReason
          })
        )
        : Ref.modify(documents, (map): [DocumentStore.SaveOutcome, Map<string, DocumentStore.StoredDocument>] => {
          const outcome = map.has(document.publicationId) ? "updated" : "created"
          const stored = structuredClone(document)
          passages.replace(stored)
          return [outcome, new Map(map).set(document.publicationId, stored)]
        }),
    findByPublicationId: find,
    findChunk: (publicationId, chunkId) =>
      Effect.map(
        find(publicationId),
        Option.flatMap((document) => Option.fromNullable(document.chunks.find((chunk) => chunk.id === chunkId)))
      ),
    findMetadata: (publicationId) =>
      Effect.map(
        find(publicationId),
        Option.map(({ body: _b, exhibits: _e, sections: _s, chunks: _c, ...metadata }) => metadata)
      ),
    list: (query) =>
      Effect.map(Ref.get(documents), (map) => {
        const matches = [...map.values()].filter(DocumentStore.matchesQuery(query))
          .sort(DocumentStore.compareForListing(query.order))
        return {
          total: matches.length,
          documents: matches.slice(query.offset, query.offset + query.limit).map((
            { body: _b, chunks: _c, exhibits: _e, sections: _s, ...metadata }
          ) => metadata)
        }
      }),
    companyDocuments: (query) =>
      Effect.map(Ref.get(documents), (map) =>
        [...map.values()]
          .filter((document) =>
            document.ticker === query.ticker &&
            DocumentStore.matchesQuery(query)(document) &&
            (query.after === undefined || DocumentStore.isAfterKey(query.after)(document))
          )
          .sort(DocumentStore.compareNewestFirst)
          .slice(0, Math.max(0, query.limit))
          .map(({ body: _b, chunks: _c, exhibits: _e, sections: _s, ...metadata }) => metadata)),
    searchSections: (query) =>
      Effect.map(Ref.get(documents), (map) => {
        const hits = [...map.values()]
          .filter(DocumentStore.matchesQuery(query))
          .sort(DocumentStore.compareForListing("desc"))
          .flatMap(({ body: _b, chunks: _c, exhibits: _e, sections, ...metadata }) =>
            sections.filter(DocumentStore.matchesSection(query.match, metadata.docType)).map((section) => ({
              document: metadata,
              section
            }))
          )
        return { total: hits.length, results: hits.slice(query.offset, query.offset + query.limit) }
      })
  }
  const index: SearchIndex.Service = {
    search: (query) => Effect.sync(() => passages.search(query))
  }
  return { documents: service, index }
})

export const makeCompanyStore = Effect.gen(function*() {
  const companies = yield* Ref.make(new Map<string, CompanyStore.Company>())
  const service: CompanyStore.Service = {
    upsert: (company) =>
      Ref.update(companies, (map) => {
        const current = map.get(company.cik)
        if (current !== undefined && !CompanyStore.supersedes(company, current)) return map
        const { asOf, cik, name, ticker } = company
        return new Map(map).set(cik, { cik, ticker, name, ...(asOf === undefined ? {} : { asOf }) })
      }),
    findByCik: (cik) => Effect.map(Ref.get(companies), (map) => Option.fromNullable(map.get(cik))),
    findByTicker: (ticker) =>
      Effect.map(Ref.get(companies), (map) => Option.fromNullable([...map.values()].find((c) => c.ticker === ticker)))
  }
  return service
})
