/**
 * The extraction store: what the extractor found in each document (metrics, classified tables,
 * exhibit references, signatures), written at ingestion and read by the extract endpoints, for
 * one document or as series across many.
 */
import type { Dates, DocType as DocTypes, Ids } from "@filings/domain"
import { Context, type Effect, type Option } from "effect"
import type { DocumentMetadata } from "./DocumentStore.js"
import type { StorageError } from "./StorageError.js"

export interface StoredMetric {
  /** One of the API's metric names: `revenue`, `eps_diluted`, ... */
  readonly name: string
  readonly value: number
  readonly unit: string
  /**
   * The document's reporting period (`FY 2024`, `Q3 2024`). Extractions stored before balances got
   * `asOf` hold the balance's date here instead; readers present those with the document's period.
   */
  readonly period: string
  /** The date a balance or share count is measured at (ISO); absent for flows. */
  readonly asOf?: string | undefined
  readonly yoyChange?: number | undefined
  /** The XBRL concept, table or `derived`. */
  readonly source: string
}

export interface StoredTable {
  readonly id: string
  readonly title: string
  readonly section: string
  readonly tableType: "income_statement" | "balance_sheet" | "cash_flow" | "segment_revenue" | "other"
  readonly headers: ReadonlyArray<string>
  readonly rows: ReadonlyArray<ReadonlyArray<string>>
  readonly unit: string
  readonly format?: string | undefined
}

export interface StoredExhibitReference {
  readonly number: string
  readonly description: string
  /** The API path that serves the exhibit; null when the filing does not carry it. */
  readonly url: string | null
}

export interface StoredSignatures {
  readonly signedDate: Dates.IsoDate
  readonly signers: ReadonlyArray<{ readonly name: string; readonly title: string }>
}

export interface StoredExtraction {
  readonly metrics: ReadonlyArray<StoredMetric>
  readonly tables: ReadonlyArray<StoredTable>
  readonly exhibits: ReadonlyArray<StoredExhibitReference>
  readonly signatures?: StoredSignatures | undefined
  readonly warnings: ReadonlyArray<string>
}

export interface MetricSeriesQuery {
  readonly tickers: ReadonlyArray<Ids.Ticker>
  readonly metrics: ReadonlyArray<string>
  readonly docTypes: ReadonlyArray<DocTypes.DocType>
  readonly startDate?: Dates.IsoDate | undefined
  readonly endDate?: Dates.IsoDate | undefined
}

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

export interface TableQuery {
  readonly tickers: ReadonlyArray<Ids.Ticker>
  readonly docTypes: ReadonlyArray<DocTypes.DocType>
  /** All types when absent. */
  readonly tableTypes?: ReadonlyArray<StoredTable["tableType"]> | undefined
  readonly limit: number
  readonly offset: number
}

export interface TableHit {
  readonly document: DocumentMetadata
  readonly table: StoredTable
}

export interface Service {
  /** Replaces the extraction of a stored document (one transaction). */
  readonly save: (publicationId: Ids.PublicationId, extraction: StoredExtraction) => Effect.Effect<void, StorageError>
  readonly find: (publicationId: Ids.PublicationId) => Effect.Effect<Option.Option<StoredExtraction>, StorageError>
  /** Every stored value of the metrics for the companies, oldest filing first. */
  readonly metricSeries: (query: MetricSeriesQuery) => Effect.Effect<ReadonlyArray<MetricPoint>, StorageError>
  /** Tables of the companies' documents, newest filing first, then in document order. */
  readonly tables: (
    query: TableQuery
  ) => Effect.Effect<{ readonly results: ReadonlyArray<TableHit>; readonly total: number }, StorageError>
}

export class ExtractionStore extends Context.Tag("@filings/storage/ExtractionStore")<ExtractionStore, Service>() {}
