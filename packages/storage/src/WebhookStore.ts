/**
 * The webhook store: customers' subscriptions, each owned by the API key that created it, so one
 * key never sees or touches another's. A subscription keeps its signing secret (needed to sign
 * every delivery, so it cannot be hashed), its status, and where in the event log it started.
 *
 * @module
 */
import type { Redacted } from "effect"
import { Context, type Effect, type Option, Schema } from "effect"
import type { StorageError } from "./StorageError.js"

/**
 * `active`: receives its events; `paused`: set aside by its owner; `failed`: set aside by a delivery
 * worker after failed deliveries. Deliveries of the latter two are recorded as skipped.
 */
export const SubscriptionStatus = Schema.Literal("active", "paused", "failed")
export type SubscriptionStatus = typeof SubscriptionStatus.Type

/**
 * Which events a subscription receives: those of these tickers and document types. A filter absent
 * or empty lets every one through.
 */
export const SubscriptionFilters = Schema.Struct({
  tickers: Schema.optional(Schema.Array(Schema.String)),
  docTypes: Schema.optional(Schema.Array(Schema.String))
})
export type SubscriptionFilters = typeof SubscriptionFilters.Type

/**
 * A webhook subscription: where events go, which ones, how they are signed, and its status.
 * Encoded, its keys are the SQL columns' (`owner_key_id`), the secret in clear, a NULL
 * `last_triggered_at_ms` standing for no delivery yet.
 */
export const Subscription = Schema.Struct({
  /** `wh_` and a random part. */
  id: Schema.String,
  /** The id of the API key that created it. */
  ownerKeyId: Schema.String.pipe(Schema.propertySignature, Schema.fromKey("owner_key_id")),
  /** Where deliveries are posted. */
  url: Schema.String,
  /** The event types it receives: `filing.new`, ... */
  events: Schema.Array(Schema.String),
  filters: SubscriptionFilters,
  /** The signing secret, kept as given (it signs every delivery) and read back whole. */
  secret: Schema.Redacted(Schema.String),
  status: SubscriptionStatus,
  createdAtMillis: Schema.Number.pipe(Schema.propertySignature, Schema.fromKey("created_at_ms")),
  /** When a delivery to it last succeeded; null before the first. */
  lastTriggeredAtMillis: Schema.optionalWith(Schema.NullOr(Schema.Number), { default: () => null }).pipe(
    Schema.fromKey("last_triggered_at_ms")
  ),
  /** The event log's sequence when it was created: it receives the events after it. */
  startSequence: Schema.Number.pipe(Schema.propertySignature, Schema.fromKey("start_sequence"))
})
export type Subscription = typeof Subscription.Type

/** What `update` changes: each field given replaces the stored one (filters whole); absent ones are kept. */
export interface SubscriptionChanges {
  readonly url?: string | undefined
  readonly events?: ReadonlyArray<string> | undefined
  readonly filters?: SubscriptionFilters | undefined
  readonly status?: SubscriptionStatus | undefined
  /** A new signing secret, which replaces the old one for every delivery from then on. */
  readonly secret?: Redacted.Redacted<string> | undefined
}

/**
 * What a webhook store does. The owner's operations (`find`, `list`, `update`, `remove`) see only
 * the owner's subscriptions: another key's is as absent as an unknown id. Every operation fails with
 * `StorageError` when the backing store does.
 */
export interface Service {
  /** Stores a new subscription; fails with `StorageError`, keeping the first, when the id is known. */
  readonly create: (subscription: Subscription) => Effect.Effect<void, StorageError>
  /**
   * Creates it unless its owner already has `maxPerOwner` subscriptions; false then, and nothing
   * is stored. Concurrent creations for one owner never take it past the cap.
   */
  readonly createWithin: (subscription: Subscription, maxPerOwner: number) => Effect.Effect<boolean, StorageError>
  /** The subscription when it exists and belongs to the owner. */
  readonly find: (id: string, ownerKeyId: string) => Effect.Effect<Option.Option<Subscription>, StorageError>
  /** Any owner's: for delivery workers. */
  readonly findById: (id: string) => Effect.Effect<Option.Option<Subscription>, StorageError>
  /** The owner's subscriptions, oldest first. */
  readonly list: (ownerKeyId: string) => Effect.Effect<ReadonlyArray<Subscription>, StorageError>
  /** Every subscription, for matching events. */
  readonly listAll: Effect.Effect<ReadonlyArray<Subscription>, StorageError>
  /** Applies the changes when the subscription belongs to the owner; the result, or none. */
  readonly update: (
    id: string,
    ownerKeyId: string,
    changes: SubscriptionChanges
  ) => Effect.Effect<Option.Option<Subscription>, StorageError>
  /** Sets the status whoever owns it (a delivery worker failing it); an unknown id changes nothing. */
  readonly setStatus: (id: string, status: SubscriptionStatus) => Effect.Effect<void, StorageError>
  /**
   * Records that a delivery succeeded at `atMillis`; a time earlier than the one kept changes
   * nothing, since workers finish out of order. An unknown id changes nothing.
   */
  readonly markTriggered: (id: string, atMillis: number) => Effect.Effect<void, StorageError>
  /**
   * Deletes it, with its deliveries in the `DeliveryStore`, when it belongs to the owner; false when
   * there was none.
   */
  readonly remove: (id: string, ownerKeyId: string) => Effect.Effect<boolean, StorageError>
}

/**
 * The webhook store as an Effect service, provided by `MemoryStorage.webhookStore` or an adapter's
 * layer.
 *
 * @example
 * ```ts
 * const webhooks = yield* WebhookStore
 * const created = yield* webhooks.createWithin(subscription, 10)
 * if (!created) return yield* new TooManySubscriptions()
 * ```
 */
export class WebhookStore extends Context.Tag("@filings/storage/WebhookStore")<WebhookStore, Service>() {}
