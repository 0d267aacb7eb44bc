import { assert, describe, it } from "@effect/vitest"
import { ApiKeyStore, MemoryStorage } from "@filings/storage"
import { Duration, Effect, Exit, Layer, Option, Redacted, TestClock } from "effect"
import * as ApiKeys from "../src/ApiKeys.js"

const keysOnMemory = ApiKeys.layer.pipe(Layer.provideMerge(MemoryStorage.apiKeyStore))

describe("ApiKeys", () => {
  it.effect("a created key is shown once and stored only as its hash", () =>
    Effect.gen(function*() {
      const keys = yield* ApiKeys.ApiKeys
      const created = yield* keys.create({ name: " ci " })
      assert.match(created.key, /^fk_[A-Za-z0-9_-]{32}$/)
      assert.deepStrictEqual([created.name, created.plan, created.rate_limit], ["ci", "standard", 100])
      assert.isTrue(created.key.startsWith(created.key_prefix))
      const [stored] = yield* (yield* ApiKeyStore.ApiKeyStore).list
      assert.strictEqual(stored?.keyHash, ApiKeys.hashKey(created.key))
      assert.notInclude(JSON.stringify(stored), created.key)
      const listed = yield* keys.list
      assert.notProperty(listed[0], "key")
    }).pipe(Effect.provide(keysOnMemory)))

  it.effect("plans: standard has its fixed limit, enterprise needs one", () =>
    Effect.gen(function*() {
      const keys = yield* ApiKeys.ApiKeys
      const enterprise = yield* keys.create({ name: "big", plan: "enterprise", rateLimit: 5000 })
      assert.strictEqual(enterprise.rate_limit, 5000)
      const standardWithLimit = yield* Effect.exit(keys.create({ name: "x", plan: "standard", rateLimit: 5 }))
      const enterpriseWithout = yield* Effect.exit(keys.create({ name: "x", plan: "enterprise" }))
      assert.isTrue(Exit.isFailure(standardWithLimit) && Exit.isFailure(enterpriseWithout))
    }).pipe(Effect.provide(keysOnMemory)))

  it.effect("accepts its keys, refuses others, and forgets a revoked key at once", () =>
    Effect.gen(function*() {
      const keys = yield* ApiKeys.ApiKeys
      const created = yield* keys.create({ name: "ci" })
      const found = yield* keys.authenticate(Redacted.make(created.key))
      assert.strictEqual(Option.getOrThrow(found).id, created.id)
      assert.isTrue(Option.isNone(yield* keys.authenticate(Redacted.make(`${created.key}x`))))
      assert.isTrue(Option.isNone(yield* keys.authenticate(Redacted.make(""))))
      yield* keys.revoke(created.id)
      assert.isTrue(Option.isNone(yield* keys.authenticate(Redacted.make(created.key))))
    }).pipe(Effect.provide(keysOnMemory)))

  it.effect("a key revoked by another process stops working within CheckedKeyLifetime", () =>
    Effect.gen(function*() {
      const keys = yield* ApiKeys.ApiKeys
      const created = yield* keys.create({ name: "ci" })
      assert.isTrue(Option.isSome(yield* keys.authenticate(Redacted.make(created.key))))
      // Another instance revokes it straight in the shared store.
      yield* (yield* ApiKeyStore.ApiKeyStore).revoke(created.id, new Date())
      assert.isTrue(Option.isSome(yield* keys.authenticate(Redacted.make(created.key))))
      yield* TestClock.adjust(Duration.sum(ApiKeys.CheckedKeyLifetime, Duration.millis(1)))
      assert.isTrue(Option.isNone(yield* keys.authenticate(Redacted.make(created.key))))
    }).pipe(Effect.provide(keysOnMemory)))
})
