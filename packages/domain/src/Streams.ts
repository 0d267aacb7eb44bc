/**
 * Live streams of events: `GET /v1/stream`, Server-Sent Events carrying what webhooks carry
 * (`filing.new`, `filing.8k_material`, `earnings_call.new`, `earnings_call.upcoming`,
 * `press_release.new`), with the same payloads and filters. Each event's `id:` is its sequence in
 * the event log, so a client that reconnects with `Last-Event-ID` (as every EventSource does)
 * gets every event it missed, in order, none twice.
 *
 * @module
 */
import { Schema } from "effect"
import { IsoTimestamp } from "./Dates.js"
import { DocType } from "./DocType.js"
import { TickerList } from "./Document.js"
import { CommaSeparated, NonNegativeInteger, Text } from "./QueryParams.js"
import { EventType } from "./Webhooks.js"

/** The streams one API key may hold open on one server at once, unless the operator says otherwise. */
export const DefaultStreamsPerKey = 5

/** Seconds between two heartbeat comments on an idle stream, unless the operator says otherwise. */
export const DefaultHeartbeatSeconds = 15

/**
 * The query of `GET /v1/stream`.
 *
 * - `events`: the event types wanted (comma-separated); absent, every type.
 * - `tickers`, `doc_types`: the filters of a webhook subscription; absent, everything.
 * - Where to start, when no `Last-Event-ID` header says it: `after` (a sequence: the events after
 *   it), else `since` (a timestamp: the events recorded at or after it), else from now on.
 * - `api_key`: the API key, for clients that cannot send `Authorization` (a browser's EventSource).
 *   The header is preferred: a key in a URL may be kept by proxies and browser history.
 *
 * @example
 * import { Streams } from "@filings/domain"
 * import { Schema } from "effect"
 *
 * Schema.decodeUnknownSync(Streams.StreamParams)({ events: "filing.new,filing.8k_material", tickers: "AAPL" })
 */
export const StreamParams = Schema.Struct({
  events: Schema.optionalWith(CommaSeparated(EventType), { exact: true }),
  tickers: Schema.optionalWith(TickerList, { exact: true }),
  doc_types: Schema.optionalWith(CommaSeparated(DocType), { exact: true }),
  after: Schema.optionalWith(NonNegativeInteger, { exact: true }),
  since: Schema.optionalWith(IsoTimestamp, { exact: true }),
  api_key: Schema.optionalWith(Text, { exact: true })
})
export type StreamParams = typeof StreamParams.Type

/**
 * The headers `GET /v1/stream` reads: `Last-Event-ID`, the `id:` of the last event the client
 * received, which EventSource sends by itself when it reconnects.
 */
export const StreamHeaders = Schema.Struct({
  "last-event-id": Schema.optionalWith(NonNegativeInteger, { exact: true })
})
export type StreamHeaders = typeof StreamHeaders.Type

/**
 * How the stream is written (the body of a `200 text/event-stream` answer), for the OpenAPI
 * document: comments keep the connection alive, and each event is an `id:`, an `event:` and one
 * `data:` line holding the payload a webhook delivery carries.
 */
export const EventStreamBody = Schema.String.annotations({
  identifier: "EventStream",
  description: "Server-Sent Events. Each event is written as\n\n" +
    "    id: 1042\n    event: filing.new\n    data: {\"event\":\"filing.new\",\"data\":{...}}\n\n" +
    "where id is the event's sequence in the log (send it back as Last-Event-ID to resume), event its type " +
    "and data the JSON payload a webhook delivery of it carries. A line starting with a colon is a comment: " +
    "the stream opens with one and sends one as a heartbeat when idle."
})
