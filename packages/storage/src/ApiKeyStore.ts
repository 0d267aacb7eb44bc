/**
 * The API key store. Keys are never stored: only a hash of each, looked up when a request comes in,
 * and a short prefix so an operator can tell keys apart in a list.
 *
 * @module
 */
import { Admin } from "@filings/domain"
import { Context, type Effect, type Option, Schema } from "effect"
import type { StorageError } from "./StorageError.js"

/**
 * An API key as stored: its hash and prefix, never the key itself. Active while `revokedAt` is null.
 * Encoded, its keys are the SQL columns' (`rate_limit`, `revoked_at`), a NULL column standing for a
 * key never revoked.
 */
export const ApiKeyRecord = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  plan: Admin.ApiKeyPlan,
  /** Requests per minute. */
  rateLimit: Schema.Number.pipe(Schema.propertySignature, Schema.fromKey("rate_limit")),
  /** Hex SHA-256 of the whole key. */
  keyHash: Schema.String.pipe(Schema.propertySignature, Schema.fromKey("key_hash")),
  /** The first characters of the key, shown in lists. */
  keyPrefix: Schema.String.pipe(Schema.propertySignature, Schema.fromKey("key_prefix")),
  createdAt: Schema.DateFromSelf.pipe(Schema.propertySignature, Schema.fromKey("created_at")),
  revokedAt: Schema.optionalWith(Schema.NullOr(Schema.DateFromSelf), { default: () => null }).pipe(
    Schema.fromKey("revoked_at")
  )
})
export type ApiKeyRecord = typeof ApiKeyRecord.Type

/**
 * What an API key store does. Every operation fails with `StorageError` when the backing store
 * does, and with nothing else: an unknown key or hash is an absent value, not an error.
 */
export interface Service {
  /** Stores a key just issued: its id and hash are new. */
  readonly create: (record: ApiKeyRecord) => Effect.Effect<void, StorageError>
  /** The key with this hash, unless it was revoked. */
  readonly findActiveByHash: (keyHash: string) => Effect.Effect<Option.Option<ApiKeyRecord>, StorageError>
  /** Every key, revoked ones included, oldest first. */
  readonly list: Effect.Effect<ReadonlyArray<ApiKeyRecord>, StorageError>
  /** Marks the key revoked (once: revoking again keeps the first time) and returns it; none when unknown. */
  readonly revoke: (id: string, at: Date) => Effect.Effect<Option.Option<ApiKeyRecord>, StorageError>
}

/**
 * The API key store as an Effect service, provided by `MemoryStorage.apiKeyStore` or an adapter's
 * layer.
 *
 * @example
 * ```ts
 * const key = yield* (yield* ApiKeyStore).findActiveByHash(hashOfPresentedKey)
 * if (Option.isNone(key)) return yield* new Unauthorized()
 * ```
 */
export class ApiKeyStore extends Context.Tag("@filings/storage/ApiKeyStore")<ApiKeyStore, Service>() {}
