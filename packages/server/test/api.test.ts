import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Ids } from "@filings/domain"
import { CompanyStore, DocumentStore, MemoryStorage, StorageError } from "@filings/storage"
import { sampleDocument } from "@filings/storage/testing"
import { Effect, Layer, ManagedRuntime } from "effect"
import * as ApiKeys from "../src/ApiKeys.js"
import * as InProcessApi from "./support/inProcessApi.js"

// The API in process, through its web handler: how failures of the storage behind it reach the
// client. The black-box tests in the repository's test/ folder check the rest over a real socket.

/** What the document store does on the next call: work, report an outage, or break unexpectedly. */
let storeBehaviour: "works" | "unavailable" | "defect" = "works"

const faultyDocumentStore = Layer.effect(
  DocumentStore.DocumentStore,
  Effect.map(DocumentStore.DocumentStore, (store) => {
    const guard = <A, E>(operation: string, effect: Effect.Effect<A, E>) =>
      Effect.suspend((): Effect.Effect<A, E | StorageError.StorageError> => {
        if (storeBehaviour === "unavailable") {
          return Effect.fail(
            new StorageError.StorageError({ operation, reason: "connect ECONNREFUSED 10.1.2.3:5432 password=hunter2" })
          )
        }
        if (storeBehaviour === "defect") return Effect.die(new Error("secret internal detail at /srv/app.js:42"))
        return effect
      })
    return DocumentStore.DocumentStore.of({
      save: (document) => guard("DocumentStore.save", store.save(document)),
      findByPublicationId: (id) => guard("DocumentStore.findByPublicationId", store.findByPublicationId(id)),
      findChunk: (id, chunkId) => guard("DocumentStore.findChunk", store.findChunk(id, chunkId)),
      findMetadata: (id) => guard("DocumentStore.findMetadata", store.findMetadata(id)),
      list: (query) => guard("DocumentStore.list", store.list(query)),
      searchSections: (query) => guard("DocumentStore.searchSections", store.searchSections(query)),
      companyDocuments: (query) => guard("DocumentStore.companyDocuments", store.companyDocuments(query)),
      companyTickers: (cik) => guard("DocumentStore.companyTickers", store.companyTickers(cik)),
      companyNames: guard("DocumentStore.companyNames", store.companyNames),
      countByType: (cik) => guard("DocumentStore.countByType", store.countByType(cik))
    })
  })
).pipe(Layer.provide(MemoryStorage.documentStore))

const dependencies = InProcessApi.dependencies(Layer.mergeAll(MemoryStorage.layer, faultyDocumentStore))
const runtime = ManagedRuntime.make(dependencies)
let handler: (request: Request) => Promise<Response>
let dispose: () => Promise<void>
let key: string
const document = sampleDocument({ publicationId: Ids.PublicationId.make("0000123456-24-000001") })

beforeAll(async () => {
  const { context } = await runtime.runtime()
  const web = InProcessApi.webHandler(context)
  handler = web.handler
  dispose = web.dispose
  key = await runtime.runPromise(Effect.gen(function*() {
    yield* (yield* DocumentStore.DocumentStore).save(document)
    // The timeline finds the company first, in the company store (which does not fail here).
    yield* (yield* CompanyStore.CompanyStore).upsert({ cik: document.cik, ticker: document.ticker, name: "Acme Corp" })
    return (yield* (yield* ApiKeys.ApiKeys).create({ name: "test" })).key
  }))
})
afterAll(async () => {
  await dispose()
  await runtime.dispose()
})

const get = (path: string) =>
  handler(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${key}` } }))

const envelope = async (response: Response) => (await response.json()) as { error: { code: string; message: string } }

describe("storage failures at the HTTP edge", () => {
  it("serves the document while storage works", async () => {
    storeBehaviour = "works"
    const response = await get(`/v1/documents/${document.publicationId}`)
    assert.strictEqual(response.status, 200)
    assert.strictEqual(((await response.json()) as { body: string }).body, document.body)
  })

  it("503 service_unavailable with Retry-After when storage is down, without its message", async () => {
    storeBehaviour = "unavailable"
    for (
      const path of [
        `/v1/documents/${document.publicationId}`,
        "/v1/documents?tickers=ACME",
        "/v1/companies/ACME/timeline",
        "/healthz"
      ]
    ) {
      const response = await get(path)
      assert.strictEqual(response.status, 503, path)
      assert.strictEqual(response.headers.get("retry-after"), "5", path)
      const { error } = await envelope(response)
      assert.strictEqual(error.code, "service_unavailable")
      assert.notInclude(error.message, "hunter2")
      assert.notInclude(error.message, "10.1.2.3")
    }
  })

  it("500 internal_error on an unexpected failure, without internals", async () => {
    storeBehaviour = "defect"
    const response = await get(`/v1/documents/${document.publicationId}`)
    assert.strictEqual(response.status, 500)
    const { error } = await envelope(response)
    assert.strictEqual(error.code, "internal_error")
    assert.notInclude(error.message, "secret")
    assert.notInclude(error.message, "/srv/app.js")
    storeBehaviour = "works"
  })

  it("search is 503 while the company names cannot be read, and answers as soon as they can", async () => {
    storeBehaviour = "unavailable"
    const down = await get("/v1/search?q=Acme%20revenue")
    assert.strictEqual(down.status, 503)
    assert.strictEqual(down.headers.get("retry-after"), "5")
    assert.notInclude((await envelope(down)).error.message, "hunter2")
    // The failed read was not kept for a minute: the next search reads the names again.
    storeBehaviour = "works"
    const up = await get("/v1/search?q=Acme%20revenue")
    assert.strictEqual(up.status, 200)
  })

  it("keeps the rate-limit headers on failures", async () => {
    storeBehaviour = "unavailable"
    const response = await get(`/v1/documents/${document.publicationId}`)
    assert.strictEqual(response.headers.get("x-ratelimit-limit"), "100")
    storeBehaviour = "works"
  })
})
