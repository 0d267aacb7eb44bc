/**
 * Market data for the feed's `stock_change`: how the company's stock moved on the news, as an analyst
 * reads it, the close-to-close move of the first session that could trade on the document.
 *
 * The `MarketData` port only answers daily closes; the rule that picks the session is here, pure, so
 * every adapter (a local CSV, an HTTP quote provider, none at all) gives the same answer for the same
 * prices. Market data is a nicety of the feed: `stockChangeFor` never fails, and an item whose move is
 * unknown (no provider, no price yet, the provider down) says `null`.
 */
import type { Feed } from "@filings/domain"
import { Context, Effect, Layer, Schema } from "effect"

/** The closing price of one trading day, `date` being the exchange's calendar date (YYYY-MM-DD). */
export interface DailyClose {
  readonly date: string
  readonly close: number
}

/** The feed's `stock_change`: absolute percent, rounded to 2 decimals (2.35 = 2.35 %), and a direction. */
export type StockChange = typeof Feed.StockChange.Encoded

export class MarketDataError extends Schema.TaggedError<MarketDataError>()("MarketDataError", {
  ticker: Schema.String,
  /** Which adapter failed: `csv`, `http`. */
  provider: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `daily closes of ${this.ticker} from the ${this.provider} market-data provider: ${this.reason}`
  }
}

export interface Service {
  /**
   * The closes of `ticker` on trading days from `fromDate` to `toDate` (both YYYY-MM-DD, inclusive),
   * in any order. Days without trading are simply absent; an unknown ticker answers none.
   */
  readonly dailyCloses: (
    ticker: string,
    fromDate: string,
    toDate: string
  ) => Effect.Effect<ReadonlyArray<DailyClose>, MarketDataError>
}

export class MarketData extends Context.Tag("@filings/server/MarketData")<MarketData, Service>() {}

/** No market data configured: every ticker answers no closes, so every `stock_change` is `null`. */
export const none: Layer.Layer<MarketData> = Layer.succeed(
  MarketData,
  MarketData.of({ dailyCloses: () => Effect.succeed([]) })
)

// ---------------------------------------------------------------------------------------------------
// The move of a publication
// ---------------------------------------------------------------------------------------------------

/** The regular session of US exchanges closes at 16:00 New York time. */
const closeMinutes = 16 * 60

// `hourCycle: "h23"` rather than `hour12: false`, which some ICU versions print as "24" at midnight.
const newYorkClock = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/New_York",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23"
})

/**
 * The New York calendar date and minutes since midnight at `instantMillis`. The time zone database
 * decides the offset (-05:00 or -04:00), so the 16:00 cut-off follows daylight saving time.
 */
export const newYorkTimeOf = (instantMillis: number): { readonly date: string; readonly minutes: number } => {
  const parts: Record<string, string> = {}
  for (const part of newYorkClock.formatToParts(instantMillis)) parts[part.type] = part.value
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    minutes: Number(parts.hour) * 60 + Number(parts.minute)
  }
}

/** `date` (YYYY-MM-DD) moved by `days` calendar days. */
export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10)

/**
 * `value` rounded half up to 2 decimals as a decimal number would be. Prices are decimals that binary
 * floating point only approximates (a 2.345 % move computes as 2.34499999...), so the value is first
 * cut to 12 significant digits and then rounded by moving the decimal point in its text.
 */
const roundTo2 = (value: number): number => {
  const [mantissa, exponent = "0"] = String(Number(value.toPrecision(12))).split("e")
  return Number(`${Math.round(Number(`${mantissa}e${Number(exponent) + 2}`))}e-2`)
}

/**
 * How the stock reacted to a document published at `publishedAtMillis`, from daily `closes`.
 *
 * The reaction is the move of the first session in which the market could trade on the document,
 * against the close before it:
 *
 * - published on a trading day before the 16:00 (New York) close: that day's close against the
 *   previous trading day's close;
 * - published at or after the close, or on a day without trading (weekend, holiday): the next
 *   trading day's close against the close before it (usually that of the publication day).
 *
 * Trading days are the days `closes` has a close for: no exchange calendar is needed, and a session
 * that has not closed yet simply is not there. The answer is `null` when a close it needs is missing,
 * for example when the reacting session has not happened yet, or no earlier close is known.
 * `percentage` is the absolute move in percent rounded to 2 decimals; `direction` is `flat` when
 * that rounds to 0.
 */
export const stockChangeOn = (
  closes: ReadonlyArray<DailyClose>,
  publishedAtMillis: number
): StockChange | null => {
  if (!Number.isFinite(publishedAtMillis)) return null
  const { date, minutes } = newYorkTimeOf(publishedAtMillis)
  const sessions = [...closes]
    .filter((close) => Number.isFinite(close.close) && close.close > 0)
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
  // Before the close, the publication day itself reacts when it trades; otherwise the next session.
  const reacting = minutes < closeMinutes
    ? sessions.findIndex((session) => session.date >= date)
    : sessions.findIndex((session) => session.date > date)
  if (reacting <= 0) return null
  const close = sessions[reacting]!.close
  const previous = sessions[reacting - 1]!.close
  const change = ((close - previous) / previous) * 100
  const percentage = roundTo2(Math.abs(change))
  return { percentage, direction: percentage === 0 ? "flat" : change > 0 ? "up" : "down" }
}

/** Closes asked for before the publication day: enough to find the previous session after a long closure. */
const daysBefore = 10
/** Closes asked for after it: the next session, even after a holiday weekend or an unplanned closure. */
const daysAfter = 7

/**
 * The `stock_change` of a document of `ticker` published at `publishedAtMillis`, from the configured
 * market data. It never fails: a provider's failure is logged as a warning and gives `null`, so the
 * feed item is written all the same.
 */
export const stockChangeFor = (
  ticker: string,
  publishedAtMillis: number
): Effect.Effect<StockChange | null, never, MarketData> =>
  Effect.gen(function*() {
    if (!Number.isFinite(publishedAtMillis)) return null
    const marketData = yield* MarketData
    const { date } = newYorkTimeOf(publishedAtMillis)
    const closes = yield* marketData.dailyCloses(ticker, addDays(date, -daysBefore), addDays(date, daysAfter))
    return stockChangeOn(closes, publishedAtMillis)
  }).pipe(
    Effect.catchAll((error) => Effect.as(Effect.logWarning(`stock change unknown: ${error.message}`), null)),
    // A bug in an adapter must not cost the feed its item either; the log says what happened.
    Effect.catchAllDefect((defect) =>
      Effect.as(Effect.logWarning(`stock change of ${ticker} unknown: market data failed unexpectedly`, defect), null)
    ),
    Effect.withSpan("MarketData.stockChangeFor", { attributes: { ticker } })
  )
