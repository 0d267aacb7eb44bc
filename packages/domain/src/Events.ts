/**
 * The payloads of webhook events: `{event, timestamp, data}`, with one data shape per event type.
 *
 * @module
 */
import { Schema } from "effect"
import { IsoDate, Timestamp } from "./Dates.js"
import { DocType } from "./DocType.js"
import { PublicationId, Ticker } from "./Ids.js"

export const FilingData = Schema.Struct({
  publication_id: PublicationId,
  ticker: Ticker,
  company_name: Schema.String,
  doc_type: DocType,
  title: Schema.String,
  filing_date: IsoDate,
  items: Schema.Array(Schema.String),
  url: Schema.String,
  sec_url: Schema.String
})

export const MaterialFilingData = Schema.Struct({
  ...FilingData.fields,
  material_items: Schema.Array(Schema.String)
})

export const EarningsCallData = Schema.Struct({
  publication_id: PublicationId,
  ticker: Ticker,
  company_name: Schema.String,
  doc_type: DocType,
  title: Schema.String,
  call_date: IsoDate,
  period: Schema.String,
  url: Schema.String
})

export const UpcomingEarningsCallData = Schema.Struct({
  ticker: Ticker,
  company_name: Schema.String,
  title: Schema.String,
  scheduled_at: Timestamp,
  period: Schema.String,
  source_publication_id: Schema.NullOr(Schema.String)
})

export const PressReleaseData = Schema.Struct({
  publication_id: Schema.String,
  ticker: Ticker,
  company_name: Schema.String,
  title: Schema.String,
  published_at: Timestamp,
  url: Schema.String,
  source_publication_id: Schema.NullOr(Schema.String)
})

const event = <E extends string, D extends Schema.Schema.Any>(name: E, data: D) =>
  Schema.Struct({ event: Schema.Literal(name), timestamp: Timestamp, data })

export const EventPayload = Schema.Union(
  event("filing.new", FilingData),
  event("filing.8k_material", MaterialFilingData),
  event("earnings_call.new", EarningsCallData),
  event("earnings_call.upcoming", UpcomingEarningsCallData),
  event("press_release.new", PressReleaseData)
)
export type EventPayload = typeof EventPayload.Type

/** The 8-K items whose presence makes a filing material. */
export const MaterialItems = ["1.01", "1.02", "2.01", "4.01", "5.01"] as const
