/**
 * The API's schemas (requests, responses, query parameters) of structured data taken from a filing: the company's reported metrics, its classified tables,
 * exhibit references and signatures, for one document or as series across companies.
 *
 * @module
 */
import { Schema } from "effect"
import { IsoDate } from "./Dates.js"
import { DocType } from "./DocType.js"
import { DocumentMetadata, TickerList } from "./Document.js"
import * as ExtractedValues from "./ExtractedValues.js"
import { CommaSeparated, IntegerInRange, mustBeOneOf, NonNegativeInteger, OneOf } from "./QueryParams.js"

/**
 * The metrics the extractor looks for in a filing, by the names the API uses as keys of `metrics`.
 * A document has only those it reports; the others are absent, never zero.
 */
export const MetricNames = [
  "revenue",
  "net_income",
  "gross_profit",
  "operating_income",
  "eps_basic",
  "eps_diluted",
  "total_assets",
  "total_liabilities",
  "total_equity",
  "total_debt",
  "cash_and_equivalents",
  "shares_outstanding",
  "book_value_per_share"
] as const

/** A metric name a request may use: the listed names, plus `eps` as an alias of `eps_diluted`. */
export const RequestedMetricName = Schema.Literal(...MetricNames, "eps").annotations({
  message: mustBeOneOf([...MetricNames, "eps"])
})
export type RequestedMetricName = typeof RequestedMetricName.Type

export { TableType, TableTypes } from "./ExtractedValues.js"

/**
 * A metric of one document as served: the extracted value without its source. `period` is the
 * document's reporting period (`FY 2024`, `Q3 2024`) for every metric; `as_of`, an addition to the
 * spec's fields, is the date a balance or a share count is measured at.
 */
export class Metric extends Schema.Class<Metric>("Metric")(ExtractedValues.MetricValue.omit("source"), {
  identifier: "Metric"
}) {}

/** A table as served with its document (its type is the filter of `/v1/extract/tables`). */
export class Table
  extends Schema.Class<Table>("Table")(ExtractedValues.Table.omit("tableType"), { identifier: "Table" })
{}

/**
 * `url` serves the exhibit (`/v1/documents/<publication_id>?exhibit=<number>`); it is `null` when
 * the filing does not carry the exhibit (incorporated by reference, exhibit 104, or a filing
 * stored from its primary document only), a clarification of the spec's string.
 */
export class ExhibitReference
  extends Schema.Class<ExhibitReference>("ExhibitReference")(ExtractedValues.ExhibitReference, {
    identifier: "ExhibitReference"
  })
{}

/** A person who signed the filing: the name as signed and the title given with it. */
export class Signer extends Schema.Class<Signer>("Signer")(ExtractedValues.Signer, { identifier: "Signer" }) {}

/** The signature page of a filing as served: `signed_date` (`YYYY-MM-DD`) and who signed. */
export class Signatures extends Schema.Class<Signatures>("Signatures")({
  ...ExtractedValues.Signatures.fields,
  signers: Schema.Array(Signer)
}, { identifier: "Signatures" }) {}

/** The extraction of one document; fields that were not requested are left out. */
export class ExtractionResult extends Schema.Class<ExtractionResult>("ExtractionResult")({
  ...DocumentMetadata.pick("publicationId", "ticker", "docType", "filingDate", "period").fields,
  metrics: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Metric }), { exact: true }),
  tables: Schema.optionalWith(Schema.Array(Table), { exact: true }),
  exhibits: Schema.optionalWith(Schema.Array(ExhibitReference), { exact: true }),
  signatures: Schema.optionalWith(Signatures, { exact: true })
}, { identifier: "ExtractionResult" }) {}

/** What `fields` may ask of one document's extraction; `all`, the default, asks for all four. */
export const ExtractionField = OneOf("tables", "metrics", "exhibits", "signatures", "all")

/**
 * The query of `GET /v1/documents/{id}/extract`: `fields`, comma-separated {@link ExtractionField}
 * values (`metrics,tables`). Absent means `all`.
 */
export const ExtractParams = Schema.Struct({
  fields: Schema.optionalWith(CommaSeparated(ExtractionField), { exact: true })
})

/** A point of a series: `period` as on the document's metric, `as_of` (an addition) for balances. */
export class MetricDataPoint extends Schema.Class<MetricDataPoint>("MetricDataPoint")({
  ...ExtractedValues.MetricValue.pick("period", "asOf", "value").fields,
  filingDate: DocumentMetadata.fields.filingDate
}, { identifier: "MetricDataPoint" }) {}

/** One metric of a company over time: its unit (`USD`, `shares`) and its values, oldest filing first. */
export class MetricSeries extends Schema.Class<MetricSeries>("MetricSeries")({
  unit: ExtractedValues.MetricValue.fields.unit,
  data: Schema.Array(MetricDataPoint)
}) {}

/**
 * The metric series of one company, as `GET /v1/extract/metrics` returns them for a single ticker:
 * `metrics` maps each metric name asked for (`eps` stays `eps`) to its series; a metric with no
 * value in the range is left out.
 */
export class CompanyMetrics extends Schema.Class<CompanyMetrics>("CompanyMetrics")({
  ...DocumentMetadata.pick("ticker", "companyName").fields,
  metrics: Schema.Record({ key: Schema.String, value: MetricSeries })
}, { identifier: "CompanyMetrics" }) {}

/** Several tickers: one entry per ticker, in the order requested. */
export class CompanyMetricsList extends Schema.Class<CompanyMetricsList>("CompanyMetricsList")({
  results: Schema.Array(CompanyMetrics)
}) {}

/**
 * Which values a metric series keeps: `annual` fiscal-year values (`FY 2024`), `quarterly` quarter
 * values (`Q3 2024`), `all` (the default) both. A value with neither kind of period counts as annual
 * when it comes from a 10-K or 20-F and as quarterly from a 10-Q.
 */
export const Frequency = OneOf("annual", "quarterly", "all")

/**
 * The query of `GET /v1/extract/metrics`: `tickers` and `metrics` (both required, comma-separated),
 * `doc_types` (default `10-K,10-Q`), an inclusive filing-date range, and a {@link Frequency}.
 */
export const BulkMetricsParams = Schema.Struct({
  tickers: TickerList,
  metrics: CommaSeparated(RequestedMetricName),
  doc_types: Schema.optionalWith(CommaSeparated(DocType), { exact: true }),
  start_date: Schema.optionalWith(IsoDate, { exact: true }),
  end_date: Schema.optionalWith(IsoDate, { exact: true }),
  frequency: Schema.optionalWith(Frequency, { exact: true })
})

/** A table of `/v1/extract/tables`: its document's fields, its type, then the table itself. */
export class CompanyTable extends Schema.Class<CompanyTable>("CompanyTable")({
  ticker: DocumentMetadata.fields.ticker,
  companyName: DocumentMetadata.fields.companyName,
  publicationId: DocumentMetadata.fields.publicationId,
  docType: DocumentMetadata.fields.docType,
  filingDate: DocumentMetadata.fields.filingDate,
  period: DocumentMetadata.fields.period,
  tableType: ExtractedValues.Table.fields.tableType,
  ...ExtractedValues.Table.omit("tableType").fields
}, { identifier: "CompanyTable" }) {}

/** A page of tables: `total` counts every match, `limit` and `offset` say which page this is. */
export class CompanyTables extends Schema.Class<CompanyTables>("CompanyTables")({
  tables: Schema.Array(CompanyTable),
  total: Schema.Int,
  limit: Schema.Int,
  offset: Schema.Int
}) {}

/**
 * The `table_type` filter of `GET /v1/extract/tables`: one of the four statements, or `all` (the
 * default), which also returns tables of type `other`.
 */
export const RequestedTableType = OneOf("income_statement", "balance_sheet", "cash_flow", "segment_revenue", "all")

/**
 * `limit` and `offset` page the tables (default 50, at most 100, as on `/v1/documents`); they are
 * additions of this server to the parameters of the spec.
 */
export const BulkTablesParams = Schema.Struct({
  tickers: TickerList,
  table_type: Schema.optionalWith(RequestedTableType, { exact: true }),
  doc_types: Schema.optionalWith(CommaSeparated(DocType), { exact: true }),
  format: Schema.optionalWith(OneOf("json", "csv"), { exact: true }),
  limit: Schema.optionalWith(IntegerInRange(1, 100), { exact: true }),
  offset: Schema.optionalWith(NonNegativeInteger, { exact: true })
})
