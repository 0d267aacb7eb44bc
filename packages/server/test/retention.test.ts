/**
 * Retention in a server, on the TestClock over in-memory storage: the hourly pass forgets what is
 * past its retention and nothing else.
 */
import { assert, describe, it } from "@effect/vitest"
import { JobQueue, MemoryStorage } from "@filings/storage"
import { Duration, Effect, Layer, Option, TestClock } from "effect"
import * as Retention from "../src/maintenance/Retention.js"

const options: Retention.Options = { jobRetention: Duration.days(7), deliveryRetention: Duration.days(30) }

describe("Retention", () => {
  it.effect("prunes at every interval on the lease holder; a forgotten job's key still refuses a duplicate", () =>
    Effect.gen(function*() {
      const queue = yield* JobQueue.JobQueue
      const accession = "0000000001-26-000001"
      const id = yield* queue.enqueue("filings", { accession }, { uniqueKey: accession })
      yield* queue.complete(Option.getOrThrow(yield* queue.take("filings", Duration.minutes(1))))
      const hourly: Retention.Options = {
        jobRetention: Duration.hours(1),
        deliveryRetention: Duration.hours(1),
        every: "10 minutes"
      }
      yield* Effect.scoped(
        Effect.gen(function*() {
          yield* Layer.build(Retention.layer(hourly))
          for (let step = 0; step < 5; step++) yield* TestClock.adjust("10 minutes")
          assert.strictEqual(yield* queue.pruneCompleted(hourly.jobRetention), 0, "not an hour yet")
          yield* TestClock.adjust("10 minutes")
          // The pass at the hour has forgotten it: nothing is left to prune.
          assert.strictEqual(yield* queue.pruneCompleted(hourly.jobRetention), 0)
        })
      )
      assert.strictEqual(yield* queue.enqueue("filings", { again: true }, { uniqueKey: accession }), id)
      assert.isTrue(Option.isNone(yield* queue.take("filings", Duration.minutes(1))))
    }).pipe(Effect.provide(MemoryStorage.layer)))

  it.effect("pruneOnce answers how many completed jobs it forgot, each once, and keeps dead ones", () =>
    Effect.gen(function*() {
      const queue = yield* JobQueue.JobQueue
      const take = Effect.map(queue.take("summaries", Duration.minutes(1)), Option.getOrThrow)
      yield* queue.enqueue("summaries", { n: 1 })
      yield* queue.enqueue("summaries", { n: 2 })
      yield* queue.complete(yield* take)
      yield* queue.fail(yield* take, "cannot be summarised")
      yield* TestClock.adjust(Duration.days(8))
      assert.deepStrictEqual(yield* Retention.pruneOnce(options), { jobs: 1, deliveries: 0 })
      assert.deepStrictEqual(yield* Retention.pruneOnce(options), { jobs: 0, deliveries: 0 })
    }).pipe(Effect.provide(MemoryStorage.layer)))
})
