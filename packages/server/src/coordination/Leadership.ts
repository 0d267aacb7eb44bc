/**
 * Work that only one instance of a server should do at a time (reading the latest-filings feed),
 * given to whichever instance holds a lease in the shared store. Every instance runs `whileLeading`;
 * the holder renews its lease at a third of its length and does the work, the others ask for the
 * lease every `retryEvery`. When the holder dies, its lease runs out and another instance takes the
 * work over within `lease` plus `retryEvery`. A holder that cannot renew (the database is away, or
 * its clock jumped) stops working at once, before its lease can run out under it, and asks again
 * like the others. A holder that stops (its scope closes) gives the lease back, so another takes
 * over at its next try.
 */
import { Coordination } from "@filings/storage"
import { Duration, Effect } from "effect"
import { randomUUID } from "node:crypto"
import { hostname } from "node:os"

/** How this process names itself when it holds a lease: host, process and a random part, unique per start. */
export const instanceName = (): string => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`

export interface LeadershipOptions {
  /** The lease's name, one per kind of work. */
  readonly name: string
  /** This instance's name (`instanceName()`). */
  readonly holder: string
  /** How long the lease lasts without renewal: how long the work stays undone after its holder dies. */
  readonly lease: Duration.DurationInput
  /** How often an instance without the lease asks for it. */
  readonly retryEvery: Duration.DurationInput
}

/**
 * Runs `work` whenever this instance holds the lease, interrupting it when the lease is lost; never
 * ends by itself. `work` should run until interrupted (a polling loop); if it ends, the lease is
 * given back and asked for again after `retryEvery`.
 */
export const whileLeading = <E, R>(
  options: LeadershipOptions,
  work: Effect.Effect<void, E, R>
): Effect.Effect<never, never, R | Coordination.Coordination> =>
  Effect.gen(function*() {
    const coordination = yield* Coordination.Coordination
    const lease = Duration.decode(options.lease)
    const acquire = coordination.acquireLease(options.name, options.holder, lease).pipe(
      Effect.catchAll((error) => Effect.as(Effect.logWarning(`lease ${options.name}: ${error.message}`), false))
    )
    const release = coordination.releaseLease(options.name, options.holder).pipe(
      Effect.catchAll((error) => Effect.logWarning(`lease ${options.name} could not be given back: ${error.message}`))
    )
    // Ends as soon as a renewal does not succeed.
    const keepRenewed = Effect.sleep(Duration.times(lease, 1 / 3)).pipe(
      Effect.zipRight(acquire),
      Effect.repeat({ while: (renewed) => renewed })
    )
    const lead = Effect.gen(function*() {
      yield* Effect.logInfo(`this instance now does ${options.name}`)
      const worked = work.pipe(
        Effect.catchAllCause((cause) => Effect.logWarning(`${options.name} stopped`, cause))
      )
      yield* Effect.raceFirst(worked, keepRenewed)
      yield* Effect.logInfo(`this instance no longer does ${options.name}`)
    }).pipe(Effect.ensuring(release))

    return yield* acquire.pipe(
      Effect.flatMap((held) => (held ? lead : Effect.void)),
      Effect.zipRight(Effect.sleep(options.retryEvery)),
      Effect.forever
    )
  })
