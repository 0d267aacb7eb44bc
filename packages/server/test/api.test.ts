import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { NodeContext } from "@effect/platform-node"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { ApiError } from "@filings/domain"
import { DocumentStore, MemoryStorage } from "@filings/storage"
import { sampleDocument } from "@filings/storage/testing"
import { Effect, Layer, ManagedRuntime } from "effect"
import * as AdminAccess from "../src/AdminAccess.js"
import * as ApiKeys from "../src/ApiKeys.js"
import { Ingestion } from "../src/ingest/Ingestion.js"
import * as Server from "../src/Server.js"
import * as ServerConfig from "../src/ServerConfig.js"

// The API in process, through its web handler: fast checks of routing, validation and envelopes.
// The black-box tests in the repository's test/ folder check the same contract over a real socket.
const ingestionUnused = Layer.succeed(Ingestion, {
  ingest: () => Effect.fail(new ApiError.UnreadableFiling({ message: "not in this test" }))
})
const dependencies = Layer.mergeAll(ApiKeys.layer, AdminAccess.layer, ingestionUnused).pipe(
  Layer.provideMerge(MemoryStorage.layer),
  Layer.provideMerge(ServerConfig.layer()),
  Layer.provideMerge(NodeContext.layer)
)
const runtime = ManagedRuntime.make(dependencies)
let handler: (request: Request) => Promise<Response>
let dispose: () => Promise<void>
let key: string
const document = sampleDocument({ publicationId: "0000123456-24-000001" as never })

beforeAll(async () => {
  const { context } = await runtime.runtime()
  const web = HttpApiBuilder.toWebHandler(
    Layer.mergeAll(Server.apiLayer, HttpServer.layerContext).pipe(Layer.provide(Layer.succeedContext(context)))
  )
  handler = web.handler
  dispose = web.dispose
  key = await runtime.runPromise(Effect.gen(function*() {
    yield* (yield* DocumentStore.DocumentStore).save(document)
    return (yield* (yield* ApiKeys.ApiKeys).create({ name: "test" })).key
  }))
})
afterAll(async () => {
  await dispose()
  await runtime.dispose()
})

const get = (path: string, token: string | null = key) =>
  handler(
    new Request(`http://localhost${path}`, token === null ? {} : { headers: { authorization: `Bearer ${token}` } })
  )

describe("API in process", () => {
  it("401 without a key", async () => {
    const response = await get("/v1/documents?tickers=AAPL", null)
    assert.strictEqual(response.status, 401)
    assert.deepStrictEqual(await response.json(), {
      error: { code: "unauthorized", message: "a valid API key is required: send Authorization: Bearer <key>" }
    })
  })
  it("400 names the bad field", async () => {
    const response = await get("/v1/documents/bad-id")
    assert.strictEqual(response.status, 400)
    const body = (await response.json()) as { error: { code: string; message: string } }
    assert.strictEqual(body.error.code, "invalid_request")
    assert.match(body.error.message, /publication_id/)
  })
  it("serves a stored document", async () => {
    const response = await get(`/v1/documents/${document.publicationId}`)
    assert.strictEqual(response.status, 200)
    const body = (await response.json()) as { body: string }
    assert.strictEqual(body.body, document.body)
    assert.strictEqual(response.headers.get("x-ratelimit-limit"), "100")
  })
})
