// The FeedStore part of the conformance suite: feed items, their order and paging.
import { assert, describe, type Vitest } from "@effect/vitest"
import { Array as Arr, Effect, Option } from "effect"
import { FeedStore, type StoredFeedItem } from "../FeedStore.js"
import type { Stores } from "../Stores.js"
import { sampleFeedItem, uniqueAccession, uniqueTicker } from "./conformanceSamples.js"

/** Registers the FeedStore tests on a layer's `it`. */
export const feedSuite = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("FeedStore", () => {
    it.effect("stores an item and reads every field back; saving the id again replaces it", () =>
      Effect.gen(function*() {
        const store = yield* FeedStore
        const item = sampleFeedItem({ ticker: uniqueTicker() })
        assert.strictEqual(yield* store.save(item), "created")
        assert.deepStrictEqual(yield* store.findById(item.id), Option.some(item))
        const replaced = {
          ...item,
          stockChange: null,
          highlights: [],
          categories: [],
          sentiment: "neutral" as const
        }
        assert.strictEqual(yield* store.save(replaced), "updated")
        assert.deepStrictEqual(yield* store.findById(item.id), Option.some(replaced))
        assert.deepStrictEqual(yield* store.query({ tickers: [item.ticker], limit: 10 }), [replaced])
        assert.isTrue(Option.isNone(yield* store.findById(uniqueAccession())))
      }))

    it.effect("finds the items of several ids at once, leaving out ids without an item", () =>
      Effect.gen(function*() {
        const store = yield* FeedStore
        const items = [sampleFeedItem({ ticker: uniqueTicker() }), sampleFeedItem({ ticker: uniqueTicker() })]
        yield* Effect.forEach(items, store.save)
        const found = yield* store.findByIds([items[1]!.id, uniqueAccession(), items[0]!.id, items[1]!.id])
        const byId = (a: StoredFeedItem, b: StoredFeedItem) => a.id.localeCompare(b.id)
        assert.deepStrictEqual([...found].sort(byId), [...items].sort(byId))
        assert.deepStrictEqual(yield* store.findByIds([]), [])
      }))

    it.effect("queries the asked tickers and types, newest first, ties by id, within the time bounds", () =>
      Effect.gen(function*() {
        const store = yield* FeedStore
        const [a, b, other] = [uniqueTicker(), uniqueTicker(), uniqueTicker()]
        const at = (day: number) => Date.parse(`2026-10-${String(day).padStart(2, "0")}T12:00:00.000Z`)
        const items = [
          sampleFeedItem({ id: "feed-a1", ticker: a, publishedAtMillis: at(1), docType: "8-K" }),
          sampleFeedItem({ id: "feed-a2", ticker: a, publishedAtMillis: at(2), docType: "EARNINGS_CALL" }),
          sampleFeedItem({ id: "feed-a3", ticker: a, publishedAtMillis: at(3), docType: "8-K" }),
          sampleFeedItem({ id: "feed-b2", ticker: b, publishedAtMillis: at(2), docType: "NEWS" }),
          sampleFeedItem({ id: "feed-b4", ticker: b, publishedAtMillis: at(4), docType: "8-K" }),
          sampleFeedItem({ id: "feed-o5", ticker: other, publishedAtMillis: at(5), docType: "8-K" })
        ]
        for (const item of items) yield* store.save(item)
        const ids = (found: ReadonlyArray<StoredFeedItem>) => found.map((item) => item.id)

        assert.deepStrictEqual(
          ids(yield* store.query({ tickers: [a, b], limit: 10 })),
          ["feed-b4", "feed-a3", "feed-b2", "feed-a2", "feed-a1"]
        )
        assert.deepStrictEqual(ids(yield* store.query({ tickers: [a, b], limit: 2 })), ["feed-b4", "feed-a3"])
        assert.deepStrictEqual(
          ids(yield* store.query({ tickers: [a, b], docTypes: ["8-K"], limit: 10 })),
          ["feed-b4", "feed-a3", "feed-a1"]
        )
        // From is inclusive, before exclusive.
        assert.deepStrictEqual(
          ids(yield* store.query({ tickers: [a, b], fromMillis: at(2), beforeMillis: at(4), limit: 10 })),
          ["feed-a3", "feed-b2", "feed-a2"]
        )
        assert.deepStrictEqual(ids(yield* store.query({ tickers: [uniqueTicker()], limit: 10 })), [])
      }))

    it.effect("goes on after a key, also inside a group published at one instant", () =>
      Effect.gen(function*() {
        const store = yield* FeedStore
        const [a, b] = [uniqueTicker(), uniqueTicker()]
        const at = (hour: number) => Date.parse(`2026-10-05T${String(hour).padStart(2, "0")}:00:00.000Z`)
        // Four items at 12:00 over two tickers (an 8-K and its exhibits), one before, one after.
        const items = [
          sampleFeedItem({ id: "key-e", ticker: a, publishedAtMillis: at(13) }),
          sampleFeedItem({ id: "key-d", ticker: b, publishedAtMillis: at(12) }),
          sampleFeedItem({ id: "key-c", ticker: a, publishedAtMillis: at(12) }),
          sampleFeedItem({ id: "key-b2", ticker: a, publishedAtMillis: at(12) }),
          sampleFeedItem({ id: "key-b10", ticker: b, publishedAtMillis: at(12) }),
          sampleFeedItem({ id: "key-a", ticker: b, publishedAtMillis: at(11) })
        ]
        for (const item of items) yield* store.save(item)
        const ids = (found: ReadonlyArray<StoredFeedItem>) => found.map((item) => item.id)
        const tickers = [a, b]
        const after = (id: string, hour: number) => ({ publishedAtMillis: at(hour), id })

        assert.deepStrictEqual(
          ids(yield* store.query({ tickers, limit: 10 })),
          ["key-e", "key-d", "key-c", "key-b2", "key-b10", "key-a"]
        )
        assert.deepStrictEqual(ids(yield* store.query({ tickers, after: after("key-d", 12), limit: 2 })), [
          "key-c",
          "key-b2"
        ])
        assert.deepStrictEqual(ids(yield* store.query({ tickers, after: after("key-b2", 12), limit: 10 })), [
          "key-b10",
          "key-a"
        ])
        // A key need not be an item's: the position is the time, then the id.
        assert.deepStrictEqual(ids(yield* store.query({ tickers, after: after("key-c0", 12), limit: 10 })), [
          "key-c",
          "key-b2",
          "key-b10",
          "key-a"
        ])
        assert.deepStrictEqual(
          ids(
            yield* store.query({ tickers: [b], docTypes: ["PRESS_RELEASE"], after: after("key-e", 13), limit: 10 })
          ),
          ["key-d", "key-b10", "key-a"]
        )
        // With the other bounds.
        assert.deepStrictEqual(
          ids(
            yield* store.query({
              tickers,
              after: after("key-c", 12),
              fromMillis: at(12),
              beforeMillis: at(13),
              limit: 10
            })
          ),
          ["key-b2", "key-b10"]
        )
        assert.deepStrictEqual(ids(yield* store.query({ tickers, after: after("key-a", 11), limit: 10 })), [])
      }))

    it.effect("lists the recent items without a stock move, and sets one", () =>
      Effect.gen(function*() {
        const store = yield* FeedStore
        const ticker = uniqueTicker()
        // Far in the future, so that other tests' items are older than the window.
        const at = (day: number) => Date.parse(`2099-03-${String(day).padStart(2, "0")}T21:00:00.000Z`)
        const old = sampleFeedItem({ ticker, stockChange: null, publishedAtMillis: at(1) })
        const pending = sampleFeedItem({ ticker, stockChange: null, publishedAtMillis: at(5) })
        const newer = sampleFeedItem({ ticker, stockChange: null, publishedAtMillis: at(6) })
        const known = sampleFeedItem({ ticker, publishedAtMillis: at(7) })
        for (const item of [old, pending, newer, known]) yield* store.save(item)
        const ids = (found: ReadonlyArray<{ readonly id: string }>) => found.map((item) => item.id)
        const waiting = yield* store.withoutStockChange({ publishedFromMillis: at(2), limit: 10 })
        assert.deepStrictEqual(waiting, [
          { id: newer.id, ticker, publishedAtMillis: at(6) },
          { id: pending.id, ticker, publishedAtMillis: at(5) }
        ])
        assert.deepStrictEqual(ids(yield* store.withoutStockChange({ publishedFromMillis: at(2), limit: 1 })), [
          newer.id
        ])

        assert.isTrue(yield* store.setStockChange(pending.id, { percentage: 1.25, direction: "down" }))
        assert.isFalse(yield* store.setStockChange(uniqueAccession(), { percentage: 1, direction: "up" }))
        assert.deepStrictEqual(
          Option.getOrThrow(yield* store.findById(pending.id)).stockChange,
          { percentage: 1.25, direction: "down" }
        )
        assert.deepStrictEqual(ids(yield* store.withoutStockChange({ publishedFromMillis: at(2), limit: 10 })), [
          newer.id
        ])
      }))

    it.effect("across many tickers, the page is the newest items of all of them", () =>
      Effect.gen(function*() {
        const store = yield* FeedStore
        const tickers = Arr.makeBy(12, () => uniqueTicker())
        const start = Date.parse("2026-01-01T00:00:00.000Z")
        // Ticker i publishes every 12 hours from hour i: the newest items rotate through all tickers.
        const items = tickers.flatMap((ticker, i) =>
          Arr.makeBy(8, (n) => sampleFeedItem({ ticker, publishedAtMillis: start + (i + 12 * n) * 3_600_000 }))
        )
        for (const item of items) yield* store.save(item)
        const expected = [...items].sort((x, y) => y.publishedAtMillis - x.publishedAtMillis).slice(0, 30)
        const page = yield* store.query({ tickers, limit: 30 })
        assert.deepStrictEqual(page.map((item) => item.id), expected.map((item) => item.id))
      }))
  })
}
