/**
 * Leadership on the TestClock, two instances in one process sharing an in-memory coordination
 * store: one works at a time, a stopped holder hands over at the other's next try, a dead one
 * (which gives nothing back) after its lease runs out, and a holder that cannot renew stops at once.
 */
import { assert, describe, it } from "@effect/vitest"
import { Coordination, MemoryStorage, StorageError } from "@filings/storage"
import { Duration, Effect, Fiber, Option, TestClock } from "effect"
import * as Leadership from "../src/coordination/Leadership.js"

const lease = Duration.seconds(30)
const retryEvery = Duration.seconds(2)

/** Work that records, once a second, which instance did it. */
const ticking = (holder: string, ticks: Array<string>) =>
  Effect.sync(() => void ticks.push(holder)).pipe(Effect.zipRight(Effect.sleep("1 second")), Effect.forever)

/** Steps the TestClock a second at a time, so every sleeping fiber runs when it is due. */
const advance = (seconds: number) => Effect.forEach(Array.from({ length: seconds }), () => TestClock.adjust("1 second"))

const run = (
  coordination: Coordination.Service,
  holder: string,
  ticks: Array<string>
) =>
  Effect.fork(
    Leadership.whileLeading({ name: "work", holder, lease, retryEvery }, ticking(holder, ticks)).pipe(
      Effect.provideService(Coordination.Coordination, coordination)
    )
  )

/** What a process killed at once leaves behind: nothing given back. */
const diesWithoutReleasing = (coordination: Coordination.Service): Coordination.Service => ({
  ...coordination,
  releaseLease: () => Effect.void
})

describe("Leadership.whileLeading", () => {
  it.effect("one instance works at a time; a stopped holder gives the work over at the other's next try", () =>
    Effect.gen(function*() {
      const coordination = yield* Effect.provide(Coordination.Coordination, MemoryStorage.coordination)
      const ticks: Array<string> = []
      const first = yield* run(coordination, "first", ticks)
      yield* advance(1)
      const second = yield* run(coordination, "second", ticks)
      yield* advance(60)
      assert.isTrue(ticks.length >= 60 && ticks.every((holder) => holder === "first"), ticks.join())
      const holderOf = Effect.map(coordination.leaseHolder("work"), Option.map((held) => held.holder))
      assert.deepStrictEqual(yield* holderOf, Option.some("first"))

      yield* Fiber.interrupt(first)
      assert.isTrue(Option.isNone(yield* coordination.leaseHolder("work")), "given back when stopped")
      const before = ticks.length
      yield* advance(2)
      const after = ticks.slice(before)
      assert.isTrue(after.length > 0 && after.every((holder) => holder === "second"), after.join())
      assert.deepStrictEqual(yield* holderOf, Option.some("second"))
      yield* Fiber.interrupt(second)
    }))

  it.effect("a holder that dies keeps the work undone until its lease runs out, then another takes it", () =>
    Effect.gen(function*() {
      const coordination = yield* Effect.provide(Coordination.Coordination, MemoryStorage.coordination)
      const ticks: Array<string> = []
      const dying = yield* run(diesWithoutReleasing(coordination), "dying", ticks)
      yield* advance(1)
      const survivor = yield* run(coordination, "survivor", ticks)
      yield* advance(20)
      yield* Fiber.interrupt(dying)
      const diedAt = ticks.length
      yield* advance(25)
      assert.strictEqual(ticks.length, diedAt, "nobody works while the dead holder's lease runs")
      yield* advance(10)
      assert.include(ticks.slice(diedAt), "survivor")
      assert.notInclude(ticks.slice(diedAt), "dying")
      yield* Fiber.interrupt(survivor)
    }))

  it.effect("a holder that cannot renew stops working before its lease could run out", () =>
    Effect.gen(function*() {
      const coordination = yield* Effect.provide(Coordination.Coordination, MemoryStorage.coordination)
      let storeAway = false
      const flaky: Coordination.Service = {
        ...coordination,
        acquireLease: (name, holder, duration) =>
          Effect.suspend(() =>
            storeAway
              ? Effect.fail(new StorageError.StorageError({ operation: "Coordination.acquireLease", reason: "away" }))
              : coordination.acquireLease(name, holder, duration)
          )
      }
      const ticks: Array<string> = []
      const holder = yield* run(flaky, "flaky", ticks)
      yield* advance(5)
      assert.isAbove(ticks.length, 0)
      storeAway = true
      // The next renewal comes at a third of the lease (10 s after the last); after it, no more work.
      yield* advance(11)
      const stoppedAt = ticks.length
      yield* advance(30)
      assert.strictEqual(ticks.length, stoppedAt)
      storeAway = false
      yield* advance(3)
      assert.isAbove(ticks.length, stoppedAt, "works again once the store answers")
      yield* Fiber.interrupt(holder)
    }))
})
