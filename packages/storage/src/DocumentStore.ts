/**
 * The document store: parsed documents with their metadata, Markdown body, sections and exhibits.
 * Saving is one transaction and idempotent on the publication id, so a retried ingest job never
 * duplicates a document.
 *
 * What a reader may keep, and when it must stop (the read-path caches):
 *
 * - A document changes only when it is saved again (`save`); no other operation changes it. A
 *   process can therefore forget what it kept of a document when it saves it (the server's
 *   `caches/DocumentCache` does); saves by another process on the same database it cannot see, so
 *   it keeps nothing longer than it accepts being late by (that cache: 5 seconds).
 * - An object a store has returned is never changed afterwards: a document saved again comes back
 *   as a new object. So a caller may keep what it derives from a returned object beside it (the
 *   server's `caches/KeptEncodings`), and it is never stale. An unchanged document may come back as
 *   the same object (the SQL adapter keeps the metadata rows `list` decoded by row version,
 *   PostgreSQL's `xmin`, which every write changes on every instance alike); that is what makes
 *   keeping worthwhile, not something a caller may rely on.
 *
 * @module
 */
import { type Dates, type DocType as DocTypes, Document, type Ids } from "@filings/domain"
import { Context, type Effect, type Option, Schema } from "effect"
import type { StorageError, UnstorableValue } from "./StorageError.js"

type DocType = DocTypes.DocType
type IsoDate = Dates.IsoDate
type PublicationId = Ids.PublicationId
type Ticker = Ids.Ticker

/**
 * The stored forms of a document's metadata, sections and exhibits are the shapes of
 * `@filings/domain`'s `Document` module as they are: `DocumentMetadata`, `LabeledSection` (here
 * `StoredSection`) and `Exhibit` (here `StoredExhibit`), whose encoded sides name the SQL columns.
 */
export { DocumentMetadata, Exhibit as StoredExhibit, LabeledSection as StoredSection } from "@filings/domain/Document"

/** A passage of the body that citations point at: the one schema of `Document.Chunk`. */
export const StoredChunk = Document.Chunk
export type StoredChunk = Document.Chunk

/** A document with its body, sections, exhibits and chunks. */
export const StoredDocument = Schema.Struct({
  ...Document.DocumentMetadata.fields,
  body: Schema.String,
  sections: Schema.Array(Document.LabeledSection),
  exhibits: Schema.Array(Document.Exhibit),
  /**
   * The body cut into passages, as the parser makes them: joined with "\n" they give the body.
   * Adapters may rely on that to store them as ranges of the body, and must still keep chunks that
   * do not.
   */
  chunks: Schema.Array(StoredChunk)
})
export type StoredDocument = typeof StoredDocument.Type

/** Which documents a query reads: every one when a filter is absent. */
export interface DocumentFilters {
  readonly tickers?: ReadonlyArray<Ticker> | undefined
  readonly docTypes?: ReadonlyArray<DocType> | undefined
  /** Inclusive, on the filing date. */
  readonly startDate?: IsoDate | undefined
  /** Inclusive, on the filing date. */
  readonly endDate?: IsoDate | undefined
}

/** Which page of the matches a query returns. */
export interface Paging {
  readonly limit: number
  readonly offset: number
}

/** A query of `DocumentStore.list`: filters, a page, and the order by filing date. */
export interface DocumentQuery extends DocumentFilters, Paging {
  /** By filing date, ties broken by publication id in the same direction, so pages never overlap. */
  readonly order: "asc" | "desc"
}

/** A ticker and company name as stored documents carry them. */
export interface CompanyName {
  readonly ticker: Ticker
  readonly companyName: string
}

/** A page of `DocumentStore.list`: the documents' metadata, without their bodies. */
export interface DocumentPage {
  readonly documents: ReadonlyArray<Document.DocumentMetadata>
  /** Every match, not only this page. */
  readonly total: number
}

/**
 * Where a document stands among a company's documents, newest first: its filing date, then its
 * publication id. A key read from elsewhere (a cursor) may name no stored document.
 */
export interface DocumentKey {
  readonly filingDate: string
  readonly publicationId: string
}

/**
 * A query of `DocumentStore.companyDocuments`: one company's documents, filtered, after a key. The
 * company is its central index key, so its documents come whichever ticker each was stored under (a
 * second share class, a ticker it had before).
 */
export interface CompanyDocumentsQuery {
  /** The company's central index key; absent when it has none known, and only `placeholder` reads. */
  readonly cik?: Ids.Cik | undefined
  /**
   * Also the documents stored under a placeholder key (a transcript or release of a company the
   * service did not know when it stored it) whose ticker is one of `tickers`.
   */
  readonly placeholder?: { readonly cik: Ids.Cik; readonly tickers: ReadonlyArray<Ticker> } | undefined
  /** Absent: every type. */
  readonly docTypes?: ReadonlyArray<DocType> | undefined
  /** Inclusive, on the filing date. */
  readonly startDate?: IsoDate | undefined
  /** Inclusive, on the filing date. */
  readonly endDate?: IsoDate | undefined
  /** Only the documents after this key in the order of `companyDocuments` (see `compareNewestFirst`). */
  readonly after?: DocumentKey | undefined
  /** The most documents returned. */
  readonly limit: number
}

/**
 * Which sections a cross-document search wants: sections whose item key is listed for their
 * document's type, or whose name is one of `names` (compared without regard to case).
 */
export interface SectionMatch {
  readonly items: ReadonlyArray<{ readonly docType: DocType; readonly item: string }>
  readonly names: ReadonlyArray<string>
}

/** A query of `DocumentStore.searchSections`: filters, a page, and which sections. */
export interface SectionQuery extends DocumentFilters, Paging {
  readonly match: SectionMatch
}

/** One section found by `searchSections`, with the metadata of its document. */
export interface SectionHit {
  readonly document: Document.DocumentMetadata
  readonly section: Document.LabeledSection
}

/** A page of `searchSections`. */
export interface SectionPage {
  /** Newest filing first (ties by publication id), then in the document's order. */
  readonly results: ReadonlyArray<SectionHit>
  /** Every matching section, not only this page. */
  readonly total: number
}

/** How many documents of one type a company has, and the newest of them. */
export interface DocumentTypeCount {
  readonly docType: DocTypes.DocType
  readonly count: number
  /** The newest by filing date, ties by the larger publication id (the first of a newest-first list). */
  readonly latest: PublicationId
}

/** Whether a save stored a new document or replaced the one with the same publication id. */
export type SaveOutcome = "created" | "updated"

/**
 * What a document store does. An unknown publication id is none, never an error; every operation
 * fails with `StorageError` when the backing store does.
 */
export interface Service {
  /**
   * Stores the document, or replaces the one with the same publication id (chunks, sections and
   * exhibits included), in one transaction: `created` or `updated`. Concurrent saves of one
   * document create it once. Fails with `UnstorableValue`, storing nothing, when the document holds
   * text no store takes (a NUL character).
   */
  readonly save: (document: StoredDocument) => Effect.Effect<SaveOutcome, StorageError | UnstorableValue>
  /**
   * The document as saved last, every field as it was given. With `withoutBlocks` a store may
   * leave its chunks' blocks out, for a reader of its Markdown alone (the document endpoints): such
   * a document is not the whole of it, and is never saved back.
   */
  readonly findByPublicationId: (
    publicationId: PublicationId,
    options?: { readonly withoutBlocks?: boolean }
  ) => Effect.Effect<Option.Option<StoredDocument>, StorageError>
  /** One chunk of a document; none when the document or the chunk is unknown. */
  readonly findChunk: (
    publicationId: PublicationId,
    chunkId: string
  ) => Effect.Effect<Option.Option<StoredChunk>, StorageError>
  /** The metadata alone, without reading the body. */
  readonly findMetadata: (
    publicationId: PublicationId
  ) => Effect.Effect<Option.Option<Document.DocumentMetadata>, StorageError>
  /**
   * The documents matching the filters, in the query's order (see `compareForListing`), one page.
   * The metadata objects are never changed afterwards; a document saved again is a new object (see
   * the module comment).
   */
  readonly list: (query: DocumentQuery) => Effect.Effect<DocumentPage, StorageError>
  /**
   * One company's documents, under all its tickers, newest filing date first, ties by publication id
   * descending in the order of its UTF-16 code units (see `compareNewestFirst`): a total order, so a
   * page that ends at a document goes on from its key without a loss or a repeat. At most `limit`.
   */
  readonly companyDocuments: (
    query: CompanyDocumentsQuery
  ) => Effect.Effect<ReadonlyArray<Document.DocumentMetadata>, StorageError>
  /**
   * The tickers a company's documents were stored under (its current one, a second class, one it had
   * before), each once, in the order of their UTF-16 code units; empty when it has no document.
   */
  readonly companyTickers: (cik: Ids.Cik) => Effect.Effect<ReadonlyArray<Ticker>, StorageError>
  /**
   * Every ticker and company name the stored documents carry, each pair once, by ticker and then
   * name in the order of their UTF-16 code units: the companies a search may name (see
   * `NamedCompanies`).
   */
  readonly companyNames: Effect.Effect<ReadonlyArray<CompanyName>, StorageError>
  /** One kind of section across many documents. */
  readonly searchSections: (query: SectionQuery) => Effect.Effect<SectionPage, StorageError>
  /** The company's documents counted by type, in the order of the type names, each with its newest. */
  readonly countByType: (cik: Ids.Cik) => Effect.Effect<ReadonlyArray<DocumentTypeCount>, StorageError>
}

/**
 * The document store as an Effect service, provided by `MemoryStorage.documentStore` or an
 * adapter's layer.
 *
 * @example
 * ```ts
 * const documents = yield* DocumentStore
 * yield* documents.save(document) // "created", then "updated" when saved again
 * const page = yield* documents.list({ tickers: [ticker], order: "desc", limit: 20, offset: 0 })
 * ```
 */
export class DocumentStore extends Context.Tag("@filings/storage/DocumentStore")<DocumentStore, Service>() {}

/** Orders documents as `list` must: filing date, then publication id, in the query's direction. */
export const compareForListing =
  (order: DocumentQuery["order"]) => (a: Document.DocumentMetadata, b: Document.DocumentMetadata) => {
    const byDate = a.filingDate.localeCompare(b.filingDate) || a.publicationId.localeCompare(b.publicationId)
    return order === "asc" ? byDate : -byDate
  }

/** Whether a document matches the filters of a query (paging aside). */
export const matchesQuery = (query: DocumentFilters) => (document: Document.DocumentMetadata): boolean =>
  (query.tickers === undefined || query.tickers.includes(document.ticker)) &&
  (query.docTypes === undefined || query.docTypes.includes(document.docType)) &&
  (query.startDate === undefined || document.filingDate >= query.startDate) &&
  (query.endDate === undefined || document.filingDate <= query.endDate)

/** Whether a section is one a search asks for. */
export const matchesSection = (match: SectionMatch, docType: DocType) => (section: Document.LabeledSection): boolean =>
  match.items.some((wanted) => wanted.docType === docType && wanted.item === section.item) ||
  match.names.some((name) => name.toLowerCase() === section.title.toLowerCase())

/** Compares two ids by their UTF-16 code units, the order of SQL's "C" collation on ASCII ids. */
const compareCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The order of `companyDocuments`: newest filing date first, then publication id descending, by
 * code units (not by locale, so every store and the server agree on it).
 */
export const compareNewestFirst = (a: DocumentKey, b: DocumentKey): number =>
  compareCodeUnits(b.filingDate, a.filingDate) || compareCodeUnits(b.publicationId, a.publicationId)

/** Whether a document comes after a key in the order of `companyDocuments`. */
export const isAfterKey = (key: DocumentKey) => (document: DocumentKey): boolean =>
  compareNewestFirst(key, document) < 0
