// The JobQueue part of the conformance suite: offering, claiming, retrying and finishing jobs.
import { assert, describe, type Vitest } from "@effect/vitest"
import { Array as Arr, Chunk, Clock, Duration, Effect, Fiber, Option, TestClock } from "effect"
import { JobQueue } from "../JobQueue.js"
import type { Stores } from "../Stores.js"
import { uniqueName } from "./conformanceSamples.js"

/** Registers the JobQueue tests on a layer's `it`. */
export const queueSuite = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("JobQueue", () => {
    it.effect("forgets completed jobs after the retention, once each; a forgotten job's key still refuses a duplicate", () =>
      Effect.gen(function*() {
        const queue = yield* JobQueue
        const name = uniqueName("prune")
        const day = Duration.days(1)
        const week = Duration.days(7)
        // A time of its own, after every other test's, with what they completed forgotten first.
        yield* TestClock.setTime(Date.parse("2150-01-01T00:00:00.000Z") + Math.floor(Math.random() * 1e9))
        yield* queue.pruneCompleted(week)
        const keyed = yield* queue.enqueue(name, { n: 1 }, { uniqueKey: "k1" })
        yield* queue.enqueue(name, { n: 2 })
        yield* queue.enqueue(name, { n: 3 }, { uniqueKey: "k3" })
        const take = Effect.map(queue.take(name, Duration.minutes(1)), Option.getOrThrow)
        const [first, second, third] = [yield* take, yield* take, yield* take]
        assert.isTrue(yield* queue.complete(first))
        assert.isTrue(yield* queue.complete(second))
        assert.isTrue(yield* queue.fail(third, "never"))
        const waiting = yield* queue.enqueue(name, { n: 4 }, { uniqueKey: "k4" })

        yield* TestClock.adjust(Duration.subtract(week, Duration.millis(1)))
        assert.strictEqual(yield* queue.pruneCompleted(week), 0, "not yet a week")
        yield* TestClock.adjust(Duration.millis(1))
        assert.strictEqual(yield* queue.pruneCompleted(week), 2, "the two completed; not the dead one")
        assert.strictEqual(yield* queue.pruneCompleted(week), 0, "each counted once")
        yield* TestClock.adjust(day)
        assert.strictEqual(yield* queue.pruneCompleted(week), 0)

        assert.strictEqual(yield* queue.enqueue(name, { n: 1, again: true }, { uniqueKey: "k1" }), keyed)
        assert.strictEqual(yield* queue.enqueue(name, { n: 3, again: true }, { uniqueKey: "k3" }), third.id)
        assert.strictEqual(yield* queue.enqueueAll(name, [{ payload: { n: 1 }, uniqueKey: "k1" }]), 0)
        assert.strictEqual(yield* queue.pendingCount(name), 1)
        const next = yield* take
        assert.deepStrictEqual([next.id, next.payload], [waiting, { n: 4 }])
        assert.isTrue(Option.isNone(yield* queue.take(name, Duration.minutes(1))))
      }))

    it.effect("reports each queue's due, scheduled and running jobs and when the oldest due one came due", () =>
      Effect.gen(function*() {
        const queue = yield* JobQueue
        const name = uniqueName("q")
        const other = `${name}-other`
        const ours = Effect.map(
          queue.depths,
          (depths) => depths.filter((depth) => depth.queue === name || depth.queue === other)
        )
        const start = yield* Clock.currentTimeMillis
        yield* queue.enqueue(name, { n: 1 })
        yield* TestClock.adjust(Duration.seconds(5))
        yield* queue.enqueue(name, { n: 2 })
        yield* queue.enqueue(name, { n: 3 }, { delay: Duration.minutes(10) })
        yield* queue.enqueue(other, { n: 4 })
        yield* TestClock.adjust(Duration.minutes(1))
        const first = Option.getOrThrow(yield* queue.take(name, Duration.seconds(30)))
        assert.deepStrictEqual(first.payload, { n: 1 })
        assert.deepStrictEqual(yield* ours, [
          { queue: name, due: 1, scheduled: 1, running: 1, oldestDueAtMillis: Option.some(start + 5_000) },
          { queue: other, due: 1, scheduled: 0, running: 0, oldestDueAtMillis: Option.some(start + 5_000) }
        ])

        // The worker died: its job is due again, from when it first came due.
        yield* TestClock.adjust(Duration.seconds(30))
        assert.deepStrictEqual((yield* ours)[0], {
          queue: name,
          due: 2,
          scheduled: 1,
          running: 0,
          oldestDueAtMillis: Option.some(start)
        })

        const again = Option.getOrThrow(yield* queue.take(name, Duration.seconds(30)))
        assert.isTrue(yield* queue.complete(again))
        const second = Option.getOrThrow(yield* queue.take(name, Duration.seconds(30)))
        assert.isTrue(yield* queue.retry(second, Duration.minutes(1)))
        assert.deepStrictEqual((yield* ours)[0], {
          queue: name,
          due: 0,
          scheduled: 2,
          running: 0,
          oldestDueAtMillis: Option.none()
        })

        const last = Option.getOrThrow(yield* queue.take(other, Duration.seconds(30)))
        assert.isTrue(yield* queue.fail(last, "never"))
        assert.deepStrictEqual((yield* ours).map((depth) => depth.queue), [name], "an empty queue is not listed")
      }))

    it.effect("hands out a job once, under a lease, and completes it", () =>
      Effect.gen(function*() {
        const queue = yield* JobQueue
        const name = uniqueName("q")
        const id = yield* queue.enqueue(name, { publicationId: "0000000001-24-000001", n: [1, 2] })
        const job = Option.getOrThrow(yield* queue.take(name, Duration.seconds(30)))
        assert.deepStrictEqual([job.id, job.queue, job.attempts], [id, name, 1])
        assert.deepStrictEqual(job.payload, { publicationId: "0000000001-24-000001", n: [1, 2] })
        assert.isTrue(Option.isNone(yield* queue.take(name, Duration.seconds(30))))
        assert.strictEqual(yield* queue.pendingCount(name), 1)
        assert.isTrue(yield* queue.complete(job))
        assert.strictEqual(yield* queue.pendingCount(name), 0)
        assert.isTrue(Option.isNone(yield* queue.take(name, Duration.seconds(30))))
      }))

    it.effect("enqueues a batch: each job once by unique key, known keys and repeats skipped, delays kept", () =>
      Effect.gen(function*() {
        const queue = yield* JobQueue
        const name = uniqueName("q")
        yield* queue.enqueue(name, { n: 0 }, { uniqueKey: "k0" })
        const added = yield* queue.enqueueAll(name, [
          { payload: { n: 1 }, uniqueKey: "k1" },
          { payload: { n: 0, again: true }, uniqueKey: "k0" },
          { payload: { n: 2 }, uniqueKey: "k2" },
          { payload: { n: 1, twice: true }, uniqueKey: "k1" },
          { payload: { n: 3 } },
          { payload: { n: 4 }, uniqueKey: "k4", delay: Duration.minutes(5) }
        ])
        assert.strictEqual(added, 4)
        assert.strictEqual(yield* queue.enqueueAll(name, []), 0)
        assert.strictEqual(yield* queue.pendingCount(name), 5)
        const due: Array<unknown> = []
        while (true) {
          const job = yield* queue.take(name, Duration.minutes(1))
          if (Option.isNone(job)) break
          due.push(job.value.payload)
          yield* queue.complete(job.value)
        }
        assert.sameDeepMembers(due, [{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }])
        yield* TestClock.adjust(Duration.minutes(5))
        const delayed = Option.getOrThrow(yield* queue.take(name, Duration.minutes(1)))
        assert.deepStrictEqual(delayed.payload, { n: 4 })
        // A batch of thousands goes in whole.
        const many = Arr.makeBy(2_500, (n) => ({ payload: { n }, uniqueKey: `many-${n}` }))
        assert.strictEqual(yield* queue.enqueueAll(name, many), 2_500)
        assert.strictEqual(yield* queue.enqueueAll(name, many), 0)
      }))

    it.effect("takes due jobs oldest first and holds delayed ones back until they are due", () =>
      Effect.gen(function*() {
        const queue = yield* JobQueue
        const name = uniqueName("q")
        const later = yield* queue.enqueue(name, "later", { delay: Duration.minutes(5) })
        const first = yield* queue.enqueue(name, "first")
        const second = yield* queue.enqueue(name, "second")
        const taken = [
          Option.getOrThrow(yield* queue.take(name, Duration.minutes(1))),
          Option.getOrThrow(yield* queue.take(name, Duration.minutes(1)))
        ]
        assert.deepStrictEqual(
          taken.map((job) => job.id),
          [first, second]
        )
        yield* Effect.forEach(taken, queue.complete)
        assert.isTrue(Option.isNone(yield* queue.take(name, Duration.minutes(1))))
        yield* TestClock.adjust(Duration.minutes(5))
        assert.strictEqual(Option.getOrThrow(yield* queue.take(name, Duration.minutes(1))).id, later)
      }))

    it.effect("a lease that runs out lets another worker take the job, and the first worker's lease is void", () =>
      Effect.gen(function*() {
        const queue = yield* JobQueue
        const name = uniqueName("q")
        yield* queue.enqueue(name, "work")
        const crashed = Option.getOrThrow(yield* queue.take(name, Duration.seconds(30)))
        yield* TestClock.adjust(Duration.seconds(31))
        const again = Option.getOrThrow(yield* queue.take(name, Duration.seconds(30)))
        assert.deepStrictEqual([again.id, again.attempts], [crashed.id, 2])
        assert.isFalse(yield* queue.complete(crashed))
        assert.isFalse(yield* queue.retry(crashed, Duration.zero))
        assert.isTrue(yield* queue.complete(again))
      }))

    it.effect("extending a lease keeps the job from other workers", () =>
      Effect.gen(function*() {
        const queue = yield* JobQueue
        const name = uniqueName("q")
        yield* queue.enqueue(name, "long")
        const job = Option.getOrThrow(yield* queue.take(name, Duration.seconds(30)))
        yield* TestClock.adjust(Duration.seconds(20))
        assert.isTrue(yield* queue.extendLease(job, Duration.seconds(30)))
        yield* TestClock.adjust(Duration.seconds(20))
        assert.isTrue(Option.isNone(yield* queue.take(name, Duration.seconds(30))))
        assert.isTrue(yield* queue.complete(job))
      }))

    it.effect("a retried job comes back after its delay; a failed one never does", () =>
      Effect.gen(function*() {
        const queue = yield* JobQueue
        const name = uniqueName("q")
        yield* queue.enqueue(name, "flaky")
        const job = Option.getOrThrow(yield* queue.take(name, Duration.seconds(30)))
        assert.isTrue(yield* queue.retry(job, Duration.minutes(1)))
        assert.isTrue(Option.isNone(yield* queue.take(name, Duration.seconds(30))))
        yield* TestClock.adjust(Duration.minutes(1))
        const retried = Option.getOrThrow(yield* queue.take(name, Duration.seconds(30)))
        assert.strictEqual(retried.attempts, 2)
        assert.isTrue(yield* queue.fail(retried, "gave up"))
        yield* TestClock.adjust(Duration.hours(1))
        assert.isTrue(Option.isNone(yield* queue.take(name, Duration.seconds(30))))
        assert.strictEqual(yield* queue.pendingCount(name), 0)
      }))

    it.effect("a unique key enqueues one job however often it is given", () =>
      Effect.gen(function*() {
        const queue = yield* JobQueue
        const name = uniqueName("q")
        const ids = yield* Effect.all(
          Arr.replicate(queue.enqueue(name, "once", { uniqueKey: "filing-1" }), 5),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(new Set(ids).size, 1)
        assert.strictEqual(yield* queue.pendingCount(name), 1)
        const job = Option.getOrThrow(yield* queue.take(name, Duration.seconds(30)))
        yield* queue.complete(job)
        assert.strictEqual(yield* queue.enqueue(name, "once", { uniqueKey: "filing-1" }), ids[0])
        assert.strictEqual(yield* queue.pendingCount(name), 0)
      }))

    it.effect("concurrent workers take every job exactly once", () =>
      Effect.gen(function*() {
        const queue = yield* JobQueue
        const name = uniqueName("q")
        const enqueued = yield* Effect.forEach(Arr.range(1, 24), (n) => queue.enqueue(name, { n }))
        const worker = Effect.gen(function*() {
          const taken: Array<string> = []
          while (true) {
            const job = yield* queue.take(name, Duration.minutes(1))
            if (Option.isNone(job)) return taken
            taken.push(job.value.id)
            yield* queue.complete(job.value)
          }
        })
        const fibers = yield* Effect.forEach(Arr.range(1, 4), () => Effect.fork(worker))
        const perWorker = yield* Effect.forEach(fibers, Fiber.join)
        const all = Chunk.fromIterable(perWorker.flat())
        assert.strictEqual(Chunk.size(all), enqueued.length)
        assert.deepStrictEqual([...new Set(perWorker.flat())].sort(), [...enqueued].sort())
      }))
  })
}
