// ApiKeyStore and RateLimitStore on SQL. Rate-limit windows are counted with one atomic upsert,
// so every server instance on the database shares each key's count.
import { SqlClient } from "@effect/sql"
import { ApiKeyStore, RateLimitStore } from "@filings/storage"
import { Clock, Duration, Effect, Option, Schema } from "effect"
import { rowsAs } from "./sqlRows.js"
import { failsAs } from "./storageErrors.js"

const readApiKeys = rowsAs(ApiKeyStore.ApiKeyRecord)
const readCount = rowsAs(Schema.Struct({ count: Schema.Int }))

export const makeApiKeyStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql`id, name, plan, rate_limit, key_hash, key_prefix, created_at, revoked_at`
  const service: ApiKeyStore.Service = {
    create: (record) =>
      sql`
        INSERT INTO api_keys (id, name, plan, rate_limit, key_hash, key_prefix, created_at, revoked_at)
        VALUES (${record.id}, ${record.name}, ${record.plan}, ${record.rateLimit}, ${record.keyHash},
          ${record.keyPrefix}, ${record.createdAt}, ${record.revokedAt})`.pipe(
        Effect.asVoid,
        failsAs("ApiKeyStore.create")
      ),
    findActiveByHash: (keyHash) =>
      sql`SELECT ${columns} FROM api_keys WHERE key_hash = ${keyHash} AND revoked_at IS NULL`.pipe(
        readApiKeys,
        Effect.map((records) => Option.fromNullable(records[0])),
        failsAs("ApiKeyStore.findActiveByHash")
      ),
    list: sql`SELECT ${columns} FROM api_keys ORDER BY created_at, id`.pipe(
      readApiKeys,
      failsAs("ApiKeyStore.list")
    ),
    revoke: (id, at) =>
      sql`
        UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ${at}) WHERE id = ${id} RETURNING ${columns}`.pipe(
        readApiKeys,
        Effect.map((records) => Option.fromNullable(records[0])),
        failsAs("ApiKeyStore.revoke")
      )
  }
  return service
})

export const makeRateLimitStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const service: RateLimitStore.Service = {
    consume: (key, limit, window) =>
      Effect.gen(function*() {
        const windowMillis = Duration.toMillis(window)
        const start = RateLimitStore.windowStart(yield* Clock.currentTimeMillis, windowMillis)
        const [row] = yield* sql`
          INSERT INTO rate_limit_windows (key, window_start_ms, count) VALUES (${key}, ${start}, 1)
          ON CONFLICT (key, window_start_ms) DO UPDATE SET count = rate_limit_windows.count + 1
          RETURNING count`.pipe(readCount)
        const count = row?.count ?? 1
        // The first request of a window clears the key's past windows, so the table holds about one row per key.
        if (count === 1) yield* sql`DELETE FROM rate_limit_windows WHERE key = ${key} AND window_start_ms < ${start}`
        return RateLimitStore.decide(count, limit, start, windowMillis)
      }).pipe(failsAs("RateLimitStore.consume"))
  }
  return service
})
