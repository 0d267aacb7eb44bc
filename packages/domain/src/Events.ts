/**
 * The payloads of webhook events: `{event, timestamp, data}`, with one data shape per event type.
 *
 * @module
 */
import { Schema } from "effect"
import { IsoDate, Timestamp } from "./Dates.js"
import { DocType } from "./DocType.js"
import { PublicationId, Ticker } from "./Ids.js"

/**
 * The `data` of `filing.new`: the filing's metadata, `items` the 8-K items it reports (`Item 2.02`;
 * empty for other forms), `url` its path under the API and `sec_url` its page in the regulator's archive.
 */
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

/**
 * The `data` of `filing.8k_material`: the fields of `filing.new` plus `material_items`, the reported
 * items among {@link MaterialItems}, in the filing's order (`Item 1.01`).
 */
export const MaterialFilingData = Schema.Struct({
  ...FilingData.fields,
  material_items: Schema.Array(Schema.String)
})

/**
 * The `data` of `earnings_call.new`: the stored transcript, `call_date` the day of the call and
 * `period` the quarter or year it discusses (`Q3 2024`).
 */
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

/**
 * The `data` of `earnings_call.upcoming`, sent about a day before the call (at once when the call is
 * announced less than a day ahead): `scheduled_at` the call's time in UTC, and
 * `source_publication_id` the press release that announced it (null when none is known).
 */
export const UpcomingEarningsCallData = Schema.Struct({
  ticker: Ticker,
  company_name: Schema.String,
  title: Schema.String,
  scheduled_at: Timestamp,
  period: Schema.String,
  source_publication_id: Schema.NullOr(Schema.String)
})

/**
 * The `data` of `press_release.new`: a press release filed as an 8-K exhibit and stored as a document
 * of its own (`publication_id` like `0000320193-24-000123-ex99.1`); `published_at` is when it was
 * published, `source_publication_id` the filing that carries it.
 */
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

/**
 * The JSON body of a webhook delivery: `event` (the event type), `timestamp` (when the event was
 * recorded) and `data`, whose shape the event type decides. Decoding narrows on `event`.
 *
 * @example
 * import { Events } from "@filings/domain"
 * import { Schema } from "effect"
 *
 * const payload = Schema.decodeUnknownSync(Events.EventPayload)(JSON.parse(body))
 * if (payload.event === "filing.8k_material") console.log(payload.data.material_items)
 */
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
