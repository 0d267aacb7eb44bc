/**
 * The process's metrics in the Prometheus text format, for `GET /metrics`. Effect's metrics (the
 * server's own, the EDGAR client's, the runtime's fibers) reach an OpenTelemetry reader through
 * `@effect/opentelemetry`, and OpenTelemetry's Prometheus exporter writes them out; the exporter
 * is only read, never listening on a port of its own. Queue depths live in the database, so a
 * scrape reads them first: on PostgreSQL every instance reports the same queues (take the `max`).
 */
import * as OtelMetrics from "@effect/opentelemetry/Metrics"
import * as OtelResource from "@effect/opentelemetry/Resource"
import { JobQueue } from "@filings/storage"
import { PrometheusExporter, PrometheusSerializer } from "@opentelemetry/exporter-prometheus"
import { Clock, Context, Effect, Layer, Ref } from "effect"
import { setQueueGauges } from "./ServerMetrics.js"

export interface Service {
  /** Every metric now, as a Prometheus text exposition. */
  readonly scrape: Effect.Effect<string>
}

export class PrometheusMetrics extends Context.Tag("@filings/server/observability/PrometheusMetrics")<
  PrometheusMetrics,
  Service
>() {}

const make = (exporter: PrometheusExporter) =>
  Effect.gen(function*() {
    const queue = yield* JobQueue.JobQueue
    const serializer = new PrometheusSerializer()
    const queuesSeen = yield* Ref.make<ReadonlySet<string>>(new Set())

    const refreshQueues = Effect.gen(function*() {
      const depths = yield* queue.depths
      const now = yield* Clock.currentTimeMillis
      const seen = yield* setQueueGauges(depths, now, yield* Ref.get(queuesSeen))
      yield* Ref.set(queuesSeen, seen)
    }).pipe(
      // A scrape still answers when the database does not: the queue gauges keep their last values.
      Effect.catchAll((error) => Effect.logWarning("metrics: the queues could not be read", error.message))
    )

    return PrometheusMetrics.of({
      scrape: Effect.gen(function*() {
        yield* refreshQueues
        const { errors, resourceMetrics } = yield* Effect.promise(() => exporter.collect())
        if (errors.length > 0) yield* Effect.logWarning("metrics: some metrics could not be collected", errors)
        return serializer.serialize(resourceMetrics)
      })
    })
  })

/** The exporter, registered with the process's Effect metrics for as long as the layer lives. */
export const layer: Layer.Layer<PrometheusMetrics, never, JobQueue.JobQueue> = Layer.unwrapEffect(
  Effect.sync(() => {
    // Scope labels would repeat one library's name on every series; the service is named once, in target_info.
    const exporter = new PrometheusExporter({ preventServerStart: true, withoutScopeInfo: true })
    return Layer.effect(PrometheusMetrics, make(exporter)).pipe(
      Layer.provide(OtelMetrics.layer(() => exporter)),
      Layer.provide(OtelResource.layer({ serviceName: "filings" }))
    )
  })
)
