/**
 * The feed with a language model configured, end to end: `filings serve` with
 * `FILINGS_SUMMARY_MODEL_URL` pointing at a local chat-completions endpoint. A stored document's
 * item is there at once, written by the extractive model; a summary job then asks the endpoint
 * (which fails at first, as providers do) and, once it answers, the item is the model's, with
 * citations that still resolve.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Feed } from "@filings/domain"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createKey, type RunningServer, startServer, temporaryDataDir } from "./support/filings.js"
import { jsonOf } from "./support/http.js"
import { ingestEightK } from "./support/syntheticEightK.js"
import { eventually } from "./support/waiting.js"

interface ChatRequest {
  readonly model: string
  readonly messages: ReadonlyArray<{ readonly role: string; readonly content: string }>
}

/**
 * The endpoint's answer: a highlight quoting the first sentence of the longest passage it was
 * given, as a model that reads its document would.
 */
const answerTo = (request: ChatRequest) => {
  const prompt = request.messages.filter((message) => message.role === "user").map((message) => message.content)
    .join("\n")
  const passages = [...prompt.matchAll(/^\[(c\d{4})\] (.+)$/gm)].map((match) => ({ id: match[1]!, text: match[2]! }))
  const longest = passages.reduce((best, passage) => (passage.text.length > best.text.length ? passage : best))
  const sentence = longest.text.replace(/[#*_|\\]/g, " ").replace(/\s+/g, " ").trim().split(/(?<=[a-z]\.)\s/)[0]!
  return { highlights: [{ text: sentence, chunk_ids: [longest.id] }], categories: ["Earnings"], sentiment: "neutral" }
}

/** Both documents' first requests fail, so each item stays extractive until its job's second try, 2 s later. */
let failuresLeft = 2
const seen: Array<number> = []
let endpoint: Server
let files: string
let storage: Awaited<ReturnType<typeof temporaryDataDir>>
let server: RunningServer
let key: string

beforeAll(async () => {
  endpoint = createServer((request, response) => {
    let body = ""
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
    request.on("end", () => {
      if (request.url !== "/v1/chat/completions") return response.writeHead(404).end()
      if (failuresLeft > 0) {
        failuresLeft--
        seen.push(503)
        return response.writeHead(503, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: "overloaded" } }))
      }
      seen.push(200)
      const content = JSON.stringify(answerTo(JSON.parse(body) as ChatRequest))
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 1_790_000_000,
        model: "stub-model",
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }]
      }))
    })
  })
  await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve))
  const modelUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/v1`

  files = await mkdtemp(join(tmpdir(), "filings-feed-model-"))
  storage = await temporaryDataDir()
  server = await startServer(storage, { FILINGS_SUMMARY_MODEL_URL: modelUrl, FILINGS_SUMMARY_MODEL: "stub-model" })
  key = await createKey(storage, { rateLimit: 10_000 })
}, 120_000)

afterAll(async () => {
  await server?.stop()
  await storage?.remove()
  endpoint?.close()
  await rm(files, { recursive: true, force: true })
})

const get = (path: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } })

const feedOf = async () => {
  const response = await fetch(`${server.url}/v1/feed`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ tickers: ["ACMQ"] })
  })
  assert.strictEqual(response.status, 200)
  return jsonOf(Feed.FeedResponse, response)
}

describe("the feed with a summary model", () => {
  it("writes each item at once with the extractive model, then the model's once the endpoint answers", async () => {
    await ingestEightK(storage, files, {
      ticker: "ACMQ",
      accession: "0000999501-26-000001",
      cik: "0000999501",
      companyName: "ACMQ CORP",
      filedAsOf: "2026-11-02",
      items: ["2.02", "9.01"]
    })
    const first = await feedOf()
    assert.deepStrictEqual(first.items.map((item) => [item.doc_type, item.model]), [
      ["PRESS_RELEASE", "extractive"],
      ["8-K", "extractive"]
    ])

    const byModel = await eventually(
      () => `both items rewritten by the model; the endpoint answered ${seen.join(", ")}\n${server.output()}`,
      async () => {
        const feed = await feedOf()
        return feed.items.every((item) => item.model === "chat-completions:stub-model") ? feed : undefined
      },
      30_000
    )
    // One job per document: each failed once, was tried again, and the model was asked nothing more.
    assert.deepStrictEqual(seen, [503, 503, 200, 200])
    assert.deepStrictEqual(byModel.items.map((item) => item.categories), [["Earnings"], ["Earnings"]])
    for (const item of byModel.items) {
      assert.lengthOf(item.highlights, 1)
      const [citation] = item.highlights[0]!.citations
      const chunk = await jsonOf(
        Feed.DocumentChunk,
        await get(`/v1/documents/${citation!.source}/chunks/${citation!.chunk_id}`)
      )
      assert.include(chunk.text.replace(/[#*_|\\]/g, " ").replace(/\s+/g, " "), item.highlights[0]!.text.slice(0, 40))
    }
  })
})
