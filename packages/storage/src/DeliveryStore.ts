/**
 * The delivery store: one delivery per (event, subscription), with its id (the same on every
 * retry, so receivers can drop duplicates), its state and the log of its attempts.
 *
 * @module
 */
import { Context, type Effect, type Option } from "effect"
import type { StorageError } from "./StorageError.js"

/**
 * `pending`: to be attempted; `delivered`: a 2xx came back; `failed`: every attempt failed;
 * `skipped`: the subscription was paused or failed when the event came (recoverable).
 */
export type DeliveryState = "pending" | "delivered" | "failed" | "skipped"

export interface Delivery {
  /** `dlv_` and a random part; the `X-Service-Delivery-Id` of every attempt. */
  readonly id: string
  readonly subscriptionId: string
  readonly eventId: string
  readonly eventSequence: number
  readonly eventType: string
  readonly state: DeliveryState
  readonly attempts: number
  readonly createdAtMillis: number
  readonly lastAttemptAtMillis: number | null
  /** The receiver's HTTP status of the last attempt, when it answered. */
  readonly lastStatus: number | null
  /** Why the last attempt failed: a status, a time-out, a refused address. */
  readonly lastError: string | null
  readonly nextAttemptAtMillis: number | null
  readonly deliveredAtMillis: number | null
}

export interface NewDelivery {
  readonly id: string
  readonly subscriptionId: string
  readonly eventId: string
  readonly eventSequence: number
  readonly eventType: string
  readonly state: "pending" | "skipped"
  readonly createdAtMillis: number
}

export interface AttemptOutcome {
  readonly atMillis: number
  readonly status: number | null
  readonly error: string | null
  /** `delivered` on a 2xx; `pending` with the next attempt's time; `failed` after the last. */
  readonly state: "delivered" | "pending" | "failed"
  readonly nextAttemptAtMillis: number | null
}

export interface Service {
  /**
   * Records the deliveries whose (subscription, event) pair is new, all or none; returns those
   * recorded by this call. Two dispatchers recording the same event create each delivery once.
   */
  readonly record: (deliveries: ReadonlyArray<NewDelivery>) => Effect.Effect<ReadonlyArray<Delivery>, StorageError>
  readonly find: (id: string) => Effect.Effect<Option.Option<Delivery>, StorageError>
  /** Counts the attempt and moves the delivery to the outcome's state. */
  readonly recordAttempt: (id: string, outcome: AttemptOutcome) => Effect.Effect<Option.Option<Delivery>, StorageError>
  /** A pending delivery whose subscription was paused or failed before it was sent: `skipped`. */
  readonly markSkipped: (id: string) => Effect.Effect<Option.Option<Delivery>, StorageError>
  /** Back to `pending`, attempts kept (a redelivery, or a recovery of a skipped one). */
  readonly requeue: (id: string) => Effect.Effect<Option.Option<Delivery>, StorageError>
  /** A subscription's deliveries, newest first, `limit` at most, before a sequence for paging. */
  readonly list: (
    subscriptionId: string,
    options: { readonly limit: number; readonly beforeSequence?: number | undefined }
  ) => Effect.Effect<ReadonlyArray<Delivery>, StorageError>
  /**
   * A subscription's deliveries that were not delivered, skipped or failed, created since a time,
   * oldest first: what a recovery sends again.
   */
  readonly undeliveredSince: (
    subscriptionId: string,
    sinceMillis: number
  ) => Effect.Effect<ReadonlyArray<Delivery>, StorageError>
}

export class DeliveryStore extends Context.Tag("@filings/storage/DeliveryStore")<DeliveryStore, Service>() {}
