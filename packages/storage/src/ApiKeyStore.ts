/**
 * The API key store. Keys are never stored: only a hash of each, looked up when a request comes in,
 * and a short prefix so an operator can tell keys apart in a list.
 *
 * @module
 */
import type { Admin } from "@filings/domain"
import { Context, type Effect, type Option } from "effect"
import type { StorageError } from "./StorageError.js"

/** An API key as stored: its hash and prefix, never the key itself. Active while `revokedAt` is null. */
export interface ApiKeyRecord {
  readonly id: string
  readonly name: string
  readonly plan: Admin.ApiKeyPlan
  /** Requests per minute. */
  readonly rateLimit: number
  /** Hex SHA-256 of the whole key. */
  readonly keyHash: string
  /** The first characters of the key, shown in lists. */
  readonly keyPrefix: string
  readonly createdAt: Date
  readonly revokedAt: Date | null
}

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
