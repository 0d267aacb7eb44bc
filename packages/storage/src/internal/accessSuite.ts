// The access part of the conformance suite: API keys and the rate-limit windows counted against them.
import { assert, describe, type Vitest } from "@effect/vitest"
import { Array as Arr, Clock, Duration, Effect, Option, TestClock } from "effect"
import { randomBytes } from "node:crypto"
import { type ApiKeyRecord, ApiKeyStore } from "../ApiKeyStore.js"
import { RateLimitStore } from "../RateLimitStore.js"
import type { Stores } from "../Stores.js"
import { uniqueName } from "./conformanceSamples.js"

const sampleKey = (overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  id: uniqueName("key"),
  name: "ci",
  plan: "standard",
  rateLimit: 100,
  keyHash: randomBytes(32).toString("hex"),
  keyPrefix: "fk_abcd",
  createdAt: new Date("2024-01-01T00:00:00.000Z"),
  revokedAt: null,
  ...overrides
})

/** Registers the ApiKeyStore and RateLimitStore tests on a layer's `it`. */
export const accessSuite = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("ApiKeyStore", () => {
    it.effect("finds active keys by hash only, and revocation is final", () =>
      Effect.gen(function*() {
        const store = yield* ApiKeyStore
        const key = sampleKey({ plan: "enterprise", rateLimit: 5000 })
        yield* store.create(key)
        assert.deepStrictEqual(yield* store.findActiveByHash(key.keyHash), Option.some(key))
        assert.isTrue(Option.isNone(yield* store.findActiveByHash(randomBytes(32).toString("hex"))))

        const revokedAt = new Date("2024-06-01T12:00:00.000Z")
        assert.deepStrictEqual(yield* store.revoke(key.id, revokedAt), Option.some({ ...key, revokedAt }))
        assert.isTrue(Option.isNone(yield* store.findActiveByHash(key.keyHash)))
        const again = yield* store.revoke(key.id, new Date("2024-07-01T00:00:00.000Z"))
        assert.deepStrictEqual(again, Option.some({ ...key, revokedAt }))
        assert.isTrue(Option.isNone(yield* store.revoke(uniqueName("missing"), revokedAt)))
      }))

    it.effect("lists every key, revoked ones included, oldest first", () =>
      Effect.gen(function*() {
        const store = yield* ApiKeyStore
        const older = sampleKey({ createdAt: new Date("2020-01-01T00:00:00.000Z") })
        const newer = sampleKey({ createdAt: new Date("2020-01-02T00:00:00.000Z") })
        yield* store.create(newer)
        yield* store.create(older)
        yield* store.revoke(newer.id, new Date("2020-02-01T00:00:00.000Z"))
        const listed = (yield* store.list).filter((key) => key.id === older.id || key.id === newer.id)
        assert.deepStrictEqual(listed.map((key) => key.id), [older.id, newer.id])
        assert.deepStrictEqual(listed[1]?.revokedAt, new Date("2020-02-01T00:00:00.000Z"))
      }))
  })

  describe("RateLimitStore", () => {
    it.effect("allows the limit per window, counts on past it, and starts over in the next window", () =>
      Effect.gen(function*() {
        const store = yield* RateLimitStore
        const key = uniqueName("rate")
        const minute = Duration.minutes(1)
        const decisions = yield* Effect.forEach([1, 2, 3, 4], () => store.consume(key, 3, minute))
        assert.deepStrictEqual(decisions.map((d) => [d.allowed, d.remaining]), [
          [true, 2],
          [true, 1],
          [true, 0],
          [false, 0]
        ])
        const now = yield* Clock.currentTimeMillis
        const resetAt = decisions[0]!.resetAtMillis
        assert.isTrue(resetAt > now && resetAt <= now + 60_000 && resetAt % 60_000 === 0)
        assert.isTrue(decisions.every((d) => d.resetAtMillis === resetAt && d.limit === 3))

        assert.strictEqual((yield* store.consume(uniqueName("rate"), 3, minute)).remaining, 2)

        yield* TestClock.adjust(Duration.millis(resetAt - now))
        const fresh = yield* store.consume(key, 3, minute)
        assert.deepStrictEqual([fresh.allowed, fresh.remaining, fresh.resetAtMillis], [true, 2, resetAt + 60_000])
      }))

    it.effect("concurrent requests never get more than the limit", () =>
      Effect.gen(function*() {
        const store = yield* RateLimitStore
        const key = uniqueName("burst")
        const decisions = yield* Effect.all(Arr.replicate(store.consume(key, 10, Duration.minutes(1)), 25), {
          concurrency: "unbounded"
        })
        assert.strictEqual(decisions.filter((d) => d.allowed).length, 10)
      }))
  })
}
