/**
 * Interrupting a port operation must never fail another caller's. PostgreSQL cancels a statement
 * by its session, not by the statement, so a cancel sent for an interrupted statement that has just
 * finished hits whatever that pooled session runs next. Port operations therefore run to their end
 * once started: this test interrupts operations at random moments while other fibers use the same
 * two-connection pool, and counts the statements cancelled under them.
 */
import { assert, describe, it } from "@effect/vitest"
import { ApiKeyStore, StorageError } from "@filings/storage"
import { Duration, Effect, Fiber, Layer, Redacted, Ref } from "effect"
import { adminUrl, adminUrlVariable } from "../../../test/support/adminUrl.js"
import { Database, SqlStorage, TestDatabase } from "../src/index.js"

const title = adminUrl === undefined
  ? `interrupted operations on PostgreSQL (skipped: set ${adminUrlVariable} to run)`
  : "interrupted operations on PostgreSQL"

/** A fresh database behind a pool of two connections, where sessions are reused at once. */
const smallPool = Layer.unwrapScoped(
  Effect.map(
    TestDatabase.createPostgresDatabase(Redacted.make(adminUrl ?? "")),
    (url) => SqlStorage.apiKeyStore.pipe(Layer.provide(Database.layerPostgres({ url, maxConnections: 2 })))
  )
)

describe.skipIf(adminUrl === undefined)(title, () => {
  it.live(
    "interrupting operations never cancels another caller's statement",
    () =>
      Effect.gen(function*() {
        const keys = yield* ApiKeyStore.ApiKeyStore
        const cancelled = yield* Ref.make<ReadonlyArray<string>>([])
        const completed = yield* Ref.make(0)

        const caller = Effect.gen(function*() {
          for (let round = 0; round < 1_500; round++) {
            const outcome = yield* Effect.either(keys.list)
            if (outcome._tag === "Right") yield* Ref.update(completed, (n) => n + 1)
            else if (outcome.left instanceof StorageError.StorageError) {
              const reason = outcome.left.reason
              yield* Ref.update(cancelled, (reasons) => [...reasons, reason])
            }
          }
        })
        const interrupter = Effect.gen(function*() {
          for (let round = 0; round < 1_500; round++) {
            const fiber = yield* Effect.fork(keys.list)
            // Anywhere from before the statement is sent to after its answer has come.
            yield* Effect.sleep(Duration.micros(BigInt(Math.floor(Math.random() * 1_500))))
            yield* Fiber.interrupt(fiber)
          }
        })
        yield* Effect.all([caller, caller, caller, interrupter, interrupter], { concurrency: "unbounded" })

        assert.deepStrictEqual(yield* Ref.get(cancelled), [])
        assert.strictEqual(yield* Ref.get(completed), 4_500)
      }).pipe(Effect.provide(smallPool)),
    120_000
  )
})
