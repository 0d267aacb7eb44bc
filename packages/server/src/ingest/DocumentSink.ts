/**
 * The `DocumentSink` service: the one way a parsed document is stored, whichever way it came (a
 * filing from `filings ingest` or EDGAR, a transcript, an 8-K's press releases and slide decks, a
 * news entry). Storing is, in this order: the document saved; its company kept (for a document that
 * names one); its extraction saved (for a document that has one); its feed item written; and for a
 * document ingested whole, what follows it (an 8-K's releases and decks, each through the sink, and
 * the events). Working out what a document is (its form, company, dates, id) is its caller's job.
 */
import type { Ids } from "@filings/domain"
import type { Extractor } from "@filings/extractor"
import type { ParsedDocument, SgmlSubmission } from "@filings/filings-parser"
import type { DocumentStore, StorageError } from "@filings/storage"
import { Context, type Effect, type Option } from "effect"

/**
 * How the document's company is kept. `filer`: a regulator's form names its filer as of its date
 * (the newest filing's name and ticker stand; an older one stored later renames nothing), with every
 * class of shares its cover lists. `new`: a transcript or release names a company the service did
 * not know, which is kept under the key the caller gave.
 */
export type CompanyRecord =
  | { readonly _tag: "filer"; readonly tickers: ReadonlyArray<Ids.Ticker> }
  | { readonly _tag: "new" }

/** What follows a document ingested whole: an 8-K's releases and decks, and the document's events. */
export interface Follow {
  /**
   * The submission the document was read from, when it was one: an 8-K's holds its press releases
   * and slide decks.
   */
  readonly submission: Option.Option<SgmlSubmission.Submission>
  /** The exhibits the parser read from the submission: releases and decks are made of their blocks. */
  readonly exhibits: ReadonlyArray<ParsedDocument.ParsedExhibit>
  /** When the regulator accepted the filing (ISO 8601), when known. */
  readonly acceptedAt?: string | undefined
  /** False for history (a backfill): the press releases are stored, no event is recorded. */
  readonly recordEvents: boolean
}

/** One document to store, with what to store beside it. */
export interface StoreRequest {
  /** The document as the document store keeps it. */
  readonly document: DocumentStore.StoredDocument
  /** How its company is kept; absent, the company store is not written. */
  readonly company?: CompanyRecord | undefined
  /**
   * The company's name now, for the feed item and events (the document keeps the name it was
   * filed under). Absent, it is read from the company store after the company is kept.
   */
  readonly currentName?: string | undefined
  /** What the extractor reads (`publicationId` is the document's); absent, no extraction is stored. */
  readonly extraction?: Omit<Extractor.ExtractInput, "publicationId"> | undefined
  /** When the document was published: its time in the feed. */
  readonly publishedAt: string
  /** The 8-K items its feed item speaks of; the document's own when absent (an exhibit's are its filing's). */
  readonly feedItems?: ReadonlyArray<string> | undefined
  /** What follows a document ingested whole: its releases, decks and events. Absent, nothing follows. */
  readonly follow?: Follow | undefined
}

/** What storing did: whether the document was new, and the company's name now. */
export interface Stored {
  /** Whether the document was new, or replaced one stored under its id. */
  readonly status: DocumentStore.SaveOutcome
  /** The company's name now, as the feed item and events speak of it. */
  readonly currentName: string
}

/** The sink's one method. */
export interface Service {
  /**
   * Stores the document and what goes with it. Fails with `UnstorableValue`, having stored nothing,
   * when the document store refuses the document's text; the caller says whose fault that is.
   */
  readonly store: (
    request: StoreRequest
  ) => Effect.Effect<Stored, StorageError.StorageError | StorageError.UnstorableValue>
}

export class DocumentSink extends Context.Tag("@filings/server/DocumentSink")<DocumentSink, Service>() {}
