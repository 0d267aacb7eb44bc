// In-memory ApiKeyStore and RateLimitStore, for tests and a single server process.
import { Clock, Duration, Effect, Option, Ref } from "effect"
import type * as ApiKeyStore from "../ApiKeyStore.js"
import * as RateLimitStore from "../RateLimitStore.js"

export const makeApiKeyStore = Effect.gen(function*() {
  const keys = yield* Ref.make<ReadonlyArray<ApiKeyStore.ApiKeyRecord>>([])
  const service: ApiKeyStore.Service = {
    create: (record) => Ref.update(keys, (all) => [...all, record]),
    findActiveByHash: (keyHash) =>
      Effect.map(
        Ref.get(keys),
        (all) => Option.fromNullable(all.find((key) => key.keyHash === keyHash && key.revokedAt === null))
      ),
    list: Effect.map(
      Ref.get(keys),
      (all) => [...all].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
    ),
    revoke: (id, at) =>
      Ref.modify(keys, (all) => {
        const found = all.find((key) => key.id === id)
        if (found === undefined) return [Option.none(), all]
        const revoked = { ...found, revokedAt: found.revokedAt ?? at }
        return [Option.some(revoked), all.map((key) => (key.id === id ? revoked : key))]
      })
  }
  return service
})

export const makeRateLimitStore = Effect.sync(() => {
  // key -> the current window's start and count; only the current window of each key is kept.
  // Counting is synchronous, so concurrent requests are counted one by one without a lock.
  const windows = new Map<string, { start: number; count: number }>()
  const service: RateLimitStore.Service = {
    consume: (key, limit, window) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const windowMillis = Duration.toMillis(window)
        const start = RateLimitStore.windowStart(now, windowMillis)
        const current = windows.get(key)
        const count = current !== undefined && current.start === start ? current.count + 1 : 1
        if (current !== undefined && current.start === start) current.count = count
        else windows.set(key, { start, count })
        return RateLimitStore.decide(count, limit, start, windowMillis)
      })
  }
  return service
})
