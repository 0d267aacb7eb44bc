/**
 * Fills in the stock moves the feed could not know when its items were written. A document is
 * usually stored before the session that meets it has closed, so its item starts with a `null`
 * `stock_change`; while a market-data source is configured, the server looks again at the items of
 * the last week still without one, at the interval the caller gives (`FILINGS_MARKET_DATA_REFRESH`),
 * and sets the move once the closes it needs are known. Several instances may do it at once: each
 * sets the same value.
 */
import { FeedStore } from "@filings/storage"
import { Clock, Duration, Effect, Layer, Schedule } from "effect"
import * as MarketData from "../market/MarketData.js"

export interface Options {
  /** The time between two passes. */
  readonly interval: Duration.DurationInput
}

/** How far back items are looked at again: a move not known after a week will not be. */
const window = Duration.days(7)

/** Items looked at per pass. */
const batch = 500

/** One pass: answers how many items got their move. */
export const refreshOnce = Effect.gen(function*() {
  const feed = yield* FeedStore.FeedStore
  const now = yield* Clock.currentTimeMillis
  const pending = yield* feed.withoutStockChange({ publishedFromMillis: now - Duration.toMillis(window), limit: batch })
  let filled = 0
  for (const item of pending) {
    const change = yield* MarketData.stockChangeFor(item.ticker, item.publishedAtMillis)
    if (change !== null && (yield* feed.setStockChange(item.id, change))) filled++
  }
  return filled
}).pipe(Effect.withSpan("StockChangeRefresh.refreshOnce"))

/** Refreshes every `interval` for as long as the layer lives; for a server with a source of market data. */
export const layer = ({ interval }: Options) =>
  Layer.scopedDiscard(refreshOnce.pipe(
    Effect.tap((filled) => (filled > 0 ? Effect.logInfo(`stock moves set on ${filled} feed items`) : Effect.void)),
    Effect.catchAllCause((cause) => Effect.logWarning("refreshing the feed's stock moves failed", cause)),
    Effect.repeat(Schedule.spaced(interval)),
    Effect.forkScoped
  ))
