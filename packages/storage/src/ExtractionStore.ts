/**
 * The extraction store: what the extractor found in each document (metrics, classified tables,
 * exhibit references, signatures), written at ingestion and read by the extract endpoints, for
 * one document or as series across many.
 *
 * @module
 */
import { type Dates, type DocType as DocTypes, ExtractedValues, type Ids } from "@filings/domain"
import { Context, type Effect, type Option, Schema } from "effect"
import type { DocumentMetadata } from "./DocumentStore.js"
import type { StorageError } from "./StorageError.js"

/**
 * A stored metric: the extracted value (`ExtractedValues.MetricValue`) under one of the API's metric names
 * (`revenue`, `eps_diluted`, ...). Its `period` is the document's reporting period (`FY 2024`);
 * extractions stored before balances got `asOf` hold the balance's date there instead, and readers
 * present those with the document's period. Encoded, its keys are the SQL columns' (`as_of`).
 */
export const StoredMetric = Schema.Struct({
  name: Schema.String,
  ...ExtractedValues.MetricValue.fields
})
export type StoredMetric = typeof StoredMetric.Type

/**
 * Tables, exhibit references and signatures are stored as the extractor gives them: the shapes of
 * `@filings/domain`'s `Extracted` module (a stored signature's date is always a date).
 */
export {
  ExhibitReference as StoredExhibitReference,
  Signatures as StoredSignatures,
  Table as StoredTable
} from "@filings/domain/ExtractedValues"

/** What the extractor found in one document, as the store keeps it. */
export const StoredExtraction = Schema.Struct({
  metrics: Schema.Array(StoredMetric),
  tables: Schema.Array(ExtractedValues.Table),
  exhibits: Schema.Array(ExtractedValues.ExhibitReference),
  signatures: Schema.optional(ExtractedValues.Signatures),
  warnings: Schema.Array(Schema.String)
})
export type StoredExtraction = typeof StoredExtraction.Type

/** Which metric values `metricSeries` reads: the named metrics of the companies' documents of these types. */
export interface MetricSeriesQuery {
  readonly tickers: ReadonlyArray<Ids.Ticker>
  readonly metrics: ReadonlyArray<string>
  readonly docTypes: ReadonlyArray<DocTypes.DocType>
  /** Inclusive, on the filing date. */
  readonly startDate?: Dates.IsoDate | undefined
  /** Inclusive, on the filing date. */
  readonly endDate?: Dates.IsoDate | undefined
}

/** One stored value of a metric, with the document it was reported in. */
export interface MetricPoint {
  readonly ticker: Ids.Ticker
  readonly companyName: string
  readonly publicationId: Ids.PublicationId
  readonly docType: DocTypes.DocType
  readonly filingDate: Dates.IsoDate
  /** The document's own reporting period (`FY 2024`, `Q3 2024`). */
  readonly documentPeriod: Dates.Period
  readonly metric: StoredMetric
}

/** Which tables `tables` reads: those of the companies' documents of these types, one page. */
export interface TableQuery {
  readonly tickers: ReadonlyArray<Ids.Ticker>
  readonly docTypes: ReadonlyArray<DocTypes.DocType>
  /** All types when absent. */
  readonly tableTypes?: ReadonlyArray<ExtractedValues.TableType> | undefined
  readonly limit: number
  readonly offset: number
}

/** One table found by `tables`, with the metadata of its document. */
export interface TableHit {
  readonly document: DocumentMetadata
  readonly table: ExtractedValues.Table
}

/**
 * What an extraction store does. A document without a saved extraction is none, never an error;
 * every operation fails with `StorageError` when the backing store does.
 */
export interface Service {
  /** Stores, or replaces, the extraction of a stored document, in one transaction. */
  readonly save: (publicationId: Ids.PublicationId, extraction: StoredExtraction) => Effect.Effect<void, StorageError>
  /** The extraction saved last for the document, as it was given. */
  readonly find: (publicationId: Ids.PublicationId) => Effect.Effect<Option.Option<StoredExtraction>, StorageError>
  /** Every stored value of the metrics for the companies, oldest filing first. */
  readonly metricSeries: (query: MetricSeriesQuery) => Effect.Effect<ReadonlyArray<MetricPoint>, StorageError>
  /**
   * Tables of the companies' documents, newest filing first, then in document order, one page, with
   * the number of every match.
   */
  readonly tables: (
    query: TableQuery
  ) => Effect.Effect<{ readonly results: ReadonlyArray<TableHit>; readonly total: number }, StorageError>
}

/**
 * The extraction store as an Effect service, provided by `MemoryStorage.extractionStore` (over the
 * `DocumentStore` it is given) or an adapter's layer.
 */
export class ExtractionStore extends Context.Tag("@filings/storage/ExtractionStore")<ExtractionStore, Service>() {}
