/**
 * Handlers of the subscription routes: create (the secret shown once; at most 100 per key), list
 * and get (never the secret), change (pause, resume, url, events, filters, a new secret), delete, reactivate, and recover (send what was
 * skipped while the subscription was paused or failed, and again what failed), the delivery log,
 * and redelivery of one delivery. A subscription belongs to the API key that created it: another
 * key's id answers 404 as if it did not exist.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Api, ApiError, type DocType, type Ids, Webhooks } from "@filings/domain"
import { DeliveryStore, EventStore, JobQueue, WebhookStore } from "@filings/storage"
import { Clock, Effect, Option, Redacted, Schema } from "effect"
import { randomBytes } from "node:crypto"
import { orServiceUnavailable } from "../http/StorageFailures.js"
import { ServerConfig } from "../ServerConfig.js"
import { refusalOf } from "./CallbackAddress.js"
import { DeliveryJob, DeliveryQueue } from "./Dispatcher.js"

/** `whsec_` and 32 random bytes, base64url: the form `decisions.md` gives generated secrets. */
export const generateSecret = (): string => `whsec_${randomBytes(32).toString("base64url")}`

const subscriptionId = (): string => `wh_${randomBytes(12).toString("hex")}`

// Stored filters were validated when the subscription was created or changed. Both lists are
// shown, a list that does not filter as empty, so clients read one shape.
const filtersOf = (filters: WebhookStore.SubscriptionFilters) =>
  new Webhooks.SubscriptionFilters({
    tickers: (filters.tickers ?? []) as ReadonlyArray<Ids.Ticker>,
    doc_types: (filters.docTypes ?? []) as ReadonlyArray<DocType.DocType>
  })

const toWebhook = (subscription: WebhookStore.Subscription) =>
  new Webhooks.Webhook({
    id: subscription.id,
    url: subscription.url,
    events: subscription.events as ReadonlyArray<Webhooks.EventType>,
    filters: filtersOf(subscription.filters),
    status: subscription.status,
    created_at: new Date(subscription.createdAtMillis).toISOString(),
    last_triggered_at: subscription.lastTriggeredAtMillis === null
      ? null
      : new Date(subscription.lastTriggeredAtMillis).toISOString()
  })

const storedFilters = (filters: Webhooks.WebhookFilters | undefined): WebhookStore.SubscriptionFilters => ({
  ...(filters?.tickers === undefined ? {} : { tickers: filters.tickers }),
  ...(filters?.doc_types === undefined ? {} : { docTypes: filters.doc_types })
})

const iso = (millis: number | null) => (millis === null ? null : new Date(millis).toISOString())

const toDelivery = (delivery: DeliveryStore.Delivery) =>
  new Webhooks.WebhookDelivery({
    id: delivery.id,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    state: delivery.state,
    attempts: delivery.attempts,
    created_at: new Date(delivery.createdAtMillis).toISOString(),
    last_attempt_at: iso(delivery.lastAttemptAtMillis),
    last_status: delivery.lastStatus,
    last_error: delivery.lastError,
    next_attempt_at: iso(delivery.nextAttemptAtMillis),
    delivered_at: iso(delivery.deliveredAtMillis)
  })

const DefaultDeliveryPage = 50

const notFound = (id: string) => new ApiError.WebhookNotFound({ message: `no webhook subscription with id ${id}` })

export const layer = HttpApiBuilder.group(Api.FilingsApi, "webhooks", (handlers) =>
  Effect.gen(function*() {
    const webhooks = yield* WebhookStore.WebhookStore
    const events = yield* EventStore.EventStore
    const deliveries = yield* DeliveryStore.DeliveryStore
    const queue = yield* JobQueue.JobQueue
    const { webhookAllowList: allow } = yield* ServerConfig

    // An address that can never be delivered to is refused now rather than at every attempt.
    const acceptedUrl = (url: string) => {
      const refusal = refusalOf(url, allow)
      return refusal === undefined
        ? Effect.void
        : Effect.fail(new ApiError.InvalidRequest({ message: `url ${url} is refused: ${refusal}` }))
    }

    const owned = (id: string, ownerKeyId: string) =>
      Effect.flatMap(
        webhooks.find(id, ownerKeyId),
        Option.match({
          onNone: () => Effect.fail(notFound(id)),
          onSome: Effect.succeed
        })
      )

    const change = (id: string, ownerKeyId: string, changes: WebhookStore.SubscriptionChanges) =>
      Effect.flatMap(
        webhooks.update(id, ownerKeyId, changes),
        Option.match({
          onNone: () => Effect.fail(notFound(id)),
          onSome: (subscription) => Effect.succeed(toWebhook(subscription))
        })
      )

    return handlers
      .handle("createWebhook", ({ payload }) =>
        Effect.gen(function*() {
          const key = yield* Api.CurrentApiKey
          yield* acceptedUrl(payload.url)
          const secret = payload.secret ?? generateSecret()
          const subscription: WebhookStore.Subscription = {
            id: subscriptionId(),
            ownerKeyId: key.id,
            url: payload.url,
            events: [...new Set(payload.events)],
            filters: storedFilters(payload.filters),
            secret: Redacted.make(secret),
            status: "active",
            createdAtMillis: yield* Clock.currentTimeMillis,
            lastTriggeredAtMillis: null,
            // Events from now on: a new subscription is not sent the past.
            startSequence: yield* events.latestSequence
          }
          if (!(yield* webhooks.createWithin(subscription, Webhooks.MaxSubscriptionsPerKey))) {
            return yield* new ApiError.InvalidRequest({
              message: `this API key already has ${Webhooks.MaxSubscriptionsPerKey} webhook subscriptions, ` +
                "the most one key may have; delete one before creating another"
            })
          }
          const { last_triggered_at: _never, ...listed } = toWebhook(subscription)
          return new Webhooks.CreatedWebhook({ ...listed, secret })
        }).pipe(orServiceUnavailable))
      .handle("listWebhooks", () =>
        Effect.gen(function*() {
          const key = yield* Api.CurrentApiKey
          const own = yield* webhooks.list(key.id)
          return new Webhooks.WebhookList({ webhooks: own.map(toWebhook) })
        }).pipe(orServiceUnavailable))
      .handle("getWebhook", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* Api.CurrentApiKey
          return toWebhook(yield* owned(path.webhook_id, key.id))
        }).pipe(orServiceUnavailable))
      .handle("updateWebhook", ({ path, payload }) =>
        Effect.gen(function*() {
          const key = yield* Api.CurrentApiKey
          const current = yield* owned(path.webhook_id, key.id)
          if (payload.url !== undefined) yield* acceptedUrl(payload.url)
          // Resuming does not revive a failed subscription: that takes a reactivation.
          if (payload.status === "active" && current.status === "failed") {
            return yield* new ApiError.InvalidRequest({
              message: `webhook ${current.id} has failed; reactivate it with POST /v1/webhooks/${current.id}/reactivate`
            })
          }
          return yield* change(path.webhook_id, key.id, {
            ...(payload.url === undefined ? {} : { url: payload.url }),
            ...(payload.events === undefined ? {} : { events: [...new Set(payload.events)] }),
            ...(payload.filters === undefined ? {} : { filters: storedFilters(payload.filters) }),
            ...(payload.status === undefined ? {} : { status: payload.status }),
            ...(payload.secret === undefined ? {} : { secret: Redacted.make(payload.secret) })
          })
        }).pipe(orServiceUnavailable))
      .handle("deleteWebhook", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* Api.CurrentApiKey
          if (!(yield* webhooks.remove(path.webhook_id, key.id))) return yield* notFound(path.webhook_id)
        }).pipe(orServiceUnavailable))
      .handle("reactivateWebhook", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* Api.CurrentApiKey
          yield* owned(path.webhook_id, key.id)
          return yield* change(path.webhook_id, key.id, { status: "active" })
        }).pipe(orServiceUnavailable))
      .handle("recoverWebhook", ({ path, payload }) =>
        Effect.gen(function*() {
          const key = yield* Api.CurrentApiKey
          const subscription = yield* owned(path.webhook_id, key.id)
          const since = Date.parse(payload.since)
          if (Number.isNaN(since)) {
            return yield* new ApiError.InvalidRequest({ message: `since must be a timestamp, got ${payload.since}` })
          }
          const undelivered = yield* deliveries.undeliveredSince(subscription.id, since)
          const now = yield* Clock.currentTimeMillis
          for (const delivery of undelivered) {
            yield* deliveries.requeue(delivery.id)
            // A fresh key: the delivery's first job, if it had one, has been used up.
            yield* queue.enqueue(DeliveryQueue, Schema.encodeSync(DeliveryJob)({ deliveryId: delivery.id }), {
              uniqueKey: `${delivery.id}:recovered:${now}`
            })
          }
          return new Webhooks.RecoverWebhookResult({ requeued: undelivered.length })
        }).pipe(orServiceUnavailable))
      .handle("listWebhookDeliveries", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const key = yield* Api.CurrentApiKey
          const subscription = yield* owned(path.webhook_id, key.id)
          const limit = urlParams.limit ?? DefaultDeliveryPage
          const page = yield* deliveries.list(subscription.id, { limit, beforeSequence: urlParams.before })
          return new Webhooks.WebhookDeliveryList({
            deliveries: page.map(toDelivery),
            next_before: page.length === limit ? page[page.length - 1]!.eventSequence : null
          })
        }).pipe(orServiceUnavailable))
      .handle("redeliverWebhookDelivery", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* Api.CurrentApiKey
          const subscription = yield* owned(path.webhook_id, key.id)
          const found = yield* deliveries.find(path.delivery_id)
          if (Option.isNone(found) || found.value.subscriptionId !== subscription.id) {
            return yield* new ApiError.DeliveryNotFound({
              message: `webhook ${subscription.id} has no delivery with id ${path.delivery_id}`
            })
          }
          const requeued = yield* deliveries.requeue(found.value.id)
          const now = yield* Clock.currentTimeMillis
          // Sent again with the same delivery id, so a receiver that had it can tell.
          yield* queue.enqueue(DeliveryQueue, Schema.encodeSync(DeliveryJob)({ deliveryId: found.value.id }), {
            uniqueKey: `${found.value.id}:redelivered:${now}`
          })
          return toDelivery(Option.getOrElse(requeued, () => found.value))
        }).pipe(orServiceUnavailable))
  }))
