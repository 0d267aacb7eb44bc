// RateLimitStore on SQL, counted in leases. Each instance takes a share of a key's window from the
// database in one atomic upsert and hands it out from memory, so a busy key costs one statement
// per lease rather than one per request. The database count only grows by what was leased and no
// lease goes past the limit, so however many instances share the database, no more than `limit`
// requests are allowed in a window. A lease is a fraction of what is left (`LeaseShare`), so the
// requests one instance holds unused can keep the others from at most that fraction of the rest;
// near the limit, and for small limits, leases are of one request and the count is exact.
import { SqlClient } from "@effect/sql"
import { RateLimitStore, type StorageError } from "@filings/storage"
import { Clock, Deferred, Duration, Effect, Schema } from "effect"
import { rowsAs } from "./sqlRows.js"
import { failsAs } from "./storageErrors.js"

/** A lease is at most this fraction of what is left of the window (one in `LeaseShare`). */
export const LeaseShare = 16

/** And at most this many requests, so a key with a huge limit still meets the database now and then. */
export const MaxLease = 1_000

/** How many requests to lease when `counted` of `limit` are already counted in the database. */
export const leaseSize = (limit: number, counted: number): number =>
  Math.max(1, Math.min(MaxLease, Math.floor((limit - counted) / LeaseShare)))

const readLease = rowsAs(Schema.Struct({ count: Schema.Int, inserted: Schema.Boolean }))

/** What this instance holds of one key's current window. */
interface KeyLease {
  readonly windowStart: number
  /** Requests leased from the database and not yet handed out. */
  unused: number
  /** The window's count in the database after this instance's last lease, at most the limit. */
  leasedThrough: number
  /** The lease being taken; requests that find nothing unused wait for it rather than take their own. */
  pending: Deferred.Deferred<void> | undefined
}

export const makeRateLimitStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const leases = new Map<string, KeyLease>()

  /** Adds `size` to the window's count; answers the count after it. */
  const takeLease = (key: string, start: number, size: number) =>
    Effect.gen(function*() {
      const [row] = yield* sql`
        INSERT INTO rate_limit_windows (key, window_start_ms, count) VALUES (${key}, ${start}, ${size})
        ON CONFLICT (key, window_start_ms) DO UPDATE SET count = rate_limit_windows.count + ${size}
        RETURNING count, (xmax = 0) AS inserted`.pipe(readLease)
      // The window's first lease clears the key's past windows, so the table holds about one row per key.
      if (row?.inserted === true) {
        yield* sql`DELETE FROM rate_limit_windows WHERE key = ${key} AND window_start_ms < ${start}`
      }
      return row?.count ?? size
    })

  /** What the lease in memory decides at `nowMillis`; undefined when a lease must be taken (or awaited) first. */
  const decideFromLease = (key: string, limit: number, windowMillis: number, nowMillis: number) => {
    const start = RateLimitStore.windowStart(nowMillis, windowMillis)
    let lease = leases.get(key)
    if (lease === undefined || lease.windowStart !== start) {
      lease = { windowStart: start, unused: 0, leasedThrough: 0, pending: undefined }
      leases.set(key, lease)
    }
    if (lease.unused > 0) {
      lease.unused--
      return RateLimitStore.decide(lease.leasedThrough - lease.unused, limit, start, windowMillis)
    }
    // The window's limit is all leased: refused without asking the database again until it ends.
    if (lease.leasedThrough >= limit) return RateLimitStore.decide(limit + 1, limit, start, windowMillis)
    return undefined
  }

  const consumeLeasing = (key: string, limit: number, windowMillis: number) =>
    Effect.gen(function*() {
      for (;;) {
        const nowMillis = yield* Clock.currentTimeMillis
        const decided = decideFromLease(key, limit, windowMillis, nowMillis)
        if (decided !== undefined) return decided
        const taking = leases.get(key)!
        if (taking.pending !== undefined) {
          yield* Deferred.await(taking.pending)
          continue
        }
        const pending = yield* Deferred.make<void>()
        taking.pending = pending
        const size = leaseSize(limit, taking.leasedThrough)
        // Whatever becomes of this lease, the requests waiting for it go on (and take their own if need be).
        const counted = yield* takeLease(key, taking.windowStart, size).pipe(
          Effect.ensuring(Effect.suspend(() => {
            taking.pending = undefined
            return Deferred.succeed(pending, undefined)
          }))
        )
        // Another instance may have leased meanwhile: only what is within the limit is this instance's.
        taking.unused += Math.max(0, Math.min(size, limit - (counted - size)))
        taking.leasedThrough = Math.min(limit, counted)
      }
    }).pipe(failsAs("RateLimitStore.consume"))

  // Nearly every request is decided from the lease in memory: that path stays synchronous, since it
  // runs on every API request.
  const consume = (
    key: string,
    limit: number,
    window: Duration.Duration
  ): Effect.Effect<RateLimitStore.RateLimitDecision, StorageError.StorageError> =>
    Effect.clockWith((clock) => {
      const windowMillis = Duration.toMillis(window)
      const decided = decideFromLease(key, limit, windowMillis, clock.unsafeCurrentTimeMillis())
      return decided === undefined ? consumeLeasing(key, limit, windowMillis) : Effect.succeed(decided)
    })

  const service: RateLimitStore.Service = { consume }
  return service
})
