// The webhook part of the conformance suite: subscriptions and the deliveries recorded for them.
import { assert, describe, type Vitest } from "@effect/vitest"
import { Array as Arr, Duration, Effect, Option, Redacted, TestClock } from "effect"
import { randomBytes } from "node:crypto"
import { type Delivery, DeliveryStore, type NewDelivery } from "../DeliveryStore.js"
import type { Stores } from "../Stores.js"
import { type Subscription, type SubscriptionChanges, WebhookStore } from "../WebhookStore.js"
import { uniqueName } from "./conformanceSamples.js"

const createdAt = Date.parse("2024-11-01T12:00:00.000Z")

const sampleSubscription = (overrides: Partial<Subscription> = {}): Subscription => ({
  id: `wh_${randomBytes(12).toString("hex")}`,
  ownerKeyId: uniqueName("key"),
  url: "https://hooks.example.com/filings?source=conformance&x=é",
  events: ["filing.new", "filing.8k_material"],
  filters: { tickers: ["AAPL", "MSFT"], docTypes: ["10-K", "8-K"] },
  secret: Redacted.make(`secret-${randomBytes(24).toString("hex")}`),
  status: "active",
  createdAtMillis: createdAt,
  lastTriggeredAtMillis: null,
  startSequence: 42,
  ...overrides
})

/**
 * The subscription with its secret's value in plain sight: two Redacted values compare equal under
 * deepStrictEqual whatever they hold, so comparisons go through this.
 */
const revealed = ({ secret, ...subscription }: Subscription) => ({ ...subscription, secret: Redacted.value(secret) })

/** A stored subscription of its own, for the delivery tests (a delivery needs its subscription). */
const storedSubscription = (overrides: Partial<Subscription> = {}) =>
  Effect.flatMap(WebhookStore, (store) => {
    const subscription = sampleSubscription(overrides)
    return Effect.as(store.create(subscription), subscription)
  })

const sampleDelivery = (
  subscriptionId: string,
  eventSequence: number,
  overrides: Partial<NewDelivery> = {}
): NewDelivery => ({
  id: `dlv_${randomBytes(12).toString("hex")}`,
  subscriptionId,
  eventId: `evt_${randomBytes(12).toString("hex")}`,
  eventSequence,
  eventType: "filing.new",
  state: "pending",
  createdAtMillis: createdAt + eventSequence,
  ...overrides
})

/** A delivery as recording it stores it: no attempt yet. */
const recordedAs = (delivery: NewDelivery): Delivery => ({
  ...delivery,
  attempts: 0,
  lastAttemptAtMillis: null,
  lastStatus: null,
  lastError: null,
  nextAttemptAtMillis: null,
  deliveredAtMillis: null
})

const idsOf = (items: ReadonlyArray<{ readonly id: string }>) => items.map((item) => item.id)

/** Registers the WebhookStore and DeliveryStore tests on a layer's `it`. */
export const webhookSuite = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("WebhookStore", () => {
    it.effect("stores a subscription and reads every field back, the secret included", () =>
      Effect.gen(function*() {
        const store = yield* WebhookStore
        const subscription = sampleSubscription()
        yield* store.create(subscription)
        const found = yield* store.find(subscription.id, subscription.ownerKeyId)
        assert.deepStrictEqual(Option.map(found, revealed), Option.some(revealed(subscription)))
        const secret = Option.getOrThrow(found).secret
        assert.isTrue(Redacted.isRedacted(secret))
        assert.strictEqual(Redacted.value(secret), Redacted.value(subscription.secret))
        assert.notInclude(String(secret), Redacted.value(subscription.secret))
        assert.deepStrictEqual(
          Option.map(yield* store.findById(subscription.id), revealed),
          Option.some(revealed(subscription))
        )

        // Numbers past 2^32, a time already set, no filters, and a filter given as undefined (absent when read).
        const other = sampleSubscription({
          events: ["press_release.new"],
          filters: { tickers: undefined, docTypes: ["8-K"] },
          status: "paused",
          createdAtMillis: 4_102_444_800_000,
          lastTriggeredAtMillis: 4_102_444_800_123,
          startSequence: 2 ** 40 + 1
        })
        yield* store.create(other)
        assert.deepStrictEqual(
          Option.map(yield* store.findById(other.id), revealed),
          Option.some(revealed({ ...other, filters: { docTypes: ["8-K"] } }))
        )
        const unfiltered = sampleSubscription({ filters: {}, events: [] })
        yield* store.create(unfiltered)
        assert.deepStrictEqual(
          Option.map(yield* store.findById(unfiltered.id), revealed),
          Option.some(revealed(unfiltered))
        )
      }))

    it.effect("creating an existing id fails and keeps the first", () =>
      Effect.gen(function*() {
        const store = yield* WebhookStore
        const subscription = sampleSubscription()
        yield* store.create(subscription)
        const error = yield* Effect.flip(store.create({ ...subscription, url: "https://elsewhere.example.com/" }))
        assert.strictEqual(error._tag, "StorageError")
        assert.deepStrictEqual(
          Option.map(yield* store.findById(subscription.id), revealed),
          Option.some(revealed(subscription))
        )
      }))

    it.effect("lists an owner's subscriptions oldest first, and no other owner's", () =>
      Effect.gen(function*() {
        const store = yield* WebhookStore
        const [owner, other] = [uniqueName("key"), uniqueName("key")]
        const second = sampleSubscription({ ownerKeyId: owner, createdAtMillis: createdAt + 2 })
        const first = sampleSubscription({ ownerKeyId: owner, createdAtMillis: createdAt + 1 })
        const third = sampleSubscription({ ownerKeyId: owner, createdAtMillis: createdAt + 3 })
        const others = sampleSubscription({ ownerKeyId: other })
        yield* Effect.forEach([second, others, first, third], store.create)

        const listed = yield* store.list(owner)
        assert.deepStrictEqual(listed.map(revealed), [first, second, third].map(revealed))
        assert.deepStrictEqual(idsOf(yield* store.list(other)), [others.id])
        assert.deepStrictEqual(yield* store.list(uniqueName("key")), [])

        const ours = new Set(idsOf([first, second, third, others]))
        const all = (yield* store.listAll).filter((subscription) => ours.has(subscription.id))
        assert.deepStrictEqual(idsOf(all), [others.id, first.id, second.id, third.id])
        assert.deepStrictEqual(all[1] && revealed(all[1]), revealed(first))
      }))

    it.effect("another owner's find, update and remove see nothing and change nothing", () =>
      Effect.gen(function*() {
        const store = yield* WebhookStore
        const subscription = sampleSubscription()
        const stranger = uniqueName("key")
        yield* store.create(subscription)
        assert.isTrue(Option.isNone(yield* store.find(subscription.id, stranger)))
        const update = yield* store.update(subscription.id, stranger, {
          url: "https://attacker.example.com/",
          status: "paused",
          filters: {}
        })
        assert.isTrue(Option.isNone(update))
        assert.isFalse(yield* store.remove(subscription.id, stranger))
        assert.deepStrictEqual(yield* store.list(stranger), [])
        assert.deepStrictEqual(
          Option.map(yield* store.find(subscription.id, subscription.ownerKeyId), revealed),
          Option.some(revealed(subscription))
        )
      }))

    it.effect("update applies only the given changes, and given filters replace the old ones", () =>
      Effect.gen(function*() {
        const store = yield* WebhookStore
        const subscription = sampleSubscription()
        const { id, ownerKeyId } = subscription
        yield* store.create(subscription)
        const steps: ReadonlyArray<readonly [SubscriptionChanges, Subscription]> = [
          [{ url: "https://hooks.example.com/v2" }, { ...subscription, url: "https://hooks.example.com/v2" }],
          [{ events: ["filing.new"], url: undefined }, {
            ...subscription,
            url: "https://hooks.example.com/v2",
            events: ["filing.new"]
          }],
          [{ filters: { docTypes: ["10-Q"] } }, {
            ...subscription,
            url: "https://hooks.example.com/v2",
            events: ["filing.new"],
            filters: { docTypes: ["10-Q"] }
          }],
          [{ status: "paused" }, {
            ...subscription,
            url: "https://hooks.example.com/v2",
            events: ["filing.new"],
            filters: { docTypes: ["10-Q"] },
            status: "paused"
          }],
          [{}, {
            ...subscription,
            url: "https://hooks.example.com/v2",
            events: ["filing.new"],
            filters: { docTypes: ["10-Q"] },
            status: "paused"
          }],
          [{ url: "https://hooks.example.com/v3", events: [], filters: {}, status: "active" }, {
            ...subscription,
            url: "https://hooks.example.com/v3",
            events: [],
            filters: {}
          }]
        ]
        for (const [changes, expected] of steps) {
          const updated = yield* store.update(id, ownerKeyId, changes)
          assert.deepStrictEqual(Option.map(updated, revealed), Option.some(revealed(expected)))
          assert.deepStrictEqual(
            Option.map(yield* store.find(id, ownerKeyId), revealed),
            Option.some(revealed(expected))
          )
        }
        assert.isTrue(Option.isNone(yield* store.update(`wh_${randomBytes(12).toString("hex")}`, ownerKeyId, {})))
      }))

    it.effect("update with a secret replaces it; without one keeps it", () =>
      Effect.gen(function*() {
        const store = yield* WebhookStore
        const subscription = sampleSubscription()
        const { id, ownerKeyId } = subscription
        yield* store.create(subscription)
        const secretOf = Effect.map(store.findById(id), (found) => Redacted.value(Option.getOrThrow(found).secret))

        const rotated = yield* store.update(id, ownerKeyId, { secret: Redacted.make("rotated-secret-0123456789") })
        assert.deepStrictEqual(
          Option.map(rotated, revealed),
          Option.some(revealed({ ...subscription, secret: Redacted.make("rotated-secret-0123456789") }))
        )
        assert.strictEqual(yield* secretOf, "rotated-secret-0123456789")
        yield* store.update(id, ownerKeyId, { status: "paused", secret: undefined })
        assert.strictEqual(yield* secretOf, "rotated-secret-0123456789")
        // Another owner cannot rotate it.
        yield* store.update(id, uniqueName("key"), { secret: Redacted.make("stolen-secret-0123456789") })
        assert.strictEqual(yield* secretOf, "rotated-secret-0123456789")
      }))

    it.effect("createWithin stores up to the owner's cap, concurrently too, and other owners are not counted", () =>
      Effect.gen(function*() {
        const store = yield* WebhookStore
        const [owner, other] = [uniqueName("key"), uniqueName("key")]
        yield* store.create(sampleSubscription({ ownerKeyId: other }))
        assert.isTrue(yield* store.createWithin(sampleSubscription({ ownerKeyId: owner }), 5))
        // Eight creations race for the four places left.
        const outcomes = yield* Effect.all(
          Arr.makeBy(8, () => store.createWithin(sampleSubscription({ ownerKeyId: owner }), 5)),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(outcomes.filter((created) => created).length, 4)
        assert.strictEqual((yield* store.list(owner)).length, 5)
        const refused = sampleSubscription({ ownerKeyId: owner })
        assert.isFalse(yield* store.createWithin(refused, 5))
        assert.isTrue(Option.isNone(yield* store.findById(refused.id)))
        // The other owner's one subscription leaves it room under a cap of 2.
        assert.isTrue(yield* store.createWithin(sampleSubscription({ ownerKeyId: other }), 2))
        assert.isFalse(yield* store.createWithin(sampleSubscription({ ownerKeyId: other }), 2))

        // Removing one makes room again; an existing id fails as create does.
        const [first] = yield* store.list(owner)
        assert.isTrue(yield* store.remove(first!.id, owner))
        const again = sampleSubscription({ ownerKeyId: owner })
        assert.isTrue(yield* store.createWithin(again, 5))
        const duplicate = yield* Effect.flip(store.createWithin({ ...again, ownerKeyId: uniqueName("key") }, 5))
        assert.strictEqual(duplicate._tag, "StorageError")
      }))

    it.effect("setStatus and markTriggered change a subscription whoever owns it; a later time is kept", () =>
      Effect.gen(function*() {
        const store = yield* WebhookStore
        const subscription = sampleSubscription()
        yield* store.create(subscription)
        const stored = Effect.map(store.findById(subscription.id), Option.getOrThrow)

        yield* store.setStatus(subscription.id, "failed")
        assert.strictEqual((yield* stored).status, "failed")
        yield* store.setStatus(subscription.id, "active")
        assert.strictEqual((yield* stored).status, "active")

        const at = createdAt + 60_000
        yield* store.markTriggered(subscription.id, at)
        assert.strictEqual((yield* stored).lastTriggeredAtMillis, at)
        // A worker that finished earlier reports late: the later time stays.
        yield* store.markTriggered(subscription.id, at - 1_000)
        assert.strictEqual((yield* stored).lastTriggeredAtMillis, at)
        yield* store.markTriggered(subscription.id, at + 1)
        assert.deepStrictEqual(
          revealed(yield* stored),
          revealed({ ...subscription, lastTriggeredAtMillis: at + 1 })
        )

        const unknown = `wh_${randomBytes(12).toString("hex")}`
        yield* store.setStatus(unknown, "paused")
        yield* store.markTriggered(unknown, at)
        assert.isTrue(Option.isNone(yield* store.findById(unknown)))
      }))

    it.effect("remove deletes the owner's subscription and its deliveries, once", () =>
      Effect.gen(function*() {
        const store = yield* WebhookStore
        const deliveries = yield* DeliveryStore
        const subscription = yield* storedSubscription()
        const kept = yield* storedSubscription({ ownerKeyId: subscription.ownerKeyId })
        const batch = [sampleDelivery(subscription.id, 1), sampleDelivery(subscription.id, 2, { state: "skipped" })]
        const keptDelivery = sampleDelivery(kept.id, 1, { eventId: batch[0]!.eventId })
        assert.strictEqual((yield* deliveries.record([...batch, keptDelivery])).length, 3)

        assert.isTrue(yield* store.remove(subscription.id, subscription.ownerKeyId))
        assert.isTrue(Option.isNone(yield* store.find(subscription.id, subscription.ownerKeyId)))
        assert.isTrue(Option.isNone(yield* store.findById(subscription.id)))
        assert.deepStrictEqual(idsOf(yield* store.list(subscription.ownerKeyId)), [kept.id])
        for (const delivery of batch) assert.isTrue(Option.isNone(yield* deliveries.find(delivery.id)))
        assert.deepStrictEqual(yield* deliveries.list(subscription.id, { limit: 10 }), [])
        assert.deepStrictEqual(yield* deliveries.undeliveredSince(subscription.id, 0), [])
        assert.isTrue(Option.isNone(yield* deliveries.requeue(batch[1]!.id)))
        assert.deepStrictEqual(yield* deliveries.find(keptDelivery.id), Option.some(recordedAs(keptDelivery)))

        assert.isFalse(yield* store.remove(subscription.id, subscription.ownerKeyId))
      }))
  })

  describe("DeliveryStore", () => {
    it.effect("removes deliveries delivered before the retention, and keeps pending, skipped and failed ones", () =>
      Effect.gen(function*() {
        const store = yield* DeliveryStore
        const subscription = yield* storedSubscription()
        const month = Duration.days(30)
        const start = Date.parse("2150-06-01T00:00:00.000Z") + Math.floor(Math.random() * 1e9)
        yield* TestClock.setTime(start)
        yield* store.pruneDelivered(month)
        const [delivered, later, failed, pending, skipped] = [1, 2, 3, 4, 5].map((sequence) =>
          sampleDelivery(subscription.id, sequence, { createdAtMillis: start })
        )
        yield* store.record([delivered!, later!, failed!, pending!, { ...skipped!, state: "skipped" }])
        const attempt = (id: string, state: "delivered" | "failed", atMillis: number) =>
          store.recordAttempt(id, {
            atMillis,
            status: state === "delivered" ? 200 : 410,
            error: state === "delivered" ? null : "HTTP 410",
            state,
            nextAttemptAtMillis: null
          })
        yield* attempt(delivered!.id, "delivered", start)
        yield* attempt(later!.id, "delivered", start + 1_000)
        yield* attempt(failed!.id, "failed", start)

        yield* TestClock.adjust(month)
        assert.strictEqual(yield* store.pruneDelivered(month), 1)
        assert.isTrue(Option.isNone(yield* store.find(delivered!.id)))
        assert.isTrue(Option.isSome(yield* store.find(later!.id)), "delivered a second later")
        yield* TestClock.adjust(Duration.days(365))
        assert.strictEqual(yield* store.pruneDelivered(month), 1)
        assert.deepStrictEqual(
          idsOf(yield* store.list(subscription.id, { limit: 10 })),
          [skipped!.id, pending!.id, failed!.id]
        )
      }))

    it.effect("records new deliveries in the given order and reads every field back", () =>
      Effect.gen(function*() {
        const store = yield* DeliveryStore
        const subscription = yield* storedSubscription()
        const batch = [
          sampleDelivery(subscription.id, 5),
          sampleDelivery(subscription.id, 3, { state: "skipped", eventType: "filing.8k_material" }),
          sampleDelivery(subscription.id, 2 ** 40 + 9, { createdAtMillis: 4_102_444_800_000 })
        ]
        const recorded = yield* store.record(batch)
        assert.deepStrictEqual(recorded, batch.map(recordedAs))
        for (const delivery of batch) {
          assert.deepStrictEqual(yield* store.find(delivery.id), Option.some(recordedAs(delivery)))
        }
        assert.deepStrictEqual(yield* store.record([]), [])
        assert.isTrue(Option.isNone(yield* store.find(`dlv_${randomBytes(12).toString("hex")}`)))
      }))

    it.effect("a known (subscription, event) pair records nothing and keeps the first delivery", () =>
      Effect.gen(function*() {
        const store = yield* DeliveryStore
        const [subscription, other] = [yield* storedSubscription(), yield* storedSubscription()]
        const first = sampleDelivery(subscription.id, 1)
        yield* store.record([first])
        const again = { ...first, id: `dlv_${randomBytes(12).toString("hex")}`, state: "skipped" as const }
        assert.deepStrictEqual(yield* store.record([again]), [])
        assert.isTrue(Option.isNone(yield* store.find(again.id)))
        assert.deepStrictEqual(yield* store.find(first.id), Option.some(recordedAs(first)))

        // The same event for another subscription is another delivery; a pair twice in a batch counts once.
        const forOther = sampleDelivery(other.id, 1, { eventId: first.eventId })
        const fresh = sampleDelivery(subscription.id, 2)
        const twice = { ...fresh, id: `dlv_${randomBytes(12).toString("hex")}` }
        const recorded = yield* store.record([again, fresh, forOther, twice])
        assert.deepStrictEqual(recorded, [fresh, forOther].map(recordedAs))
        assert.isTrue(Option.isNone(yield* store.find(twice.id)))
        assert.deepStrictEqual(idsOf(yield* store.list(subscription.id, { limit: 10 })), [fresh.id, first.id])
      }))

    it.effect("a batch with a delivery of an unknown subscription fails and records none of it", () =>
      Effect.gen(function*() {
        const store = yield* DeliveryStore
        const subscription = yield* storedSubscription()
        const valid = sampleDelivery(subscription.id, 1)
        const orphan = sampleDelivery(`wh_${randomBytes(12).toString("hex")}`, 1)
        const error = yield* Effect.flip(store.record([valid, orphan]))
        assert.strictEqual(error._tag, "StorageError")
        assert.isTrue(Option.isNone(yield* store.find(valid.id)))
        assert.deepStrictEqual(yield* store.record([valid]), [recordedAs(valid)])
      }))

    it.effect("concurrent recorders of one batch create each delivery once", () =>
      Effect.gen(function*() {
        const store = yield* DeliveryStore
        const subscriptions = [yield* storedSubscription(), yield* storedSubscription()]
        const batch = Arr.range(1, 3).flatMap((sequence) =>
          subscriptions.map((subscription) =>
            sampleDelivery(subscription.id, sequence, { eventId: `evt_${sequence}_${subscriptions[0]!.id}` })
          )
        )
        // Half the recorders get the batch reversed, as dispatchers that list subscriptions in another order.
        const outcomes = yield* Effect.all(
          Arr.makeBy(8, (n) => store.record(n % 2 === 0 ? batch : [...batch].reverse())),
          { concurrency: "unbounded" }
        )
        const recorded = outcomes.flat()
        assert.deepStrictEqual([...idsOf(recorded)].sort(), [...idsOf(batch)].sort())
        assert.deepStrictEqual(
          [...recorded].sort((a, b) => a.id.localeCompare(b.id)),
          [...batch].sort((a, b) => a.id.localeCompare(b.id)).map(recordedAs)
        )
        for (const subscription of subscriptions) {
          assert.strictEqual((yield* store.list(subscription.id, { limit: 100 })).length, 3)
        }
      }))

    it.effect("recordAttempt counts attempts and moves a delivery to pending, delivered or failed", () =>
      Effect.gen(function*() {
        const store = yield* DeliveryStore
        const subscription = yield* storedSubscription()
        const retried = sampleDelivery(subscription.id, 1)
        const abandoned = sampleDelivery(subscription.id, 2)
        yield* store.record([retried, abandoned])
        const at = createdAt + 10_000

        const afterFirst = yield* store.recordAttempt(retried.id, {
          atMillis: at,
          status: 503,
          error: "HTTP 503",
          state: "pending",
          nextAttemptAtMillis: at + 60_000
        })
        const expectedFirst: Delivery = {
          ...recordedAs(retried),
          attempts: 1,
          lastAttemptAtMillis: at,
          lastStatus: 503,
          lastError: "HTTP 503",
          nextAttemptAtMillis: at + 60_000
        }
        assert.deepStrictEqual(afterFirst, Option.some(expectedFirst))

        const afterSecond = yield* store.recordAttempt(retried.id, {
          atMillis: at + 60_000,
          status: 204,
          error: null,
          state: "delivered",
          nextAttemptAtMillis: null
        })
        const expectedSecond: Delivery = {
          ...expectedFirst,
          state: "delivered",
          attempts: 2,
          lastAttemptAtMillis: at + 60_000,
          lastStatus: 204,
          lastError: null,
          nextAttemptAtMillis: null,
          deliveredAtMillis: at + 60_000
        }
        assert.deepStrictEqual(afterSecond, Option.some(expectedSecond))
        assert.deepStrictEqual(yield* store.find(retried.id), Option.some(expectedSecond))

        for (const n of [1, 2, 3]) {
          yield* store.recordAttempt(abandoned.id, {
            atMillis: at + n,
            status: null,
            error: "timed out after 10 s",
            state: n < 3 ? "pending" : "failed",
            nextAttemptAtMillis: n < 3 ? at + n * 1_000 : null
          })
        }
        assert.deepStrictEqual(
          yield* store.find(abandoned.id),
          Option.some({
            ...recordedAs(abandoned),
            state: "failed" as const,
            attempts: 3,
            lastAttemptAtMillis: at + 3,
            lastError: "timed out after 10 s"
          })
        )

        const unknown = yield* store.recordAttempt(`dlv_${randomBytes(12).toString("hex")}`, {
          atMillis: at,
          status: 200,
          error: null,
          state: "delivered",
          nextAttemptAtMillis: null
        })
        assert.isTrue(Option.isNone(unknown))
      }))

    it.effect("markSkipped sets a pending delivery aside, attempts kept; unknown ids are none", () =>
      Effect.gen(function*() {
        const store = yield* DeliveryStore
        const subscription = yield* storedSubscription()
        const pending = sampleDelivery(subscription.id, 1)
        yield* store.record([pending])
        const skipped = { ...recordedAs(pending), state: "skipped" as const }
        assert.deepStrictEqual(yield* store.markSkipped(pending.id), Option.some(skipped))
        assert.deepStrictEqual(yield* store.find(pending.id), Option.some(skipped))
        assert.isTrue(Option.isNone(yield* store.markSkipped(uniqueName("dlv"))))
      }))

    it.effect("requeue makes a delivery pending again and keeps its attempts", () =>
      Effect.gen(function*() {
        const store = yield* DeliveryStore
        const subscription = yield* storedSubscription()
        const failed = sampleDelivery(subscription.id, 1)
        const skipped = sampleDelivery(subscription.id, 2, { state: "skipped" })
        yield* store.record([failed, skipped])
        yield* store.recordAttempt(failed.id, {
          atMillis: createdAt + 5,
          status: 410,
          error: "HTTP 410",
          state: "pending",
          nextAttemptAtMillis: createdAt + 1_000
        })
        const attempted = Option.getOrThrow(
          yield* store.recordAttempt(failed.id, {
            atMillis: createdAt + 2_000,
            status: 410,
            error: "HTTP 410",
            state: "failed",
            nextAttemptAtMillis: null
          })
        )
        const requeued = { ...attempted, state: "pending" as const, nextAttemptAtMillis: null }
        assert.deepStrictEqual(yield* store.requeue(failed.id), Option.some(requeued))
        assert.deepStrictEqual(yield* store.find(failed.id), Option.some(requeued))
        assert.strictEqual(requeued.attempts, 2)

        assert.deepStrictEqual(
          yield* store.requeue(skipped.id),
          Option.some({ ...recordedAs(skipped), state: "pending" as const })
        )
        assert.isTrue(Option.isNone(yield* store.requeue(`dlv_${randomBytes(12).toString("hex")}`)))
      }))

    it.effect("lists a subscription's deliveries newest event first, paged by sequence", () =>
      Effect.gen(function*() {
        const store = yield* DeliveryStore
        const [subscription, other] = [yield* storedSubscription(), yield* storedSubscription()]
        const batch = [12, 10, 14, 11, 13].map((sequence) => sampleDelivery(subscription.id, sequence))
        yield* store.record([...batch, sampleDelivery(other.id, 15), sampleDelivery(other.id, 11)])
        const sequences = (deliveries: ReadonlyArray<Delivery>) => deliveries.map((d) => d.eventSequence)

        const all = yield* store.list(subscription.id, { limit: 100 })
        assert.deepStrictEqual(sequences(all), [14, 13, 12, 11, 10])
        assert.deepStrictEqual(all[0], recordedAs(batch[2]!))

        const pages: Array<ReadonlyArray<number>> = []
        let before: number | undefined = undefined
        while (pages.length < 10) {
          const page: ReadonlyArray<Delivery> = yield* store.list(subscription.id, {
            limit: 2,
            beforeSequence: before
          })
          if (page.length === 0) break
          pages.push(sequences(page))
          before = page[page.length - 1]!.eventSequence
        }
        assert.deepStrictEqual(pages, [[14, 13], [12, 11], [10]])
        assert.deepStrictEqual(sequences(yield* store.list(subscription.id, { limit: 100, beforeSequence: 13 })), [
          12,
          11,
          10
        ])
        assert.deepStrictEqual(yield* store.list(subscription.id, { limit: 100, beforeSequence: 10 }), [])
        assert.deepStrictEqual(yield* store.list(subscription.id, { limit: 0 }), [])
        assert.deepStrictEqual(sequences(yield* store.list(other.id, { limit: 100 })), [15, 11])
        assert.deepStrictEqual(yield* store.list(`wh_${randomBytes(12).toString("hex")}`, { limit: 100 }), [])
      }))

    it.effect("undeliveredSince: a subscription's skipped and failed deliveries created at or after a time, oldest first", () =>
      Effect.gen(function*() {
        const store = yield* DeliveryStore
        const [subscription, other] = [yield* storedSubscription(), yield* storedSubscription()]
        const since = createdAt + 1_000_000
        const skipped = (sequence: number, at: number) =>
          sampleDelivery(subscription.id, sequence, { state: "skipped", createdAtMillis: at })
        const before = skipped(1, since - 1)
        const atSince = skipped(2, since)
        const later = sampleDelivery(subscription.id, 3, { createdAtMillis: since + 10 })
        const latest = skipped(4, since + 20)
        const recovered = skipped(5, since + 5)
        const pending = sampleDelivery(subscription.id, 6, { createdAtMillis: since + 7 })
        const delivered = sampleDelivery(subscription.id, 8, { createdAtMillis: since + 8 })
        const othersSkipped = sampleDelivery(other.id, 7, { state: "skipped", createdAtMillis: since + 1 })
        yield* store.record([latest, later, pending, delivered, before, recovered, atSince, othersSkipped])
        yield* store.requeue(recovered.id)
        const attempted = (state: "failed" | "delivered") => ({
          atMillis: since + 30,
          status: state === "failed" ? 500 : 204,
          error: state === "failed" ? "HTTP 500" : null,
          state,
          nextAttemptAtMillis: null
        })
        const failed = yield* store.recordAttempt(later.id, attempted("failed"))
        yield* store.recordAttempt(delivered.id, attempted("delivered"))

        assert.deepStrictEqual(
          yield* store.undeliveredSince(subscription.id, since),
          [recordedAs(atSince), Option.getOrThrow(failed), recordedAs(latest)]
        )
        assert.deepStrictEqual(
          idsOf(yield* store.undeliveredSince(subscription.id, since + 1)),
          idsOf([later, latest])
        )
        assert.deepStrictEqual(idsOf(yield* store.undeliveredSince(subscription.id, since + 20)), [latest.id])
        assert.deepStrictEqual(yield* store.undeliveredSince(subscription.id, since + 21), [])
        assert.deepStrictEqual(
          idsOf(yield* store.undeliveredSince(subscription.id, 0)),
          idsOf([before, atSince, later, latest])
        )
        assert.deepStrictEqual(idsOf(yield* store.undeliveredSince(other.id, since)), [othersSkipped.id])
        assert.deepStrictEqual(yield* store.undeliveredSince(`wh_${randomBytes(12).toString("hex")}`, 0), [])
      }))
  })
}
