/**
 * `POST /v1/feed`: the stored feed items of the asked tickers, newest first. It only reads; items
 * are written when their documents are stored.
 *
 * Paging follows the specification: the client passes the oldest item's `date` as the next
 * `end_date`, a timestamp, and gets the items strictly older. Items published at the very same
 * instant would fall between two pages that way, so a page never ends inside such a group: it
 * stops before the group, which then opens the next page whole (a page shorter than `limit` says
 * nothing about the end of the feed; an empty one does). Only a group larger than a whole page
 * must be cut, and then the page is full of it.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Api, ApiError, Feed } from "@filings/domain"
import { FeedStore } from "@filings/storage"
import { Clock, Effect } from "effect"
import { orServiceUnavailable } from "../http/StorageFailures.js"

const DefaultLimit = 50

const dayMillis = 86_400_000

/** `YYYY-MM-DD` of an instant, in UTC. */
const dateOf = (millis: number): string => new Date(millis).toISOString().slice(0, 10)

/** The start of a date, in UTC. */
const startOfDate = (date: string): number => Date.parse(`${date}T00:00:00.000Z`)

/** Where the items end: the day after an `end_date` date (it is inclusive), or exactly a timestamp (exclusive). */
const endBound = (endDate: string): number =>
  /^\d{4}-\d{2}-\d{2}$/.test(endDate) ? startOfDate(endDate) + dayMillis : Date.parse(endDate)

/** The page: at most `limit` items, never ending inside a group published at one instant unless it fills the page. */
export const pageOf = (
  found: ReadonlyArray<FeedStore.StoredFeedItem>,
  limit: number
): ReadonlyArray<FeedStore.StoredFeedItem> => {
  if (found.length <= limit) return found
  const cut = found[limit - 1]!.publishedAtMillis
  if (found[limit]!.publishedAtMillis !== cut) return found.slice(0, limit)
  const beforeGroup = found.slice(0, limit).filter((item) => item.publishedAtMillis !== cut)
  return beforeGroup.length > 0 ? beforeGroup : found.slice(0, limit)
}

// Stored items were valid when written and the response schema checks the answer as it is encoded,
// so the classes are built without validating each item, highlight and citation a second time.
const unchecked = { disableValidation: true } as const

const toFeedItem = (item: FeedStore.StoredFeedItem) =>
  new Feed.FeedItem({
    ticker: item.ticker,
    company_name: item.companyName,
    title: item.title,
    date: new Date(item.publishedAtMillis).toISOString(),
    doc_type: item.docType,
    categories: item.categories,
    stock_change: item.stockChange === null ? null : new Feed.StockChange(item.stockChange, unchecked),
    sentiment: item.sentiment,
    highlights: item.highlights.map((highlight) =>
      new Feed.Highlight({
        text: highlight.text,
        citations: highlight.citations.map((citation) =>
          new Feed.Citation({ source: citation.source, chunk_id: citation.chunkId }, unchecked)
        )
      }, unchecked)
    ),
    model: item.model
  }, unchecked)

export const layer = HttpApiBuilder.group(Api.FilingsApi, "feed", (handlers) =>
  Effect.gen(function*() {
    const store = yield* FeedStore.FeedStore

    const feed = Effect.fn("feed.feed")(function*(request: Feed.FeedRequest) {
      const limit = request.limit ?? DefaultLimit
      const fromMillis = request.start_date === undefined ? undefined : startOfDate(request.start_date)
      const beforeMillis = request.end_date === undefined ? undefined : endBound(request.end_date)
      if (fromMillis !== undefined && beforeMillis !== undefined && fromMillis >= beforeMillis) {
        return yield* new ApiError.InvalidRequest({
          message: `start_date ${request.start_date} is after end_date ${request.end_date}`
        })
      }
      // One more than the page, to see whether the page would end inside a group of one instant.
      const found = yield* store.query({
        tickers: request.tickers,
        docTypes: request.doc_types,
        fromMillis,
        beforeMillis,
        limit: limit + 1
      })
      const items = pageOf(found, limit)
      const newest = items[0]
      const oldest = items[items.length - 1]
      // With no item, the range is what was asked, today standing in for an open end.
      const today = dateOf(yield* Clock.currentTimeMillis)
      const askedEnd = request.end_date?.slice(0, 10) ?? today
      return new Feed.FeedResponse({
        items: items.map(toFeedItem),
        total_items: items.length,
        date_range: {
          start: oldest === undefined ? (request.start_date ?? askedEnd) : dateOf(oldest.publishedAtMillis),
          end: newest === undefined ? askedEnd : dateOf(newest.publishedAtMillis)
        }
      })
    })

    return handlers.handle("feed", ({ payload }) => orServiceUnavailable(feed(payload)))
  }))
