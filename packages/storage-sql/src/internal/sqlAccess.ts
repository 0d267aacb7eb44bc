// ApiKeyStore on SQL; the rate limit store is `sqlRateLimit`.
import { SqlClient } from "@effect/sql"
import { ApiKeyStore } from "@filings/storage"
import { Effect, Option } from "effect"
import { rowsAs } from "./sqlRows.js"
import { failsAs } from "./storageErrors.js"

const readApiKeys = rowsAs(ApiKeyStore.ApiKeyRecord)

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
