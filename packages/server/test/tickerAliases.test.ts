import { assert, describe, it } from "@effect/vitest"
import { Ids } from "@filings/domain"
import { CompanyStore, MemoryStorage } from "@filings/storage"
import { Effect, Layer } from "effect"
import * as TickerAliases from "../src/companies/TickerAliases.js"

// Ticker filters widened to every ticker of the company, with each ticker's widening kept for a
// while so that a reader filtering by ticker costs no read of the company store per request.

const ticker = Ids.Ticker.make
const cik = Ids.Cik.make

/** The memory company store, counting the widenings it is asked for. */
const countingStore = Effect.gen(function*() {
  const store = yield* CompanyStore.CompanyStore
  let reads = 0
  const counted: CompanyStore.Service = {
    ...store,
    aliasesOf: (tickers) => Effect.suspend(() => (reads++, store.aliasesOf(tickers)))
  }
  return { store, counted, reads: () => reads }
})

const withStore = <A, E>(effect: Effect.Effect<A, E, CompanyStore.CompanyStore>) =>
  Effect.provide(effect, Layer.fresh(MemoryStorage.companyStore))

describe("TickerAliases", () => {
  it.live("widens a ticker to every class of its company, the asked one first", () =>
    withStore(Effect.gen(function*() {
      const { counted, store } = yield* countingStore
      yield* store.upsert({
        cik: cik("0001652044"),
        ticker: ticker("GOOGL"),
        name: "Alphabet Inc.",
        tickers: [ticker("GOOGL"), ticker("GOOG")]
      })
      const aliases = yield* Effect.provideService(TickerAliases.make(), CompanyStore.CompanyStore, counted)
      assert.deepStrictEqual(yield* aliases.widen([ticker("GOOG")]), [ticker("GOOG"), ticker("GOOGL")])
      assert.deepStrictEqual(yield* aliases.widen([ticker("ZZZZ")]), [ticker("ZZZZ")])
      assert.strictEqual(yield* aliases.widenFilter(undefined), undefined)
    })))

  it.live(
    "reads the company store once per ticker within the lifetime, and again after it",
    () =>
      withStore(Effect.gen(function*() {
        const { counted, reads, store } = yield* countingStore
        yield* store.upsert({
          cik: cik("0001652044"),
          ticker: ticker("GOOGL"),
          name: "Alphabet Inc.",
          tickers: [ticker("GOOGL")]
        })
        const aliases = yield* Effect.provideService(
          TickerAliases.make({ lifetime: "200 millis" }),
          CompanyStore.CompanyStore,
          counted
        )
        assert.deepStrictEqual(yield* aliases.widen([ticker("GOOGL")]), [ticker("GOOGL")])
        assert.deepStrictEqual(yield* aliases.widen([ticker("GOOGL")]), [ticker("GOOGL")])
        assert.strictEqual(reads(), 1)
        // A filing names a second class: the filter finds it once the kept widening has expired.
        yield* store.upsert({
          cik: cik("0001652044"),
          ticker: ticker("GOOGL"),
          name: "Alphabet Inc.",
          tickers: [ticker("GOOGL"), ticker("GOOG")]
        })
        yield* Effect.sleep("250 millis")
        assert.deepStrictEqual(yield* aliases.widen([ticker("GOOGL")]), [ticker("GOOGL"), ticker("GOOG")])
        assert.strictEqual(reads(), 2)
        // A ticker not kept yet is read, with the others of the request.
        assert.deepStrictEqual(yield* aliases.widen([ticker("GOOGL"), ticker("MSFT")]), [
          ticker("GOOGL"),
          ticker("MSFT"),
          ticker("GOOG")
        ])
        assert.strictEqual(reads(), 3)
      })),
    { timeout: 10_000 }
  )
})
