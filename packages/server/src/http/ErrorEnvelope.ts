/**
 * Turns every failure the framework raises into the API's error envelope `{error:{code,message}}`:
 * request validation (path, query, body), unknown routes (404), wrong methods (405), malformed
 * bodies, multipart parts over the parser's limits (413), and unexpected defects (500, logged,
 * never shown). Typed API errors pass through to be
 * encoded by their own schemas.
 */
import {
  HttpApiBuilder,
  HttpApiError,
  HttpServerError,
  HttpServerRequest,
  HttpServerResponse,
  Multipart
} from "@effect/platform"
import { Api, ApiError } from "@filings/domain"
import { Cause, Effect, Option, Redacted, Schema } from "effect"
import * as Authorization from "./Authorization.js"
import * as BodyLimits from "./BodyLimits.js"
import { allowedMethods } from "./RouteTable.js"

type Issue = HttpApiError.HttpApiDecodeError["issues"][number]

const describeIssue = (issue: Issue): string => {
  const field = issue.path.map(String).join(".")
  if (field === "") return issue.message
  return issue.message === "is missing" ? `${field} is required` : `${field} ${issue.message}`
}

/** The decode error of a request as one readable sentence that names each bad field. */
export const describeDecodeError = (error: HttpApiError.HttpApiDecodeError): string =>
  [...new Set(error.issues.map(describeIssue))].join("; ")

const respond = <A, I>(schema: Schema.Schema<A, I>, error: A, status: number, headers: Record<string, string> = {}) =>
  HttpServerResponse.json(Schema.encodeSync(schema)(error), { status, headers }).pipe(Effect.orDie)

/** The key of an `Authorization: Bearer <key>` header; undefined when there is none. */
const bearerToken = (header: string | undefined): string | undefined => {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "")
  return match?.[1]
}

/**
 * 404 for an unknown path, 405 for a known path and the wrong method. A request that carries a
 * valid key is charged to it like any other, so the answer has the rate-limit headers (or is the
 * 429 of a key over its limit).
 */
const routeNotFound = (charge: Effect.Effect.Success<typeof Authorization.makeCharge>) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const pathname = new URL(request.url, "http://localhost").pathname
    const token = bearerToken(request.headers.authorization)
    const charged = token === undefined ? Option.none() : yield* charge(Redacted.make(token))
    const rateHeaders = Option.match(charged, { onNone: () => ({}), onSome: ({ headers }) => headers })
    if (Option.isSome(charged) && Option.isSome(charged.value.refusal)) {
      return yield* respond(ApiError.RateLimitExceededResponse, charged.value.refusal.value, 429, rateHeaders)
    }
    const methods = allowedMethods(pathname)
    if (methods.length === 0) {
      return yield* respond(
        ApiError.RouteNotFoundResponse,
        new ApiError.RouteNotFound({ message: `no route ${request.method} ${pathname}` }),
        404,
        rateHeaders
      )
    }
    return yield* respond(
      ApiError.MethodNotAllowedResponse,
      new ApiError.MethodNotAllowed({
        message: `${pathname} does not accept ${request.method}; it accepts ${methods.join(", ")}`
      }),
      405,
      { ...rateHeaders, allow: methods.join(", ") }
    )
  }).pipe(
    Effect.catchTag("StorageError", (error) =>
      Effect.zipRight(
        Effect.logError("storage failed", error),
        respond(
          ApiError.ServiceUnavailableResponse,
          new ApiError.ServiceUnavailable({ message: "storage is unavailable; retry later" }),
          503
        )
      ))
  )

const isMalformedBody = (defect: unknown): boolean =>
  (defect instanceof HttpServerError.RequestError && defect.reason === "Decode") ||
  defect instanceof Multipart.MultipartError

/** A multipart body over one of the parser's own limits (a field, a file, the whole body). */
const isOversizedMultipart = (error: unknown): boolean =>
  error instanceof Multipart.MultipartError &&
  (error.reason === "FieldTooLarge" || error.reason === "FileTooLarge" || error.reason === "BodyTooLarge")

const multipartTooLarge = Effect.sync(() =>
  BodyLimits.payloadTooLarge("a part of the multipart body is larger than the server takes")
)

export const layer = HttpApiBuilder.middleware(
  Api.FilingsApi,
  Effect.map(Authorization.makeCharge, (charge) => (app) =>
    app.pipe(
      Effect.catchIf(
        (error: unknown) => error instanceof HttpApiError.HttpApiDecodeError,
        (error) =>
          new ApiError.InvalidRequest({ message: describeDecodeError(error as HttpApiError.HttpApiDecodeError) })
      ),
      Effect.catchAllCause((cause): Effect.Effect<
        HttpServerResponse.HttpServerResponse,
        ApiError.InvalidRequest | ApiError.InternalError,
        HttpServerRequest.HttpServerRequest
      > => {
        // The static error type says InvalidRequest, but the router fails with its own errors too.
        const failure: Option.Option<unknown> = Cause.failureOption(cause)
        if (Option.isSome(failure) && failure.value instanceof HttpServerError.RouteNotFound) {
          return routeNotFound(charge)
        }
        const defect = Cause.dieOption(cause)
        if (
          (Option.isSome(failure) && isOversizedMultipart(failure.value)) ||
          (Option.isSome(defect) && isOversizedMultipart(defect.value))
        ) {
          return multipartTooLarge
        }
        if (Option.isSome(failure) && failure.value instanceof Multipart.MultipartError) {
          return Effect.fail(
            new ApiError.InvalidRequest({ message: `malformed multipart body: ${failure.value.reason}` })
          )
        }
        if (Option.isSome(defect) && isMalformedBody(defect.value)) {
          return Effect.fail(new ApiError.InvalidRequest({ message: "the request body is not well-formed JSON" }))
        }
        if (Option.isNone(failure) && !Cause.isInterruptedOnly(cause)) {
          return Effect.zipRight(
            Effect.logError("unexpected failure while handling a request", cause),
            Effect.fail(new ApiError.InternalError({ message: "internal error; the server log has the details" }))
          )
        }
        return Effect.failCause(cause)
      })
    ))
)
