/**
 * Turns every failure the framework raises into the API's error envelope `{error:{code,message}}`:
 * request validation (path, query, body), unknown routes (404), wrong methods (405), malformed
 * bodies, and unexpected defects (500, logged, never shown). Typed API errors pass through to be
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
import { Cause, Effect, Option, Schema } from "effect"
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

const routeNotFound = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const pathname = new URL(request.url, "http://localhost").pathname
  const methods = allowedMethods(pathname)
  if (methods.length === 0) {
    return yield* respond(
      ApiError.RouteNotFoundResponse,
      new ApiError.RouteNotFound({ message: `no route ${request.method} ${pathname}` }),
      404
    )
  }
  return yield* respond(
    ApiError.MethodNotAllowedResponse,
    new ApiError.MethodNotAllowed({
      message: `${pathname} does not accept ${request.method}; it accepts ${methods.join(", ")}`
    }),
    405,
    { allow: methods.join(", ") }
  )
})

const isMalformedBody = (defect: unknown): boolean =>
  (defect instanceof HttpServerError.RequestError && defect.reason === "Decode") ||
  defect instanceof Multipart.MultipartError

export const layer = HttpApiBuilder.middleware(Api.FilingsApi, (app) =>
  app.pipe(
    Effect.catchIf(
      (error: unknown) => error instanceof HttpApiError.HttpApiDecodeError,
      (error) => new ApiError.InvalidRequest({ message: describeDecodeError(error as HttpApiError.HttpApiDecodeError) })
    ),
    Effect.catchAllCause((cause): Effect.Effect<
      HttpServerResponse.HttpServerResponse,
      ApiError.InvalidRequest | ApiError.InternalError,
      HttpServerRequest.HttpServerRequest
    > => {
      // The static error type says InvalidRequest, but the router fails with its own errors too.
      const failure: Option.Option<unknown> = Cause.failureOption(cause)
      if (Option.isSome(failure) && failure.value instanceof HttpServerError.RouteNotFound) return routeNotFound
      if (Option.isSome(failure) && failure.value instanceof Multipart.MultipartError) {
        return Effect.fail(
          new ApiError.InvalidRequest({ message: `malformed multipart body: ${failure.value.reason}` })
        )
      }
      const defect = Cause.dieOption(cause)
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
