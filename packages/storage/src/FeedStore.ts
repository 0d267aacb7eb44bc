/**
 * The feed store: one summarised item per document, news item or press release, written when the
 * document is ingested and read by `POST /v1/feed`. Saving is idempotent on the item's id (the
 * document's publication id, or the news item's id), so summarising a document again replaces its
 * item.
 *
 * An item changes only through `save` and `setStockChange`, and an item object a store has returned
 * is never changed afterwards: a changed item comes back as a new object, so a caller may keep what
 * it derives from a returned item beside it (the server's `caches/KeptEncodings`) and it is never
 * stale. An unchanged item may come back as the same object (the SQL adapter keeps the rows `query`
 * decoded by row version, PostgreSQL's `xmin`); that makes keeping worthwhile, and is not promised.
 *
 * @module
 */
import type { DocType, Ids } from "@filings/domain"
import { Feed } from "@filings/domain"
import { Context, type Effect, type Option, Schema } from "effect"
import type { StorageError } from "./StorageError.js"

/**
 * A highlight as stored: `Feed.Highlight` as its value is (`chunkId`), kept as JSON in that form
 * rather than the API's.
 */
export const StoredHighlight = Schema.typeSchema(Feed.Highlight)
export type StoredHighlight = typeof StoredHighlight.Type

/**
 * A feed item as stored: `Feed.FeedItem` with its id and publication time in place of its `date`.
 * Encoded, its keys are the SQL columns' (`published_at_ms`); the highlights and the stock move are
 * kept as JSON in their values' (camelCase) form.
 */
export const StoredFeedItem = Schema.Struct({
  ...Feed.FeedItem.fields,
  /** The document's publication id, or the news item's id. */
  id: Schema.String,
  /** When the document was published (a filing's acceptance time, else its filing date). */
  publishedAtMillis: Schema.Number.pipe(Schema.propertySignature, Schema.fromKey("published_at_ms")),
  /** Null until the market data of the session after publication is known (a NULL column). */
  stockChange: Schema.optionalWith(Schema.NullOr(Schema.Struct(Feed.StockChange.fields)), {
    default: () => null
  }).pipe(Schema.fromKey("stock_change")),
  highlights: Schema.Array(StoredHighlight)
}).omit("date")
export type StoredFeedItem = typeof StoredFeedItem.Type

/** Where an item stands in the feed's order: when it was published, and its id for ties. */
export interface FeedKey {
  readonly publishedAtMillis: number
  readonly id: string
}

/** Which items `query` reads: the companies' items, of these types, in a time range, after a key. */
export interface FeedQuery {
  /** At least one. */
  readonly tickers: ReadonlyArray<Ids.Ticker>
  readonly docTypes?: ReadonlyArray<DocType.FeedDocType> | undefined
  /** Items published at or after this instant. */
  readonly fromMillis?: number | undefined
  /** Items published before this instant (exclusive). */
  readonly beforeMillis?: number | undefined
  /**
   * Only the items after this key in the order of `query`: older, or published at the same instant
   * with a smaller id. A page that ended at an item goes on from its key, also inside a group of
   * items published at one instant.
   */
  readonly after?: FeedKey | undefined
  /** The most items returned. */
  readonly limit: number
}

/** Whether a save stored a new item or replaced the one with the same id. */
export type SaveOutcome = "created" | "updated"

/** An item whose stock move is not known yet: what a later look at the market needs. */
export interface PendingStockChange {
  readonly id: string
  readonly ticker: Ids.Ticker
  readonly publishedAtMillis: number
}

/**
 * What a feed store does. An unknown item id is none (or false), never an error; every operation
 * fails with `StorageError` when the backing store does.
 */
export interface Service {
  /** Stores the item, or replaces the one with the same id: `created` or `updated`. */
  readonly save: (item: StoredFeedItem) => Effect.Effect<SaveOutcome, StorageError>
  /** The item with this id, as saved last. */
  readonly findById: (id: string) => Effect.Effect<Option.Option<StoredFeedItem>, StorageError>
  /** The items with these ids, in no particular order; ids without an item are left out. */
  readonly findByIds: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<StoredFeedItem>, StorageError>
  /**
   * Items published at or after `publishedFromMillis` whose `stockChange` is null, newest first, at
   * most `limit`: those stored before the session that met them had closed.
   */
  readonly withoutStockChange: (
    options: { readonly publishedFromMillis: number; readonly limit: number }
  ) => Effect.Effect<ReadonlyArray<PendingStockChange>, StorageError>
  /** Sets an item's stock move; false when there is no such item. */
  readonly setStockChange: (
    id: string,
    stockChange: NonNullable<StoredFeedItem["stockChange"]>
  ) => Effect.Effect<boolean, StorageError>
  /**
   * Newest first; items published at the same instant by id, descending, so the order is total. The
   * items are never changed afterwards; a changed item is a new object (see the module comment).
   */
  readonly query: (query: FeedQuery) => Effect.Effect<ReadonlyArray<StoredFeedItem>, StorageError>
}

/**
 * The feed store as an Effect service, provided by `MemoryStorage.feedStore` or an adapter's layer.
 *
 * @example
 * ```ts
 * const feed = yield* FeedStore
 * const page = yield* feed.query({ tickers: [ticker], limit: 20 })
 * const last = page.at(-1)
 * const next = last === undefined ? [] : yield* feed.query({ tickers: [ticker], limit: 20, after: last })
 * ```
 */
export class FeedStore extends Context.Tag("@filings/storage/FeedStore")<FeedStore, Service>() {}

/** The order of `query`: newest first, then by id, descending. */
export const compareNewestFirst = (a: StoredFeedItem, b: StoredFeedItem): number =>
  b.publishedAtMillis - a.publishedAtMillis || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

/** Whether an item comes after a key in the order of `query`. */
export const isAfter = (key: FeedKey) => (item: FeedKey): boolean =>
  item.publishedAtMillis < key.publishedAtMillis ||
  (item.publishedAtMillis === key.publishedAtMillis && item.id < key.id)

/** Whether an item matches a query's filters (the limit aside). */
export const matchesQuery = (query: FeedQuery) => (item: StoredFeedItem): boolean =>
  query.tickers.includes(item.ticker) &&
  (query.docTypes === undefined || query.docTypes.includes(item.docType)) &&
  (query.fromMillis === undefined || item.publishedAtMillis >= query.fromMillis) &&
  (query.beforeMillis === undefined || item.publishedAtMillis < query.beforeMillis) &&
  (query.after === undefined || isAfter(query.after)(item))
