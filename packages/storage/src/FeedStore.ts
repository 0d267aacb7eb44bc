/**
 * The feed store: one summarised item per document, news item or press release, written when the
 * document is ingested and read by `POST /v1/feed`. Saving is idempotent on the item's id (the
 * document's publication id, or the news item's id), so summarising a document again replaces its
 * item.
 */
import type { DocType, Feed, Ids } from "@filings/domain"
import { Context, type Effect, type Option } from "effect"
import type { StorageError } from "./StorageError.js"

export interface StoredCitation {
  readonly source: string
  readonly chunkId: string
}

export interface StoredHighlight {
  readonly text: string
  readonly citations: ReadonlyArray<StoredCitation>
}

export interface StoredFeedItem {
  /** The document's publication id, or the news item's id. */
  readonly id: string
  readonly ticker: Ids.Ticker
  readonly companyName: string
  readonly title: string
  readonly docType: DocType.FeedDocType
  /** When the document was published (a filing's acceptance time, else its filing date). */
  readonly publishedAtMillis: number
  readonly categories: ReadonlyArray<Feed.Category>
  readonly sentiment: Feed.Sentiment
  readonly stockChange: { readonly percentage: number; readonly direction: "up" | "down" | "flat" } | null
  readonly highlights: ReadonlyArray<StoredHighlight>
  /** The summary model that wrote the highlights. */
  readonly model: string
}

export interface FeedQuery {
  /** At least one. */
  readonly tickers: ReadonlyArray<Ids.Ticker>
  readonly docTypes?: ReadonlyArray<DocType.FeedDocType> | undefined
  /** Items published at or after this instant. */
  readonly fromMillis?: number | undefined
  /** Items published before this instant (exclusive). */
  readonly beforeMillis?: number | undefined
  readonly limit: number
}

export type SaveOutcome = "created" | "updated"

export interface Service {
  readonly save: (item: StoredFeedItem) => Effect.Effect<SaveOutcome, StorageError>
  readonly findById: (id: string) => Effect.Effect<Option.Option<StoredFeedItem>, StorageError>
  /** Newest first; items published at the same instant by id, descending, so the order is total. */
  readonly query: (query: FeedQuery) => Effect.Effect<ReadonlyArray<StoredFeedItem>, StorageError>
}

export class FeedStore extends Context.Tag("@filings/storage/FeedStore")<FeedStore, Service>() {}

/** The order of `query`: newest first, then by id, descending. */
export const compareNewestFirst = (a: StoredFeedItem, b: StoredFeedItem): number =>
  b.publishedAtMillis - a.publishedAtMillis || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

/** Whether an item matches a query's filters (the limit aside). */
export const matchesQuery = (query: FeedQuery) => (item: StoredFeedItem): boolean =>
  query.tickers.includes(item.ticker) &&
  (query.docTypes === undefined || query.docTypes.includes(item.docType)) &&
  (query.fromMillis === undefined || item.publishedAtMillis >= query.fromMillis) &&
  (query.beforeMillis === undefined || item.publishedAtMillis < query.beforeMillis)
