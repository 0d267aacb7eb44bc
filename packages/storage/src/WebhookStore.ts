/**
 * The webhook store: customers' subscriptions, each owned by the API key that created it, so one
 * key never sees or touches another's. A subscription keeps its signing secret (needed to sign
 * every delivery, so it cannot be hashed), its status, and where in the event log it started.
 *
 * @module
 */
import type { Redacted } from "effect"
import { Context, type Effect, type Option } from "effect"
import type { StorageError } from "./StorageError.js"

/**
 * `active`: receives its events; `paused`: set aside by its owner; `failed`: set aside by a delivery
 * worker after failed deliveries. Deliveries of the latter two are recorded as skipped.
 */
export type SubscriptionStatus = "active" | "paused" | "failed"

/**
 * Which events a subscription receives: those of these tickers and document types. A filter absent
 * or empty lets every one through.
 */
export interface SubscriptionFilters {
  readonly tickers?: ReadonlyArray<string> | undefined
  readonly docTypes?: ReadonlyArray<string> | undefined
}

/** A webhook subscription: where events go, which ones, how they are signed, and its status. */
export interface Subscription {
  /** `wh_` and a random part. */
  readonly id: string
  /** The id of the API key that created it. */
  readonly ownerKeyId: string
  /** Where deliveries are posted. */
  readonly url: string
  /** The event types it receives: `filing.new`, ... */
  readonly events: ReadonlyArray<string>
  readonly filters: SubscriptionFilters
  /** The signing secret, kept as given (it signs every delivery) and read back whole. */
  readonly secret: Redacted.Redacted<string>
  readonly status: SubscriptionStatus
  readonly createdAtMillis: number
  /** When a delivery to it last succeeded; null before the first. */
  readonly lastTriggeredAtMillis: number | null
  /** The event log's sequence when it was created: it receives the events after it. */
  readonly startSequence: number
}

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
