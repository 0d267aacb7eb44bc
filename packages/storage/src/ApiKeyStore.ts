/**
 * The API key store. Keys are never stored: only a hash of each, looked up when a request comes in,
 * and a short prefix so an operator can tell keys apart in a list.
 *
 * @module
 */
import type { Admin } from "@filings/domain"
import { Context, type Effect, type Option } from "effect"
import type { StorageError } from "./StorageError.js"

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

export interface Service {
  readonly create: (record: ApiKeyRecord) => Effect.Effect<void, StorageError>
  /** The key with this hash, unless it was revoked. */
  readonly findActiveByHash: (keyHash: string) => Effect.Effect<Option.Option<ApiKeyRecord>, StorageError>
  /** Every key, revoked ones included, oldest first. */
  readonly list: Effect.Effect<ReadonlyArray<ApiKeyRecord>, StorageError>
  /** Marks the key revoked (once: revoking again keeps the first time) and returns it; none when unknown. */
  readonly revoke: (id: string, at: Date) => Effect.Effect<Option.Option<ApiKeyRecord>, StorageError>
}

export class ApiKeyStore extends Context.Tag("@filings/storage/ApiKeyStore")<ApiKeyStore, Service>() {}
