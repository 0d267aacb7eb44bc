/**
 * The rate limit store: counts requests per key in fixed windows. The in-memory layer serves one
 * server process; the SQL one lets every instance on one database share each key's limit (each
 * instance leases part of a window from the database and counts it out in memory).
 *
 * @module
 */
import { Context, type Duration, type Effect } from "effect"
import type { StorageError } from "./StorageError.js"

/** The answer to one request: whether it is allowed, and what the rate limit headers say. */
export interface RateLimitDecision {
  /** Whether the request is within the limit of its window. */
  readonly allowed: boolean
  /** The limit the request was counted against. */
  readonly limit: number
  /** Requests left in the current window after this one. */
  readonly remaining: number
  /** When the current window ends, in milliseconds since the epoch. */
  readonly resetAtMillis: number
}

/** What a rate limit store does. Fails with `StorageError` only when the backing store does. */
export interface Service {
  /**
   * Counts one request against `key` in the window that holds the current time (read from the
   * Effect `Clock`) and says whether it is within `limit`; once it is not, every request is refused
   * until the window ends. Concurrent requests on one key, on one instance or on several sharing a
   * store, are counted one by one: no more than `limit` of them are ever allowed in a window.
   * `remaining` is exact on one instance; with several sharing a store it may count requests
   * another instance leased and has not used yet.
   */
  readonly consume: (
    key: string,
    limit: number,
    window: Duration.Duration
  ) => Effect.Effect<RateLimitDecision, StorageError>
}

/**
 * The rate limit store as an Effect service, provided by `MemoryStorage.rateLimitStore` or an
 * adapter's layer.
 *
 * @example
 * ```ts
 * const decision = yield* (yield* RateLimitStore).consume(apiKey.id, apiKey.rateLimit, Duration.minutes(1))
 * if (!decision.allowed) return yield* new TooManyRequests({ resetAtMillis: decision.resetAtMillis })
 * ```
 */
export class RateLimitStore extends Context.Tag("@filings/storage/RateLimitStore")<RateLimitStore, Service>() {}

/** The start of the fixed window that holds `nowMillis`. */
export const windowStart = (nowMillis: number, windowMillis: number): number => nowMillis - (nowMillis % windowMillis)

/**
 * The decision for the `count`-th request of a window (from 1): allowed up to `limit`, with what is
 * left and when the window ends. Adapters count, then let this decide, so all decide alike.
 */
export const decide = (count: number, limit: number, windowStartMillis: number, windowMillis: number) => ({
  allowed: count <= limit,
  limit,
  remaining: Math.max(0, limit - count),
  resetAtMillis: windowStartMillis + windowMillis
})
