/**
 * Dispatch on in-memory storage: each event becomes one delivery per subscription that wants it,
 * pending (with a job) for active subscriptions and skipped for paused ones, once however often
 * dispatch runs.
 */
import { assert, describe, it } from "@effect/vitest"
import { DeliveryStore, EventStore, JobQueue, MemoryStorage, WebhookStore } from "@filings/storage"
import { Effect, Option, Redacted } from "effect"
import { DeliveryQueue, dispatchOnce } from "../src/webhooks/Dispatcher.js"
import { deliveryIdOf } from "../src/webhooks/Matching.js"

const subscription = (id: string, overrides: Partial<WebhookStore.Subscription> = {}): WebhookStore.Subscription => ({
  id,
  ownerKeyId: "key_1",
  url: `https://hooks.example.com/${id}`,
  events: ["filing.new"],
  filters: {},
  secret: Redacted.make("whsec_test"),
  status: "active",
  createdAtMillis: 0,
  lastTriggeredAtMillis: null,
  startSequence: 0,
  ...overrides
})

const filing = (ticker: string, id: string) => ({
  type: "filing.new",
  key: `filing.new:${id}`,
  payload: { event: "filing.new", timestamp: "2026-11-22T00:00:00.000Z", data: { ticker, doc_type: "8-K" } }
})

describe("dispatch", () => {
  it.effect("makes one delivery per wanting subscription, pending with a job or skipped, once", () =>
    Effect.gen(function*() {
      const webhooks = yield* WebhookStore.WebhookStore
      const events = yield* EventStore.EventStore
      const deliveries = yield* DeliveryStore.DeliveryStore
      const queue = yield* JobQueue.JobQueue
      yield* webhooks.create(subscription("wh_all"))
      yield* webhooks.create(subscription("wh_paused", { status: "paused" }))
      yield* webhooks.create(subscription("wh_msft", { filters: { tickers: ["MSFT"] } }))
      yield* webhooks.create(subscription("wh_calls", { events: ["earnings_call.new"] }))
      const [aapl, msft] = yield* events.record([filing("AAPL", "1"), filing("MSFT", "2")])

      assert.strictEqual(yield* dispatchOnce, 2)
      assert.strictEqual(yield* dispatchOnce, 0)

      const stateOf = (subscriptionId: string, eventId: string) =>
        Effect.map(deliveries.find(deliveryIdOf(subscriptionId, eventId)), Option.map((delivery) => delivery.state))
      assert.deepStrictEqual(yield* stateOf("wh_all", aapl!.id), Option.some("pending"))
      assert.deepStrictEqual(yield* stateOf("wh_all", msft!.id), Option.some("pending"))
      assert.deepStrictEqual(yield* stateOf("wh_paused", aapl!.id), Option.some("skipped"))
      assert.deepStrictEqual(yield* stateOf("wh_msft", aapl!.id), Option.none())
      assert.deepStrictEqual(yield* stateOf("wh_msft", msft!.id), Option.some("pending"))
      assert.deepStrictEqual(yield* stateOf("wh_calls", aapl!.id), Option.none())
      // Three pending deliveries, three jobs: none twice, none for the skipped one.
      assert.strictEqual(yield* queue.pendingCount(DeliveryQueue), 3)
    }).pipe(Effect.provide(MemoryStorage.layer)))

  it.effect("sends a new subscription only the events recorded after it", () =>
    Effect.gen(function*() {
      const webhooks = yield* WebhookStore.WebhookStore
      const events = yield* EventStore.EventStore
      const deliveries = yield* DeliveryStore.DeliveryStore
      const [old] = yield* events.record([filing("AAPL", "old")])
      yield* webhooks.create(subscription("wh_new", { startSequence: yield* events.latestSequence }))
      const [fresh] = yield* events.record([filing("AAPL", "new")])
      yield* dispatchOnce
      assert.isTrue(Option.isNone(yield* deliveries.find(deliveryIdOf("wh_new", old!.id))))
      assert.isTrue(Option.isSome(yield* deliveries.find(deliveryIdOf("wh_new", fresh!.id))))
    }).pipe(Effect.provide(MemoryStorage.layer)))
})
