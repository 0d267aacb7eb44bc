/**
 * The pages of `POST /v1/feed`, in the order of `FeedStore.query` (newest first, then by id), read
 * two ways, each without a loss or a repeat:
 *
 * - **By cursor.** A page answered to a `cursor` starts right after the item the cursor names and
 *   holds up to `limit` items; it may end inside a group of items published at one instant, since
 *   the next cursor goes on from inside it.
 * - **By `end_date`**, as the specification pages: the client passes the oldest item's `date` (a
 *   timestamp) as the next `end_date` and gets the items strictly older. Items published at one
 *   instant would fall between two such pages, so a page answered without a cursor never ends
 *   inside such a group: it stops before it, and the group opens the next page; a group larger than
 *   `limit` comes whole, the one case where a page holds more than `limit` items.
 *   A date-only `end_date` takes its whole day in (it is inclusive), so a client that passes the
 *   oldest item's date back gets that day again: such a page holds every item of that day and at
 *   least the next older instant, so the next date is older and the client never loops (it sees the
 *   items of that one day twice, and loses none).
 *
 * Every page says whether more items follow (`hasMore`); the cursor of its last item is where the
 * next one starts, whichever way the client goes on.
 */
import type { FeedStore } from "@filings/storage"
import { Effect } from "effect"

/** A query without its limit and position: the filters a page reads. */
export type Filters = Omit<FeedStore.FeedQuery, "limit" | "after">

export interface Page {
  readonly items: ReadonlyArray<FeedStore.StoredFeedItem>
  /** Whether items follow the last one, for the same filters. */
  readonly hasMore: boolean
}

export type Query = FeedStore.Service["query"]

/** Items of one instant read at a time while completing a group that does not fit a page. */
const groupChunk = 100

const keyOf = (item: FeedStore.StoredFeedItem): FeedStore.FeedKey => ({
  publishedAtMillis: item.publishedAtMillis,
  id: item.id
})

/** Up to `limit` items after `after`: a cursor's page, free to end inside a group of one instant. */
export const afterCursor = (query: Query, filters: Filters, after: FeedStore.FeedKey, limit: number) =>
  Effect.map(query({ ...filters, after, limit: limit + 1 }), (found): Page => ({
    items: found.slice(0, limit),
    hasMore: found.length > limit
  }))

/**
 * The newest items up to `limit`, never ending inside a group published at one instant: the page
 * stops before a group that does not fit, unless the group opens the page, which then holds it whole.
 */
export const wholeInstants = (query: Query, filters: Filters, limit: number) =>
  Effect.gen(function*() {
    // One more than the page, to see whether the page would end inside a group of one instant.
    const found = yield* query({ ...filters, limit: limit + 1 })
    if (found.length <= limit) return { items: found, hasMore: false } satisfies Page
    const cut = found[limit - 1]!.publishedAtMillis
    if (found[limit]!.publishedAtMillis !== cut) return { items: found.slice(0, limit), hasMore: true } satisfies Page
    const groupStart = found.findIndex((item) => item.publishedAtMillis === cut)
    if (groupStart > 0) return { items: found.slice(0, groupStart), hasMore: true } satisfies Page
    // The page is one instant and more: read the rest of that instant, then whether anything follows.
    const group = [...found]
    for (;;) {
      const next = yield* query({ ...filters, after: keyOf(group[group.length - 1]!), limit: groupChunk })
      const sameInstant = next.filter((item) => item.publishedAtMillis === cut)
      group.push(...sameInstant)
      if (sameInstant.length < next.length) return { items: group, hasMore: true } satisfies Page
      if (next.length < groupChunk) return { items: group, hasMore: false } satisfies Page
    }
  })

const dayMillis = 86_400_000

/** Every item of a span of time, in order, read a bounded number at a time. */
const everyItem = (query: Query, filters: Filters) =>
  Effect.gen(function*() {
    const items: Array<FeedStore.StoredFeedItem> = []
    for (;;) {
      const last = items[items.length - 1]
      const next = yield* query({
        ...filters,
        ...(last === undefined ? {} : { after: keyOf(last) }),
        limit: groupChunk
      })
      items.push(...next)
      if (next.length < groupChunk) return items
    }
  })

/**
 * The page for a date-only `end_date` (`dayStartMillis` is the start of that day): every item of
 * that day, then older items up to `limit` in all, whole instants, at least one.
 */
export const throughDay = (query: Query, filters: Filters, dayStartMillis: number, limit: number) =>
  Effect.gen(function*() {
    const fromMillis = Math.max(filters.fromMillis ?? dayStartMillis, dayStartMillis)
    const day = yield* everyItem(query, { ...filters, fromMillis, beforeMillis: dayStartMillis + dayMillis })
    const older = yield* wholeInstants(
      query,
      { ...filters, beforeMillis: dayStartMillis },
      Math.max(limit - day.length, 1)
    )
    return { items: [...day, ...older.items], hasMore: older.hasMore } satisfies Page
  })
