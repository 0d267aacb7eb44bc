// ApiKeyStore and RateLimitStore on SQL. Rate-limit windows are counted with one atomic upsert,
// so every server instance on the database shares each key's count.
import { SqlClient } from "@effect/sql"
import type { Admin } from "@filings/domain"
import { type ApiKeyStore, RateLimitStore } from "@filings/storage"
import { Clock, Duration, Effect, Option } from "effect"
import { failsAs } from "./storageErrors.js"

interface ApiKeyRow {
  readonly id: string
  readonly name: string
  readonly plan: string
  readonly rate_limit: number
  readonly key_hash: string
  readonly key_prefix: string
  readonly created_at: Date
  readonly revoked_at: Date | null
}

const toRecord = (row: ApiKeyRow): ApiKeyStore.ApiKeyRecord => ({
  id: row.id,
  name: row.name,
  plan: row.plan as Admin.ApiKeyPlan,
  rateLimit: row.rate_limit,
  keyHash: row.key_hash,
  keyPrefix: row.key_prefix,
  createdAt: row.created_at,
  revokedAt: row.revoked_at
})

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
      sql<ApiKeyRow>`SELECT ${columns} FROM api_keys WHERE key_hash = ${keyHash} AND revoked_at IS NULL`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toRecord)),
        failsAs("ApiKeyStore.findActiveByHash")
      ),
    list: sql<ApiKeyRow>`SELECT ${columns} FROM api_keys ORDER BY created_at, id`.pipe(
      Effect.map((rows) => rows.map(toRecord)),
      failsAs("ApiKeyStore.list")
    ),
    revoke: (id, at) =>
      sql<ApiKeyRow>`
        UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ${at}) WHERE id = ${id} RETURNING ${columns}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toRecord)),
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
        const [row] = yield* sql<{ readonly count: number }>`
          INSERT INTO rate_limit_windows (key, window_start_ms, count) VALUES (${key}, ${start}, 1)
          ON CONFLICT (key, window_start_ms) DO UPDATE SET count = rate_limit_windows.count + 1
          RETURNING count`
        const count = row?.count ?? 1
        // The first request of a window clears the key's past windows, so the table holds about one row per key.
        if (count === 1) yield* sql`DELETE FROM rate_limit_windows WHERE key = ${key} AND window_start_ms < ${start}`
        return RateLimitStore.decide(count, limit, start, windowMillis)
      }).pipe(failsAs("RateLimitStore.consume"))
  }
  return service
})
