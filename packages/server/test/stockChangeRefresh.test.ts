import { assert, describe, it } from "@effect/vitest"
import { FeedStore, MemoryStorage } from "@filings/storage"
import { sampleFeedItem } from "@filings/storage/testing"
import { Effect, Layer, Option, Ref, TestClock } from "effect"
import { refreshOnce } from "../src/feed/StockChangeRefresh.js"
import { type DailyClose, MarketData } from "../src/market/MarketData.js"

/** Closes the test adds to as sessions end. */
const knownCloses = Ref.unsafeMake<ReadonlyArray<DailyClose>>([
  // Enough for the week-old item's move, were it still looked at.
  { date: "2026-10-19", close: 50 },
  { date: "2026-10-20", close: 55 },
  { date: "2026-11-02", close: 100 }
])

const marketData = Layer.succeed(MarketData, {
  dailyCloses: (_ticker, fromDate, toDate) =>
    Effect.map(
      Ref.get(knownCloses),
      (closes) => closes.filter((close) => close.date >= fromDate && close.date <= toDate)
    )
})

describe("StockChangeRefresh", () => {
  it.effect("sets the move of an item once its session has closed, and leaves week-old items alone", () =>
    Effect.gen(function*() {
      const feed = yield* FeedStore.FeedStore
      // Published after the close of Monday, Nov 2: met by Tuesday's session.
      const item = sampleFeedItem({ stockChange: null, publishedAtMillis: Date.parse("2026-11-02T22:30:00.000Z") })
      const stale = sampleFeedItem({ stockChange: null, publishedAtMillis: Date.parse("2026-10-20T14:00:00.000Z") })
      yield* feed.save(item)
      yield* feed.save(stale)
      yield* TestClock.setTime(Date.parse("2026-11-03T18:00:00.000Z"))

      assert.strictEqual(yield* refreshOnce, 0, "Tuesday's session has not closed")
      assert.isNull(Option.getOrThrow(yield* feed.findById(item.id)).stockChange)

      yield* Ref.update(knownCloses, (closes) => [...closes, { date: "2026-11-03", close: 103.5 }])
      yield* TestClock.setTime(Date.parse("2026-11-03T22:00:00.000Z"))
      assert.strictEqual(yield* refreshOnce, 1)
      assert.deepStrictEqual(Option.getOrThrow(yield* feed.findById(item.id)).stockChange, {
        percentage: 3.5,
        direction: "up"
      })
      assert.isNull(Option.getOrThrow(yield* feed.findById(stale.id)).stockChange, "older than a week")
      assert.strictEqual(yield* refreshOnce, 0, "nothing left to do")
    }).pipe(Effect.provide(Layer.merge(MemoryStorage.layer, marketData))))
})
