/**
 * A company's timeline, `GET /v1/companies/{ticker}/timeline`: its filings, press releases,
 * presentations, earnings calls, announced calls and news in one list, newest first, paged by cursor.
 *
 * @module
 */
import { Schema } from "effect"
import { IsoDate } from "./Dates.js"
import { DocType, type DocType as DocTypeValue } from "./DocType.js"
import { Highlight } from "./Feed.js"
import { CommaSeparated, IntegerInRange, mustBeOneOf } from "./QueryParams.js"

/**
 * The kinds of timeline entry: `filing` (10-K, 10-Q, 8-K, S-1, 6-K, 20-F, DEF 14A), `press_release`,
 * `presentation` (an 8-K's slide deck), `earnings_call` (a stored transcript), `upcoming_call` (a call
 * the company announced, from its `earnings_call.upcoming` event) and `news`.
 */
export const EntryTypes = [
  "filing",
  "press_release",
  "presentation",
  "earnings_call",
  "upcoming_call",
  "news"
] as const

/** One of {@link EntryTypes}; anything else is refused with a message listing them. */
export const EntryType = Schema.Literal(...EntryTypes).annotations({
  identifier: "TimelineEntryType",
  description: "Kind of timeline entry",
  message: mustBeOneOf(EntryTypes)
})
export type EntryType = typeof EntryType.Type

/** The entry type of a stored document: its own for transcripts, releases, decks and news, else `filing`. */
export const entryTypeOf = (docType: DocTypeValue): Exclude<EntryType, "upcoming_call"> => {
  switch (docType) {
    case "PRESS_RELEASE":
      return "press_release"
    case "PRESENTATION":
      return "presentation"
    case "EARNINGS_CALL":
      return "earnings_call"
    case "NEWS":
      return "news"
    default:
      return "filing"
  }
}

/** The most entries one page holds. */
export const MaxLimit = 100
/** The entries of a page when `limit` is not given. */
export const DefaultLimit = 50

/** Where a page ended, as the server wrote it in `next_cursor`: opaque to clients. */
export const TimelineCursor = Schema.String.pipe(
  Schema.maxLength(300, { message: () => "must be a next_cursor the timeline returned" }),
  Schema.annotations({
    identifier: "TimelineCursor",
    description: "The `next_cursor` of the previous page: the next page starts right after its last entry. Send it " +
      "with the same types, start_date and end_date as the request that returned it (limit may change); other " +
      "filters are refused (invalid_request)."
  })
)

/**
 * The query of the timeline: `types` (comma-separated {@link EntryTypes}; absent: all), `start_date`
 * and `end_date` (inclusive, on the entries' `date`), `limit` (1 to 100, default 50) and `cursor`.
 * A plain value (`startDate`, `endDate`); its encoded side, the URL's, names them `start_date` and
 * `end_date`.
 *
 * @example
 * import { Timeline } from "@filings/domain"
 * import { Schema } from "effect"
 *
 * Schema.decodeUnknownSync(Timeline.TimelineParams)({ types: "filing,press_release", start_date: "2025-01-01" })
 * // { types: ["filing", "press_release"], startDate: "2025-01-01" }
 */
export const TimelineParams = Schema.Struct({
  types: Schema.optionalWith(
    CommaSeparated(EntryType).annotations({
      jsonSchema: { type: "string", description: `Comma-separated entry types: ${EntryTypes.join(", ")}` }
    }),
    { exact: true }
  ),
  startDate: Schema.optionalWith(IsoDate, { exact: true }).pipe(Schema.fromKey("start_date")),
  endDate: Schema.optionalWith(IsoDate, { exact: true }).pipe(Schema.fromKey("end_date")),
  limit: Schema.optionalWith(IntegerInRange(1, MaxLimit), { exact: true }),
  cursor: Schema.optionalWith(TimelineCursor, { exact: true })
})
export type TimelineParams = typeof TimelineParams.Type

/**
 * One event of a company's life. `date` is a calendar date (`YYYY-MM-DD`) for every kind: a
 * document's filing date, or the New York date of an announced call's scheduled time (the regulator
 * dates filings in that calendar too). `publicationId` is the document's; for an `upcoming_call`
 * it is the press release that announced the call (null when none is known), and `docType` is null.
 * `items` are the items an 8-K reports (`Item 2.02`), empty for other entries. `highlight` is the
 * first highlight of the document's feed item with its citations, null where it has none. Encoded,
 * its keys are the API's (`publication_id`, `doc_type`).
 */
export class TimelineEntry extends Schema.Class<TimelineEntry>("TimelineEntry")({
  // Its own key: the JSON Schema of a class that renames fields keeps the descriptions of renamed ones only.
  date: Schema.propertySignature(IsoDate).annotations({
    description: "The filing date of a document; for an upcoming_call, the New York date of its scheduled time"
  }).pipe(Schema.fromKey("date")),
  type: EntryType,
  title: Schema.String,
  publicationId: Schema.NullOr(Schema.String).annotations({
    description: "The document; for an upcoming_call, the press release that announced it (null when unknown)"
  }).pipe(Schema.propertySignature, Schema.fromKey("publication_id")),
  docType: Schema.NullOr(DocType).annotations({ description: "The document's type; null for an upcoming_call" }).pipe(
    Schema.propertySignature,
    Schema.fromKey("doc_type")
  ),
  items: Schema.Array(Schema.String).annotations({
    description: "The items an 8-K reports (Item 2.02); empty for other entries"
  }),
  highlight: Schema.NullOr(Highlight).annotations({
    description: "The first highlight of the document's feed item, with its citations; null when it has none"
  })
}, { identifier: "TimelineEntry" }) {}

/**
 * A page of the timeline: `ticker` the company's current ticker (whichever of its tickers was asked),
 * `entries` newest first (entries of one date in a fixed order of their own), `hasMore` whether
 * entries follow, and `nextCursor` to ask for them (null at the end). Encoded, its keys are the API's
 * (`has_more`, `next_cursor`).
 */
export class TimelinePage extends Schema.Class<TimelinePage>("TimelinePage")({
  ticker: Schema.String,
  entries: Schema.Array(TimelineEntry),
  hasMore: Schema.Boolean.annotations({ description: "Whether more entries follow this page" }).pipe(
    Schema.propertySignature,
    Schema.fromKey("has_more")
  ),
  nextCursor: Schema.NullOr(Schema.String).annotations({
    description: "Send as `cursor` (with the same filters) for the entries after this page; null when none follow"
  }).pipe(Schema.propertySignature, Schema.fromKey("next_cursor"))
}, { identifier: "TimelinePage" }) {}
