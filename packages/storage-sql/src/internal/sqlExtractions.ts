// ExtractionStore on SQL: metrics and tables in tables of their own (indexed by metric and by
// table type), exhibits, signatures and warnings as JSON beside them; one transaction per save.
import { SqlClient } from "@effect/sql"
import type { Dates, DocType, Ids } from "@filings/domain"
import type { ExtractionStore } from "@filings/storage"
import { Effect, Option } from "effect"
import { jsonb } from "./jsonb.js"
import { type MetadataRow, toMetadata } from "./sqlDocuments.js"
import { failsAs } from "./storageErrors.js"

interface MetricRow {
  readonly metric: string
  readonly value: number
  readonly unit: string
  readonly period: string
  readonly as_of: string | null
  readonly yoy_change: number | null
  readonly source: string
}

const toMetric = (row: MetricRow): ExtractionStore.StoredMetric => ({
  name: row.metric,
  value: row.value,
  unit: row.unit,
  period: row.period,
  ...(row.as_of === null ? {} : { asOf: row.as_of }),
  ...(row.yoy_change === null ? {} : { yoyChange: row.yoy_change }),
  source: row.source
})

interface TableRow {
  readonly table_id: string
  readonly table_title: string
  readonly section: string
  readonly table_type: ExtractionStore.StoredTable["tableType"]
  readonly headers: ReadonlyArray<string>
  readonly rows: ReadonlyArray<ReadonlyArray<string>>
  readonly unit: string
  readonly format: string | null
}

const toTable = (row: TableRow): ExtractionStore.StoredTable => ({
  id: row.table_id,
  title: row.table_title,
  section: row.section,
  tableType: row.table_type,
  headers: row.headers,
  rows: row.rows,
  unit: row.unit,
  ...(row.format === null ? {} : { format: row.format })
})

/** The document columns a series point needs: a series row repeats them once per value. */
interface SeriesRow {
  readonly ticker: string
  readonly company_name: string
  readonly publication_id: string
  readonly doc_type: string
  readonly filing_date: string
  readonly document_period: string
}

// Document columns under the names MetadataRow uses, for queries that join another table.
const documentColumns = `d.publication_id, d.ticker, d.company_name, d.cik, d.doc_type, d.title,
  d.filing_date::text AS filing_date, d.period, d.sec_url, d.word_count, d.items`

export const makeExtractionStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const save = (publicationId: Ids.PublicationId, extraction: ExtractionStore.StoredExtraction) =>
    sql.withTransaction(Effect.gen(function*() {
      yield* sql`
        INSERT INTO document_extractions (publication_id, exhibits, signatures, warnings)
        VALUES (${publicationId}, ${jsonb(extraction.exhibits)}::jsonb,
          ${extraction.signatures === undefined ? null : jsonb(extraction.signatures)}::jsonb,
          ${jsonb(extraction.warnings)}::jsonb)
        ON CONFLICT (publication_id) DO UPDATE SET
          exhibits = excluded.exhibits, signatures = excluded.signatures, warnings = excluded.warnings`
      yield* sql`DELETE FROM document_metrics WHERE publication_id = ${publicationId}`
      yield* sql`DELETE FROM document_tables WHERE publication_id = ${publicationId}`
      if (extraction.metrics.length > 0) {
        yield* sql`INSERT INTO document_metrics ${
          sql.insert(extraction.metrics.map((metric, position) => ({
            publication_id: publicationId,
            position,
            metric: metric.name,
            value: metric.value,
            unit: metric.unit,
            period: metric.period,
            as_of: metric.asOf ?? null,
            yoy_change: metric.yoyChange ?? null,
            source: metric.source
          })))
        }`
      }
      for (const [position, table] of extraction.tables.entries()) {
        yield* sql`
          INSERT INTO document_tables (publication_id, position, table_id, title, section, table_type, headers, rows,
            unit, format)
          VALUES (${publicationId}, ${position}, ${table.id}, ${table.title}, ${table.section}, ${table.tableType},
            ${jsonb(table.headers)}::jsonb, ${jsonb(table.rows)}::jsonb, ${table.unit}, ${table.format ?? null})`
      }
    })).pipe(failsAs("ExtractionStore.save"))

  const find = (publicationId: Ids.PublicationId) =>
    Effect.gen(function*() {
      const [extraction] = yield* sql<{
        readonly exhibits: ReadonlyArray<ExtractionStore.StoredExhibitReference>
        readonly signatures: ExtractionStore.StoredSignatures | null
        readonly warnings: ReadonlyArray<string>
      }>`SELECT exhibits, signatures, warnings FROM document_extractions WHERE publication_id = ${publicationId}`
      if (extraction === undefined) return Option.none()
      const metrics = yield* sql<MetricRow>`
        SELECT metric, value, unit, period, as_of::text AS as_of, yoy_change, source FROM document_metrics
        WHERE publication_id = ${publicationId} ORDER BY position`
      const tables = yield* sql<TableRow>`
        SELECT table_id, title AS table_title, section, table_type, headers, rows, unit, format FROM document_tables
        WHERE publication_id = ${publicationId} ORDER BY position`
      return Option.some<ExtractionStore.StoredExtraction>({
        metrics: metrics.map(toMetric),
        tables: tables.map(toTable),
        exhibits: extraction.exhibits,
        ...(extraction.signatures === null ? {} : { signatures: extraction.signatures }),
        warnings: extraction.warnings
      })
    }).pipe(failsAs("ExtractionStore.find"))

  const documentFilters = (query: {
    readonly tickers: ReadonlyArray<string>
    readonly docTypes: ReadonlyArray<string>
    readonly startDate?: string | undefined
    readonly endDate?: string | undefined
  }) => [
    sql`d.ticker IN ${sql.in(query.tickers)}`,
    sql`d.doc_type IN ${sql.in(query.docTypes)}`,
    ...(query.startDate === undefined ? [] : [sql`d.filing_date >= ${query.startDate}::date`]),
    ...(query.endDate === undefined ? [] : [sql`d.filing_date <= ${query.endDate}::date`])
  ]

  const metricSeries = (query: ExtractionStore.MetricSeriesQuery) =>
    Effect.gen(function*() {
      if (query.tickers.length === 0 || query.metrics.length === 0 || query.docTypes.length === 0) return []
      // Driven from the (few) matching documents: each one's metrics are read through the primary
      // key, rather than scanning every stored value of the metrics asked for. `OFFSET 0` keeps the
      // planner from flattening the lateral subquery back into a hash join over all of them.
      const rows = yield* sql<SeriesRow & MetricRow>`
        SELECT d.ticker, d.company_name, d.publication_id, d.doc_type, d.filing_date::text AS filing_date,
          d.period AS document_period, m.metric, m.value, m.unit, m.period, m.as_of::text AS as_of, m.yoy_change,
          m.source
        FROM documents d
        CROSS JOIN LATERAL (
          SELECT metric, value, unit, period, as_of, yoy_change, source, position FROM document_metrics
          WHERE publication_id = d.publication_id AND metric IN ${sql.in(query.metrics)}
          OFFSET 0
        ) m
        WHERE ${sql.and(documentFilters(query))}
        ORDER BY d.filing_date, d.publication_id, m.position`
      return rows.map((row): ExtractionStore.MetricPoint => ({
        ticker: row.ticker as Ids.Ticker,
        companyName: row.company_name,
        publicationId: row.publication_id as Ids.PublicationId,
        docType: row.doc_type as DocType.DocType,
        filingDate: row.filing_date as Dates.IsoDate,
        documentPeriod: row.document_period as Dates.Period,
        metric: toMetric(row)
      }))
    }).pipe(failsAs("ExtractionStore.metricSeries"))

  const tables = (query: ExtractionStore.TableQuery) =>
    Effect.gen(function*() {
      if (query.tickers.length === 0 || query.docTypes.length === 0) return { results: [], total: 0 }
      const where = sql.and([
        ...documentFilters(query),
        ...(query.tableTypes === undefined ? [] : [sql`t.table_type IN ${sql.in(query.tableTypes)}`])
      ])
      const rows = yield* sql<MetadataRow & TableRow & { readonly total: number }>`
        SELECT ${sql.literal(documentColumns)}, t.table_id, t.title AS table_title, t.section, t.table_type,
          t.headers, t.rows, t.unit, t.format, count(*) OVER ()::int AS total
        FROM document_tables t JOIN documents d USING (publication_id)
        WHERE ${where}
        ORDER BY d.filing_date DESC, d.publication_id DESC, t.position
        LIMIT ${query.limit} OFFSET ${query.offset}`
      if (rows[0] === undefined && query.offset > 0) {
        const [counted] = yield* sql<{ readonly total: number }>`
          SELECT count(*)::int AS total FROM document_tables t JOIN documents d USING (publication_id) WHERE ${where}`
        return { results: [], total: counted?.total ?? 0 }
      }
      return {
        results: rows.map((row) => ({ document: toMetadata(row), table: toTable(row) })),
        total: rows[0]?.total ?? 0
      }
    }).pipe(failsAs("ExtractionStore.tables"))

  const service: ExtractionStore.Service = { save, find, metricSeries, tables }
  return service
})
