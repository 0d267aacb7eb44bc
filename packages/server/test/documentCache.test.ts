import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Ids } from "@filings/domain"
import { DocumentStore, MemoryStorage } from "@filings/storage"
import { sampleDocument } from "@filings/storage/testing"
import { Context, Duration, Effect, Layer, ManagedRuntime, Option, TestClock } from "effect"
import * as ApiKeys from "../src/ApiKeys.js"
import * as DocumentCache from "../src/caches/DocumentCache.js"
import * as InProcessApi from "./support/inProcessApi.js"

// The kept answers of GET /v1/documents/{id}: the same bytes as a fresh read, forgotten when the
// document is stored again in the process, and read again after their lifetime.

const bytesOf = (text: string) => new TextEncoder().encode(text)

describe("DocumentCache", () => {
  const counting = () => {
    let reads = 0
    const read = (text: string) => Effect.sync(() => (reads++, Option.some(bytesOf(text))))
    return { read, reads: () => reads }
  }

  it.effect("serves a kept answer until its lifetime is over, then reads again", () =>
    Effect.gen(function*() {
      const cache = yield* DocumentCache.make()
      const { read, reads } = counting()
      yield* cache.answer("a", "metadata", read("first"))
      const kept = yield* cache.answer("a", "metadata", read("second"))
      assert.deepStrictEqual([reads(), new TextDecoder().decode(Option.getOrThrow(kept))], [1, "first"])
      yield* TestClock.adjust(DocumentCache.CachedAnswerLifetime)
      const fresh = yield* cache.answer("a", "metadata", read("third"))
      assert.deepStrictEqual([reads(), new TextDecoder().decode(Option.getOrThrow(fresh))], [2, "third"])
    }))

  it.effect("forgets a document's answers in every form, and keeps nothing read while it forgot", () =>
    Effect.gen(function*() {
      const cache = yield* DocumentCache.make()
      const { read, reads } = counting()
      yield* cache.answer("a", "metadata", read("old"))
      yield* cache.answer("a", "markdown", read("old body"))
      yield* cache.forget("a")
      yield* cache.answer("a", "metadata", read("new"))
      yield* cache.answer("a", "markdown", read("new body"))
      assert.strictEqual(reads(), 4)
      // A read that started before a save finished may have the old document: it is served, not kept.
      yield* cache.answer("b", "metadata", Effect.zipRight(cache.forget("b"), read("raced")))
      yield* cache.answer("b", "metadata", read("after"))
      assert.strictEqual(reads(), 6)
    }))

  it.effect("keeps neither unknown documents nor answers larger than the largest kept", () =>
    Effect.gen(function*() {
      const cache = yield* DocumentCache.make()
      let reads = 0
      const unknown = Effect.sync(() => (reads++, Option.none<Uint8Array>()))
      yield* cache.answer("missing", "metadata", unknown)
      yield* cache.answer("missing", "metadata", unknown)
      const large = Effect.sync(
        () => (reads++, Option.some(new Uint8Array(DocumentCache.LargestCachedAnswerBytes + 1)))
      )
      yield* cache.answer("long", "markdown", large)
      yield* cache.answer("long", "markdown", large)
      assert.strictEqual(reads, 4)
    }))

  it.effect("lets the oldest answers go past its capacity", () =>
    Effect.gen(function*() {
      const cache = yield* DocumentCache.make({ capacityBytes: 10 })
      let reads = 0
      const read = Effect.sync(() => (reads++, Option.some(new Uint8Array(4))))
      for (const id of ["a", "b", "c"]) yield* cache.answer(id, "metadata", read)
      yield* cache.answer("c", "metadata", read)
      yield* cache.answer("a", "metadata", read)
      assert.strictEqual(reads, 4)
    }))
})

// Over HTTP, in process: one API with the cache and the invalidating store, one without.
const cachedStore = DocumentCache.invalidatingStore.pipe(
  Layer.provide(MemoryStorage.documentStore),
  Layer.provideMerge(DocumentCache.layer)
)
const dependencies = InProcessApi.dependencies(Layer.mergeAll(MemoryStorage.layer, cachedStore))
const runtime = ManagedRuntime.make(dependencies)
let cached: (request: Request) => Promise<Response>
let uncached: (request: Request) => Promise<Response>
const disposers: Array<() => Promise<void>> = []
let key: string
const document = sampleDocument({ publicationId: Ids.PublicationId.make("0000123456-24-000007") })

beforeAll(async () => {
  const { context } = await runtime.runtime()
  const withCache = InProcessApi.webHandler(context)
  const withoutCache = InProcessApi.webHandler(Context.omit(DocumentCache.DocumentCache)(context))
  cached = withCache.handler
  uncached = withoutCache.handler
  disposers.push(withCache.dispose, withoutCache.dispose)
  key = await runtime.runPromise(Effect.gen(function*() {
    yield* (yield* DocumentStore.DocumentStore).save(document)
    return (yield* (yield* ApiKeys.ApiKeys).create({ name: "test" })).key
  }))
})
afterAll(async () => {
  for (const dispose of disposers) await dispose()
  await runtime.dispose()
})

const get = (handler: (request: Request) => Promise<Response>, path: string) =>
  handler(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${key}` } }))

describe("GET /v1/documents/{id} from kept answers", () => {
  it("answers the very bytes and content type of a fresh read, kept or not yet kept", async () => {
    for (
      const path of [
        `/v1/documents/${document.publicationId}?format=metadata`,
        `/v1/documents/${document.publicationId}`
      ]
    ) {
      const expected = await get(uncached, path)
      const expectedBody = await expected.text()
      for (const attempt of ["read", "kept"]) {
        const response = await get(cached, path)
        assert.strictEqual(response.status, 200, `${path} ${attempt}`)
        assert.strictEqual(response.headers.get("content-type"), expected.headers.get("content-type"))
        assert.isNotNull(response.headers.get("x-ratelimit-remaining"))
        assert.strictEqual(await response.text(), expectedBody, `${path} ${attempt}`)
      }
    }
    const missing = await get(cached, "/v1/documents/0000123456-24-999999?format=metadata")
    assert.strictEqual(missing.status, 404)
  })

  it("answers with the new metadata once the document is stored again", async () => {
    const path = `/v1/documents/${document.publicationId}?format=metadata`
    await get(cached, path)
    await runtime.runPromise(
      Effect.flatMap(DocumentStore.DocumentStore, (store) => store.save({ ...document, title: "Restated report" }))
    )
    const response = (await (await get(cached, path)).json()) as { readonly title: string }
    assert.strictEqual(response.title, "Restated report")
  })
})

// Keep the lifetime honest: it is the bound on another instance's re-ingestion.
it("keeps answers no longer than a revoked key is accepted", () => {
  assert.isAtMost(Duration.toMillis(DocumentCache.CachedAnswerLifetime), Duration.toMillis(ApiKeys.CheckedKeyLifetime))
})
