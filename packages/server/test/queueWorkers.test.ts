/**
 * A job whose handler ends in a defect, or in an interruption that came from another fiber (a
 * shared result that fiber gave up), is a passing failure of that job: it is tried again, and the
 * worker goes on to the next jobs.
 */
import { assert, describe, it } from "@effect/vitest"
import { JobQueue, MemoryStorage, StorageError } from "@filings/storage"
import { Clock, Duration, Effect, Exit, Fiber, Layer, Option, Ref, Scope, TestClock } from "effect"
import { JobFailure, ShutdownGrace, startWorkers } from "../src/jobs/QueueWorkers.js"

describe("QueueWorkers", () => {
  it.scoped("retries a job that died of a defect or of another fiber's interruption, and keeps working", () =>
    Effect.gen(function*() {
      const queue = yield* JobQueue.JobQueue
      const attempts = yield* Ref.make<ReadonlyArray<string>>([])
      const done = yield* Ref.make<ReadonlyArray<string>>([])
      yield* startWorkers({
        queue: "test",
        concurrency: 1,
        lease: "1 minute",
        pollInterval: "1 second",
        maxAttempts: 5,
        handle: (job) =>
          Effect.gen(function*() {
            const name = (job.payload as { readonly name: string }).name
            yield* Ref.update(attempts, (seen) => [...seen, `${name}#${job.attempts}`])
            if (job.attempts === 1 && name === "interrupted") {
              // Waiting on a fiber that someone else interrupts.
              const shared = yield* Effect.fork(Effect.never)
              yield* Fiber.interrupt(shared)
              yield* Fiber.join(shared)
            }
            if (job.attempts === 1 && name === "defect") yield* Effect.die(new Error("a bug"))
            yield* Ref.update(done, (names) => [...names, name])
          })
      })
      yield* queue.enqueue("test", { name: "interrupted" })
      yield* queue.enqueue("test", { name: "defect" })
      yield* TestClock.adjust("1 second")
      yield* TestClock.adjust("1 second")
      yield* queue.enqueue("test", { name: "plain" })
      // Past the retry delays (2 s), with polls on the way.
      for (let second = 0; second < 5; second++) yield* TestClock.adjust("1 second")

      assert.deepStrictEqual([...(yield* Ref.get(done))].sort(), ["defect", "interrupted", "plain"])
      assert.includeMembers([...(yield* Ref.get(attempts))], ["interrupted#1", "interrupted#2", "defect#1", "defect#2"])
      assert.strictEqual(yield* queue.pendingCount("test"), 0)
    }).pipe(Effect.provide(MemoryStorage.layer)))

  it.effect("a stop takes no new job, lets one under way finish within the grace, and gives back one that would not", () =>
    Effect.gen(function*() {
      const queue = yield* JobQueue.JobQueue
      const finished = yield* Ref.make<ReadonlyArray<string>>([])
      const workers = yield* Scope.make()
      yield* startWorkers({
        queue: "stop",
        concurrency: 2,
        lease: "1 minute",
        pollInterval: "1 second",
        maxAttempts: 5,
        handle: (job) => {
          const { name, seconds } = job.payload as { readonly name: string; readonly seconds: number }
          return Effect.sleep(Duration.seconds(seconds)).pipe(
            Effect.zipRight(Ref.update(finished, (names) => [...names, name]))
          )
        }
      }).pipe(Scope.extend(workers), Effect.provideService(ShutdownGrace, Duration.seconds(10)))
      yield* queue.enqueue("stop", { name: "short", seconds: 5 })
      const long = yield* queue.enqueue("stop", { name: "long", seconds: 60 })
      yield* TestClock.adjust("1 second")

      const stopping = yield* Effect.fork(Scope.close(workers, Exit.void))
      yield* queue.enqueue("stop", { name: "late", seconds: 1 })
      yield* TestClock.adjust("5 seconds")
      assert.deepStrictEqual(yield* Ref.get(finished), ["short"])
      assert.isTrue(Option.isNone(yield* Fiber.poll(stopping)), "still waiting for the long job")
      yield* TestClock.adjust("5 seconds")
      yield* Fiber.join(stopping)

      assert.deepStrictEqual(yield* Ref.get(finished), ["short"], "the long job was cut off, the late one never taken")
      assert.strictEqual(yield* queue.pendingCount("stop"), 2)
      // Given back at once: taken again now, not when its minute-long lease would have run out.
      const take = Effect.map(queue.take("stop", Duration.minutes(1)), Option.getOrThrow)
      const taken = [yield* take, yield* take].map((job) => [job.id === long ? "long" : "late", job.attempts])
      assert.deepStrictEqual(taken, [["late", 1], ["long", 2]])
    }).pipe(Effect.provide(MemoryStorage.layer)))

  it.scoped("an outage uses up no attempts: the job is tried at least every 30 s until it succeeds", () =>
    Effect.gen(function*() {
      const queue = yield* JobQueue.JobQueue
      const tries = yield* Ref.make<ReadonlyArray<{ readonly name: string; readonly at: number }>>([])
      const done = yield* Ref.make<ReadonlyArray<string>>([])
      // Three minutes of outage, far past what three attempts with growing delays last (2 s, 4 s).
      const outageEndsAt = Duration.toMillis(Duration.minutes(3))
      yield* startWorkers({
        queue: "outage",
        concurrency: 2,
        lease: "1 minute",
        pollInterval: "1 second",
        maxAttempts: 3,
        handle: (job) =>
          Effect.gen(function*() {
            const name = (job.payload as { readonly name: string }).name
            const now = yield* Clock.currentTimeMillis
            yield* Ref.update(tries, (seen) => [...seen, { name, at: now }])
            if (now < outageEndsAt) {
              return yield* new JobFailure({
                reason: "EDGAR answered 503",
                permanent: false,
                outage: name === "outage"
              })
            }
            yield* Ref.update(done, (names) => [...names, name])
          })
      })
      yield* queue.enqueue("outage", { name: "outage" })
      yield* queue.enqueue("outage", { name: "broken" })
      // Four minutes, in steps short enough for the polls of idle workers.
      for (let step = 0; step < 4 * 12; step++) yield* TestClock.adjust("5 seconds")

      // The job that met an outage is done, soon after it ended; the one that failed on its own was given up.
      assert.deepStrictEqual(yield* Ref.get(done), ["outage"])
      const outageTries = (yield* Ref.get(tries)).filter((attempt) => attempt.name === "outage").map(({ at }) => at)
      const waits = outageTries.slice(1).map((at, index) => at - outageTries[index]!)
      assert.isAtMost(Math.max(...waits), Duration.toMillis(Duration.seconds(31)))
      assert.isAtMost(outageTries.at(-1)! - outageEndsAt, Duration.toMillis(Duration.seconds(31)))
      assert.strictEqual((yield* Ref.get(tries)).filter((attempt) => attempt.name === "broken").length, 3)
      assert.strictEqual(yield* queue.pendingCount("outage"), 0)
    }).pipe(Effect.provide(MemoryStorage.layer)))

  /** The in-memory queue, but the first extension of a lease fails, as it would while the database restarts. */
  const firstExtensionFails = Layer.effect(
    JobQueue.JobQueue,
    Effect.gen(function*() {
      const queue = yield* JobQueue.JobQueue
      const extensions = yield* Ref.make(0)
      return JobQueue.JobQueue.of({
        ...queue,
        extendLease: (job, lease) =>
          Effect.flatMap(Ref.getAndUpdate(extensions, (count) => count + 1), (count) =>
            count === 0
              ? Effect.fail(new StorageError.StorageError({ operation: "JobQueue.extendLease", reason: "restarting" }))
              : queue.extendLease(job, lease))
      })
    })
  ).pipe(Layer.provide(MemoryStorage.layer))

  it.scoped("a lease extension that fails is tried again: a long job keeps its lease and runs once", () =>
    Effect.gen(function*() {
      const queue = yield* JobQueue.JobQueue
      const runs = yield* Ref.make(0)
      const finished = yield* Ref.make(false)
      yield* startWorkers({
        queue: "long",
        concurrency: 2,
        lease: "10 seconds",
        pollInterval: "1 second",
        maxAttempts: 5,
        handle: () =>
          Ref.update(runs, (count) => count + 1).pipe(
            Effect.zipRight(Effect.sleep("60 seconds")),
            Effect.zipRight(Ref.set(finished, true))
          )
      })
      yield* queue.enqueue("long", { name: "long" })
      for (let second = 0; second < 70; second++) yield* TestClock.adjust("1 second")

      assert.strictEqual(yield* Ref.get(runs), 1)
      assert.isTrue(yield* Ref.get(finished))
      assert.strictEqual(yield* queue.pendingCount("long"), 0)
    }).pipe(Effect.provide(firstExtensionFails)))
})
