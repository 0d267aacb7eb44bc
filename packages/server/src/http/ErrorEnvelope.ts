/**
 * Turns every failure the framework raises into the API's error envelope `{error:{code,message}}`:
 * request validation (path, query, body), described in the API's words, unknown routes (404),
 * wrong methods (405), malformed bodies, multipart parts over the parser's limits (413), and
 * unexpected defects (500, logged, never shown). Typed API errors pass through to be encoded by
 * their own schemas.
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
import { allowedMethods, bodyOf } from "./RouteTable.js"
import { serviceUnavailable, serviceUnavailableHeaders } from "./StorageFailures.js"

type Issue = HttpApiError.HttpApiDecodeError["issues"][number]

const isIndex = (part: PropertyKey): boolean => typeof part === "number" || /^\d+$/.test(String(part))

/**
 * A field as a client writes it: `history[0].role`. A list's index is left off the end (`doc_types`,
 * not `doc_types.0`): the message quotes the bad item, and a comma-separated query value has none.
 */
const fieldName = (path: ReadonlyArray<PropertyKey>): string =>
  (path.length > 0 && isIndex(path[path.length - 1]!) ? path.slice(0, -1) : path)
    .map((part, position) => isIndex(part) ? `[${String(part)}]` : position === 0 ? String(part) : `.${String(part)}`)
    .join("")

/** Effect's own wording of a value of the wrong type, used where a schema has no message of its own. */
const effectTypeMessage = /^Expected (.+?), actual (.*)$/s

/**
 * What Effect's name of an expected type means to a client: `must be a list` for
 * `ReadonlyArray<Ticker>`, never the name of a schema.
 */
const expectedInWords = (expected: string): string => {
  switch (expected) {
    case "string":
      return "must be a string"
    case "number":
      return "must be a number"
    case "boolean":
      return "must be true or false"
    case "an integer":
      return "must be a whole number"
    case "a non empty string":
      return "must not be empty"
    case "Timestamp":
      return "must be an ISO 8601 timestamp"
  }
  if (/^(ReadonlyArray<|readonly \[)/.test(expected)) return "must be a list"
  if (expected.startsWith("{") || /\((Encoded|Type) side\)$/.test(expected)) return "must be a JSON object"
  if (/^an? [a-z]/.test(expected)) return `must be ${expected}`
  return "has a value of the wrong type"
}

/** Whether a field's value is a list: in a query string, the parameter was given more than once. */
const isList = (actual: string): boolean => actual.startsWith("[")

/** The messages of the issues of one field, as readable sentences. */
const describeField = (path: ReadonlyArray<PropertyKey>, issues: ReadonlyArray<Issue>, fromQuery: boolean) => {
  const field = fieldName(path)
  const typeMessages = issues.map((issue) => effectTypeMessage.exec(issue.message))
  // A value outside a union of names fails once per name: say it once, with every name.
  const names = typeMessages.map((match) => match === null ? undefined : /^"(.*)"$/s.exec(match[1]!)?.[1])
  if (issues.length > 1 && names.every((name) => name !== undefined)) {
    return [`${field} must be one of: ${names.join(", ")}; got ${typeMessages[0]![2]}`]
  }
  return issues.map((issue, position) => {
    if (issue._tag === "Missing") {
      return isIndex(path[path.length - 1] ?? "") ? `${field} must hold at least one item` : `${field} is required`
    }
    const typeMessage = typeMessages[position]
    // A schema's own message, written for clients.
    if (typeMessage === null || typeMessage === undefined) return `${field} ${issue.message}`
    const [, expected = "", actual = ""] = typeMessage
    if (fromQuery && isList(actual)) {
      return `${field} must be given once in the query string (a list is one comma-separated value), got ${actual}`
    }
    return `${field} ${expectedInWords(expected)}, got ${actual}`
  })
}

/**
 * The decode error of a request as readable sentences, one for each bad field, that name the field,
 * what was wrong and what is allowed. `fromQuery` says the request has no body, so that a value
 * given as a list is a query parameter written twice. A body refused as a whole is described by the
 * error layer, which sees the request's headers.
 */
export const describeDecodeError = (
  error: HttpApiError.HttpApiDecodeError,
  options: { readonly fromQuery?: boolean } = {}
): string => {
  const byField = new Map<string, { readonly path: ReadonlyArray<PropertyKey>; readonly issues: Array<Issue> }>()
  for (const issue of error.issues) {
    const key = issue.path.map(String).join("\u0000")
    const entry = byField.get(key) ?? { path: issue.path, issues: [] }
    entry.issues.push(issue)
    byField.set(key, entry)
  }
  const sentences = [...byField.values()].flatMap(({ issues, path }) =>
    // A value refused whole can only be a body, which the error layer describes before coming here.
    path.length === 0
      ? ["the request body is not valid"]
      : describeField(path, issues, options.fromQuery === true)
  )
  return [...new Set(sentences)].join("; ")
}

/**
 * Why the body of a request was refused as a whole: sent as another type than its route reads,
 * or JSON that is no object. Undefined when the fault is in a field, or in the path.
 */
const bodyRefusal = (
  request: HttpServerRequest.HttpServerRequest,
  pathname: string,
  error: HttpApiError.HttpApiDecodeError
): string | undefined => {
  const body = bodyOf(request.method, pathname)
  if (body === undefined) return undefined
  // The path is decoded first: its failure says nothing of the body, which was not read.
  if (error.issues.some((issue) => body.pathParameters.includes(String(issue.path[0])))) return undefined
  const contentType = request.headers["content-type"]
  if (body.kind === "multipart") {
    return contentType !== undefined && /multipart\/form-data/i.test(contentType)
      ? undefined
      : `the request body must be a multipart/form-data upload, not ${contentType ?? "a body without Content-Type"}`
  }
  // Without a Content-Type the body is read as JSON.
  if (contentType !== undefined && !/application\/json/i.test(contentType)) {
    return `the request body must be JSON sent with Content-Type: application/json, not ${contentType}`
  }
  const whole = error.issues.find((issue) => issue.path.length === 0)
  if (whole === undefined) return undefined
  const isEmpty = request.headers["content-length"] === "0" ||
    (request.headers["content-length"] === undefined && request.headers["transfer-encoding"] === undefined)
  const actual = effectTypeMessage.exec(whole.message)?.[2]
  return `the request body must be a JSON object of named fields, got ${
    isEmpty ? "an empty body" : actual ?? "another value"
  }`
}

/** The message of a request that failed to decode: its body refused as a whole, or its bad fields. */
const describeRequestError = (error: HttpApiError.HttpApiDecodeError) =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
    const pathname = new URL(request.url, "http://localhost").pathname
    return bodyRefusal(request, pathname, error) ??
      describeDecodeError(error, { fromQuery: bodyOf(request.method, pathname) === undefined })
  })

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
    // A path of a route of this very method that the router still did not match is no wrong method.
    if (methods.length === 0 || methods.includes(request.method)) {
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
        respond(ApiError.ServiceUnavailableResponse, serviceUnavailable, 503, serviceUnavailableHeaders)
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
          Effect.flatMap(
            describeRequestError(error as HttpApiError.HttpApiDecodeError),
            (message) => new ApiError.InvalidRequest({ message })
          )
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
