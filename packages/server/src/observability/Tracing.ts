/**
 * Traces to an OpenTelemetry collector over OTLP/HTTP, when the operator names one
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`): a span for every HTTP
 * request the server answers, every SQL statement (its text with placeholders, never its values),
 * every request to the regulator, to a webhook receiver or to a model, and one trace per job a
 * worker runs. Spans leave in batches from a fiber of their own; a collector that is down costs
 * lost spans, never a slower request.
 */
import * as OtlpSerialization from "@effect/opentelemetry/OtlpSerialization"
import * as OtlpTracer from "@effect/opentelemetry/OtlpTracer"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Layer, Option, Redacted } from "effect"

export interface Options {
  /** Where spans are posted: the collector's traces URL (`<base>/v1/traces` for a base URL). */
  readonly url: URL
  /** Headers for every export (a collector's API key, say). */
  readonly headers: Redacted.Redacted<Record<string, string>>
  /** `http/protobuf`, OTLP's default, or `http/json`. */
  readonly protocol: "http/protobuf" | "http/json"
  /** The service's name on every span: `service.name`. */
  readonly serviceName: string
}

/** The exporting tracer for `options`; none (Effect's own tracer, which exports nothing) without. */
export const layer = (options: Option.Option<Options>): Layer.Layer<never> =>
  Option.match(options, {
    onNone: () => Layer.empty,
    onSome: ({ headers, protocol, serviceName, url }) =>
      OtlpTracer.layer({
        url: url.href,
        resource: { serviceName },
        headers: Redacted.value(headers)
      }).pipe(
        Layer.provide(protocol === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf),
        Layer.provide(NodeHttpClient.layerUndici)
      )
  })
