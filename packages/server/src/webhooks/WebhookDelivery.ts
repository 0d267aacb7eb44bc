/**
 * Webhook delivery in a running server: the dispatcher, which turns recorded events into
 * deliveries every half second (waking idle workers when it finds some), and the workers, which
 * send them. Both share the database with every other instance: deliveries and their jobs are unique
 * on the delivery id, so several instances deliver each event once per subscription.
 *
 * The caller sets the attempts in flight per process (`FILINGS_WEBHOOK_WORKERS`) and how long the
 * attempts of an instance that died stay claimed before another instance makes them
 * (`FILINGS_WEBHOOK_LEASE`); the server's allow-list (`ServerConfig`) opens named hosts or ranges
 * the address check refuses otherwise.
 */
import { Duration, Effect, Layer, Schedule } from "effect"
import { startWorkers } from "../jobs/QueueWorkers.js"
import { ServerConfig } from "../ServerConfig.js"
import { makeDeliveryHandler } from "./DeliveryWorker.js"
import { DeliveryQueue, dispatchOnce } from "./Dispatcher.js"

export interface Options {
  /** Delivery attempts in flight in this process. */
  readonly workers: number
  /** How long an attempt stays claimed by its instance, should the instance die. */
  readonly lease: Duration.DurationInput
}

const dispatchInterval = Duration.millis(500)

const run = ({ lease, workers }: Options) =>
  Effect.gen(function*() {
    const { webhookAllowList: allow } = yield* ServerConfig
    const handle = yield* makeDeliveryHandler({ allow })
    const deliveries = yield* startWorkers({
      queue: DeliveryQueue,
      concurrency: workers,
      // A live worker extends its lease while the attempt (at most 30 s) runs, so a short lease only
      // shortens how long a dead instance's attempts wait.
      lease,
      pollInterval: "1 second",
      // The delivery store counts attempts and fails the delivery after the 6th. The queue never gives up
      // on its own: a delivery waiting behind a slow receiver is put back many times without an attempt.
      maxAttempts: Number.POSITIVE_INFINITY,
      handle
    })
    const dispatch = dispatchOnce.pipe(
      Effect.tap((
        read
      ) => (read > 0 ? deliveries.wake.pipe(Effect.repeatN(Math.min(read, workers) - 1)) : Effect.void)),
      Effect.catchAllCause((cause) => Effect.logWarning("webhook dispatch failed", cause).pipe(Effect.as(0))),
      Effect.repeat(Schedule.spaced(dispatchInterval))
    )
    yield* Effect.forkScoped(dispatch)
  })

export const layer = (options: Options) => Layer.scopedDiscard(run(options))
