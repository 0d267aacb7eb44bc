/**
 * The process-wide gate every EDGAR request passes before it starts. The SEC allows one user at most
 * 10 requests per second across all of that user's machines, and answers more with a block of about
 * ten minutes for everyone behind the address; so the limit is kept here, once, for every fiber that
 * shares this layer, rather than per caller.
 *
 * It keeps a sliding log of recent start times: a request may start when fewer than the allowed number
 * started within the last window. A request that has to wait holds the queue, so waiting requests
 * start in order, one slot at a time, and no burst above the rate is ever possible. `pause` stops all
 * starts for a while, which is what the regulator's "rate threshold exceeded" page asks for.
 *
 * @module
 */
import { Clock, Context, Duration, Effect, Layer, Ref } from "effect"
import { EdgarConfig, RegulatorMaxRequestsPerSecond } from "./EdgarConfig.js"

/** The gate: a start slot for each request, and a pause for all of them. */
export interface Service {
  /** Runs `effect` once a start slot is free and no pause is in force; the slot is not held while it runs. */
  readonly withPermit: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** No request starts until `duration` from now has passed (or a longer pause already in force ends). */
  readonly pause: (duration: Duration.DurationInput) => Effect.Effect<void>
}

/** The process-wide gate as a service; share one layer between every EDGAR client of a process. */
export class FairAccess extends Context.Tag("@filings/edgar/FairAccess")<FairAccess, Service>() {
  /** A gate with the given rate (the module's `make`). */
  static make(options: MakeOptions): Effect.Effect<Service> {
    return make(options)
  }
  /** A gate at `EdgarConfig`'s rate (the module's `layer`). */
  static get layer(): Layer.Layer<FairAccess, never, EdgarConfig> {
    return layer
  }
}

/** How many requests may start, over which window. */
export interface MakeOptions {
  /** Starts allowed per window; held to 1 through the regulator's 10. */
  readonly maxRequestsPerSecond: number
  /**
   * The window counted over. A little over one second by default: the regulator counts arrivals, and
   * a request that waited on a new connection can arrive later than the next one on a warm connection,
   * so an exact 1000 ms spacing of starts could still look like one request too many at its end.
   */
  readonly window?: Duration.DurationInput | undefined
  /** A budget shared with other processes; without it, this process counts its own starts only. */
  readonly shared?: SharedStarts | undefined
}

/**
 * Starts counted with every other process that shares the regulator's limit. The implementation
 * handles its own failures (a database that is briefly away): it answers a wait, never an error.
 */
export interface SharedStarts {
  /**
   * Takes one start from the shared budget: 0 when taken, otherwise milliseconds to wait before
   * asking again. A start is counted from when it was asked for.
   */
  readonly take: (limit: number, window: Duration.Duration) => Effect.Effect<number>
  /** No process starts a request until `duration` from now has passed. */
  readonly pause: (duration: Duration.Duration) => Effect.Effect<void>
}

/** The default window: one second plus room for network jitter between our starts and the SEC's count. */
export const DefaultWindow = Duration.millis(1_100)

/** A shared start taken within this is used however little room the window leaves. */
const minimumLateStartMillis = 10

/** A gate allowing `maxRequestsPerSecond` starts (held to 1..10) in any `window`. */
export const make = (options: MakeOptions): Effect.Effect<Service> =>
  Effect.gen(function*() {
    // Whatever a caller passes, never more than the policy allows, and at least one so requests can start.
    const limit = Math.max(1, Math.min(RegulatorMaxRequestsPerSecond, Math.floor(options.maxRequestsPerSecond)))
    const window = Duration.decode(options.window ?? DefaultWindow)
    const windowMillis = Duration.toMillis(window)
    // Half the window's room over a second (50 ms by default); the other half is the request's own way out.
    const lateStartMillis = Math.max(minimumLateStartMillis, (windowMillis - 1_000) / 2)
    // Start times (epoch ms) within the current window, oldest first; at most `limit` of them.
    const recentStarts: Array<number> = []
    const pausedUntil = yield* Ref.make(0)
    // One admission at a time, so two fibers never both take the last slot of a window.
    const admission = yield* Effect.makeSemaphore(1)

    const admit: Effect.Effect<void> = Effect.gen(function*() {
      while (true) {
        const now = yield* Clock.currentTimeMillis
        const resumeAt = yield* Ref.get(pausedUntil)
        if (now < resumeAt) {
          yield* Effect.sleep(Duration.millis(resumeAt - now))
          continue
        }
        while (recentStarts.length > 0 && recentStarts[0]! <= now - windowMillis) recentStarts.shift()
        if (recentStarts.length < limit) {
          recentStarts.push(now)
          return
        }
        // The oldest start leaves the window at oldest + window; re-check then (a pause may have begun).
        yield* Effect.sleep(Duration.millis(recentStarts[0]! + windowMillis - now))
      }
    })

    // Then, when shared, the start is taken from the budget of every process as well; the local count
    // above keeps this process from asking the shared budget more often than it could be answered.
    const { shared } = options
    const admitShared: Effect.Effect<void> = shared === undefined ? Effect.void : Effect.gen(function*() {
      while (true) {
        const asked = yield* Clock.currentTimeMillis
        const wait = yield* shared.take(limit, window)
        if (wait > 0) {
          yield* Effect.sleep(Duration.millis(wait))
          continue
        }
        // The budget stamped the start when it was asked for. One that comes back late (a slow
        // database, a busy process) would leave later than its stamp says and eat the window's room
        // over one second, where another process's start may fall: it is left unused, counted but
        // harmless, and another is taken.
        if ((yield* Clock.currentTimeMillis) - asked <= lateStartMillis) return
      }
    })

    const withPermit = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.zipRight(admission.withPermits(1)(Effect.zipRight(admit, admitShared)), effect)

    const pause = (duration: Duration.DurationInput): Effect.Effect<void> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Ref.update(pausedUntil, (current) => Math.max(current, now + Duration.toMillis(duration)))).pipe(
          Effect.zipRight(shared === undefined ? Effect.void : shared.pause(Duration.decode(duration)))
        )

    return FairAccess.of({ withPermit, pause })
  })

/** One limiter for the whole process, sized from EdgarConfig's `maxRequestsPerSecond`. */
export const layer: Layer.Layer<FairAccess, never, EdgarConfig> = Layer.effect(
  FairAccess,
  Effect.flatMap(EdgarConfig, (settings) => make({ maxRequestsPerSecond: settings.maxRequestsPerSecond }))
)
