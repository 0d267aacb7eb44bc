/**
 * One log line per request, as the platform's logger writes it, except that an API key given in the
 * query string (`api_key=`, which only a browser's EventSource needs) is written as `REDACTED`:
 * a key must never reach a log.
 */
import { type HttpApp, HttpMiddleware, HttpServerError, HttpServerRequest } from "@effect/platform"
import { Effect, FiberRef, LogLevel } from "effect"
import { queryKeyParameter } from "./Authorization.js"

const queryKey = new RegExp(`([?&]${queryKeyParameter}=)[^&#]*`, "g")

/** The request's URL without the value of a query-string key. */
export const redactedUrl = (url: string): string => url.replace(queryKey, "$1REDACTED")

/** Whether the URL carries a key in its query string. */
export const carriesQueryKey = (url: string): boolean => redactedUrl(url) !== url

const logged = <E, R>(app: HttpApp.Default<E, R>) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const exit = yield* Effect.exit(app)
    const annotations = (status: number) => ({
      "http.method": request.method,
      "http.url": redactedUrl(request.url),
      "http.status": status
    })
    if (exit._tag === "Success") {
      yield* Effect.annotateLogs(Effect.log("Sent HTTP response"), annotations(exit.value.status))
    } else {
      const [response, cause] = HttpServerError.causeResponseStripped(exit.cause)
      yield* Effect.annotateLogs(
        Effect.log(cause._tag === "Some" ? cause.value : "Sent HTTP response"),
        annotations(response.status)
      )
    }
    return yield* exit
  })

// The line is written at INFO; when the operator's level hides it, nothing is built for it (its
// annotations cost about a tenth of a small request's time).
export const logger = HttpMiddleware.make((app) =>
  Effect.flatMap(
    FiberRef.get(FiberRef.currentMinimumLogLevel),
    (minimum) => LogLevel.greaterThan(minimum, LogLevel.Info) ? app : logged(app)
  )
)
