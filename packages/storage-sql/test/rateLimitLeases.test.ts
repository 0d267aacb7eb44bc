/**
 * The SQL rate limit store counts in leases: a busy key meets the database once per lease, and
 * instances sharing one database never allow more than the limit between them. Two stores made on
 * one `SqlClient` stand for two server instances (each has its own leases in memory).
 */
import { SqlClient } from "@effect/sql"
import { assert, describe, layer } from "@effect/vitest"
import type { RateLimitStore } from "@filings/storage"
import { Array as Arr, Duration, Effect, Layer, Redacted } from "effect"
import { adminUrl, adminUrlVariable } from "../../../test/support/adminUrl.js"
import { TestDatabase } from "../src/index.js"
import { LeaseShare, leaseSize, makeRateLimitStore, MaxLease } from "../src/internal/sqlRateLimit.js"

const minute = Duration.minutes(1)

let keys = 0
const uniqueKey = (name: string) => `${name}-${++keys}-${Math.random().toString(36).slice(2)}`

const countedInDatabase = (key: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<{ readonly count: number }>`SELECT count FROM rate_limit_windows WHERE key = ${key}`
  ).pipe(Effect.map((rows) => rows[0]?.count ?? 0))

const allowedOf = (decisions: ReadonlyArray<RateLimitStore.RateLimitDecision>) =>
  decisions.filter((decision) => decision.allowed).length

const suite = (database: Layer.Layer<SqlClient.SqlClient, unknown>) =>
  layer(database)((it) => {
    it("leases a fraction of what is left, one request at a time near the limit", () => {
      assert.strictEqual(leaseSize(10, 0), 1)
      assert.strictEqual(leaseSize(100, 0), Math.floor(100 / LeaseShare))
      assert.strictEqual(leaseSize(100, 95), 1)
      assert.strictEqual(leaseSize(1_000_000, 0), MaxLease)
    })

    it.effect("a busy key with a large limit meets the database once per lease, with exact headers", () =>
      Effect.gen(function*() {
        const store = yield* makeRateLimitStore
        const key = uniqueKey("busy")
        const decisions = yield* Effect.forEach(Arr.range(1, 500), () => store.consume(key, 1_000_000, minute))
        assert.strictEqual(allowedOf(decisions), 500)
        assert.deepStrictEqual(decisions.slice(-2).map((decision) => decision.remaining), [999_501, 999_500])
        // One lease of MaxLease covered all 500.
        assert.strictEqual(yield* countedInDatabase(key), MaxLease)
      }))

    it.effect("two instances on one database allow no more than the limit between them", () =>
      Effect.gen(function*() {
        const first = yield* makeRateLimitStore
        const second = yield* makeRateLimitStore
        const key = uniqueKey("shared")
        const decisions = yield* Effect.forEach(
          Arr.range(1, 300),
          (request) => (request % 3 === 0 ? second : first).consume(key, 200, minute)
        )
        assert.strictEqual(allowedOf(decisions), 200 - (yield* unusedLeases(first, second, key)))
        assert.isAtMost(allowedOf(decisions), 200)
        // Near the limit leases are of one request, so little of the budget is left unused.
        assert.isAtLeast(allowedOf(decisions), 200 - 2 * LeaseShare)
        assert.isFalse(decisions[decisions.length - 1]!.allowed)
      }))

    it.effect("concurrent requests on two instances never get more than the limit", () =>
      Effect.gen(function*() {
        const first = yield* makeRateLimitStore
        const second = yield* makeRateLimitStore
        const key = uniqueKey("burst")
        const decisions = yield* Effect.all(
          Arr.range(1, 60).map((request) => (request % 2 === 0 ? second : first).consume(key, 25, minute)),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(allowedOf(decisions), 25)
      }))
  })

/** What the two instances leased and have not handed out: spent by asking both until each refuses. */
const unusedLeases = (first: RateLimitStore.Service, second: RateLimitStore.Service, key: string) =>
  Effect.gen(function*() {
    let unused = 0
    for (const store of [first, second]) {
      for (;;) {
        const decision = yield* store.consume(key, 200, minute)
        if (!decision.allowed) break
        unused++
      }
    }
    return unused
  })

describe("rate limit leases on PGlite", () => {
  suite(TestDatabase.layerPglite())
})

const postgresAdmin = adminUrl
if (postgresAdmin === undefined) {
  describe.skip(`rate limit leases on PostgreSQL (set ${adminUrlVariable} to run it)`, () => {})
} else {
  describe("rate limit leases on PostgreSQL", () => {
    suite(TestDatabase.layerPostgres(Redacted.make(postgresAdmin)).pipe(Layer.orDie))
  })
}
