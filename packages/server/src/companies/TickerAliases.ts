/**
 * Ticker filters by company. Every ticker of a company is an alias of it (a second class of
 * shares, `GOOG` beside `GOOGL`; see `CompanyStore`), so a filter naming one matches what is stored
 * under any: the filter's tickers are widened to every ticker of their companies before a store
 * reads with them. One indexed read per request that filters by ticker, none for one that does not.
 */
import type { Ids } from "@filings/domain"
import { CompanyStore, type StorageError } from "@filings/storage"
import { Effect } from "effect"

export interface TickerAliases {
  /** The tickers with every other ticker of their companies, each once, the asked ones first. */
  readonly widen: (
    tickers: ReadonlyArray<Ids.Ticker>
  ) => Effect.Effect<ReadonlyArray<Ids.Ticker>, StorageError.StorageError>
  /** `widen` for a filter that may be absent (absent: no filter, left so). */
  readonly widenFilter: (
    tickers: ReadonlyArray<Ids.Ticker> | undefined
  ) => Effect.Effect<ReadonlyArray<Ids.Ticker> | undefined, StorageError.StorageError>
}

/** Widening on the company store in context. */
export const make: Effect.Effect<TickerAliases, never, CompanyStore.CompanyStore> = Effect.map(
  CompanyStore.CompanyStore,
  (companies) => {
    const widen = Effect.fn("TickerAliases.widen")(function*(tickers: ReadonlyArray<Ids.Ticker>) {
      if (tickers.length === 0) return tickers
      const aliases = yield* companies.aliasesOf(tickers)
      return [...new Set([...tickers, ...[...aliases.values()].flat()])]
    })
    return {
      widen,
      widenFilter: (tickers) => (tickers === undefined ? Effect.succeed(undefined) : widen(tickers))
    }
  }
)
