/**
 * Paging `POST /v1/feed` over random feeds, on every storage adapter: feeds full of items published
 * at one instant (an 8-K and its exhibits), groups larger than a page among them, paged at random
 * limits from 1 to 100 by `cursor`, by the oldest item's `date` as the next `end_date`, and by that
 * date alone. Every way must give the whole feed, in order; the first two without a repeat.
 * The feeds come from a seeded generator, so a failure names the seed that reproduces it.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Feed, type Ids } from "@filings/domain"
import type { CompanyStore } from "@filings/storage"
import { FeedStore, MemoryStorage } from "@filings/storage"
import { SqlStorage, TestDatabase } from "@filings/storage-sql"
import { sampleFeedItem } from "@filings/storage/testing"
import { Effect, Layer, Redacted, Schema } from "effect"
import { adminUrl, adminUrlVariable } from "../../../test/support/adminUrl.js"
import { answer } from "../src/feed/FeedHandlers.js"

/** mulberry32: a small seeded generator, enough to draw feeds reproducibly. */
const generator = (seed: number) => {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
  return { next, int, pick: <A>(values: ReadonlyArray<A>): A => values[int(0, values.length - 1)]! }
}
type Generator = ReturnType<typeof generator>

const docTypes = ["8-K", "PRESS_RELEASE", "NEWS"] as const
const hourMillis = 3_600_000

interface RandomFeed {
  readonly seed: number
  readonly items: ReadonlyArray<FeedStore.StoredFeedItem>
  readonly request: { readonly tickers: ReadonlyArray<Ids.Ticker>; readonly doc_types?: ReadonlyArray<string> }
  /** The items the request asks for, in the feed's order. */
  readonly expected: ReadonlyArray<string>
}

/**
 * Groups of items at one instant, mostly small, some larger than most pages; from a millisecond to
 * a day and a half apart, so a day holds several instants and some days none.
 */
const randomFeed = (seed: number): RandomFeed => {
  const random = generator(seed)
  const tickers = [0, 1, 2].map((n) => `P${seed.toString(36).toUpperCase()}X${n}` as Ids.Ticker)
  const items: Array<FeedStore.StoredFeedItem> = []
  let at = Date.parse("2026-06-30T23:59:59.999Z")
  const groups = random.int(1, 40)
  for (let group = 0; group < groups; group++) {
    at -= random.pick([1, 1_000, hourMillis, 5 * hourMillis, 20 * hourMillis, 36 * hourMillis])
    const size = random.next() < 0.1 ? random.int(20, 130) : random.int(1, 4)
    for (let n = 0; n < size; n++) {
      items.push(sampleFeedItem({
        // Ids in no particular order within an instant: the tie-break must do the ordering.
        id: `p${seed}-${random.int(0, 0xffffff).toString(16).padStart(6, "0")}-${items.length}`,
        ticker: random.pick(tickers),
        docType: random.pick(docTypes),
        publishedAtMillis: at
      }))
    }
  }
  const asked = tickers.slice(0, 2)
  const typesAsked: ReadonlyArray<string> | undefined = random.next() < 0.3 ? docTypes.slice(0, 2) : undefined
  const expected = items
    .filter((item) => asked.includes(item.ticker) && (typesAsked === undefined || typesAsked.includes(item.docType)))
    .sort(FeedStore.compareNewestFirst)
    .map((item) => item.id)
  return {
    seed,
    items,
    request: { tickers: asked, ...(typesAsked === undefined ? {} : { doc_types: typesAsked }) },
    expected
  }
}

/** The most items the request finds at one instant. */
const largestInstant = (feed: RandomFeed) => {
  const counts = new Map<number, number>()
  for (const item of feed.items) {
    if (feed.expected.includes(item.id)) {
      counts.set(item.publishedAtMillis, (counts.get(item.publishedAtMillis) ?? 0) + 1)
    }
  }
  return Math.max(0, ...counts.values())
}

/** Half the limits small, where groups outgrow pages most. */
const randomLimit = (random: Generator) => random.next() < 0.5 ? random.int(1, 5) : random.int(1, 100)

/** The items' ids: the response carries no id, but each item's title is set to it. */
const idsOf = (response: Feed.FeedResponse) => response.items.map((item) => item.title)

/** A request as the API reads it from its body. */
const ask = (body: Record<string, unknown>) =>
  Schema.decodeUnknown(Feed.FeedRequest)(body).pipe(Effect.orDie, Effect.flatMap(answer))

/** A bound on requests, so that a walk that loops fails instead of hanging. */
const maxRequests = (feed: RandomFeed) => feed.expected.length + 3

/** Pages by `next_cursor` until `has_more` is false. */
const byCursor = (feed: RandomFeed, limit: number, context: string) =>
  Effect.gen(function*() {
    const seen: Array<string> = []
    let response = yield* ask({ ...feed.request, limit })
    for (let request = 1;; request++) {
      assert.isAtMost(request, maxRequests(feed), `${context}: loops`)
      const ids = idsOf(response)
      if (request > 1) assert.isTrue(ids.length >= 1 && ids.length <= limit, `${context}: ${ids.length} items`)
      seen.push(...ids)
      assert.strictEqual(response.next_cursor === null, !response.has_more, context)
      if (!response.has_more) break
      response = yield* ask({ ...feed.request, limit, cursor: response.next_cursor })
    }
    assert.deepStrictEqual(seen, feed.expected, context)
  })

/** Pages as the specification says, by the oldest item's `date`, until a page is empty. */
const byTimestamp = (feed: RandomFeed, limit: number, context: string) =>
  Effect.gen(function*() {
    const pages: Array<ReadonlyArray<Feed.FeedItem>> = []
    let endDate: string | undefined
    for (let request = 1;; request++) {
      assert.isAtMost(request, maxRequests(feed), `${context}: loops`)
      const response = yield* ask({ ...feed.request, limit, ...(endDate === undefined ? {} : { end_date: endDate }) })
      if (response.items.length === 0) {
        assert.isFalse(response.has_more, context)
        break
      }
      pages.push(response.items)
      const oldest = response.items[response.items.length - 1]!
      // More than `limit` only for one instant that alone outgrows the page.
      if (response.items.length > limit) {
        assert.isTrue(
          response.items.every((item) => item.date === oldest.date),
          `${context}: a page of several instants`
        )
      }
      endDate = oldest.date
    }
    // No page ends inside an instant: the next one starts strictly older.
    for (const [index, page] of pages.entries()) {
      const next = pages[index + 1]
      if (next !== undefined) assert.isTrue(next[0]!.date < page[page.length - 1]!.date, context)
    }
    assert.deepStrictEqual(pages.flat().map((item) => item.title), feed.expected, context)
  })

/**
 * Pages by the date alone of the oldest item, which is inclusive: the page answered holds that whole
 * day again and reaches older, so the dates go down on every request and nothing is lost.
 */
const byDate = (feed: RandomFeed, limit: number, context: string) =>
  Effect.gen(function*() {
    const seen = new Set<string>()
    let endDate: string | undefined
    for (let request = 1;; request++) {
      assert.isAtMost(request, maxRequests(feed), `${context}: loops`)
      const response = yield* ask({ ...feed.request, limit, ...(endDate === undefined ? {} : { end_date: endDate }) })
      for (const id of idsOf(response)) seen.add(id)
      if (!response.has_more) break
      const next = response.items[response.items.length - 1]!.date.slice(0, 10)
      if (endDate !== undefined) assert.isTrue(next < endDate, `${context}: ${next} after ${endDate}`)
      endDate = next
    }
    assert.deepStrictEqual(feed.expected.filter((id) => !seen.has(id)), [], `${context}: lost`)
    assert.strictEqual(seen.size, feed.expected.length, context)
  })

/** The same feeds on every adapter. */
const seeds = Array.from({ length: 12 }, (_, n) => n + 1)

const pagesEveryWay = (adapter: string) =>
  Effect.gen(function*() {
    const store = yield* FeedStore.FeedStore
    // How often a page met an instant larger than itself: the case the test is about.
    let outgrown = 0
    for (const seed of seeds) {
      const feed = randomFeed(seed)
      for (const item of feed.items) yield* store.save({ ...item, title: item.id })
      const random = generator(seed ^ 0x5eed)
      for (let round = 0; round < 2; round++) {
        const limit = randomLimit(random)
        outgrown += largestInstant(feed) > limit ? 1 : 0
        const context = `${adapter}, seed ${seed}, limit ${limit}, ${feed.expected.length} items`
        yield* byCursor(feed, limit, `${context}, by cursor`)
        yield* byTimestamp(feed, limit, `${context}, by end_date timestamp`)
        yield* byDate(feed, limit, `${context}, by end_date date`)
      }
    }
    assert.isAtLeast(outgrown, seeds.length / 2, "feeds with instants larger than the page")
  })

const adapters: Array<readonly [string, Layer.Layer<FeedStore.FeedStore | CompanyStore.CompanyStore, unknown>]> = [
  ["memory", MemoryStorage.layer],
  ["PGlite", SqlStorage.layer.pipe(Layer.provide(TestDatabase.layerPglite()))]
]
if (adminUrl !== undefined) {
  adapters.push([
    "PostgreSQL",
    SqlStorage.layer.pipe(Layer.provide(TestDatabase.layerPostgres(Redacted.make(adminUrl))))
  ])
} else {
  describe.skip(`feed paging on PostgreSQL (set ${adminUrlVariable} to run it)`, () => {})
}

for (const [adapter, storage] of adapters) {
  layer(storage, { timeout: 120_000 })(`feed paging on ${adapter}`, (it) => {
    it.effect(
      "pages random feeds by cursor, by timestamp and by date: the whole feed, in order",
      () => pagesEveryWay(adapter),
      { timeout: 300_000 }
    )
  })
}
