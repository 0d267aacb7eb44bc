/**
 * Measures every HTTP request into `filings_http_request_duration_seconds`, by method, route
 * pattern and status: the time until the response's head is ready (a stream's events after that
 * are not counted). A failure the framework turns into a response counts with that response's status.
 */
import { HttpMiddleware, HttpServerError, HttpServerRequest } from "@effect/platform"
import { Effect, Exit, Metric, MetricKey, MetricLabel } from "effect"
import { routeOf } from "../http/RouteTable.js"
import { httpRequestDurationKey } from "./ServerMetrics.js"

/** HEAD is answered by the GET route. */
const routedMethod = (method: string) => (method === "HEAD" ? "GET" : method)

type TaggedDuration = Metric.Metric.Histogram<number>

/**
 * The histogram of one set of labels, its key tagged once. (`Metric.tagged` would build the tagged
 * key anew, and hash it to find it in the registry, at every update: that cost more than the rest
 * of the measuring together.) Route patterns, statuses and the methods Node's parser accepts are
 * few, so this holds a few dozen entries at most.
 */
const taggedDurations = new Map<string, TaggedDuration>()

const durationOf = (method: string, route: string, status: number): TaggedDuration => {
  const labels = `${method} ${route} ${status}`
  let tagged = taggedDurations.get(labels)
  if (tagged === undefined) {
    tagged = Metric.fromMetricKey(
      MetricKey.taggedWithLabels(httpRequestDurationKey, [
        MetricLabel.make("method", method),
        MetricLabel.make("route", route),
        MetricLabel.make("status", String(status))
      ])
    )
    taggedDurations.set(labels, tagged)
  }
  return tagged
}

export const measured = HttpMiddleware.make((app) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const started = performance.now()
    return Effect.flatMap(Effect.exit(app), (exit) => {
      const seconds = (performance.now() - started) / 1000
      const status = Exit.isSuccess(exit)
        ? exit.value.status
        : HttpServerError.causeResponseStripped(exit.cause)[0].status
      const route = routeOf(routedMethod(request.method), request.url.split("?", 1)[0] ?? "/")
      return Effect.zipRight(Metric.update(durationOf(request.method, route, status), seconds), exit)
    })
  })
)
