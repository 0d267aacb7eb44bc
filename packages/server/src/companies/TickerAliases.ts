/**
 * Ticker filters by company. Every ticker of a company is an alias of it (a second class of
 * shares, `GOOG` beside `GOOGL`; see `CompanyStore`), so a filter naming one matches what is stored
 * under any: the filter's tickers are widened to every ticker of their companies before a store
 * reads with them.
 *
 * A company's tickers change only when a filing or the regulator's list names new ones, so each
 * ticker's widening is kept for `WideningLifetime` and then read again: a busy list or feed reader
 * filtering by ticker costs no storage read beyond its page. A new class reaches the filters within
 * that time, the bound a re-ingested document's answers have across instances (`DocumentCache`).
 */
import type { Ids } from "@filings/domain"
import { CompanyStore, type StorageError } from "@filings/storage"
import { Duration, Effect } from "effect"

/** How long a ticker's widening is used before the company store is read again. */
export const WideningLifetime = Duration.seconds(5)

/**
 * Tickers whose widening is kept at most: more than any market lists, so that only tickers nobody
 * lists (every one a client invents) can fill it, and then it starts afresh.
 */
const Capacity = 20_000

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

interface Kept {
  readonly tickers: ReadonlyArray<Ids.Ticker>
  readonly expiresAtMillis: number
}

/** Widening on the company store in context, with the widenings it reads kept for a while. */
export const make = (
  options: { readonly lifetime?: Duration.DurationInput | undefined } = {}
): Effect.Effect<TickerAliases, never, CompanyStore.CompanyStore> =>
  Effect.map(CompanyStore.CompanyStore, (companies) => {
    const lifetimeMillis = Duration.toMillis(options.lifetime ?? WideningLifetime)
    const kept = new Map<Ids.Ticker, Kept>()

    const combine = (
      tickers: ReadonlyArray<Ids.Ticker>,
      widenings: ReadonlyArray<ReadonlyArray<Ids.Ticker>>
    ) => [...new Set([...tickers, ...widenings.flat()])]

    const read = (tickers: ReadonlyArray<Ids.Ticker>, now: number) =>
      Effect.map(companies.aliasesOf(tickers), (aliases) => {
        if (kept.size + tickers.length > Capacity) kept.clear()
        const expiresAtMillis = now + lifetimeMillis
        return combine(
          tickers,
          tickers.map((ticker) => {
            const widening = aliases.get(ticker) ?? [ticker]
            kept.set(ticker, { tickers: widening, expiresAtMillis })
            return widening
          })
        )
      })

    const widen = (tickers: ReadonlyArray<Ids.Ticker>) => {
      if (tickers.length === 0) return Effect.succeed(tickers)
      // The request path: a clock read and map lookups, no fiber work when every ticker is kept.
      const now = Date.now()
      const widenings: Array<ReadonlyArray<Ids.Ticker>> = []
      for (const ticker of tickers) {
        const entry = kept.get(ticker)
        if (entry === undefined || entry.expiresAtMillis <= now) return read(tickers, now)
        widenings.push(entry.tickers)
      }
      return Effect.succeed(combine(tickers, widenings))
    }

    return {
      widen,
      widenFilter: (tickers) => (tickers === undefined ? Effect.succeed(undefined) : widen(tickers))
    }
  })
