/**
 * Storage failures at the HTTP edge: logged with their cause, answered with 503 and a message
 * that says nothing about the storage behind it.
 */
import { ApiError } from "@filings/domain"
import type { StorageError } from "@filings/storage"
import { Effect, Predicate } from "effect"

export const orServiceUnavailable = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catchIf(
    effect,
    (error): error is Extract<E, StorageError.StorageError> => Predicate.isTagged(error, "StorageError"),
    (error) =>
      Effect.zipRight(
        Effect.logError("storage failed", error),
        Effect.fail(new ApiError.ServiceUnavailable({ message: "storage is unavailable; retry later" }))
      )
  )
