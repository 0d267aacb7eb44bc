/**
 * Coordination between the instances of a server that share one store: a budget of request starts
 * that all of them draw from (the regulator allows one user a number of requests per second across
 * every machine), and named leases so that exactly one of them does a job only one should do
 * (reading the latest-filings feed), another taking over when the holder stops renewing.
 *
 * Time is read from the Effect `Clock` of the caller, as everywhere in storage; instances that share
 * a database must keep their clocks synchronised (NTP keeps them within milliseconds, far inside
 * the margins the callers leave).
 *
 * @module
 */
import { Context, type Duration, type Effect, type Option } from "effect"
import type { StorageError } from "./StorageError.js"

/** The answer to a request for a start: taken, or not before some time from now. */
export type StartDecision =
  | { readonly _tag: "Started" }
  | {
    readonly _tag: "Wait"
    /** Milliseconds from now before a start may be free (at least 1). */
    readonly millis: number
  }

/** Who holds a lease, and until when. */
export interface LeaseHolder {
  /** The holder's name, as it acquired the lease. */
  readonly holder: string
  /** When the lease runs out unless renewed, in milliseconds since the epoch. */
  readonly expiresAtMillis: number
}

/** What a coordination store does. Fails with `StorageError` only when the backing store does. */
export interface Service {
  /**
   * Takes one start from the budget `budget` when fewer than `limit` starts were taken from it in
   * the `window` before now and no pause is in force; otherwise takes nothing and says how long to
   * wait before asking again. Concurrent callers, in one process or many, are counted one by one:
   * no `window` ever holds more than `limit` starts (callers asking with different limits are each
   * held to their own).
   */
  readonly takeStart: (
    budget: string,
    limit: number,
    window: Duration.Duration
  ) => Effect.Effect<StartDecision, StorageError>
  /** No start is taken from `budget` until `duration` from now (or a longer pause in force) has passed. */
  readonly pauseStarts: (budget: string, duration: Duration.Duration) => Effect.Effect<void, StorageError>
  /**
   * Acquires the lease `name` for `holder` until `duration` from now: when nobody holds it, when its
   * holder let it run out, or when `holder` already holds it (a renewal). True when `holder` now
   * holds it; false, changing nothing, while another holder's lease runs.
   */
  readonly acquireLease: (
    name: string,
    holder: string,
    duration: Duration.Duration
  ) => Effect.Effect<boolean, StorageError>
  /** Gives the lease up, when `holder` holds it, so another may take it at once; otherwise does nothing. */
  readonly releaseLease: (name: string, holder: string) => Effect.Effect<void, StorageError>
  /** Who holds the lease `name` now; none when nobody does or the last lease ran out. */
  readonly leaseHolder: (name: string) => Effect.Effect<Option.Option<LeaseHolder>, StorageError>
}

/**
 * The coordination store as an Effect service, provided by `MemoryStorage.coordination` (one
 * process) or an adapter's layer (every instance on one database).
 *
 * @example
 * ```ts
 * const coordination = yield* Coordination
 * if (yield* coordination.acquireLease("latest-filings", instanceId, Duration.seconds(30))) {
 *   // ... this instance reads the feed, and renews the lease before it runs out ...
 * }
 * ```
 */
export class Coordination extends Context.Tag("@filings/storage/Coordination")<Coordination, Service>() {}

/** A start was taken. */
export const started: StartDecision = { _tag: "Started" }

/** No start before `millis` from now (held to at least 1 ms, so a caller always waits a little). */
export const waitFor = (millis: number): StartDecision => ({ _tag: "Wait", millis: Math.max(1, Math.ceil(millis)) })
