/**
 * The feed: one summarised item per company document, news item or press release, with cited
 * highlights, categories and sentiment.
 */
import { Schema } from "effect"
import { IsoDate, IsoTimestamp, Timestamp } from "./Dates.js"
import { FeedDocType } from "./DocType.js"
import { MaxTickersPerRequest } from "./Document.js"
import { Ticker } from "./Ids.js"

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
export const Category = Schema.Literal(...Categories)
export type Category = typeof Category.Type

export const Sentiment = Schema.Literal("positive", "negative", "neutral")
export type Sentiment = typeof Sentiment.Type

/** The close-to-close move of the stock: absolute percent (2.35 = 2.35 %) and a direction. */
export class StockChange extends Schema.Class<StockChange>("StockChange")({
  percentage: Schema.Number,
  direction: Schema.Literal("up", "down", "flat")
}) {}

/** Where a highlight comes from: a document (or news item) id and one of its chunks. */
export class Citation extends Schema.Class<Citation>("Citation")({
  source: Schema.String,
  chunk_id: Schema.String
}) {}

export class Highlight extends Schema.Class<Highlight>("Highlight")({
  text: Schema.String,
  citations: Schema.Array(Citation)
}) {}

export class FeedItem extends Schema.Class<FeedItem>("FeedItem")({
  ticker: Ticker,
  company_name: Schema.String,
  title: Schema.String,
  date: Timestamp,
  doc_type: FeedDocType,
  categories: Schema.Array(Category),
  stock_change: Schema.NullOr(StockChange),
  sentiment: Sentiment,
  highlights: Schema.Array(Highlight),
  /** The summary model that wrote the highlights: `extractive`, or `chat-completions:<model>`. */
  model: Schema.String
}) {}

/** A passage of a document's body, as a citation names it: `GET /v1/documents/{id}/chunks/{chunk_id}`. */
export class DocumentChunk extends Schema.Class<DocumentChunk>("DocumentChunk")({
  publication_id: Schema.String,
  chunk_id: Schema.String,
  /** Markdown. */
  text: Schema.String,
  /** The section the chunk starts in, when the document has sections. */
  section: Schema.NullOr(Schema.String)
}) {}

/** `end_date` also takes a timestamp, so a client can page without repeats. */
export const FeedEndDate = Schema.Union(IsoDate, IsoTimestamp).annotations({
  message: (issue) => `must be a date YYYY-MM-DD or an ISO 8601 timestamp, got ${JSON.stringify(issue.actual)}`
})

export class FeedRequest extends Schema.Class<FeedRequest>("FeedRequest")({
  tickers: Schema.NonEmptyArray(Ticker).pipe(Schema.maxItems(MaxTickersPerRequest)),
  doc_types: Schema.optionalWith(Schema.Array(FeedDocType), { exact: true }),
  start_date: Schema.optionalWith(IsoDate, { exact: true }),
  end_date: Schema.optionalWith(FeedEndDate, { exact: true }),
  limit: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 100)), { exact: true })
}) {}

export class FeedResponse extends Schema.Class<FeedResponse>("FeedResponse")({
  items: Schema.Array(FeedItem),
  total_items: Schema.Number,
  date_range: Schema.Struct({ start: Schema.String, end: Schema.String })
}) {}
