/**
 * Market data for the feed's `stock_change`: the session rule (before or after the New York close,
 * weekends, daylight saving time), rounding, the CSV and HTTP adapters against a real file and a real
 * local server, and the choice of adapter from configuration.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { assert, describe, it } from "@effect/vitest"
import {
  Cause,
  ConfigError,
  ConfigProvider,
  Effect,
  Either,
  Exit,
  Fiber,
  Layer,
  Logger,
  Option,
  Redacted,
  Ref,
  TestClock
} from "effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Composition from "../src/Composition.js"
import * as CachedMarketData from "../src/market/CachedMarketData.js"
import * as CsvMarketData from "../src/market/CsvMarketData.js"
import * as HttpMarketData from "../src/market/HttpMarketData.js"
import * as MarketData from "../src/market/MarketData.js"
import { type QuoteProvider, startQuoteProvider } from "./support/quoteProvider.js"

/** `closes("2025-01-29", 100, "2025-01-30", 103)`: daily closes from date, price pairs. */
const closes = (...pairs: ReadonlyArray<string | number>): Array<MarketData.DailyClose> => {
  const days: Array<MarketData.DailyClose> = []
  for (let index = 0; index < pairs.length; index += 2) {
    days.push({ date: String(pairs[index]), close: Number(pairs[index + 1]) })
  }
  return days
}

const at = (instant: string): number => Date.parse(instant)

const move = (percentage: number, direction: "up" | "down" | "flat"): MarketData.StockChange => ({
  percentage,
  direction
})

/** Messages logged at warning level while `effect` runs. */
const withWarnings = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const warnings = yield* Ref.make<ReadonlyArray<string>>([])
    const logger = Logger.make(({ logLevel, message }) => {
      if (logLevel._tag !== "Warning") return
      const text = Array.isArray(message) ? message.map(String).join(" ") : String(message)
      Effect.runSync(Ref.update(warnings, (all) => [...all, text]))
    })
    const result = yield* Effect.provide(effect, Logger.replace(Logger.defaultLogger, logger))
    return { result, warnings: yield* Ref.get(warnings) }
  })

const failureOf = <A, E>(exit: Exit.Exit<A, E>): E => {
  if (Exit.isSuccess(exit)) return assert.fail("expected a failure, got a success")
  const failure = Cause.failureOption(exit.cause)
  return Option.isSome(failure) ? failure.value : assert.fail(`expected a typed failure: ${Cause.pretty(exit.cause)}`)
}

/** A temporary directory for the scope. */
const temporaryDirectory = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "filings-market-"))),
  (directory) => Effect.sync(() => rmSync(directory, { recursive: true, force: true }))
)

const writeFile = (directory: string, name: string, text: string): string => {
  const path = join(directory, name)
  writeFileSync(path, text)
  return path
}

describe("stockChangeOn", () => {
  // Thursday, Friday of a week in winter (EST, UTC-5).
  const week = closes("2025-01-29", 100, "2025-01-30", 103, "2025-01-31", 99)

  it("takes the day's own move when published on a trading day before the close", () => {
    // 10:00 and 15:59 New York.
    assert.deepStrictEqual(MarketData.stockChangeOn(week, at("2025-01-30T15:00:00Z")), move(3, "up"))
    assert.deepStrictEqual(MarketData.stockChangeOn(week, at("2025-01-30T20:59:59Z")), move(3, "up"))
    // Before the opening counts too: the session has not traded on it yet.
    assert.deepStrictEqual(MarketData.stockChangeOn(week, at("2025-01-30T12:00:00Z")), move(3, "up"))
  })

  it("takes the next trading day's move when published at or after the close", () => {
    // 16:00 and 16:30 New York: Friday's close 99 against Thursday's 103, -3.8835 %.
    assert.deepStrictEqual(MarketData.stockChangeOn(week, at("2025-01-30T21:00:00Z")), move(3.88, "down"))
    assert.deepStrictEqual(MarketData.stockChangeOn(week, at("2025-01-30T21:30:00Z")), move(3.88, "down"))
    // 23:30 New York is already the next day in UTC; the New York date decides.
    assert.deepStrictEqual(MarketData.stockChangeOn(week, at("2025-01-31T04:30:00Z")), move(3.88, "down"))
  })

  it("takes Monday's move for a weekend publication, and skips holidays", () => {
    const weekend = closes("2025-01-31", 100, "2025-02-03", 101.5)
    assert.deepStrictEqual(MarketData.stockChangeOn(weekend, at("2025-02-01T15:00:00Z")), move(1.5, "up"))
    // A filing known only by its date is stamped midnight UTC: Sunday 19:00 in New York, so Monday.
    assert.deepStrictEqual(MarketData.stockChangeOn(weekend, at("2025-02-03T00:00:00Z")), move(1.5, "up"))
    // Thursday 3 July after the close; Friday 4 July has no session, so Monday 7 July reacts.
    const holiday = closes("2025-07-02", 50, "2025-07-03", 50, "2025-07-07", 49)
    assert.deepStrictEqual(MarketData.stockChangeOn(holiday, at("2025-07-03T20:30:00Z")), move(2, "down"))
  })

  it("follows New York's clock across the start of daylight saving time (9 March 2025)", () => {
    const march = closes("2025-03-06", 100, "2025-03-07", 101, "2025-03-10", 103.02, "2025-03-11", 100.9596)
    // Friday 20:30 UTC is 15:30 EST: before the close, Friday's move.
    assert.deepStrictEqual(MarketData.stockChangeOn(march, at("2025-03-07T20:30:00Z")), move(1, "up"))
    // Monday 19:59 UTC is 15:59 EDT: before the close, Monday's move.
    assert.deepStrictEqual(MarketData.stockChangeOn(march, at("2025-03-10T19:59:00Z")), move(2, "up"))
    // Monday 20:30 UTC is 16:30 EDT: after the close, Tuesday's move.
    assert.deepStrictEqual(MarketData.stockChangeOn(march, at("2025-03-10T20:30:00Z")), move(2, "down"))
  })

  it("follows New York's clock across the end of daylight saving time (2 November 2025)", () => {
    const november = closes("2025-10-30", 100, "2025-10-31", 104, "2025-11-03", 101.4, "2025-11-04", 102.414)
    // Friday 20:30 UTC is 16:30 EDT: after the close, Monday's move.
    assert.deepStrictEqual(MarketData.stockChangeOn(november, at("2025-10-31T20:30:00Z")), move(2.5, "down"))
    // Friday 19:30 UTC is 15:30 EDT: Friday's move.
    assert.deepStrictEqual(MarketData.stockChangeOn(november, at("2025-10-31T19:30:00Z")), move(4, "up"))
    // Monday 20:30 UTC is 15:30 EST: before the close, Monday's move.
    assert.deepStrictEqual(MarketData.stockChangeOn(november, at("2025-11-03T20:30:00Z")), move(2.5, "down"))
    // Monday 21:00 UTC is 16:00 EST: after the close, Tuesday's move.
    assert.deepStrictEqual(MarketData.stockChangeOn(november, at("2025-11-03T21:00:00Z")), move(1, "up"))
  })

  it("is null when a close it needs is missing", () => {
    const twoDays = closes("2025-01-29", 100, "2025-01-30", 103)
    // After Thursday's close, Friday has not happened yet.
    assert.isNull(MarketData.stockChangeOn(twoDays, at("2025-01-30T21:30:00Z")))
    // Friday morning, Friday's close is not known yet.
    assert.isNull(MarketData.stockChangeOn(twoDays, at("2025-01-31T15:00:00Z")))
    // No close before the reacting session.
    assert.isNull(MarketData.stockChangeOn(twoDays, at("2025-01-29T15:00:00Z")))
    assert.isNull(MarketData.stockChangeOn([], at("2025-01-30T15:00:00Z")))
    assert.isNull(MarketData.stockChangeOn(twoDays, Number.NaN))
  })

  it("is flat when the move rounds to 0, and rounds half up to 2 decimals", () => {
    assert.deepStrictEqual(
      MarketData.stockChangeOn(closes("2025-01-29", 100, "2025-01-30", 100), at("2025-01-30T15:00:00Z")),
      move(0, "flat")
    )
    assert.deepStrictEqual(
      MarketData.stockChangeOn(closes("2025-01-29", 100, "2025-01-30", 100.004), at("2025-01-30T15:00:00Z")),
      move(0, "flat")
    )
    // Each of these is exactly 2.345 % in decimal, 2.34499... in binary floating point.
    const cases: ReadonlyArray<readonly [number, number, MarketData.StockChange]> = [
      [100, 102.345, move(2.35, "up")],
      [200, 204.69, move(2.35, "up")],
      [200, 195.31, move(2.35, "down")],
      [100, 100.005, move(0.01, "up")]
    ]
    for (const [previous, close, expected] of cases) {
      const change = MarketData.stockChangeOn(
        closes("2025-01-29", previous, "2025-01-30", close),
        at("2025-01-30T15:00:00Z")
      )
      assert.deepStrictEqual(change, expected, `${previous} → ${close}`)
    }
  })

  it("does not depend on the order of the closes", () => {
    const shuffled = closes("2025-01-31", 99, "2025-01-29", 100, "2025-01-30", 103)
    assert.deepStrictEqual(MarketData.stockChangeOn(shuffled, at("2025-01-30T21:30:00Z")), move(3.88, "down"))
  })
})

describe("stockChangeFor", () => {
  const published = at("2025-01-30T15:00:00Z")

  it.effect("is null without market data", () =>
    Effect.gen(function*() {
      assert.isNull(yield* MarketData.stockChangeFor("AAPL", published))
    }).pipe(Effect.provide(MarketData.none)))

  it.effect("asks for a window around the New York publication date and applies the rule", () =>
    Effect.gen(function*() {
      const asked: Array<ReadonlyArray<string>> = []
      const recording = Layer.succeed(MarketData.MarketData, {
        dailyCloses: (ticker, fromDate, toDate) => {
          asked.push([ticker, fromDate, toDate])
          return Effect.succeed(closes("2025-01-29", 100, "2025-01-30", 103))
        }
      })
      const change = yield* MarketData.stockChangeFor("AAPL", published).pipe(Effect.provide(recording))
      assert.deepStrictEqual(change, move(3, "up"))
      assert.deepStrictEqual(asked, [["AAPL", "2025-01-20", "2025-02-06"]])
    }))

  it.effect("logs a provider's failure or defect as a warning and gives null", () =>
    Effect.gen(function*() {
      const failing = Layer.succeed(MarketData.MarketData, {
        dailyCloses: (ticker) => new MarketData.MarketDataError({ ticker, provider: "http", reason: "HTTP 503" })
      })
      const failed = yield* withWarnings(MarketData.stockChangeFor("AAPL", published).pipe(Effect.provide(failing)))
      assert.isNull(failed.result)
      assert.deepStrictEqual(failed.warnings, [
        "stock change unknown: daily closes of AAPL from the http market-data provider: HTTP 503"
      ])

      const broken = Layer.succeed(MarketData.MarketData, { dailyCloses: () => Effect.die("boom") })
      const died = yield* withWarnings(MarketData.stockChangeFor("AAPL", published).pipe(Effect.provide(broken)))
      assert.isNull(died.result)
      assert.lengthOf(died.warnings, 1)
      assert.include(died.warnings[0], "stock change of AAPL unknown")
    }))
})

describe("CsvMarketData", () => {
  const goodAndBad = [
    "\uFEFFDate,Close,Ticker,Adj_Close",
    "2025-01-29,100,aapl,90",
    "2025-01-30,\"103.00\",AAPL,93",
    "",
    "2025-01-31,99,AAPL,89",
    "2025-01-30,410.5,MSFT,400",
    "2025-01-31,,MSFT,400",
    "2025-02-30,412,MSFT,401",
    "2025-02-03,-5,MSFT,401",
    "2025-02-03,abc,MSFT,401",
    "2025-02-03,415,not a ticker!,401",
    "2025-01-30,104,AAPL,94",
    "2025-02-03"
  ].join("\r\n")

  it("reads columns in any order and case, using close rather than adj_close, and lists bad rows", () => {
    const parsed = Either.getOrThrow(CsvMarketData.parse(goodAndBad))
    assert.deepStrictEqual(parsed.closes.get("AAPL"), closes("2025-01-29", 100, "2025-01-30", 103, "2025-01-31", 99))
    assert.deepStrictEqual(parsed.closes.get("MSFT"), closes("2025-01-30", 410.5))
    assert.deepStrictEqual(parsed.badRows, [
      { line: 7, reason: "\"\" is not a positive price" },
      { line: 8, reason: "\"2025-02-30\" is not a date YYYY-MM-DD" },
      { line: 9, reason: "\"-5\" is not a positive price" },
      { line: 10, reason: "\"abc\" is not a positive price" },
      { line: 11, reason: "\"not a ticker!\" is not a ticker" },
      { line: 12, reason: "a second close for AAPL on 2025-01-30" },
      { line: 13, reason: "\"\" is not a ticker" }
    ])
  })

  it("refuses a file without the required columns", () => {
    assert.deepStrictEqual(
      CsvMarketData.parse("symbol,date,close\nAAPL,2025-01-30,1\n"),
      Either.left(
        "the first line must name the columns ticker, date and close; ticker missing in \"symbol,date,close\""
      )
    )
    assert.isTrue(Either.isLeft(CsvMarketData.parse("\n\n")))
  })

  it.scoped("loads a file once, warns about its bad rows, and answers a ticker's closes in a window", () =>
    Effect.gen(function*() {
      const directory = yield* temporaryDirectory
      const path = writeFile(directory, "closes.csv", goodAndBad)
      const { result: marketData, warnings } = yield* withWarnings(
        MarketData.MarketData.pipe(Effect.provide(CsvMarketData.layer(path).pipe(Layer.provide(NodeFileSystem.layer))))
      )
      assert.lengthOf(warnings, 1)
      assert.include(warnings[0], `market-data file ${path}: 7 bad rows skipped (line 7: `)
      assert.include(warnings[0], "line 8: ")
      assert.include(warnings[0], "line 11: ")
      assert.notInclude(warnings[0], "line 12")
      assert.isTrue(warnings[0]!.endsWith("; ...)"))

      assert.deepStrictEqual(
        yield* marketData.dailyCloses("aapl", "2025-01-30", "2025-02-06"),
        closes("2025-01-30", 103, "2025-01-31", 99)
      )
      assert.deepStrictEqual(yield* marketData.dailyCloses("NVDA", "2025-01-01", "2025-12-31"), [])
      // The file is read at start-up only: removing it changes nothing.
      rmSync(path)
      assert.lengthOf(yield* marketData.dailyCloses("AAPL", "2025-01-01", "2025-12-31"), 3)
    }))

  it.scoped("fails start-up with a configuration error saying why when the file cannot be used", () =>
    Effect.gen(function*() {
      const directory = yield* temporaryDirectory
      const missing = join(directory, "absent.csv")
      const unreadable = failureOf(
        yield* Effect.exit(
          MarketData.MarketData.pipe(
            Effect.provide(CsvMarketData.layer(missing).pipe(Layer.provide(NodeFileSystem.layer)))
          )
        )
      )
      assert.strictEqual(unreadable._op, "InvalidData")
      assert.include(String(unreadable), `cannot read the market-data file ${missing}: no such file`)
    }))
})

describe("HttpMarketData", () => {
  const apiKey = "mk-secret-0123456789"

  const adapterOn = (provider: QuoteProvider, options: Partial<HttpMarketData.Options> = {}) =>
    HttpMarketData.layer({
      urlTemplate: `${provider.origin}/v1/daily?symbol={ticker}&from={from}&to={to}`,
      apiKey: Redacted.make(apiKey),
      ...options
    }).pipe(Layer.provide(NodeHttpClient.layerUndici))

  const dailyCloses = (provider: QuoteProvider, options: Partial<HttpMarketData.Options> = {}) =>
    Effect.flatMap(MarketData.MarketData, (marketData) => marketData.dailyCloses("BRK-B", "2025-01-20", "2025-02-06"))
      .pipe(Effect.provide(adapterOn(provider, options)))

  const reasonOf = (provider: QuoteProvider, options: Partial<HttpMarketData.Options> = {}) =>
    Effect.flip(dailyCloses(provider, options)).pipe(
      Effect.tap((error) => {
        assert.strictEqual(error._tag, "MarketDataError")
        assert.notInclude(error.message, apiKey)
      }),
      Effect.map((error) => error.reason)
    )

  it("fills the template's placeholders URL-encoded", () => {
    assert.strictEqual(
      HttpMarketData.urlOf(
        "https://quotes.example/{ticker}/daily?from={from}&to={to}",
        "A&B/C",
        "2025-01-20",
        "2025-02-06"
      ),
      "https://quotes.example/A%26B%2FC/daily?from=2025-01-20&to=2025-02-06"
    )
  })

  it.scoped("asks with the bearer key and reads a list of closes", () =>
    Effect.gen(function*() {
      const provider = yield* startQuoteProvider
      provider.answerWith({
        kind: "json",
        body: [{ date: "2025-01-29", close: 100, volume: 12 }, { date: "2025-01-30", close: 103 }]
      })
      assert.deepStrictEqual(yield* dailyCloses(provider), closes("2025-01-29", 100, "2025-01-30", 103))
      assert.lengthOf(provider.requests, 1)
      const [request] = provider.requests
      assert.strictEqual(request!.url, "/v1/daily?symbol=BRK-B&from=2025-01-20&to=2025-02-06")
      assert.strictEqual(request!.headers.authorization, `Bearer ${apiKey}`)
      assert.strictEqual(request!.headers.accept, "application/json")
      assert.isUndefined(request!.headers.traceparent)
    }))

  it.scoped("reads closes wrapped in an object, prices given as text, and sends no key when none is set", () =>
    Effect.gen(function*() {
      const provider = yield* startQuoteProvider
      provider.answerWith({ kind: "json", body: { closes: [{ date: "2025-01-30", close: "103.25" }] } })
      assert.deepStrictEqual(yield* dailyCloses(provider, { apiKey: undefined }), closes("2025-01-30", 103.25))
      assert.isUndefined(provider.requests[0]!.headers.authorization)
    }))

  it.scoped("fails with a MarketDataError on a bad status or answer, never naming the key", () =>
    Effect.gen(function*() {
      const provider = yield* startQuoteProvider
      provider.answerWith({ kind: "status", status: 500 })
      assert.strictEqual(yield* reasonOf(provider), "HTTP 500")
      provider.answerWith({ kind: "status", status: 401 })
      assert.strictEqual(yield* reasonOf(provider), "HTTP 401: the provider refused the key (FILINGS_MARKET_DATA_KEY)")
      provider.answerWith({ kind: "text", text: `<html>bad key ${apiKey}</html>` })
      assert.strictEqual(yield* reasonOf(provider), "the answer is not JSON")
      provider.answerWith({ kind: "json", body: { data: [] } })
      assert.strictEqual(
        yield* reasonOf(provider),
        "the answer is neither [{date, close}, ...] nor {\"closes\": [{date, close}, ...]}"
      )
      provider.answerWith({
        kind: "json",
        body: [{ date: "2025-01-30", close: 103 }, { date: "2025-01-31", close: -1 }]
      })
      assert.strictEqual(
        yield* reasonOf(provider),
        "the answer is not daily closes: at 1.close: must be a positive price, got -1"
      )
      provider.answerWith({ kind: "json", body: [{ date: "30/01/2025", close: 103 }] })
      assert.include(yield* reasonOf(provider), "at 0.date: must be a date of the form YYYY-MM-DD")
    }))

  it.effect("fails on a refused connection", () =>
    Effect.gen(function*() {
      // A provider already stopped: nothing listens on its port any more.
      const stopped = yield* Effect.scoped(startQuoteProvider)
      assert.include(yield* reasonOf(stopped), "the request failed (Transport)")
    }))

  it.scoped("gives null for the feed when the provider fails", () =>
    Effect.gen(function*() {
      const provider = yield* startQuoteProvider
      provider.answerWith({ kind: "status", status: 500 })
      const { result, warnings } = yield* withWarnings(
        MarketData.stockChangeFor("AAPL", at("2025-01-30T15:00:00Z")).pipe(Effect.provide(adapterOn(provider)))
      )
      assert.isNull(result)
      assert.deepStrictEqual(warnings, [
        "stock change unknown: daily closes of AAPL from the http market-data provider: HTTP 500"
      ])
    }))

  // On the real clock: the time-out is a real wait, which it.scoped's test clock would never reach.
  it.scopedLive("gives up on a slow provider at the time-out and ends the request", () =>
    Effect.gen(function*() {
      const provider = yield* startQuoteProvider
      provider.answerWith({ kind: "json", body: [], delayMs: 5_000 })
      const started = Date.now()
      assert.strictEqual(yield* reasonOf(provider, { timeout: "200 millis" }), "no answer within 200ms")
      const { result } = yield* withWarnings(
        MarketData.stockChangeFor("AAPL", at("2025-01-30T15:00:00Z")).pipe(
          Effect.provide(adapterOn(provider, { timeout: "200 millis" }))
        )
      )
      assert.isNull(result)
      // Both questions ended long before the provider would have answered one.
      assert.isBelow(Date.now() - started, 4_000)
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 100)))
      assert.strictEqual(provider.abandonedRequests(), 2)
    }))
})

describe("CachedMarketData", () => {
  it.effect("asks the provider once per question while the answer is fresh, and again after a failure", () =>
    Effect.gen(function*() {
      const asked = yield* Ref.make<ReadonlyArray<string>>([])
      const failing = yield* Ref.make(true)
      const provider = MarketData.MarketData.of({
        dailyCloses: (ticker, fromDate, toDate) =>
          Ref.update(asked, (questions) => [...questions, `${ticker} ${fromDate} ${toDate}`]).pipe(
            Effect.zipRight(Ref.get(failing)),
            Effect.flatMap((fails) =>
              fails
                ? Effect.fail(new MarketData.MarketDataError({ ticker, provider: "http", reason: "HTTP 503" }))
                : Effect.succeed(closes("2025-01-30", 103))
            )
          )
      })
      const remembered = yield* CachedMarketData.cached(provider)
      const ask = (ticker: string) => Effect.either(remembered.dailyCloses(ticker, "2025-01-20", "2025-02-10"))

      assert.isTrue(Either.isLeft(yield* ask("ACME")))
      yield* Ref.set(failing, false)
      assert.deepStrictEqual(yield* ask("ACME"), Either.right(closes("2025-01-30", 103)), "a failure is not kept")
      yield* ask("ACME")
      yield* ask("BETA")
      assert.deepStrictEqual(yield* Ref.get(asked), [
        "ACME 2025-01-20 2025-02-10",
        "ACME 2025-01-20 2025-02-10",
        "BETA 2025-01-20 2025-02-10"
      ])
      yield* TestClock.adjust("16 minutes")
      yield* ask("ACME")
      assert.lengthOf(yield* Ref.get(asked), 4, "asked again once the answer is 15 minutes old")
    }))
})

describe("CachedMarketData, shared answers", () => {
  const slowProvider = (answer: Effect.Effect<ReadonlyArray<MarketData.DailyClose>, MarketData.MarketDataError>) =>
    MarketData.MarketData.of({ dailyCloses: () => answer })

  it.effect("an asker giving up does not take the answer from the others asking the same", () =>
    Effect.gen(function*() {
      const remembered = yield* CachedMarketData.cached(
        slowProvider(Effect.as(Effect.sleep("2 seconds"), closes("2025-01-30", 103)))
      )
      const ask = remembered.dailyCloses("ACME", "2025-01-20", "2025-02-10")
      const first = yield* Effect.fork(ask)
      const second = yield* Effect.fork(ask)
      yield* TestClock.adjust("1 second")
      // The asker waits for the shared lookup even when interrupted, so the interruption is not awaited.
      yield* Fiber.interruptFork(first)
      yield* TestClock.adjust("1 second")
      assert.deepStrictEqual(yield* Fiber.join(second), closes("2025-01-30", 103))
    }))

  it.effect("the provider's own time-out still ends a lookup", () =>
    Effect.gen(function*() {
      const remembered = yield* CachedMarketData.cached(
        slowProvider(
          Effect.never.pipe(Effect.timeoutFail({
            duration: "10 seconds",
            onTimeout: () => new MarketData.MarketDataError({ ticker: "ACME", provider: "http", reason: "no answer" })
          }))
        )
      )
      const asking = yield* Effect.fork(Effect.either(remembered.dailyCloses("ACME", "2025-01-20", "2025-02-10")))
      yield* TestClock.adjust("10 seconds")
      const outcome = yield* Fiber.join(asking)
      assert.isTrue(Either.isLeft(outcome) && outcome.left.reason === "no answer")
    }))
})

describe("the market data the composition root chooses", () => {
  const withConfig = (entries: Record<string, string>) =>
    Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(entries))))

  const closesFrom = (entries: Record<string, string>) =>
    Effect.flatMap(MarketData.MarketData, (marketData) => marketData.dailyCloses("AAPL", "2025-01-20", "2025-02-06"))
      .pipe(Effect.provide(Composition.marketDataLayer), withConfig(entries))

  it.effect("answers no closes when nothing is configured", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* closesFrom({}), [])
      assert.deepStrictEqual(yield* closesFrom({ FILINGS_MARKET_DATA_CSV: " ", FILINGS_MARKET_DATA_URL: "" }), [])
    }))

  it.scoped("reads the CSV file when FILINGS_MARKET_DATA_CSV is set", () =>
    Effect.gen(function*() {
      const directory = yield* temporaryDirectory
      const path = writeFile(directory, "closes.csv", "ticker,date,close\nAAPL,2025-01-30,103\nMSFT,2025-01-30,410\n")
      assert.deepStrictEqual(yield* closesFrom({ FILINGS_MARKET_DATA_CSV: path }), closes("2025-01-30", 103))
    }))

  it.scoped("asks the HTTP provider when FILINGS_MARKET_DATA_URL is set", () =>
    Effect.gen(function*() {
      const provider = yield* startQuoteProvider
      provider.answerWith({ kind: "json", body: [{ date: "2025-01-30", close: 103 }] })
      const answer = yield* closesFrom({
        FILINGS_MARKET_DATA_URL: `${provider.origin}/daily/{ticker}?from={from}&to={to}`,
        FILINGS_MARKET_DATA_KEY: "mk-from-config"
      })
      assert.deepStrictEqual(answer, closes("2025-01-30", 103))
      assert.strictEqual(provider.requests[0]!.url, "/daily/AAPL?from=2025-01-20&to=2025-02-06")
      assert.strictEqual(provider.requests[0]!.headers.authorization, "Bearer mk-from-config")
    }))

  it.effect("refuses both sources at once, and a template with an unknown placeholder", () =>
    Effect.gen(function*() {
      const both = failureOf(
        yield* Effect.exit(closesFrom({
          FILINGS_MARKET_DATA_CSV: "closes.csv",
          FILINGS_MARKET_DATA_URL: "https://quotes.example/{ticker}"
        }))
      )
      assert.include(String(both), "choose one source of market data")

      const typo = failureOf(
        yield* Effect.exit(closesFrom({ FILINGS_MARKET_DATA_URL: "https://quotes.example/daily?symbol={symbol}" }))
      )
      assert.include(String(typo), "FILINGS_MARKET_DATA_URL")
      assert.include(String(typo), "the URL must hold the placeholder {ticker}")

      const unknown = failureOf(
        yield* Effect.exit(closesFrom({ FILINGS_MARKET_DATA_URL: "https://quotes.example/{ticker}?d={day}" }))
      )
      assert.include(String(unknown), "unknown placeholder {day}")
    }))

  it.scoped("a file that cannot be used fails start-up naming FILINGS_MARKET_DATA_CSV", () =>
    Effect.gen(function*() {
      const directory = yield* temporaryDirectory
      const missing = join(directory, "absent.csv")
      const unreadable = failureOf(yield* Effect.exit(closesFrom({ FILINGS_MARKET_DATA_CSV: missing })))
      assert.isTrue(ConfigError.isConfigError(unreadable) && unreadable._op === "InvalidData")
      assert.include(String(unreadable), "FILINGS_MARKET_DATA_CSV")
      assert.include(String(unreadable), `cannot read the market-data file ${missing}: no such file`)

      const headerless = writeFile(directory, "prices.csv", "AAPL,2025-01-30,103\n")
      const unusable = failureOf(yield* Effect.exit(closesFrom({ FILINGS_MARKET_DATA_CSV: headerless })))
      assert.include(String(unusable), "FILINGS_MARKET_DATA_CSV")
      assert.include(String(unusable), "the first line must name the columns ticker, date and close")
    }))
})
