/**
 * API keys: issuing, checking and revoking them. A key is shown once, when it is made; the store
 * keeps only its SHA-256 hash and a short prefix that lets an operator tell keys apart. Keys carry
 * 192 random bits, so a fast hash is the right tool: nothing about a key can be guessed from its
 * hash, and looking a key up by its hash reveals nothing through timing.
 *
 * Checked keys are remembered for a few seconds, so a busy client costs one lookup per key and
 * window rather than one per request. Revoking a key forgets it at once in the process that
 * revoked it; other instances on the same database stop accepting it within `CheckedKeyLifetime`.
 */
import { Admin } from "@filings/domain"
import { ApiKeyStore, type StorageError } from "@filings/storage"
import { Cache, Clock, Context, Duration, Effect, Exit, Layer, Option, Redacted, Schema } from "effect"
import { createHash, randomBytes, randomUUID } from "node:crypto"

/** Keys start with this, so people and secret scanners can spot them. */
export const KeyPrefix = "fk_"

export const hashKey = (key: string): string => createHash("sha256").update(key, "utf8").digest("hex")

export interface NewApiKey {
  readonly name: string
  readonly plan?: Admin.ApiKeyPlan | undefined
  /** Requests per minute; only an enterprise key sets its own. */
  readonly rateLimit?: number | undefined
}

/** The plan and rate limit asked for do not go together. */
export class InvalidKeySettings extends Schema.TaggedError<InvalidKeySettings>()("InvalidKeySettings", {
  reason: Schema.String
}) {
  override get message(): string {
    return this.reason
  }
}

export const toInfo = (record: ApiKeyStore.ApiKeyRecord): Admin.ApiKeyInfo =>
  new Admin.ApiKeyInfo({
    id: record.id,
    name: record.name,
    plan: record.plan,
    rate_limit: record.rateLimit,
    key_prefix: record.keyPrefix,
    created_at: record.createdAt.toISOString(),
    revoked_at: record.revokedAt === null ? null : record.revokedAt.toISOString()
  })

const resolveRateLimit = (request: NewApiKey): Effect.Effect<number, InvalidKeySettings> => {
  const plan = request.plan ?? "standard"
  if (plan === "standard") {
    return request.rateLimit === undefined
      ? Effect.succeed(Admin.StandardPlanRequestsPerMinute)
      : Effect.fail(
        new InvalidKeySettings({
          reason:
            `the standard plan allows ${Admin.StandardPlanRequestsPerMinute} requests per minute; use the enterprise plan to set a rate limit`
        })
      )
  }
  return request.rateLimit !== undefined && Number.isInteger(request.rateLimit) && request.rateLimit > 0
    ? Effect.succeed(request.rateLimit)
    : Effect.fail(new InvalidKeySettings({ reason: "an enterprise key needs a rate limit: a whole number above 0" }))
}

/** How long a checked key (found or not) is remembered before the store is asked again. */
export const CheckedKeyLifetime = Duration.seconds(5)

export interface Service {
  readonly create: (
    request: NewApiKey
  ) => Effect.Effect<Admin.CreatedApiKey, InvalidKeySettings | StorageError.StorageError>
  /** The active key record for a presented key; none for an unknown or revoked key. */
  readonly authenticate: (
    key: Redacted.Redacted<string>
  ) => Effect.Effect<Option.Option<ApiKeyStore.ApiKeyRecord>, StorageError.StorageError>
  readonly list: Effect.Effect<ReadonlyArray<Admin.ApiKeyInfo>, StorageError.StorageError>
  readonly revoke: (id: string) => Effect.Effect<Option.Option<Admin.ApiKeyInfo>, StorageError.StorageError>
}

export class ApiKeys extends Context.Tag("@filings/server/ApiKeys")<ApiKeys, Service>() {}

export const make = Effect.gen(function*() {
  const store = yield* ApiKeyStore.ApiKeyStore
  const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

  const create = Effect.fn("ApiKeys.create")(function*(request: NewApiKey) {
    const rateLimit = yield* resolveRateLimit(request)
    const key = KeyPrefix + randomBytes(24).toString("base64url")
    const record: ApiKeyStore.ApiKeyRecord = {
      id: randomUUID(),
      name: request.name.trim(),
      plan: request.plan ?? "standard",
      rateLimit,
      keyHash: hashKey(key),
      keyPrefix: key.slice(0, KeyPrefix.length + 5),
      createdAt: yield* now,
      revokedAt: null
    }
    yield* store.create(record)
    return new Admin.CreatedApiKey({ ...toInfo(record), key })
  })

  const checkedKeys = yield* Cache.makeWith({
    capacity: 10_000,
    lookup: (keyHash: string) => store.findActiveByHash(keyHash),
    // A storage failure is not remembered: the next request asks again.
    timeToLive: (exit) => (Exit.isSuccess(exit) ? CheckedKeyLifetime : Duration.zero)
  })

  // Every request comes here: no span of its own (the request's span covers it), which would cost
  // a stack capture per call.
  const authenticate = (key: Redacted.Redacted<string>) => {
    const presented = Redacted.value(key)
    return presented.startsWith(KeyPrefix)
      ? checkedKeys.get(hashKey(presented))
      : Effect.succeed(Option.none<ApiKeyStore.ApiKeyRecord>())
  }

  const revoke = Effect.fn("ApiKeys.revoke")(function*(id: string) {
    const revoked = yield* store.revoke(id, yield* now)
    if (Option.isSome(revoked)) yield* checkedKeys.invalidate(revoked.value.keyHash)
    return Option.map(revoked, toInfo)
  })

  return ApiKeys.of({
    create,
    authenticate,
    list: Effect.map(store.list, (records) => records.map(toInfo)),
    revoke
  })
})

export const layer = Layer.effect(ApiKeys, make)
