/**
 * The shape of what the extractor finds in a filing: metrics with their units and periods,
 * classified tables, exhibit references and signatures, and the warnings met on the way.
 */
import { Schema } from "effect"

/** A reported value: the number as the company reported it (scale applied, sign applied). */
export const MetricValue = Schema.Struct({
  value: Schema.Number,
  /** `USD` for money and per-share amounts, `shares` for share counts. */
  unit: Schema.String,
  /** The document's reporting period, `FY 2024` or `Q3 2024`, for every metric. */
  period: Schema.String,
  /** The instant (`2024-09-28`) a balance-sheet value or a share count is measured at; absent for flows. */
  asOf: Schema.optional(Schema.String),
  /** The change against the same period a year earlier, as a fraction; absent when not reported. */
  yoyChange: Schema.optional(Schema.Number),
  /** Where the value comes from: the concept (`us-gaap:Revenues`), a table, or `derived`. */
  source: Schema.String
})
export type MetricValue = typeof MetricValue.Type
