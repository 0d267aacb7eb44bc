/**
 * Webhook delivery in a running server: the dispatcher, which turns recorded events into
 * deliveries every half second (waking idle workers when it finds some), and the workers, which
 * send them. Both share the database with every other instance: deliveries and their jobs are unique
 * on the delivery id, so several instances deliver each event once per subscription.
 *
 * `FILINGS_WEBHOOK_WORKERS` (default 8) sets the attempts in flight per process;
 * `FILINGS_WEBHOOK_LEASE` (seconds, default 120) how long the attempts of an instance that died stay
 * claimed before another instance makes them; `FILINGS_WEBHOOK_ALLOW_HOSTS` opens named hosts or
 * ranges the address check refuses otherwise.
 */
import { Config, Duration, Effect, Layer, Schedule } from "effect"
import { startWorkers } from "../pipeline/QueueWorkers.js"
import { ServerConfig } from "../ServerConfig.js"
import { makeDeliveryHandler } from "./DeliveryWorker.js"
import { DeliveryQueue, dispatchOnce } from "./Dispatcher.js"

const workersConfig = Config.integer("FILINGS_WEBHOOK_WORKERS").pipe(
  Config.withDefault(8),
  Config.validate({ message: "FILINGS_WEBHOOK_WORKERS must be from 1 to 256", validation: (n) => n >= 1 && n <= 256 })
)

// Seconds, like FILINGS_PIPELINE_LEASE.
const leaseConfig = Config.number("FILINGS_WEBHOOK_LEASE").pipe(
  Config.withDefault(120),
  Config.validate({ message: "FILINGS_WEBHOOK_LEASE must be at least 1 second", validation: (n) => n >= 1 }),
  Config.map(Duration.seconds)
)

const dispatchInterval = Duration.millis(500)

const run = Effect.gen(function*() {
  const { webhookAllowList: allow } = yield* ServerConfig
  const workers = yield* workersConfig
  const lease = yield* leaseConfig
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
    Effect.tap((read) => (read > 0 ? deliveries.wake.pipe(Effect.repeatN(Math.min(read, workers) - 1)) : Effect.void)),
    Effect.catchAllCause((cause) => Effect.logWarning("webhook dispatch failed", cause).pipe(Effect.as(0))),
    Effect.repeat(Schedule.spaced(dispatchInterval))
  )
  yield* Effect.forkScoped(dispatch)
})

export const layer = Layer.scopedDiscard(run)
