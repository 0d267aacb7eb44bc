/**
 * A job whose handler ends in a defect, or in an interruption that came from another fiber (a
 * shared result that fiber gave up), is a passing failure of that job: it is tried again, and the
 * worker goes on to the next jobs.
 */
import { assert, describe, it } from "@effect/vitest"
import { JobQueue, MemoryStorage } from "@filings/storage"
import { Effect, Fiber, Ref, TestClock } from "effect"
import { startWorkers } from "../src/pipeline/QueueWorkers.js"

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
})
