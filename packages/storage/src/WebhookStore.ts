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

export type SubscriptionStatus = "active" | "paused" | "failed"

export interface SubscriptionFilters {
  readonly tickers?: ReadonlyArray<string> | undefined
  readonly docTypes?: ReadonlyArray<string> | undefined
}

export interface Subscription {
  /** `wh_` and a random part. */
  readonly id: string
  /** The id of the API key that created it. */
  readonly ownerKeyId: string
  readonly url: string
  readonly events: ReadonlyArray<string>
  readonly filters: SubscriptionFilters
  readonly secret: Redacted.Redacted<string>
  readonly status: SubscriptionStatus
  readonly createdAtMillis: number
  readonly lastTriggeredAtMillis: number | null
  /** The event log's sequence when it was created: it receives the events after it. */
  readonly startSequence: number
}

export interface SubscriptionChanges {
  readonly url?: string | undefined
  readonly events?: ReadonlyArray<string> | undefined
  readonly filters?: SubscriptionFilters | undefined
  readonly status?: SubscriptionStatus | undefined
  /** A new signing secret, which replaces the old one for every delivery from then on. */
  readonly secret?: Redacted.Redacted<string> | undefined
}

export interface Service {
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
  /** Sets the status whoever owns it (a delivery worker failing it). */
  readonly setStatus: (id: string, status: SubscriptionStatus) => Effect.Effect<void, StorageError>
  readonly markTriggered: (id: string, atMillis: number) => Effect.Effect<void, StorageError>
  /** Deletes it when it belongs to the owner; false when there was none. */
  readonly remove: (id: string, ownerKeyId: string) => Effect.Effect<boolean, StorageError>
}

export class WebhookStore extends Context.Tag("@filings/storage/WebhookStore")<WebhookStore, Service>() {}
