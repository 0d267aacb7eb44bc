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

/** A fact's period: a day, or a span of days. */
export const FactPeriod = Schema.Union(
  Schema.Struct({ instant: Schema.String }),
  Schema.Struct({ start: Schema.String, end: Schema.String })
)
export type FactPeriod = typeof FactPeriod.Type

/** Where a fact is shown in the parsed document: the section and chunk of the block that tags it. */
export const FactLocation = Schema.Struct({
  /** The section's title; `null` outside every section. */
  section: Schema.NullOr(Schema.String),
  /** The chunk (passage) that holds the block: `GET /v1/documents/{id}/chunks/{chunk_id}`. */
  chunkId: Schema.String.pipe(Schema.propertySignature, Schema.fromKey("chunk_id")),
  /** The index of the block in the parsed document's `blocks`. */
  block: Schema.NonNegativeInt,
  /** In a table, the cell: its row and column in the table block's `rows`. */
  cell: Schema.optional(Schema.Struct({ row: Schema.NonNegativeInt, column: Schema.NonNegativeInt }))
})
export type FactLocation = typeof FactLocation.Type

/** One fact a filing tags in its XBRL. */
export const Fact = Schema.Struct({
  /** The concept, prefix as the filing writes it: `us-gaap:Revenues`, `dei:DocumentType`. */
  concept: Schema.String,
  /** The company's label (its label linkbase's terse, else standard label), else a readable form of the name. */
  label: Schema.String,
  /**
   * A number with scale and sign applied; a text fact's text (cut at a word after 1,000 characters,
   * `…` after) or the value its transformation gives (`2024-09-28`, `true`, `P5Y`); `null` when nil.
   */
  value: Schema.Union(Schema.Number, Schema.String, Schema.Null),
  /** For a text fact, the length of its whole text. */
  textLength: Schema.optional(Schema.Number).pipe(Schema.fromKey("text_length")),
  /** `USD`, `shares`, `USD/shares`; `null` for a text fact. */
  unit: Schema.NullOr(Schema.String),
  /** The precision the filer gave (`-6`: to the million), `"INF"` for exact, `null` when none. */
  decimals: Schema.Union(Schema.Number, Schema.Literal("INF"), Schema.Null),
  period: FactPeriod,
  /** Axis to member; empty for a total. */
  dimensions: Schema.Record({ key: Schema.String, value: Schema.String }),
  /** The `id` of the element that tags the fact, when it has one. */
  elementId: Schema.optional(Schema.String).pipe(Schema.fromKey("element_id")),
  /** Where the fact is shown, when it is located in the parsed document. */
  location: Schema.optional(FactLocation)
})
export type Fact = typeof Fact.Type
