/**
 * The delivery store: one delivery per (event, subscription), with its id (the same on every
 * retry, so receivers can drop duplicates), its state and the log of its attempts.
 *
 * @module
 */
import { Context, type Duration, type Effect, type Option, Schema } from "effect"
import type { StorageError } from "./StorageError.js"

/**
 * `pending`: to be attempted; `delivered`: a 2xx came back; `failed`: every attempt failed;
 * `skipped`: the subscription was paused or failed when the event came (recoverable).
 */
export const DeliveryState = Schema.Literal("pending", "delivered", "failed", "skipped")
export type DeliveryState = typeof DeliveryState.Type

/** A field null until something happens, whose SQL column is NULL (so absent from a row) until then. */
const nullUntilSet = <S extends Schema.Schema.Any>(schema: S, column: string) =>
  Schema.optionalWith(Schema.NullOr(schema), { default: () => null }).pipe(Schema.fromKey(column))

/**
 * A delivery of one event to one subscription, with its state and its last attempt. Encoded, its
 * keys are the SQL columns' (`event_sequence`).
 */
export const Delivery = Schema.Struct({
  /** `dlv_` and a random part; the `X-Service-Delivery-Id` of every attempt. */
  id: Schema.String,
  subscriptionId: Schema.String.pipe(Schema.propertySignature, Schema.fromKey("subscription_id")),
  eventId: Schema.String.pipe(Schema.propertySignature, Schema.fromKey("event_id")),
  /** The event's sequence in the event log: the order of `list`. */
  eventSequence: Schema.Number.pipe(Schema.propertySignature, Schema.fromKey("event_sequence")),
  eventType: Schema.String.pipe(Schema.propertySignature, Schema.fromKey("event_type")),
  state: DeliveryState,
  /** Attempts made so far, kept across a requeue. */
  attempts: Schema.Number,
  createdAtMillis: Schema.Number.pipe(Schema.propertySignature, Schema.fromKey("created_at_ms")),
  /** Null until the first attempt. */
  lastAttemptAtMillis: nullUntilSet(Schema.Number, "last_attempt_at_ms"),
  /** The receiver's HTTP status of the last attempt, when it answered. */
  lastStatus: nullUntilSet(Schema.Number, "last_status"),
  /** Why the last attempt failed: a status, a time-out, a refused address. */
  lastError: nullUntilSet(Schema.String, "last_error"),
  /** When a pending delivery is next tried after a failed attempt; null otherwise. */
  nextAttemptAtMillis: nullUntilSet(Schema.Number, "next_attempt_at_ms"),
  /** When a 2xx came back; null until then. */
  deliveredAtMillis: nullUntilSet(Schema.Number, "delivered_at_ms")
})
export type Delivery = typeof Delivery.Type

/**
 * A delivery to record: `pending` to be sent, or `skipped` when its subscription was paused or
 * failed when the event came. It starts with no attempts.
 */
export interface NewDelivery {
  readonly id: string
  readonly subscriptionId: string
  readonly eventId: string
  readonly eventSequence: number
  readonly eventType: string
  readonly state: "pending" | "skipped"
  readonly createdAtMillis: number
}

/** What one attempt came to: when it was made, the receiver's status or the error, and what next. */
export interface AttemptOutcome {
  readonly atMillis: number
  readonly status: number | null
  readonly error: string | null
  /** `delivered` on a 2xx; `pending` with the next attempt's time; `failed` after the last. */
  readonly state: "delivered" | "pending" | "failed"
  readonly nextAttemptAtMillis: number | null
}

/**
 * What a delivery store does. An unknown delivery id is none, never an error; every operation fails
 * with `StorageError` when the backing store does.
 */
export interface Service {
  /**
   * Records the deliveries whose (subscription, event) pair is new, all or none; returns those
   * recorded by this call, in the given order. Two dispatchers recording the same event create each
   * delivery once. A delivery whose subscription is not in the `WebhookStore` fails the whole batch
   * with `StorageError`.
   */
  readonly record: (deliveries: ReadonlyArray<NewDelivery>) => Effect.Effect<ReadonlyArray<Delivery>, StorageError>
  /** The delivery with this id; none when unknown (or removed with its subscription). */
  readonly find: (id: string) => Effect.Effect<Option.Option<Delivery>, StorageError>
  /**
   * Counts the attempt and moves the delivery to the outcome's state (`deliveredAtMillis` set on
   * `delivered`); returns the delivery as it now is, or none when the id is unknown.
   */
  readonly recordAttempt: (id: string, outcome: AttemptOutcome) => Effect.Effect<Option.Option<Delivery>, StorageError>
  /** A pending delivery whose subscription was paused or failed before it was sent: `skipped`. */
  readonly markSkipped: (id: string) => Effect.Effect<Option.Option<Delivery>, StorageError>
  /**
   * Back to `pending` with no next attempt time, attempts kept (a redelivery, or a recovery of a
   * skipped one); none when the id is unknown.
   */
  readonly requeue: (id: string) => Effect.Effect<Option.Option<Delivery>, StorageError>
  /**
   * A subscription's deliveries, newest event first, `limit` at most; with `beforeSequence`, only
   * those of events before it (exclusive), so the last sequence of a page asks for the next one.
   */
  readonly list: (
    subscriptionId: string,
    options: { readonly limit: number; readonly beforeSequence?: number | undefined }
  ) => Effect.Effect<ReadonlyArray<Delivery>, StorageError>
  /**
   * A subscription's deliveries that were not delivered, skipped or failed, created at or after a
   * time, oldest first: what a recovery sends again.
   */
  readonly undeliveredSince: (
    subscriptionId: string,
    sinceMillis: number
  ) => Effect.Effect<ReadonlyArray<Delivery>, StorageError>
  /**
   * Removes the deliveries of every subscription that were delivered `olderThan` ago or longer, and
   * answers how many. Pending, skipped and failed deliveries are kept, whatever their age: they are
   * what a recovery sends again.
   */
  readonly pruneDelivered: (olderThan: Duration.DurationInput) => Effect.Effect<number, StorageError>
}

/**
 * The delivery store as an Effect service, provided by `MemoryStorage.deliveryStore` (over the
 * `WebhookStore` it is given) or an adapter's layer.
 */
export class DeliveryStore extends Context.Tag("@filings/storage/DeliveryStore")<DeliveryStore, Service>() {}
