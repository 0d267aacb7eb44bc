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
import { Duration, Effect, Layer, Option, Redacted } from "effect"
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
  const chargeKey = (key: ApiKeyStore.ApiKeyRecord) =>
    Effect.flatMap(
      limits.consume(`api-key:${key.id}`, key.rateLimit, RateWindow),
      (decision) =>
        Effect.clockWith((clock): Effect.Effect<Option.Option<Charged>> => {
          const headers = rateLimitHeaders(decision, clock.unsafeCurrentTimeMillis())
          const refusal = decision.allowed ? Option.none() : Option.some(
            new ApiError.RateLimitExceeded({
              message: `rate limit of ${decision.limit} requests per minute exceeded; retry after ${
                headers["retry-after"]
              } seconds`
            })
          )
          return Effect.succeed(Option.some({ key, headers, refusal }))
        })
    )
  // Combinators rather than generators here and below: this runs on every request.
  return (token: Redacted.Redacted<string>): Effect.Effect<Option.Option<Charged>, StorageError.StorageError> =>
    Effect.flatMap(
      keys.authenticate(token),
      Option.match({ onNone: () => Effect.succeed(Option.none()), onSome: chargeKey })
    )
})

/** Judges a presented key: the key, or 401 / 429; every answer to a known key carries its rate-limit headers. */
const makeAuthenticate = Effect.gen(function*() {
  const charge = yield* makeCharge
  const judge = (
    charged: Option.Option<Charged>,
    unauthorized: ApiError.Unauthorized
  ): Effect.Effect<Api.CurrentApiKey["Type"], ApiError.Unauthorized | ApiError.RateLimitExceeded> => {
    if (Option.isNone(charged)) return Effect.fail(unauthorized)
    const { headers, key, refusal } = charged.value
    const withHeaders = HttpApp.appendPreResponseHandler((_request, response) =>
      Effect.succeed(HttpServerResponse.setHeaders(response, headers))
    )
    return Option.isSome(refusal)
      ? Effect.zipRight(withHeaders, Effect.fail(refusal.value))
      : Effect.as(withHeaders, { id: key.id, name: key.name, plan: key.plan, rateLimit: key.rateLimit })
  }
  return (token: Redacted.Redacted<string>, unauthorized: ApiError.Unauthorized) =>
    orServiceUnavailable(Effect.flatMap(charge(token), (charged) => judge(charged, unauthorized)))
})

const keyRequired = new ApiError.Unauthorized({
  message: "a valid API key is required: send Authorization: Bearer <key>"
})

export const layer = Layer.effect(
  Api.Authorization,
  Effect.map(
    makeAuthenticate,
    (authenticate) => Api.Authorization.of({ apiKey: (token) => authenticate(token, keyRequired) })
  )
)

/** The query parameter a browser's EventSource gives its key in. */
export const queryKeyParameter = "api_key"

const bearerPrefix = /^bearer\s+/i

const streamKeyRequired = new ApiError.Unauthorized({
  message: "a valid API key is required: send Authorization: Bearer <key>, or api_key=<key> in the query"
})

/**
 * The key of a stream request: from `Authorization: Bearer` when the header is there, else from the
 * `api_key` query parameter (a browser's EventSource cannot send headers).
 */
export const streamLayer = Layer.effect(
  Api.StreamAuthorization,
  Effect.map(makeAuthenticate, (authenticate) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const query = yield* HttpServerRequest.ParsedSearchParams
      const header = request.headers.authorization
      const fromQuery = query[queryKeyParameter]
      const token = header !== undefined
        ? header.replace(bearerPrefix, "")
        : typeof fromQuery === "string"
        ? fromQuery
        : ""
      return yield* authenticate(Redacted.make(token), streamKeyRequired)
    }))
)
