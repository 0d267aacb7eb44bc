/**
 * The `Authorization: Bearer <key>` check of every `/v1` route, and the per-key rate limit. Every
 * authenticated response, errors included, carries `X-RateLimit-Limit`, `X-RateLimit-Remaining`
 * and `X-RateLimit-Reset`; a request over the limit gets 429 with `Retry-After`. A request no
 * route matches (404, 405) is charged the same way when it carries a valid key, so its answer
 * has the headers too.
 */
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Api, ApiError } from "@filings/domain"
import { type ApiKeyStore, RateLimitStore, type StorageError } from "@filings/storage"
import { Clock, Duration, Effect, Layer, Option, Redacted } from "effect"
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

/** A request charged to a valid key: the key, and the headers its answer carries. */
export interface Charged {
  readonly key: ApiKeyStore.ApiKeyRecord
  readonly headers: Record<string, string>
  /** The 429 to answer with when the key has used up its minute. */
  readonly refusal: Option.Option<ApiError.RateLimitExceeded>
}

/**
 * Checks a presented key and charges one request to it; none when the key is unknown or revoked
 * (nothing is charged then).
 */
export const makeCharge = Effect.gen(function*() {
  const keys = yield* ApiKeys
  const limits = yield* RateLimitStore.RateLimitStore
  return (token: Redacted.Redacted<string>): Effect.Effect<Option.Option<Charged>, StorageError.StorageError> =>
    Effect.gen(function*() {
      const found = yield* keys.authenticate(token)
      if (Option.isNone(found)) return Option.none()
      const key = found.value
      const decision = yield* limits.consume(`api-key:${key.id}`, key.rateLimit, RateWindow)
      const headers = rateLimitHeaders(decision, yield* Clock.currentTimeMillis)
      const refusal = decision.allowed ? Option.none() : Option.some(
        new ApiError.RateLimitExceeded({
          message: `rate limit of ${decision.limit} requests per minute exceeded; retry after ${
            headers["retry-after"]
          } seconds`
        })
      )
      return Option.some({ key, headers, refusal })
    })
})

/** Judges a presented key: the key, or 401 / 429; every answer to a known key carries its rate-limit headers. */
const makeAuthenticate = Effect.gen(function*() {
  const charge = yield* makeCharge
  return (token: Redacted.Redacted<string>, unauthorized: ApiError.Unauthorized) =>
    Effect.gen(function*() {
      const charged = yield* charge(token)
      if (Option.isNone(charged)) return yield* unauthorized
      const { headers, key, refusal } = charged.value
      yield* HttpApp.appendPreResponseHandler((_request, response) =>
        Effect.succeed(HttpServerResponse.setHeaders(response, headers))
      )
      if (Option.isSome(refusal)) return yield* refusal.value
      return { id: key.id, name: key.name, plan: key.plan, rateLimit: key.rateLimit }
    }).pipe(orServiceUnavailable)
})

export const layer = Layer.effect(
  Api.Authorization,
  Effect.gen(function*() {
    const authenticate = yield* makeAuthenticate
    const unauthorized = new ApiError.Unauthorized({
      message: "a valid API key is required: send Authorization: Bearer <key>"
    })
    return Api.Authorization.of({ apiKey: (token) => authenticate(token, unauthorized) })
  })
)

/** The query parameter a browser's EventSource gives its key in. */
export const queryKeyParameter = "api_key"

const bearerPrefix = /^bearer\s+/i

/**
 * The key of a stream request: from `Authorization: Bearer` when the header is there, else from the
 * `api_key` query parameter (a browser's EventSource cannot send headers).
 */
export const streamLayer = Layer.effect(
  Api.StreamAuthorization,
  Effect.gen(function*() {
    const authenticate = yield* makeAuthenticate
    const unauthorized = new ApiError.Unauthorized({
      message: "a valid API key is required: send Authorization: Bearer <key>, or api_key=<key> in the query"
    })
    return Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const query = yield* HttpServerRequest.ParsedSearchParams
      const header = request.headers.authorization
      const fromQuery = query[queryKeyParameter]
      const token = header !== undefined
        ? header.replace(bearerPrefix, "")
        : typeof fromQuery === "string"
        ? fromQuery
        : ""
      return yield* authenticate(Redacted.make(token), unauthorized)
    })
  })
)
