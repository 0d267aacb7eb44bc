/**
 * Storage failures at the HTTP edge: logged with their cause, answered with 503 and a message
 * that says nothing about the storage behind it, and a `Retry-After` that tells clients when to
 * come back rather than hammer a server whose database is restarting.
 */
import { HttpApp, HttpServerResponse } from "@effect/platform"
import { ApiError } from "@filings/domain"
import type { StorageError } from "@filings/storage"
import { Effect, Predicate } from "effect"

/**
 * Seconds a client should wait before retrying after a 503. A database restart or a fail-over
 * takes seconds, and the server's connections come back on their own; five seconds lets a
 * well-behaved client find it back soon without a storm of retries meanwhile.
 */
export const retryAfterSeconds = 5

/** The headers every 503 for unavailable storage carries. */
export const serviceUnavailableHeaders: Readonly<Record<string, string>> = { "retry-after": String(retryAfterSeconds) }

export const serviceUnavailable = new ApiError.ServiceUnavailable({ message: "storage is unavailable; retry later" })

// The error is encoded by the API's own schema, so the header is added on the way out.
const withRetryAfter = HttpApp.appendPreResponseHandler((_request, response) =>
  Effect.succeed(HttpServerResponse.setHeaders(response, serviceUnavailableHeaders))
)

export const orServiceUnavailable = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catchIf(
    effect,
    (error): error is Extract<E, StorageError.StorageError> => Predicate.isTagged(error, "StorageError"),
    (error) =>
      Effect.logError("storage failed", error).pipe(
        Effect.zipRight(withRetryAfter),
        Effect.zipRight(Effect.fail(serviceUnavailable))
      )
  )
