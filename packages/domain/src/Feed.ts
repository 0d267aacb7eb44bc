/**
 * The feed: one summarised item per company document, news item or press release, with cited
 * highlights, categories and sentiment.
 *
 * @module
 */
import { Schema } from "effect"
import { IsoDate, IsoTimestamp, Timestamp } from "./Dates.js"
import { FeedDocType } from "./DocType.js"
import { Chunk, MaxTickersPerRequest } from "./Document.js"
import { Ticker } from "./Ids.js"
import { nonEmptyListMessage, wholeValueMessage } from "./QueryParams.js"

/** The categories of feed items, those of the specification; an item carries any number of them, assigned by its summary. */
export const Categories = [
  "Earnings",
  "Guidance Update",
  "New Projects/Investments",
  "Leadership Changes",
  "Product Launches",
  "Regulatory",
  "Mergers & Acquisitions",
  "Financial"
] as const
/** One of {@link Categories}, written as listed (`Mergers & Acquisitions`). */
export const Category = Schema.Literal(...Categories)
export type Category = typeof Category.Type

/** What an item means for the company's shareholders, as its summary judges it. */
export const Sentiment = Schema.Literal("positive", "negative", "neutral")
export type Sentiment = typeof Sentiment.Type

/** The close-to-close move of the stock: absolute percent (2.35 = 2.35 %) and a direction. */
export class StockChange extends Schema.Class<StockChange>("StockChange")({
  percentage: Schema.Number,
  direction: Schema.Literal("up", "down", "flat")
}) {}

/**
 * Where a highlight comes from: a document (or news item) id and one of its chunks. A plain value
 * (`{ source, chunkId }`); its JSON, the API's, names the chunk `chunk_id`.
 *
 * @example
 * ```ts
 * const citation = Feed.Citation.make({ source: "0000320193-24-000123", chunkId: "c0001" })
 * Schema.encodeSync(Feed.Citation)(citation) // { source: "0000320193-24-000123", chunk_id: "c0001" }
 * ```
 */
export const Citation = Schema.Struct({
  source: Schema.String,
  chunkId: Schema.String.pipe(Schema.propertySignature, Schema.fromKey("chunk_id"))
}).annotations({ identifier: "Citation" })
export type Citation = typeof Citation.Type

/**
 * A point of an item's summary (`text`) with the chunks of the source it rests on; every figure in
 * the text is stated in a chunk it cites. A plain value, encoded as the API's JSON.
 */
export const Highlight = Schema.Struct({
  text: Schema.String,
  citations: Schema.Array(Citation)
}).annotations({ identifier: "Highlight" })
export type Highlight = typeof Highlight.Type

/**
 * One summarised document, news item or press release. `date` is when it was published (UTC);
 * `stockChange` is the stock's close-to-close move across that time, `null` until the closes it
 * needs are known (or when no market data is configured). Encoded, its keys are the API's
 * (`company_name`, `stock_change`).
 */
export class FeedItem extends Schema.Class<FeedItem>("FeedItem")({
  ticker: Ticker,
  companyName: Schema.String.pipe(Schema.propertySignature, Schema.fromKey("company_name")),
  title: Schema.String,
  date: Timestamp,
  docType: FeedDocType.pipe(Schema.propertySignature, Schema.fromKey("doc_type")),
  categories: Schema.Array(Category),
  stockChange: Schema.NullOr(StockChange).pipe(Schema.propertySignature, Schema.fromKey("stock_change")),
  sentiment: Sentiment,
  highlights: Schema.Array(Highlight),
  /** The summary model that wrote the highlights: `extractive`, or `chat-completions:<model>`. */
  model: Schema.String
}, [undefined, undefined, { identifier: "FeedItem" }]) {}

/**
 * A passage of a document's body, as a citation or a search result names it:
 * `GET /v1/documents/{id}/chunks/{chunk_id}`, with the physical pages it lies on.
 */
export class DocumentChunk extends Schema.Class<DocumentChunk>("DocumentChunk")({
  publicationId: Schema.String.pipe(Schema.propertySignature, Schema.fromKey("publication_id")),
  chunkId: Chunk.fields.id.pipe(Schema.propertySignature, Schema.fromKey("chunk_id")),
  /** Markdown. */
  text: Chunk.fields.text,
  /** The section the chunk starts in; null when the document has no sections. */
  section: Schema.NullOr(Schema.String),
  ...Chunk.pick("pageStart", "pageEnd").fields
}, { identifier: "DocumentChunk" }) {}

/**
 * `end_date`: a date takes that whole day in (UTC), a timestamp only what is strictly older. See
 * `FeedRequest` for what each does to a page.
 */
export const FeedEndDate = Schema.Union(IsoDate, IsoTimestamp).annotations({
  message: wholeValueMessage((actual) =>
    `must be a date YYYY-MM-DD or an ISO 8601 timestamp, got ${JSON.stringify(actual)}`
  ),
  description: "A date YYYY-MM-DD (that whole day, UTC, included: the page then holds every item of that day and " +
    "at least the next older instant, so passing back the oldest item's date always moves on), or an ISO 8601 " +
    "timestamp (exclusive: only items strictly older; passing back the oldest item's `date` repeats and loses nothing)"
})

/** Where a page ended, as the server wrote it in `next_cursor`: opaque to clients. */
export const FeedCursor = Schema.String.pipe(
  Schema.maxLength(200, { message: () => "must be a next_cursor the feed returned" }),
  Schema.annotations({
    identifier: "FeedCursor",
    description: "The `next_cursor` of the previous page: the next page starts right after its last item, also " +
      "inside a group of items published at one instant. Send it with the same tickers, doc_types, start_date and " +
      "end_date as the request that returned it (limit may change); other filters are refused (invalid_request)."
  })
)

/**
 * The body of `POST /v1/feed`: `tickers` (required, 1 to 50), `doc_types` (absent: every feed type),
 * `start_date` (from the start of that day, UTC), `end_date` (see {@link FeedEndDate}), `limit`
 * (1 to 100, default 50) and `cursor` to go on from a page (see {@link FeedCursor}).
 *
 * @example
 * import { Feed } from "@filings/domain"
 * import { Schema } from "effect"
 *
 * Schema.decodeUnknownSync(Feed.FeedRequest)({ tickers: ["AAPL"], doc_types: ["8-K", "PRESS_RELEASE"], limit: 20 })
 */
export class FeedRequest extends Schema.Class<FeedRequest>("FeedRequest")({
  tickers: Schema.NonEmptyArray(Ticker).annotations({
    message: nonEmptyListMessage("must name at least one ticker, such as [\"AAPL\"]; got none")
  }).pipe(
    Schema.maxItems(MaxTickersPerRequest, { message: () => `must name at most ${MaxTickersPerRequest} tickers` })
  ),
  doc_types: Schema.optionalWith(Schema.Array(FeedDocType), { exact: true }),
  start_date: Schema.optionalWith(IsoDate, { exact: true }),
  end_date: Schema.optionalWith(FeedEndDate, { exact: true }),
  limit: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 100)), { exact: true }),
  cursor: Schema.optionalWith(FeedCursor, { exact: true })
}) {}

/**
 * A page of the feed: `items` newest first, `total_items` the number of items on this page, and
 * `date_range` the dates (`YYYY-MM-DD`, UTC) of its oldest and newest item, or the range asked for
 * when the page is empty.
 */
export class FeedResponse extends Schema.Class<FeedResponse>("FeedResponse")({
  items: Schema.Array(FeedItem),
  total_items: Schema.Number,
  date_range: Schema.Struct({ start: Schema.String, end: Schema.String }),
  /** Whether more items follow this page (for the same filters). */
  has_more: Schema.Boolean.annotations({ description: "Whether more items follow this page" }),
  /** Where to go on from, with `cursor`; null when nothing follows. */
  next_cursor: Schema.NullOr(Schema.String).annotations({
    description: "Send as `cursor` (with the same filters) for the items after this page; null when none follow"
  })
}) {}
