// In-memory WebhookStore and DeliveryStore, with the SQL adapter's semantics: subscriptions are
// scoped by owner, one Ref update records a whole batch of deliveries (so concurrent dispatchers
// create each (subscription, event) delivery once), and a removed subscription's deliveries are
// gone with it, as with the SQL foreign key's ON DELETE CASCADE.
import { Clock, Duration, Effect, Option, Ref } from "effect"
import type * as DeliveryStore from "../DeliveryStore.js"
import { StorageError } from "../StorageError.js"
import * as WebhookStore from "../WebhookStore.js"

/**
 * Filters as a database reads them back: JSON, so fields given as undefined are absent, and
 * nothing is shared with the caller's object.
 */
const storedFilters = (filters: WebhookStore.SubscriptionFilters): WebhookStore.SubscriptionFilters =>
  JSON.parse(JSON.stringify(filters))

/** The subscription with arrays of its own, so neither the caller nor the store changes the other's. */
const copySubscription = (subscription: WebhookStore.Subscription): WebhookStore.Subscription => ({
  ...subscription,
  events: [...subscription.events],
  filters: storedFilters(subscription.filters)
})

/** Code-point order, as the SQL adapter's `COLLATE "C"` ordering of ids. */
const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

const oldestCreatedFirst = (a: WebhookStore.Subscription, b: WebhookStore.Subscription) =>
  a.createdAtMillis - b.createdAtMillis || compareIds(a.id, b.id)

export const makeWebhookStore = Effect.gen(function*() {
  const subscriptions = yield* Ref.make<ReadonlyMap<string, WebhookStore.Subscription>>(new Map())

  const owned = (map: ReadonlyMap<string, WebhookStore.Subscription>, id: string, ownerKeyId: string) => {
    const found = map.get(id)
    return found !== undefined && found.ownerKeyId === ownerKeyId ? found : undefined
  }
  /** Changes the subscription whoever owns it; nothing when there is none. */
  const change = (id: string, update: (subscription: WebhookStore.Subscription) => WebhookStore.Subscription) =>
    Ref.update(subscriptions, (map) => {
      const found = map.get(id)
      return found === undefined ? map : new Map(map).set(id, update(found))
    })
  const listWhere = (keep: (subscription: WebhookStore.Subscription) => boolean) =>
    Effect.map(
      Ref.get(subscriptions),
      (map) => [...map.values()].filter(keep).sort(oldestCreatedFirst).map(copySubscription)
    )

  const service: WebhookStore.Service = {
    create: (subscription) =>
      Ref.modify(subscriptions, (map) =>
        map.has(subscription.id)
          ? [false, map]
          : [true, new Map(map).set(subscription.id, copySubscription(subscription))]).pipe(
          // The SQL adapter fails the same way, on its primary key.
          Effect.filterOrFail(
            (created) => created,
            () => new StorageError({ operation: "WebhookStore.create", reason: "the subscription id exists" })
          ),
          Effect.asVoid
        ),
    createWithin: (subscription, maxPerOwner) =>
      Ref.modify(subscriptions, (map): [boolean | "exists", ReadonlyMap<string, WebhookStore.Subscription>] => {
        if (map.has(subscription.id)) return ["exists", map]
        const owned = [...map.values()].filter((stored) => stored.ownerKeyId === subscription.ownerKeyId).length
        if (owned >= maxPerOwner) return [false, map]
        return [true, new Map(map).set(subscription.id, copySubscription(subscription))]
      }).pipe(
        Effect.flatMap((outcome) =>
          outcome === "exists"
            ? Effect.fail(
              new StorageError({ operation: "WebhookStore.createWithin", reason: "the subscription id exists" })
            )
            : Effect.succeed(outcome)
        )
      ),
    find: (id, ownerKeyId) =>
      Effect.map(
        Ref.get(subscriptions),
        (map) => Option.map(Option.fromNullable(owned(map, id, ownerKeyId)), copySubscription)
      ),
    findById: (id) =>
      Effect.map(Ref.get(subscriptions), (map) => Option.map(Option.fromNullable(map.get(id)), copySubscription)),
    list: (ownerKeyId) => listWhere((subscription) => subscription.ownerKeyId === ownerKeyId),
    listAll: listWhere(() => true),
    update: (id, ownerKeyId, changes) =>
      Ref.modify(subscriptions, (map) => {
        const found = owned(map, id, ownerKeyId)
        if (found === undefined) return [Option.none(), map]
        const updated: WebhookStore.Subscription = {
          ...found,
          ...(changes.url === undefined ? {} : { url: changes.url }),
          ...(changes.events === undefined ? {} : { events: [...changes.events] }),
          ...(changes.filters === undefined ? {} : { filters: storedFilters(changes.filters) }),
          ...(changes.status === undefined ? {} : { status: changes.status }),
          ...(changes.secret === undefined ? {} : { secret: changes.secret })
        }
        return [Option.some(copySubscription(updated)), new Map(map).set(id, updated)]
      }),
    setStatus: (id, status) => change(id, (subscription) => ({ ...subscription, status })),
    markTriggered: (id, atMillis) =>
      change(id, (subscription) => ({
        ...subscription,
        // Workers finish out of order: an earlier time never replaces a later one.
        lastTriggeredAtMillis: Math.max(subscription.lastTriggeredAtMillis ?? atMillis, atMillis)
      })),
    remove: (id, ownerKeyId) =>
      Ref.modify(subscriptions, (map) => {
        if (owned(map, id, ownerKeyId) === undefined) return [false, map]
        const rest = new Map(map)
        rest.delete(id)
        return [true, rest]
      })
  }
  return service
})

type RecordOutcome =
  | { readonly _tag: "Recorded"; readonly recorded: ReadonlyArray<DeliveryStore.Delivery> }
  | { readonly _tag: "Rejected"; readonly reason: string }

const pairOf = (delivery: { readonly subscriptionId: string; readonly eventId: string }) =>
  JSON.stringify([delivery.subscriptionId, delivery.eventId])

/** Newest event first, as the SQL adapter orders them (ties: newest created, then the greater id). */
const newestFirst = (a: DeliveryStore.Delivery, b: DeliveryStore.Delivery) =>
  b.eventSequence - a.eventSequence || b.createdAtMillis - a.createdAtMillis || compareIds(b.id, a.id)

const oldestCreatedFirstDelivery = (a: DeliveryStore.Delivery, b: DeliveryStore.Delivery) =>
  a.createdAtMillis - b.createdAtMillis || a.eventSequence - b.eventSequence || compareIds(a.id, b.id)

const wholeAtLeastZero = (n: number) => Math.max(0, Math.floor(n))

/**
 * Deliveries belong to subscriptions of the WebhookStore it is given: recording one for a
 * subscription that does not exist fails (the SQL foreign key), and the deliveries of a removed
 * subscription are dropped the next time they are looked at (the SQL cascade).
 */
export const makeDeliveryStore = Effect.gen(function*() {
  const webhooks = yield* WebhookStore.WebhookStore
  const deliveries = yield* Ref.make<ReadonlyMap<string, DeliveryStore.Delivery>>(new Map())

  const subscriptionExists = (subscriptionId: string) => Effect.map(webhooks.findById(subscriptionId), Option.isSome)

  /** Forgets the deliveries of a removed subscription. */
  const dropDeliveriesOf = (subscriptionId: string) =>
    Ref.update(
      deliveries,
      (map) => new Map([...map].filter(([, delivery]) => delivery.subscriptionId !== subscriptionId))
    )

  /** The delivery, when it and its subscription exist. */
  const live = (id: string) =>
    Effect.gen(function*() {
      const found = (yield* Ref.get(deliveries)).get(id)
      if (found === undefined) return Option.none<DeliveryStore.Delivery>()
      if (yield* subscriptionExists(found.subscriptionId)) return Option.some(found)
      yield* dropDeliveriesOf(found.subscriptionId)
      return Option.none<DeliveryStore.Delivery>()
    })

  /** Changes a live delivery; the result, or none. */
  const change = (id: string, update: (delivery: DeliveryStore.Delivery) => DeliveryStore.Delivery) =>
    Effect.flatMap(live(id), (found) =>
      Option.isNone(found)
        ? Effect.succeed(found)
        : Ref.modify(deliveries, (map) => {
          // Read again inside the update, so concurrent changes (attempts counted) are not lost.
          const current = map.get(id)
          if (current === undefined) return [Option.none(), map]
          const updated = update(current)
          return [Option.some(updated), new Map(map).set(id, updated)]
        }))

  const ofSubscription = (subscriptionId: string) =>
    Effect.gen(function*() {
      if (!(yield* subscriptionExists(subscriptionId))) {
        yield* dropDeliveriesOf(subscriptionId)
        return []
      }
      const map = yield* Ref.get(deliveries)
      return [...map.values()].filter((delivery) => delivery.subscriptionId === subscriptionId)
    })

  const service: DeliveryStore.Service = {
    record: (batch) =>
      Effect.gen(function*() {
        const subscriptionIds = [...new Set(batch.map((delivery) => delivery.subscriptionId))]
        const missing = yield* Effect.filter(subscriptionIds, (id) => Effect.map(subscriptionExists(id), (e) => !e))
        if (missing.length > 0) {
          return yield* new StorageError({
            operation: "DeliveryStore.record",
            reason: `no subscription ${missing.join(", ")}`
          })
        }
        const outcome = yield* Ref.modify(
          deliveries,
          (map): [RecordOutcome, ReadonlyMap<string, DeliveryStore.Delivery>] => {
            const known = new Set([...map.values()].map(pairOf))
            const next = new Map(map)
            const recorded: Array<DeliveryStore.Delivery> = []
            for (const delivery of batch) {
              const pair = pairOf(delivery)
              if (known.has(pair)) continue
              // All or none: the SQL adapter's transaction fails on the primary key.
              if (next.has(delivery.id)) return [{ _tag: "Rejected", reason: `delivery ${delivery.id} exists` }, map]
              known.add(pair)
              const stored: DeliveryStore.Delivery = {
                id: delivery.id,
                subscriptionId: delivery.subscriptionId,
                eventId: delivery.eventId,
                eventSequence: delivery.eventSequence,
                eventType: delivery.eventType,
                state: delivery.state,
                attempts: 0,
                createdAtMillis: delivery.createdAtMillis,
                lastAttemptAtMillis: null,
                lastStatus: null,
                lastError: null,
                nextAttemptAtMillis: null,
                deliveredAtMillis: null
              }
              next.set(stored.id, stored)
              recorded.push(stored)
            }
            return [{ _tag: "Recorded", recorded }, recorded.length === 0 ? map : next]
          }
        )
        return outcome._tag === "Recorded"
          ? outcome.recorded
          : yield* new StorageError({ operation: "DeliveryStore.record", reason: outcome.reason })
      }),
    find: live,
    recordAttempt: (id, outcome) =>
      change(id, (delivery) => ({
        ...delivery,
        state: outcome.state,
        attempts: delivery.attempts + 1,
        lastAttemptAtMillis: outcome.atMillis,
        lastStatus: outcome.status,
        lastError: outcome.error,
        nextAttemptAtMillis: outcome.nextAttemptAtMillis,
        deliveredAtMillis: outcome.state === "delivered" ? outcome.atMillis : delivery.deliveredAtMillis
      })),
    markSkipped: (id) => change(id, (delivery) => ({ ...delivery, state: "skipped", nextAttemptAtMillis: null })),
    requeue: (id) => change(id, (delivery) => ({ ...delivery, state: "pending", nextAttemptAtMillis: null })),
    list: (subscriptionId, options) =>
      Effect.map(ofSubscription(subscriptionId), (all) => {
        const before = options.beforeSequence
        return all
          .filter((delivery) => before === undefined || delivery.eventSequence < before)
          .sort(newestFirst)
          .slice(0, wholeAtLeastZero(options.limit))
      }),
    undeliveredSince: (subscriptionId, sinceMillis) =>
      Effect.map(
        ofSubscription(subscriptionId),
        (all) =>
          all
            .filter((delivery) =>
              (delivery.state === "skipped" || delivery.state === "failed") && delivery.createdAtMillis >= sinceMillis
            )
            .sort(oldestCreatedFirstDelivery)
      ),
    pruneDelivered: (olderThan) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Ref.modify(deliveries, (map) => {
          const cutoff = now - Duration.toMillis(olderThan)
          const kept = new Map(
            [...map].filter(([, delivery]) =>
              !(delivery.state === "delivered" && delivery.deliveredAtMillis !== null &&
                delivery.deliveredAtMillis <= cutoff)
            )
          )
          return [map.size - kept.size, kept]
        }))
  }
  return service
})
