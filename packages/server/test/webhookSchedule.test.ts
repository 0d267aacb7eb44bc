/**
 * Delivery over time, on `TestClock`: the dispatcher, the queue workers and the delivery handler
 * of a running server, on in-memory storage, sending to a real HTTPS receiver on loopback. The
 * clock only moves when a test moves it, so the retry schedule is checked to the millisecond:
 * no attempt a second early, each one exactly on time, the 6th failure failing the subscription.
 */
import { assert, describe, it } from "@effect/vitest"
import { DeliveryStore, EventStore, MemoryStorage, WebhookStore } from "@filings/storage"
import { Clock, Duration, Effect, Either, Option, Redacted, TestClock } from "effect"
import { startWebhookReceiver, type WebhookReceiver } from "../../../test/support/webhookReceiver.js"
import { startWorkers } from "../src/jobs/QueueWorkers.js"
import { parseAllowList } from "../src/webhooks/CallbackAddress.js"
import { GateWait, makeDeliveryHandler } from "../src/webhooks/DeliveryWorker.js"
import { DeliveryQueue, dispatchOnce } from "../src/webhooks/Dispatcher.js"
import { deliveryIdOf } from "../src/webhooks/Matching.js"

/** A pause in real time, while the test clock stands still: real sockets still need it. */
const pause = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

/** Polls in real time until `probe` gives a value; dies after 15 s saying what it waited for. */
const waitFor = <A, E, R>(what: string, probe: Effect.Effect<A | undefined, E, R>): Effect.Effect<A, E, R> =>
  Effect.gen(function*() {
    const deadline = Date.now() + 15_000
    while (Date.now() < deadline) {
      const value = yield* probe
      if (value !== undefined) return value
      yield* pause(10)
    }
    return yield* Effect.dieMessage(`timed out waiting for ${what}`)
  })

const receiverResource = Effect.acquireRelease(
  Effect.promise(() => startWebhookReceiver()),
  (receiver) => Effect.promise(() => receiver.close())
)

const filingEvent = (id: string) => ({
  type: "filing.new",
  key: `filing.new:${id}`,
  payload: { event: "filing.new", timestamp: "2026-11-22T00:00:00.000Z", data: { ticker: "ACME", doc_type: "8-K", id } }
})

/**
 * A subscription to `filing.new` at each of the receiver's `paths`, and workers sending their
 * deliveries. Tests that move the clock by hours poll once a minute: every retry delay is whole
 * minutes, so no attempt waits for a poll, and the test clock need not wake idle workers every
 * second of eight hours.
 */
const deliveringTo = (
  receiver: WebhookReceiver,
  paths: ReadonlyArray<string>,
  options: { readonly workers?: number; readonly pollInterval?: Duration.DurationInput } = {}
) =>
  Effect.gen(function*() {
    const webhooks = yield* WebhookStore.WebhookStore
    const events = yield* EventStore.EventStore
    const subscriptions: Array<WebhookStore.Subscription> = []
    for (const [index, path] of paths.entries()) {
      const subscription: WebhookStore.Subscription = {
        id: `wh_schedule_${index}`,
        ownerKeyId: "key_1",
        url: receiver.url(path),
        events: ["filing.new"],
        filters: {},
        secret: Redacted.make("whsec_schedule"),
        status: "active",
        createdAtMillis: 0,
        lastTriggeredAtMillis: null,
        startSequence: 0
      }
      yield* webhooks.create(subscription)
      subscriptions.push(subscription)
    }
    const handle = yield* makeDeliveryHandler({
      allow: Either.getOrThrow(parseAllowList("localhost")),
      sender: { certificateAuthorities: receiver.certificate }
    })
    const workers = options.workers ?? 2
    const running = yield* startWorkers({
      queue: DeliveryQueue,
      concurrency: workers,
      lease: "2 minutes",
      pollInterval: options.pollInterval ?? "1 second",
      maxAttempts: Number.POSITIVE_INFINITY,
      handle
    })
    /** Records one event, dispatches it, and wakes the workers. */
    const publish = (id: string) =>
      Effect.gen(function*() {
        const [event] = yield* events.record([filingEvent(id)])
        yield* dispatchOnce
        yield* running.wake.pipe(Effect.repeatN(workers - 1))
        return event!
      })
    return { subscriptions, publish }
  })

const deliveryOf = (id: string) =>
  Effect.flatMap(DeliveryStore.DeliveryStore, (deliveries) => Effect.map(deliveries.find(id), Option.getOrThrow))

/** Waits until the delivery has had `attempts` attempts, and answers it. */
const attempted = (id: string, attempts: number) =>
  waitFor(
    `attempt ${attempts} of ${id}`,
    Effect.map(deliveryOf(id), (delivery) => (delivery.attempts >= attempts ? delivery : undefined))
  )

/**
 * Moves the clock to `target`, stopping at every attempt due on the way until the workers have
 * made it, so each attempt happens, and is recorded, at exactly its time.
 */
const advanceTo = (subscriptionIds: ReadonlyArray<string>, target: number) =>
  Effect.gen(function*() {
    const deliveries = yield* DeliveryStore.DeliveryStore
    const pendingDue = Effect.gen(function*() {
      const all = []
      for (const id of subscriptionIds) all.push(...(yield* deliveries.list(id, { limit: 1_000 })))
      return all.filter((delivery) => delivery.state === "pending" && delivery.nextAttemptAtMillis !== null)
    })
    while (true) {
      const now = yield* Clock.currentTimeMillis
      const due = (yield* pendingDue).map((delivery) => delivery.nextAttemptAtMillis!).filter((at) => at <= target)
      if (due.length === 0) break
      const next = Math.min(...due)
      yield* TestClock.adjust(Duration.millis(Math.max(0, next - now)))
      yield* waitFor(
        `the attempts due at ${next}`,
        Effect.map(pendingDue, (pending) => (pending.every((delivery) =>
          delivery.nextAttemptAtMillis! > next
        ) || undefined))
      )
    }
    const now = yield* Clock.currentTimeMillis
    if (target > now) yield* TestClock.adjust(Duration.millis(target - now))
  })

const eventTypesAndIds = (receiver: WebhookReceiver) =>
  receiver.received.map((request) => (JSON.parse(request.body) as { data: { id: string } }).data.id)

describe("delivery over time", () => {
  it.scoped(
    "retries on the specification's schedule to the millisecond; the 6th failure fails the subscription",
    () =>
      Effect.gen(function*() {
        const receiver = yield* receiverResource
        receiver.answerWith(() => ({ status: 500 }))
        const { publish, subscriptions: [subscription] } = yield* deliveringTo(receiver, ["/flaky"], {
          pollInterval: "1 minute"
        })
        const webhooks = yield* WebhookStore.WebhookStore

        const event = yield* publish("first")
        const id = deliveryIdOf(subscription!.id, event.id)
        let delivery = yield* attempted(id, 1)
        assert.strictEqual(delivery.lastAttemptAtMillis, 0, "the first attempt is immediate")

        const delays = [
          Duration.minutes(1),
          Duration.minutes(5),
          Duration.minutes(30),
          Duration.hours(2),
          Duration.hours(8)
        ]
        for (const [index, delay] of delays.entries()) {
          const previous = delivery.lastAttemptAtMillis!
          const wait = Duration.toMillis(delay)
          assert.strictEqual(delivery.state, "pending")
          assert.strictEqual(delivery.nextAttemptAtMillis, previous + wait)
          yield* TestClock.adjust(Duration.millis(wait - 1_000))
          yield* pause(300)
          assert.strictEqual(receiver.received.length, index + 1, `no attempt ${index + 2} a second early`)
          yield* TestClock.adjust(Duration.seconds(1))
          delivery = yield* attempted(id, index + 2)
          assert.strictEqual(delivery.lastAttemptAtMillis, previous + wait, `attempt ${index + 2} on time`)
        }

        assert.strictEqual(delivery.attempts, 6)
        assert.strictEqual(delivery.state, "failed")
        assert.isNull(delivery.nextAttemptAtMillis)
        assert.strictEqual(delivery.lastStatus, 500)
        assert.strictEqual(delivery.lastError, "HTTP 500")
        assert.strictEqual(Option.getOrThrow(yield* webhooks.findById(subscription!.id)).status, "failed")
        // Six attempts of one delivery, all under its one id.
        assert.deepStrictEqual(
          receiver.received.map((request) => request.headers["x-service-delivery-id"]),
          Array.from({ length: 6 }, () => id)
        )

        // Nothing more goes out, not even a day later.
        yield* TestClock.adjust(Duration.hours(24))
        yield* pause(300)
        assert.strictEqual(receiver.received.length, 6)
      }).pipe(Effect.provide(MemoryStorage.layer)),
    60_000
  )

  it.scoped(
    "a failed subscription gets nothing until reactivated, then receives new events again",
    () =>
      Effect.gen(function*() {
        const receiver = yield* receiverResource
        receiver.answerWith(() => ({ status: 503 }))
        const { publish, subscriptions: [subscription] } = yield* deliveringTo(receiver, ["/down"], {
          pollInterval: "1 minute"
        })
        const webhooks = yield* WebhookStore.WebhookStore

        const first = yield* publish("first")
        yield* attempted(deliveryIdOf(subscription!.id, first.id), 1)
        yield* advanceTo([subscription!.id], Duration.toMillis(Duration.hours(11)))
        assert.strictEqual((yield* deliveryOf(deliveryIdOf(subscription!.id, first.id))).state, "failed")
        assert.strictEqual(Option.getOrThrow(yield* webhooks.findById(subscription!.id)).status, "failed")
        assert.strictEqual(receiver.received.length, 6)

        // While failed: recorded as skipped, never sent.
        const missed = yield* publish("missed")
        yield* TestClock.adjust(Duration.minutes(10))
        yield* pause(300)
        assert.strictEqual((yield* deliveryOf(deliveryIdOf(subscription!.id, missed.id))).state, "skipped")
        assert.strictEqual(receiver.received.length, 6)

        receiver.answerWith(() => ({ status: 204 }))
        yield* webhooks.setStatus(subscription!.id, "active")
        const after = yield* publish("after")
        const delivered = yield* waitFor(
          "the delivery after reactivation",
          Effect.map(
            deliveryOf(deliveryIdOf(subscription!.id, after.id)),
            (d) => (d.state === "delivered" ? d : undefined)
          )
        )
        assert.strictEqual(delivered.attempts, 1)
        assert.strictEqual(delivered.lastStatus, 204)
        assert.deepStrictEqual(eventTypesAndIds(receiver).slice(6), ["after"])
        // What was skipped stays skipped until the customer recovers it.
        assert.strictEqual((yield* deliveryOf(deliveryIdOf(subscription!.id, missed.id))).state, "skipped")
      }).pipe(Effect.provide(MemoryStorage.layer)),
    60_000
  )

  it.scoped(
    "a receiver silent for 30 seconds has failed that attempt; 29 seconds is still waited for",
    () =>
      Effect.gen(function*() {
        const receiver = yield* receiverResource
        receiver.answerWith(() => "hold")
        const { publish, subscriptions: [subscription] } = yield* deliveringTo(receiver, ["/slow"])
        const event = yield* publish("slow")
        const id = deliveryIdOf(subscription!.id, event.id)
        yield* waitFor("the request to arrive", Effect.sync(() => receiver.received.length === 1 || undefined))

        yield* TestClock.adjust(Duration.seconds(29))
        yield* pause(300)
        assert.strictEqual((yield* deliveryOf(id)).attempts, 0, "still waiting at 29 s")
        yield* TestClock.adjust(Duration.seconds(1))
        const timedOut = yield* attempted(id, 1)
        assert.strictEqual(timedOut.state, "pending")
        assert.isNull(timedOut.lastStatus)
        assert.strictEqual(timedOut.lastError, "no answer within 30s")
        assert.strictEqual(timedOut.lastAttemptAtMillis, 30_000)
        assert.strictEqual(timedOut.nextAttemptAtMillis, 90_000)

        // An answer after the limit counts for nothing; the next attempt, answered, delivers.
        receiver.releaseHeld(204)
        receiver.answerWith(() => ({ status: 204 }))
        yield* TestClock.adjust(Duration.minutes(1))
        const delivered = yield* attempted(id, 2)
        assert.strictEqual(delivered.state, "delivered")
        assert.strictEqual(delivered.lastAttemptAtMillis, 90_000)
      }).pipe(Effect.provide(MemoryStorage.layer)),
    60_000
  )

  it.scoped(
    "one slow receiver holds two attempts at most; the other subscriptions are served meanwhile",
    () =>
      Effect.gen(function*() {
        const receiver = yield* receiverResource
        receiver.answerWith((request) => (request.path === "/slow" ? "hold" : { status: 204 }))
        const { publish, subscriptions: [slow, quick] } = yield* deliveringTo(receiver, ["/slow", "/quick"], {
          workers: 3
        })

        const published: Array<EventStore.StoredEvent> = []
        for (const name of ["a", "b", "c", "d"]) published.push(yield* publish(name))
        const atPath = (path: string) => receiver.received.filter((request) => request.path === path)
        // A worker that takes a slow delivery waits a second (of the test clock) for a permit before
        // it puts the delivery back; the clock moves a second at a time, far from the 30 s limit.
        for (let second = 0; second < 6 && atPath("/quick").length < 4; second++) {
          yield* pause(200)
          yield* TestClock.adjust(GateWait)
        }
        yield* waitFor(
          "the quick receiver's four deliveries",
          Effect.sync(() => atPath("/quick").length === 4 || undefined)
        )
        yield* pause(300)
        assert.strictEqual(atPath("/slow").length, 2, "two attempts in flight to the slow receiver, no more")
        for (const event of published) {
          const delivery = yield* deliveryOf(deliveryIdOf(quick!.id, event.id))
          assert.strictEqual(delivery.state, "delivered")
        }
        // The slow subscription's other deliveries waited without an attempt counted against them.
        const waiting = []
        for (const event of published) {
          const delivery = yield* deliveryOf(deliveryIdOf(slow!.id, event.id))
          if (delivery.state === "pending" && delivery.attempts === 0) waiting.push(delivery)
        }
        assert.strictEqual(waiting.length, 4)

        receiver.releaseHeld(204)
        receiver.answerWith(() => ({ status: 204 }))
        yield* waitFor(
          "the two held deliveries to be recorded",
          Effect.gen(function*() {
            let delivered = 0
            for (const event of published) {
              if ((yield* deliveryOf(deliveryIdOf(slow!.id, event.id))).state === "delivered") delivered++
            }
            return delivered === 2 || undefined
          })
        )
        yield* TestClock.adjust(Duration.seconds(10))
        yield* waitFor("all four slow deliveries", Effect.sync(() => atPath("/slow").length === 4 || undefined))
        assert.strictEqual(new Set(atPath("/slow").map((request) => request.headers["x-service-delivery-id"])).size, 4)
      }).pipe(Effect.provide(MemoryStorage.layer)),
    60_000
  )

  it.scoped("a receiver down for an hour gets every event once it is back", () =>
    Effect.gen(function*() {
      const receiver = yield* receiverResource
      const { publish, subscriptions: [subscription] } = yield* deliveringTo(receiver, ["/outage"], {
        pollInterval: "1 minute"
      })
      const ids = [subscription!.id]
      yield* Effect.promise(() => receiver.down())

      const first = yield* publish("at 0 min")
      yield* attempted(deliveryIdOf(subscription!.id, first.id), 1)
      yield* advanceTo(ids, Duration.toMillis(Duration.minutes(10)))
      const second = yield* publish("at 10 min")
      yield* attempted(deliveryIdOf(subscription!.id, second.id), 1)
      yield* advanceTo(ids, Duration.toMillis(Duration.minutes(40)))
      const third = yield* publish("at 40 min")
      yield* attempted(deliveryIdOf(subscription!.id, third.id), 1)
      yield* advanceTo(ids, Duration.toMillis(Duration.minutes(60)))

      const refused = yield* deliveryOf(deliveryIdOf(subscription!.id, first.id))
      assert.strictEqual(refused.lastError, "connection refused")
      assert.strictEqual(refused.attempts, 4, "attempts at 0, 1, 6 and 36 minutes")
      assert.strictEqual(receiver.received.length, 0)

      yield* Effect.promise(() => receiver.up())
      yield* advanceTo(ids, Duration.toMillis(Duration.hours(4)))
      for (const event of [first, second, third]) {
        const delivery = yield* deliveryOf(deliveryIdOf(subscription!.id, event.id))
        assert.strictEqual(delivery.state, "delivered", `${event.id} delivered`)
      }
      assert.sameMembers(eventTypesAndIds(receiver), ["at 0 min", "at 10 min", "at 40 min"])
      const webhooks = yield* WebhookStore.WebhookStore
      assert.strictEqual(Option.getOrThrow(yield* webhooks.findById(subscription!.id)).status, "active")
    }).pipe(Effect.provide(MemoryStorage.layer)), 60_000)
})
