/**
 * `POST /v1/feed`: the stored feed items of the asked tickers, newest first. It only reads; items
 * are written when their documents are stored. How pages are cut, by `cursor` or by `end_date`, is
 * `FeedPages`; what a cursor holds is `FeedCursor`.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Api, ApiError, Feed } from "@filings/domain"
import { FeedStore } from "@filings/storage"
import { Clock, Effect, Either } from "effect"
import { keptEncoding } from "../caches/KeptEncodings.js"
import * as TickerAliases from "../companies/TickerAliases.js"
import { reversedRange } from "../http/DateRange.js"
import { pageAnswer } from "../http/EncodedJson.js"
import { orServiceUnavailable } from "../http/StorageFailures.js"
import * as FeedCursor from "./FeedCursor.js"
import * as FeedPages from "./FeedPages.js"

const DefaultLimit = 50

const dayMillis = 86_400_000

/** `YYYY-MM-DD` of an instant, in UTC. */
const dateOf = (millis: number): string => new Date(millis).toISOString().slice(0, 10)

/** The start of a date, in UTC. */
const startOfDate = (date: string): number => Date.parse(`${date}T00:00:00.000Z`)

const isDateOnly = (endDate: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(endDate)

/** Where the items end: the day after an `end_date` date (it is inclusive), or exactly a timestamp (exclusive). */
const endBound = (endDate: string): number =>
  isDateOnly(endDate) ? startOfDate(endDate) + dayMillis : Date.parse(endDate)

const cursorRefused = {
  "malformed": "cursor is not a next_cursor this feed returned",
  "other-filters": "cursor belongs to a request with other tickers, doc_types, start_date or end_date: send it " +
    "with the filters of the request that returned it, or leave cursor out to start from the newest item"
} as const

// Stored items were valid when written and the response schema checks the answer as it is encoded,
// so the item is built without validating it a second time. A stored item is the feed item with
// its id and publication time in place of its date.
const unchecked = { disableValidation: true } as const

export const toFeedItem = ({ id: _id, publishedAtMillis, stockChange, ...item }: FeedStore.StoredFeedItem) =>
  new Feed.FeedItem({
    ...item,
    date: new Date(publishedAtMillis).toISOString(),
    stockChange: stockChange === null ? null : new Feed.StockChange(stockChange, unchecked)
  }, unchecked)

// An item's JSON is kept beside the stored item it was made from (see `KeptEncodings`).
const feedItemJson = keptEncoding(Feed.FeedItem, toFeedItem)
const feedAnswer = pageAnswer(Feed.FeedResponse, "items")

/**
 * The page of one request: its stored items, and the answer around them (its `items` empty):
 * whether more follow, and where to go on from.
 */
const pageFor = Effect.fn("feed.feed")(function*(request: Feed.FeedRequest, aliases: TickerAliases.TickerAliases) {
  const store = yield* FeedStore.FeedStore
  const limit = request.limit ?? DefaultLimit
  const fromMillis = request.start_date === undefined ? undefined : startOfDate(request.start_date)
  const beforeMillis = request.end_date === undefined ? undefined : endBound(request.end_date)
  if (fromMillis !== undefined && beforeMillis !== undefined && fromMillis >= beforeMillis) {
    return yield* reversedRange(request.start_date, request.end_date)
  }
  const filters: FeedPages.Filters = {
    tickers: yield* aliases.widen(request.tickers),
    docTypes: request.doc_types,
    fromMillis
  }
  // The cursor belongs to the request as asked, not to its widened tickers.
  const filterFingerprint = FeedCursor.fingerprint(request)
  const page = yield* request.cursor !== undefined
    ? Either.match(FeedCursor.decode(request.cursor, filterFingerprint), {
      onLeft: (refusal) => new ApiError.InvalidRequest({ message: cursorRefused[refusal] }),
      onRight: (after) => FeedPages.afterCursor(store.query, { ...filters, beforeMillis }, after, limit)
    })
    : request.end_date !== undefined && isDateOnly(request.end_date)
    ? FeedPages.throughDay(store.query, filters, startOfDate(request.end_date), limit)
    : FeedPages.wholeInstants(store.query, { ...filters, beforeMillis }, limit)
  const items = page.items
  const newest = items[0]
  const oldest = items[items.length - 1]
  // With no item, the range is what was asked, today standing in for an open end.
  const today = dateOf(yield* Clock.currentTimeMillis)
  const askedEnd = request.end_date?.slice(0, 10) ?? today
  const envelope = new Feed.FeedResponse({
    items: [],
    total_items: items.length,
    date_range: {
      start: oldest === undefined ? (request.start_date ?? askedEnd) : dateOf(oldest.publishedAtMillis),
      end: newest === undefined ? askedEnd : dateOf(newest.publishedAtMillis)
    },
    has_more: page.hasMore && oldest !== undefined,
    next_cursor: page.hasMore && oldest !== undefined
      ? FeedCursor.encode({ publishedAtMillis: oldest.publishedAtMillis, id: oldest.id }, filterFingerprint)
      : null
  })
  return { items, envelope }
})

/** The answer to one request: its page, whether more follow, and where to go on from. */
export const answer = (request: Feed.FeedRequest) =>
  TickerAliases.make().pipe(
    Effect.flatMap((aliases) => pageFor(request, aliases)),
    Effect.map(({ envelope, items }) => new Feed.FeedResponse({ ...envelope, items: items.map(toFeedItem) }))
  )

export const layer = HttpApiBuilder.group(Api.FilingsApi, "feed", (handlers) =>
  Effect.map(
    // Built once, so the widenings it keeps serve every request (see `TickerAliases`).
    Effect.all([FeedStore.FeedStore, TickerAliases.make()]),
    ([store, aliases]) =>
      handlers.handle(
        "feed",
        ({ payload }) =>
          orServiceUnavailable(
            pageFor(payload, aliases).pipe(
              Effect.map(({ envelope, items }) => feedAnswer(envelope, items.map(feedItemJson))),
              Effect.provideService(FeedStore.FeedStore, store)
            )
          )
      )
  ))
