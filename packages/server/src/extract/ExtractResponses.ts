/**
 * Stored extractions in their API shapes: the extraction of one document with only the fields
 * asked for, metric series per company, and tables as JSON or as tidy CSV.
 */
import { type Dates, ExtractionApi, type Ids } from "@filings/domain"
import type { DocumentStore, ExtractionStore } from "@filings/storage"

const trusted = { disableValidation: true } as const

export type Field = "tables" | "metrics" | "exhibits" | "signatures"
export const allFields: ReadonlyArray<Field> = ["tables", "metrics", "exhibits", "signatures"]

const storedDate = /^\d{4}-\d{2}-\d{2}$/

/**
 * A stored metric's `period` and `as_of` as served. Extractions stored before balances carried
 * `as_of` hold the balance's date in `period`: they are served with the document's own period and
 * that date as `as_of`, without rewriting what is stored.
 */
export const servedPeriod = (
  metric: ExtractionStore.StoredMetric,
  documentPeriod: Dates.Period
): { readonly period: string; readonly asOf?: Dates.IsoDate } => {
  if (metric.asOf !== undefined) return { period: metric.period, asOf: metric.asOf }
  if (storedDate.test(metric.period)) return { period: documentPeriod, asOf: metric.period }
  return { period: metric.period }
}

const toMetric = (metric: ExtractionStore.StoredMetric, documentPeriod: Dates.Period) =>
  new ExtractionApi.Metric({
    value: metric.value,
    unit: metric.unit,
    ...servedPeriod(metric, documentPeriod),
    ...(metric.yoyChange === undefined ? {} : { yoyChange: metric.yoyChange })
  }, trusted)

/** One document's extraction; fields not asked for are left out. */
export const toExtractionResult = (
  document: DocumentStore.DocumentMetadata,
  extraction: ExtractionStore.StoredExtraction,
  fields: ReadonlyArray<Field>
) =>
  new ExtractionApi.ExtractionResult({
    publicationId: document.publicationId,
    ticker: document.ticker,
    docType: document.docType,
    filingDate: document.filingDate,
    period: document.period,
    ...(fields.includes("metrics")
      ? {
        metrics: Object.fromEntries(
          extraction.metrics.map((metric) => [metric.name, toMetric(metric, document.period)])
        )
      }
      : {}),
    ...(fields.includes("tables")
      ? { tables: extraction.tables.map((table) => new ExtractionApi.Table(table, trusted)) }
      : {}),
    ...(fields.includes("exhibits")
      ? { exhibits: extraction.exhibits.map((exhibit) => new ExtractionApi.ExhibitReference(exhibit, trusted)) }
      : {}),
    ...(fields.includes("signatures") && extraction.signatures !== undefined
      ? {
        signatures: new ExtractionApi.Signatures({
          ...(extraction.signatures.signedDate === undefined ? {} : { signedDate: extraction.signatures.signedDate }),
          signers: extraction.signatures.signers.map((signer) => new ExtractionApi.Signer(signer, trusted))
        }, trusted)
      }
      : {})
  }, trusted)

/**
 * The series of one company: for each metric asked for (under the name asked for, so `eps` stays
 * `eps`), its points in filing order. A metric with no point is left out.
 *
 * A series response holds thousands of points built from stored, typed values, and encoding them
 * through the response schema costs more than the query: this builds the schema's encoded side
 * (the JSON as sent) directly, typed by `CompanyMetrics.Encoded` so the keys cannot drift from it.
 */
export const toCompanyMetrics = (
  ticker: Ids.Ticker,
  companyName: string,
  requested: ReadonlyArray<{ readonly asked: string; readonly stored: string }>,
  points: ReadonlyArray<ExtractionStore.MetricPoint>
): typeof ExtractionApi.CompanyMetrics.Encoded => ({
  ticker,
  company_name: companyName,
  metrics: Object.fromEntries(
    requested.flatMap(({ asked, stored }) => {
      const series = points.filter((point) => point.metric.name === stored)
      if (series.length === 0) return []
      const encodedSeries: typeof ExtractionApi.MetricSeries.Encoded = {
        unit: series[0]!.metric.unit,
        data: series.map((point) => {
          const { asOf, period } = servedPeriod(point.metric, point.documentPeriod)
          return {
            period,
            ...(asOf === undefined ? {} : { as_of: asOf }),
            value: point.metric.value,
            filing_date: point.filingDate
          }
        })
      }
      return [[asked, encodedSeries]]
    })
  )
})

const csvCell = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, "\"\"")}"` : value)

const csvHeader = [
  "ticker",
  "publication_id",
  "filing_date",
  "period",
  "table_type",
  "table_id",
  "table_title",
  "unit",
  "row_label",
  "column",
  "value"
]

/**
 * Tables in the tidy long format: one line per cell, the row's first cell as its label and the
 * header of the cell's column as the column (RFC 4180 quoting, CRLF line ends).
 */
export const toCsv = (hits: ReadonlyArray<ExtractionStore.TableHit>): string => {
  const lines = [csvHeader.join(",")]
  for (const { document, table } of hits) {
    for (const row of table.rows) {
      const label = row[0] ?? ""
      row.forEach((value, column) => {
        if (column === 0) return
        lines.push(
          [
            document.ticker,
            document.publicationId,
            document.filingDate,
            document.period,
            table.tableType,
            table.id,
            table.title,
            table.unit,
            label,
            table.headers[column] ?? `column ${column}`,
            value
          ].map(csvCell).join(",")
        )
      })
    }
  }
  return `${lines.join("\r\n")}\r\n`
}
