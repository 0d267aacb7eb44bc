/**
 * The `Authorization: Bearer <key>` check of every `/v1` route, and the per-key rate limit. Every
 * authenticated response, errors included, carries `X-RateLimit-Limit`, `X-RateLimit-Remaining`
 * and `X-RateLimit-Reset`; a request over the limit gets 429 with `Retry-After`.
 */
import { HttpApp, HttpServerResponse } from "@effect/platform"
import { Api, ApiError } from "@filings/domain"
import { RateLimitStore } from "@filings/storage"
import { Clock, Duration, Effect, Layer, Option } from "effect"
import { ApiKeys } from "../ApiKeys.js"
import { orServiceUnavailable } from "./StorageFailures.js"

const RateWindow = Duration.minutes(1)

const rateLimitHeaders = (decision: RateLimitStore.RateLimitDecision, nowMillis: number) => {
  const headers: Record<string, string> = {
    "x-ratelimit-limit": String(decision.limit),
    "x-ratelimit-remaining": String(decision.remaining),
    "x-ratelimit-reset": String(Math.ceil(decision.resetAtMillis / 1000))
  }
  if (!decision.allowed) {
    headers["retry-after"] = String(Math.max(1, Math.ceil((decision.resetAtMillis - nowMillis) / 1000)))
  }
  return headers
}

export const layer = Layer.effect(
  Api.Authorization,
  Effect.gen(function*() {
    const keys = yield* ApiKeys
    const limits = yield* RateLimitStore.RateLimitStore
    const unauthorized = new ApiError.Unauthorized({
      message: "a valid API key is required: send Authorization: Bearer <key>"
    })
    return Api.Authorization.of({
      apiKey: (token) =>
        Effect.gen(function*() {
          const key = yield* Effect.flatMap(
            keys.authenticate(token),
            Option.match({
              onNone: () => Effect.fail(unauthorized),
              onSome: Effect.succeed
            })
          )
          const decision = yield* limits.consume(`api-key:${key.id}`, key.rateLimit, RateWindow)
          const headers = rateLimitHeaders(decision, yield* Clock.currentTimeMillis)
          yield* HttpApp.appendPreResponseHandler((_request, response) =>
            Effect.succeed(HttpServerResponse.setHeaders(response, headers))
          )
          if (!decision.allowed) {
            return yield* new ApiError.RateLimitExceeded({
              message: `rate limit of ${decision.limit} requests per minute exceeded; retry after ${
                headers["retry-after"]
              } seconds`
            })
          }
          return { id: key.id, name: key.name, plan: key.plan, rateLimit: key.rateLimit }
        }).pipe(orServiceUnavailable)
    })
  })
)
