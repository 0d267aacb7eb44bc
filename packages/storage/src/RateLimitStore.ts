/**
 * The rate limit store: counts requests per key in fixed windows. The in-memory layer serves one
 * server process; the SQL one lets every instance on one database share each key's limit.
 *
 * @module
 */
import { Context, type Duration, type Effect } from "effect"
import type { StorageError } from "./StorageError.js"

export interface RateLimitDecision {
  readonly allowed: boolean
  readonly limit: number
  /** Requests left in the current window after this one. */
  readonly remaining: number
  /** When the current window ends, in milliseconds since the epoch. */
  readonly resetAtMillis: number
}

export interface Service {
  /**
   * Counts one request against `key` in the window that holds the current time (read from the
   * Effect `Clock`) and says whether it is within `limit`. Requests over the limit are counted too,
   * so a client that keeps hammering does not get a fresh allowance early.
   */
  readonly consume: (
    key: string,
    limit: number,
    window: Duration.Duration
  ) => Effect.Effect<RateLimitDecision, StorageError>
}

export class RateLimitStore extends Context.Tag("@filings/storage/RateLimitStore")<RateLimitStore, Service>() {}

/** The start of the fixed window that holds `nowMillis`. */
export const windowStart = (nowMillis: number, windowMillis: number): number => nowMillis - (nowMillis % windowMillis)

export const decide = (count: number, limit: number, windowStartMillis: number, windowMillis: number) => ({
  allowed: count <= limit,
  limit,
  remaining: Math.max(0, limit - count),
  resetAtMillis: windowStartMillis + windowMillis
})
