// The Coordination part of the conformance suite: leases and start decisions shared between instances.
import { assert, describe, type Vitest } from "@effect/vitest"
import { Array as Arr, Clock, Duration, Effect, Option, TestClock } from "effect"
import { Coordination, type StartDecision } from "../Coordination.js"
import type { Stores } from "../Stores.js"
import { uniqueName } from "./conformanceSamples.js"

/** Registers the Coordination tests on a layer's `it`. */
export const coordinationSuite = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("Coordination", () => {
    const second = Duration.seconds(1)
    const waits = (decisions: ReadonlyArray<StartDecision>) =>
      decisions.map((decision) => (decision._tag === "Started" ? "started" : decision.millis))

    it.effect("takes at most the limit of starts in a window, says how long to wait, and frees each start a window on", () =>
      Effect.gen(function*() {
        const coordination = yield* Coordination
        const budget = uniqueName("budget")
        const take = coordination.takeStart(budget, 3, second)
        assert.deepStrictEqual(waits([yield* take, yield* take]), ["started", "started"])
        yield* TestClock.adjust(Duration.millis(300))
        assert.deepStrictEqual(waits([yield* take, yield* take]), ["started", 700])
        yield* TestClock.adjust(Duration.millis(699))
        assert.deepStrictEqual(waits([yield* take]), [1])
        yield* TestClock.adjust(Duration.millis(1))
        // The two starts of time 0 have left the window; the one of 300 ms has not.
        assert.deepStrictEqual(waits([yield* take, yield* take, yield* take]), ["started", "started", 300])
        assert.deepStrictEqual(waits([yield* coordination.takeStart(uniqueName("budget"), 3, second)]), ["started"])
      }))

    it.effect("concurrent takers never get more starts than the limit", () =>
      Effect.gen(function*() {
        const coordination = yield* Coordination
        const budget = uniqueName("burst")
        const decisions = yield* Effect.all(Arr.replicate(coordination.takeStart(budget, 10, second), 25), {
          concurrency: "unbounded"
        })
        assert.strictEqual(decisions.filter((decision) => decision._tag === "Started").length, 10)
        assert.isTrue(decisions.every((decision) => decision._tag === "Started" || decision.millis <= 1_000))
      }))

    it.effect("a pause stops every start until it ends, and a shorter pause does not shorten it", () =>
      Effect.gen(function*() {
        const coordination = yield* Coordination
        const budget = uniqueName("pause")
        const take = coordination.takeStart(budget, 10, second)
        yield* coordination.pauseStarts(budget, Duration.seconds(5))
        assert.deepStrictEqual(waits([yield* take]), [5_000])
        yield* coordination.pauseStarts(budget, second)
        yield* TestClock.adjust(Duration.seconds(2))
        assert.deepStrictEqual(waits([yield* take]), [3_000])
        assert.deepStrictEqual(waits([yield* coordination.takeStart(uniqueName("pause"), 10, second)]), ["started"])
        yield* TestClock.adjust(Duration.seconds(3))
        assert.deepStrictEqual(waits([yield* take]), ["started"])
      }))

    it.effect("a lease is held by one holder until it runs out or is released; its holder renews it", () =>
      Effect.gen(function*() {
        const coordination = yield* Coordination
        const lease = uniqueName("lease")
        const [first, next] = [uniqueName("instance"), uniqueName("instance")]
        const thirty = Duration.seconds(30)
        const start = yield* Clock.currentTimeMillis
        assert.isTrue(Option.isNone(yield* coordination.leaseHolder(lease)))
        assert.isTrue(yield* coordination.acquireLease(lease, first, thirty))
        assert.isFalse(yield* coordination.acquireLease(lease, next, thirty))
        yield* TestClock.adjust(Duration.seconds(20))
        assert.isTrue(yield* coordination.acquireLease(lease, first, thirty), "renewed by its holder")
        assert.deepStrictEqual(
          yield* coordination.leaseHolder(lease),
          Option.some({ holder: first, expiresAtMillis: start + 50_000 })
        )
        yield* TestClock.adjust(Duration.seconds(29))
        assert.isFalse(
          yield* coordination.acquireLease(lease, next, thirty),
          "the renewal counts from when it was made"
        )
        yield* coordination.releaseLease(lease, next)
        assert.deepStrictEqual(
          Option.map(yield* coordination.leaseHolder(lease), (held) => held.holder),
          Option.some(first)
        )
        yield* TestClock.adjust(Duration.seconds(1))
        assert.isTrue(Option.isNone(yield* coordination.leaseHolder(lease)), "run out")
        assert.isTrue(yield* coordination.acquireLease(lease, next, thirty))
        assert.isFalse(yield* coordination.acquireLease(lease, first, thirty))
        yield* coordination.releaseLease(lease, next)
        assert.isTrue(Option.isNone(yield* coordination.leaseHolder(lease)), "released")
        assert.isTrue(yield* coordination.acquireLease(lease, first, thirty))
        assert.isTrue(Option.isNone(yield* coordination.leaseHolder(uniqueName("lease"))))
      }))

    it.effect("of holders racing for a free lease, exactly one gets it", () =>
      Effect.gen(function*() {
        const coordination = yield* Coordination
        const lease = uniqueName("race")
        const holders = Arr.makeBy(12, () => uniqueName("instance"))
        const won = yield* Effect.forEach(
          holders,
          (holder) => coordination.acquireLease(lease, holder, Duration.seconds(30)),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(won.filter(Boolean).length, 1)
        const winner = holders[won.indexOf(true)]
        assert.deepStrictEqual(
          Option.map(yield* coordination.leaseHolder(lease), (held) => held.holder),
          Option.some(winner)
        )
      }))
  })
}
