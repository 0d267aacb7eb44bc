/**
 * The server's own metrics, as Effect metrics in the process's registry: what `GET /metrics`
 * serves in the Prometheus text format, beside the EDGAR client's (`EdgarMetrics`) and the Effect
 * runtime's fiber counts. Names follow Prometheus' conventions: a `filings_` prefix, base units
 * (seconds), and counters that gain `_total` on export.
 */
import type { JobQueue } from "@filings/storage"
import { Effect, Metric, MetricBoundaries, MetricKey, Option } from "effect"

/** Request latencies: 1 ms to 10 s, about three buckets a decade. */
const latencyBoundaries = MetricBoundaries.fromIterable([
  0.001,
  0.0025,
  0.005,
  0.01,
  0.025,
  0.05,
  0.1,
  0.25,
  0.5,
  1,
  2.5,
  5,
  10
])

/** From a filing's acceptance to its storage: seconds to an hour. */
const lagBoundaries = MetricBoundaries.fromIterable([1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600])

/**
 * Every answered HTTP request, tagged `method`, `route` (the pattern, never the raw path) and
 * `status`. A key rather than a metric: the request path makes one metric per set of tags from it
 * (see `RequestMetrics`).
 */
export const httpRequestDurationKey = MetricKey.histogram(
  "filings_http_request_duration_seconds",
  latencyBoundaries,
  "Time from a request's arrival to its response's head, by method, route pattern and status"
)

/** Jobs not yet completed or dead, tagged `queue` and `state` (`due`, `scheduled`, `running`). */
export const queueJobs = Metric.gauge("filings_queue_jobs", {
  description: "Jobs waiting or running in each queue, by state: due (the backlog), scheduled, running"
})

/** How long the queue's oldest due job has waited since it came due; 0 when nothing is due. Tagged `queue`. */
export const queueOldestDueAge = Metric.gauge("filings_queue_oldest_due_age_seconds", {
  description: "How long the oldest due job of each queue has waited since it came due"
})

/** From the regulator's acceptance of a filing to its storage here (followed and backfilled filings alike). */
export const edgarLag = Metric.histogram(
  "filings_edgar_lag_seconds",
  lagBoundaries,
  "Time from the regulator's acceptance of a filing to its storage"
)

/** Webhook delivery attempts, tagged `outcome`: `delivered`, `retrying` (failed, tried again later) or `failed` (for good). */
export const webhookAttempts = Metric.counter("filings_webhook_attempts", {
  description: "Webhook delivery attempts by outcome: delivered, retrying, failed",
  incremental: true
})

/**
 * Answers asked of a configured language model, tagged `use` (`summary`, `chat`) and `outcome`:
 * `model` (its answer was used) or `fallback` (it failed, was late, or its answer did not hold,
 * and the extractive model's stood instead).
 */
export const modelAnswers = Metric.counter("filings_model_answers", {
  description: "Answers asked of the configured language model by use and outcome (model or fallback)",
  incremental: true
})

/** Passage searches (`GET /v1/search`, `/admin/search` and chat's retrieval), successful or not. */
export const searchDuration = Metric.histogram(
  "filings_search_duration_seconds",
  latencyBoundaries,
  "Time of one passage search in the index"
)

/** Records the seconds `effect` took in `histogram`, whether it succeeds or fails. */
export const timed = <A, E, R>(
  histogram: Metric.Metric.Histogram<number>,
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  Effect.suspend(() => {
    const started = performance.now()
    return Effect.ensuring(
      effect,
      Effect.suspend(() => Metric.update(histogram, (performance.now() - started) / 1000))
    )
  })

/** Records a webhook attempt's outcome. */
export const countWebhookAttempt = (outcome: "delivered" | "retrying" | "failed") =>
  Metric.increment(Metric.tagged(webhookAttempts, "outcome", outcome))

/** Records whether a model's answer was used or the extractive one stood instead. */
export const countModelAnswer = (use: "summary" | "chat", outcome: "model" | "fallback") =>
  Metric.increment(Metric.tagged(Metric.tagged(modelAnswers, "use", use), "outcome", outcome))

/** Records a filing's lag from its acceptance (an ISO timestamp) to its storage; nothing without a readable time. */
export const recordEdgarLag = (acceptedAt: string | undefined, storedAtMillis: number) => {
  const accepted = acceptedAt === undefined ? Number.NaN : Date.parse(acceptedAt)
  return Number.isNaN(accepted)
    ? Effect.void
    : Metric.update(edgarLag, Math.max(0, (storedAtMillis - accepted) / 1000))
}

/**
 * Sets the queue gauges from `depths`. A queue seen before and absent now is empty: its gauges go
 * to 0 rather than keep their last value. Answers the queues seen so far.
 */
export const setQueueGauges = (
  depths: ReadonlyArray<JobQueue.QueueDepth>,
  nowMillis: number,
  seenBefore: ReadonlySet<string>
): Effect.Effect<ReadonlySet<string>> => {
  const empty = [...seenBefore].filter((queue) => !depths.some((depth) => depth.queue === queue)).map((queue) => ({
    queue,
    due: 0,
    scheduled: 0,
    running: 0,
    oldestDueAtMillis: Option.none<number>()
  }))
  return Effect.as(
    Effect.forEach([...depths, ...empty], (depth) => {
      const jobs = Metric.tagged(queueJobs, "queue", depth.queue)
      const age = Option.match(depth.oldestDueAtMillis, {
        onNone: () => 0,
        onSome: (dueAt) => Math.max(0, (nowMillis - dueAt) / 1000)
      })
      return Effect.all([
        Metric.set(Metric.tagged(jobs, "state", "due"), depth.due),
        Metric.set(Metric.tagged(jobs, "state", "scheduled"), depth.scheduled),
        Metric.set(Metric.tagged(jobs, "state", "running"), depth.running),
        Metric.set(Metric.tagged(queueOldestDueAge, "queue", depth.queue), age)
      ], { discard: true })
    }, { discard: true }),
    new Set([...seenBefore, ...depths.map((depth) => depth.queue)])
  )
}
