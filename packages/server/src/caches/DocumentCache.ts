/**
 * The encoded answers of `GET /v1/documents/{id}` (its metadata, its Markdown body), kept in
 * memory: a stored document changes only when it is stored again, so the bytes sent for it can be
 * sent again without reading storage or encoding anything.
 *
 * How an answer stops being served:
 *
 * - **Stored again in this process** (ingestion, a worker): `invalidatingStore` wraps the document
 *   store's `save` and forgets the document's answers as soon as the save returns. With PGlite every
 *   write goes through the one serving process, so the cache is never stale there.
 * - **Stored again by another instance** on the same PostgreSQL database: this process cannot see
 *   that write, so each answer is kept at most `CachedAnswerLifetime` and then read again. A
 *   re-ingested document's new metadata reaches every instance within that time, the same bound as
 *   a revoked key's (`ApiKeys.CheckedKeyLifetime`). A version check per request would cost the
 *   very database round trip the cache is there to save.
 *
 * Unknown documents are not remembered: one may be stored the next moment.
 */
import { DocumentStore } from "@filings/storage"
import { Clock, Context, Duration, Effect, Layer, Option } from "effect"

/** How long an answer is served before storage is read again (see the module comment). */
export const CachedAnswerLifetime = Duration.seconds(5)

/** Bytes of answers kept at most; the oldest go first. */
export const CapacityBytes = 64 * 1024 * 1024

/** A larger answer (a long filing's body) is not kept: reading it costs little next to sending it. */
export const LargestCachedAnswerBytes = 256 * 1024

/** The forms of a document's answer that are kept. */
export type Variant = "metadata" | "markdown"

const variants: ReadonlyArray<Variant> = ["metadata", "markdown"]

interface Entry {
  readonly bytes: Uint8Array
  readonly expiresAtMillis: number
}

export interface Service {
  /**
   * The document's answer in `variant`: the kept bytes while they are fresh, else what `encode`
   * makes of a fresh read (kept when there is a document and it is not too large).
   */
  readonly answer: <E, R>(
    publicationId: string,
    variant: Variant,
    encode: Effect.Effect<Option.Option<Uint8Array>, E, R>
  ) => Effect.Effect<Option.Option<Uint8Array>, E, R>
  /** Forgets every answer of the document: it was stored again. */
  readonly forget: (publicationId: string) => Effect.Effect<void>
}

export class DocumentCache extends Context.Tag("@filings/server/DocumentCache")<DocumentCache, Service>() {}

export const make = (options: {
  readonly lifetime?: Duration.DurationInput | undefined
  readonly capacityBytes?: number | undefined
} = {}): Effect.Effect<Service> =>
  Effect.sync(() => {
    const lifetimeMillis = Duration.toMillis(options.lifetime ?? CachedAnswerLifetime)
    const capacityBytes = options.capacityBytes ?? CapacityBytes
    // A Map iterates in insertion order, so its first entries are the oldest.
    const entries = new Map<string, Entry>()
    let keptBytes = 0
    // Counts forgets: an answer read while a save was forgetting may be the old one, so it is not kept.
    let forgets = 0
    const keyOf = (publicationId: string, variant: Variant) => `${variant} ${publicationId}`

    const remove = (key: string) => {
      const entry = entries.get(key)
      if (entry === undefined) return
      entries.delete(key)
      keptBytes -= entry.bytes.byteLength
    }

    const keep = (key: string, bytes: Uint8Array, nowMillis: number) => {
      if (bytes.byteLength > LargestCachedAnswerBytes) return
      remove(key)
      entries.set(key, { bytes, expiresAtMillis: nowMillis + lifetimeMillis })
      keptBytes += bytes.byteLength
      for (const oldest of entries.keys()) {
        if (keptBytes <= capacityBytes) break
        remove(oldest)
      }
    }

    const answer: Service["answer"] = (publicationId, variant, encode) =>
      Effect.flatMap(Clock.currentTimeMillis, (nowMillis) => {
        const key = keyOf(publicationId, variant)
        const kept = entries.get(key)
        if (kept !== undefined && kept.expiresAtMillis > nowMillis) return Effect.succeed(Option.some(kept.bytes))
        const forgetsBefore = forgets
        return Effect.tap(encode, (encoded) => {
          if (Option.isSome(encoded) && forgets === forgetsBefore) keep(key, encoded.value, nowMillis)
          else remove(key)
        })
      })

    const forget = (publicationId: string) =>
      Effect.sync(() => {
        forgets++
        for (const variant of variants) remove(keyOf(publicationId, variant))
      })

    return DocumentCache.of({ answer, forget })
  })

export const layer = Layer.effect(DocumentCache, make())

/**
 * The document store with `save` forgetting the saved document's answers once it is stored: give
 * it to everything in the process that writes documents.
 */
export const invalidatingStore: Layer.Layer<
  DocumentStore.DocumentStore,
  never,
  DocumentStore.DocumentStore | DocumentCache
> = Layer.effect(
  DocumentStore.DocumentStore,
  Effect.gen(function*() {
    const store = yield* DocumentStore.DocumentStore
    const cache = yield* DocumentCache
    return DocumentStore.DocumentStore.of({
      ...store,
      save: (document) => Effect.tap(store.save(document), () => cache.forget(document.publicationId))
    })
  })
)
