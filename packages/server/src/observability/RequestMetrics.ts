/**
 * Measures every HTTP request into `filings_http_request_duration_seconds`, by method, route
 * pattern and status: the time until the response's head is ready (a stream's events after that
 * are not counted). A failure the framework turns into a response counts with that response's status.
 */
import { HttpMiddleware, HttpServerError, HttpServerRequest } from "@effect/platform"
import { Effect, Exit, Metric } from "effect"
import { routeOf } from "../http/RouteTable.js"
import { httpRequestDuration } from "./ServerMetrics.js"

/** HEAD is answered by the GET route. */
const routedMethod = (method: string) => (method === "HEAD" ? "GET" : method)

export const measured = HttpMiddleware.make((app) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const started = performance.now()
    const exit = yield* Effect.exit(app)
    const seconds = (performance.now() - started) / 1000
    const status = Exit.isSuccess(exit)
      ? exit.value.status
      : HttpServerError.causeResponseStripped(exit.cause)[0].status
    const pathname = request.url.split("?", 1)[0] ?? "/"
    yield* Metric.update(
      httpRequestDuration.pipe(
        Metric.tagged("method", request.method),
        Metric.tagged("route", routeOf(routedMethod(request.method), pathname)),
        Metric.tagged("status", String(status))
      ),
      seconds
    )
    return yield* exit
  })
)
