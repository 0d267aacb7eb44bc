/**
 * Retention in a running server: once an hour, completed jobs older than `FILINGS_JOB_RETENTION`
 * days are forgotten (a job with a unique key keeps only the key, so the same work is never done
 * twice) and webhook deliveries delivered more than `FILINGS_DELIVERY_RETENTION` days ago are
 * removed; dead jobs and undelivered deliveries stay until an operator or a recovery deals with
 * them. The event log is kept whole: it is what streams and webhook dispatch replay from.
 *
 * With several instances on one database, the holder of one lease prunes; pruning twice would be
 * harmless, only wasted work.
 */
import { DeliveryStore, JobQueue } from "@filings/storage"
import { Duration, Effect, Layer, Schedule } from "effect"
import * as Leadership from "../coordination/Leadership.js"

export interface Options {
  /** How long a completed job is kept whole. */
  readonly jobRetention: Duration.Duration
  /** How long a delivered webhook delivery is kept. */
  readonly deliveryRetention: Duration.Duration
  /** How often to prune; hourly in a server. */
  readonly every?: Duration.DurationInput | undefined
}

/** The lease of the instance that prunes. */
export const RetentionLease = "storage.retention"

/** One pass: prunes both tables, answering how many jobs and deliveries it removed or emptied. */
export const pruneOnce = (options: Options) =>
  Effect.gen(function*() {
    const jobs = yield* (yield* JobQueue.JobQueue).pruneCompleted(options.jobRetention)
    const deliveries = yield* (yield* DeliveryStore.DeliveryStore).pruneDelivered(options.deliveryRetention)
    if (jobs + deliveries > 0) {
      yield* Effect.logInfo(`retention: ${jobs} completed jobs and ${deliveries} delivered webhook deliveries pruned`)
    }
    return { jobs, deliveries }
  })

/** Prunes in the layer's scope, on the instance holding the retention lease, every `every`. */
export const layer = (options: Options) =>
  Layer.scopedDiscard(
    Effect.forkScoped(
      Leadership.whileLeading(
        {
          name: RetentionLease,
          holder: Leadership.instanceName(),
          lease: Duration.minutes(2),
          retryEvery: Duration.minutes(1)
        },
        pruneOnce(options).pipe(
          Effect.catchAll((error) =>
            Effect.logWarning(`retention: pruning failed, trying again later: ${error.message}`)
          ),
          Effect.repeat(Schedule.spaced(options.every ?? Duration.hours(1)))
        )
      )
    )
  )
