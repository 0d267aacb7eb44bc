// ExtractionStore on SQL: metrics and tables in tables of their own (indexed by metric and by
// table type), exhibits, signatures and warnings as JSON beside them; one transaction per save.
import { SqlClient } from "@effect/sql"
import type { Ids } from "@filings/domain"
import { DocumentStore, ExtractionStore } from "@filings/storage"
import { Effect, Option, Schema } from "effect"
import { jsonb } from "./jsonb.js"
import { firstRowAs, hitsPage, inDocumentOrder, rowsAs } from "./sqlRows.js"
import { failsAs } from "./storageErrors.js"

const metricColumns = "metric AS name, value, unit, period, as_of::text AS as_of, yoy_change, source"
const tableColumns = "table_id AS id, title, section, table_type, headers, rows, unit, format"

// A table's columns as one JSON object, for queries that read it beside its document's columns
// (both have a title).
const tableObject = `jsonb_build_object('id', t.table_id, 'title', t.title, 'section', t.section,
  'table_type', t.table_type, 'headers', t.headers, 'rows', t.rows, 'unit', t.unit, 'format', t.format)`

/** The JSON columns beside the metrics and tables: they hold the stored (camelCase) forms as they are. */
const ExtractionRow = Schema.typeSchema(ExtractionStore.StoredExtraction.pick("exhibits", "signatures", "warnings"))

/**
 * The document's columns of a series row: its period as `document_period`, since the metric beside
 * it has a period of its own.
 */
const SeriesDocument = Schema.Struct({
  ...DocumentStore.DocumentMetadata.pick("ticker", "companyName", "publicationId", "docType", "filingDate").fields,
  documentPeriod: DocumentStore.DocumentMetadata.fields.period.pipe(
    Schema.propertySignature,
    Schema.fromKey("document_period")
  )
})

const readMetrics = rowsAs(ExtractionStore.StoredMetric)
const readSeriesDocuments = rowsAs(SeriesDocument)
const readExtractionRow = firstRowAs(ExtractionRow)

/**
 * Series rows as points: each row's metric, and its document's columns read once per document (a
 * series holds thousands of rows, a few per document, and checking the same ids again costs).
 */
const toSeriesPoints = (rows: ReadonlyArray<{ readonly publication_id?: unknown }>) =>
  Effect.gen(function*() {
    const metrics = yield* readMetrics(Effect.succeed(rows))
    const firstRows = [...new Map(rows.map((row) => [row.publication_id, row])).values()]
    const documents = yield* readSeriesDocuments(Effect.succeed(firstRows))
    const byId = new Map(documents.map((document) => [document.publicationId as unknown, document]))
    return rows.map((row, index): ExtractionStore.MetricPoint => ({
      ...byId.get(row.publication_id)!,
      metric: metrics[index]!
    }))
  })

export const makeExtractionStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const findExtractionRow = (publicationId: Ids.PublicationId) =>
    sql`SELECT exhibits, signatures, warnings FROM document_extractions WHERE publication_id = ${publicationId}`
      .pipe(readExtractionRow)
  const findMetrics = inDocumentOrder(sql, ExtractionStore.StoredMetric, {
    table: "document_metrics",
    columns: metricColumns
  })
  const findTables = inDocumentOrder(sql, ExtractionStore.StoredTable, {
    table: "document_tables",
    columns: tableColumns
  })
  const tableHits = hitsPage(sql, ExtractionStore.StoredTable, {
    table: "document_tables",
    alias: "t",
    hit: tableObject
  })

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
      if (extraction.tables.length > 0) {
        // One statement for all of a document's tables (a 10-K has dozens), read from one JSON array.
        const rows = extraction.tables.map((table, position) => ({
          position,
          table_id: table.id,
          title: table.title,
          section: table.section,
          table_type: table.tableType,
          headers: table.headers,
          rows: table.rows,
          unit: table.unit,
          format: table.format ?? null
        }))
        yield* sql`
          INSERT INTO document_tables (publication_id, position, table_id, title, section, table_type, headers, rows,
            unit, format)
          SELECT ${publicationId}, r.position, r.table_id, r.title, r.section, r.table_type, r.headers, r.rows, r.unit,
            r.format
          FROM json_to_recordset(${jsonb(rows)}::json) AS r(position int, table_id text, title text, section text,
            table_type text, headers jsonb, rows jsonb, unit text, format text)`
      }
    })).pipe(failsAs("ExtractionStore.save"))

  const find = (publicationId: Ids.PublicationId) =>
    Effect.gen(function*() {
      const extraction = yield* findExtractionRow(publicationId)
      if (Option.isNone(extraction)) return Option.none()
      const metrics = yield* findMetrics(publicationId)
      const tables = yield* findTables(publicationId)
      return Option.some<ExtractionStore.StoredExtraction>({ ...extraction.value, metrics, tables })
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
      const rows = yield* sql`
        SELECT d.ticker, d.company_name, d.publication_id, d.doc_type, d.filing_date::text AS filing_date,
          d.period AS document_period, m.metric AS name, m.value, m.unit, m.period, m.as_of::text AS as_of,
          m.yoy_change, m.source
        FROM documents d
        CROSS JOIN LATERAL (
          SELECT metric, value, unit, period, as_of, yoy_change, source, position FROM document_metrics
          WHERE publication_id = d.publication_id AND metric IN ${sql.in(query.metrics)}
          OFFSET 0
        ) m
        WHERE ${sql.and(documentFilters(query))}
        ORDER BY d.filing_date, d.publication_id, m.position`
      return yield* toSeriesPoints(rows)
    }).pipe(failsAs("ExtractionStore.metricSeries"))

  const tables = (query: ExtractionStore.TableQuery) =>
    Effect.gen(function*() {
      if (query.tickers.length === 0 || query.docTypes.length === 0) return { results: [], total: 0 }
      const page = yield* tableHits({
        where: sql.and([
          ...documentFilters(query),
          ...(query.tableTypes === undefined ? [] : [sql`t.table_type IN ${sql.in(query.tableTypes)}`])
        ]),
        limit: query.limit,
        offset: query.offset
      })
      return { results: page.hits.map(({ document, hit }) => ({ document, table: hit })), total: page.total }
    }).pipe(failsAs("ExtractionStore.tables"))

  const service: ExtractionStore.Service = { save, find, metricSeries, tables }
  return service
})
