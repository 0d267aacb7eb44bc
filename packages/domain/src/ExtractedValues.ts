/**
 * What the extractor finds in a filing, each shape declared once: the extractor returns these
 * values, the stores keep them, and the API serves them.
 *
 * A schema's type side is the camelCase value the code works with; its encoded side is the API's
 * snake_case JSON (`asOf` is written `as_of`). The wire schemas of `ExtractionApi` are built from these
 * fields, and a store that keeps the camelCase form as JSON reads it with `Schema.typeSchema`.
 *
 * @example
 * import { ExtractedValues } from "@filings/domain"
 * import { Schema } from "effect"
 *
 * const revenue: ExtractedValues.MetricValue = { value: 391_035_000_000, unit: "USD", period: "FY 2024", source: "us-gaap:Revenues" }
 * Schema.encodeSync(ExtractedValues.MetricValue)({ ...revenue, asOf: "2024-09-28" })
 * // { value: 391035000000, unit: "USD", period: "FY 2024", as_of: "2024-09-28", source: "us-gaap:Revenues" }
 *
 * @module
 */
import { Schema } from "effect"
import { IsoDate } from "./Dates.js"

/** A reported value: the number as the company reported it (scale applied, sign applied). */
export const MetricValue = Schema.Struct({
  value: Schema.Number,
  /** `USD` for money and per-share amounts, `shares` for share counts. */
  unit: Schema.String,
  /** The document's reporting period, `FY 2024` or `Q3 2024`, for every metric. */
  period: Schema.String,
  /** The instant (`2024-09-28`) a balance-sheet value or a share count is measured at; absent for flows. */
  asOf: Schema.optional(IsoDate).pipe(Schema.fromKey("as_of")),
  /** The change against the same period a year earlier, as a fraction; absent when not reported. */
  yoyChange: Schema.optional(Schema.Number).pipe(Schema.fromKey("yoy_change")),
  /** Where the value comes from: the concept (`us-gaap:Revenues`), a table, or `derived`. */
  source: Schema.String
})
export type MetricValue = typeof MetricValue.Type

/** The values of {@link TableType}: the four statements the extractor recognises, and `other`. */
export const TableTypes = ["income_statement", "balance_sheet", "cash_flow", "segment_revenue", "other"] as const
/** The conservative classification of a table; `other` for anything not clearly a statement. */
export const TableType = Schema.Literal(...TableTypes)
export type TableType = typeof TableType.Type

/** A table of a filing with its section, title, one header row, its rows, its unit and its type. */
export const Table = Schema.Struct({
  /** `t001`, `t002`, ... in body order; the same document always gives the same ids. */
  id: Schema.String,
  /** The heading or short caption just before the table, else the nearest heading, else the section. */
  title: Schema.String,
  /** The name of the section the table sits in; "" for text outside every section (the cover page). */
  section: Schema.String,
  /** One label per column; a multi-row header is joined (`Three Months Ended March 29, 2025`). */
  headers: Schema.Array(Schema.String),
  /** Body rows, each as wide as the headers (short rows are padded, with a warning). */
  rows: Schema.Array(Schema.Array(Schema.String)),
  /** `USD millions`, `USD thousands`, `USD` (amounts with `$`, no scale), `shares`, or "" when unknown. */
  unit: Schema.String,
  /** The unit statement as written when it has exceptions: `In millions, except per-share amounts`. */
  format: Schema.optional(Schema.String),
  tableType: TableType.pipe(Schema.propertySignature, Schema.fromKey("table_type"))
})
export type Table = typeof Table.Type

/** An exhibit the filing's exhibit index lists, with the API path that serves it. */
export const ExhibitReference = Schema.Struct({
  /** `3.1`, `10.1`, `31.1`, `101`. */
  number: Schema.String,
  /** The index's description without footnote marks or `Filed herewith`; else the document's title. */
  description: Schema.String,
  /**
   * `/v1/documents/<publication_id>?exhibit=<number>` when the exhibit's document is part of the
   * submission (and so stored with the filing); `null` for an exhibit the index lists but the
   * filing does not carry: one incorporated by reference, exhibit 104 (inside the primary
   * document), or any exhibit of a filing read from its primary document alone.
   */
  url: Schema.NullOr(Schema.String)
})
export type ExhibitReference = typeof ExhibitReference.Type

/** One `/s/` signer of a signature page. */
export const Signer = Schema.Struct({
  /** As signed, without the `/s/` mark. */
  name: Schema.String,
  /** The title under or beside the name, without the `(Principal ... Officer)` capacity note. */
  title: Schema.String
})
export type Signer = typeof Signer.Type

/** Who signed a filing and on which date. */
export const Signatures = Schema.Struct({
  /**
   * The date written on the signature page, ISO; absent when the page names its signers but no
   * date (the extractor warns), so that the signers are still kept.
   */
  signedDate: Schema.optionalWith(IsoDate, { exact: true }).pipe(Schema.fromKey("signed_date")),
  signers: Schema.Array(Signer)
})
export type Signatures = typeof Signatures.Type
