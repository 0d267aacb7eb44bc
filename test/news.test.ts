/**
 * News in the feed, end to end: `filings serve` follows the feeds of `FILINGS_NEWS_FEEDS` on a
 * local feed host, stores their entries about known companies as `NEWS` documents, and serves
 * them through `POST /v1/feed` with citations that resolve to the entries' own passages. A
 * changed feed is read again at the next round, with a conditional request in between.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Document, Feed } from "@filings/domain"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createKey, type RunningServer, startServer, temporaryDataDir } from "./support/filings.js"
import { jsonOf } from "./support/http.js"
import { ingestEightK } from "./support/syntheticEightK.js"
import { eventually } from "./support/waiting.js"

const item = (guid: string, title: string, published: string, text: string) =>
  `<item><title>${title}</title><link>https://acmn.example/news/${guid}</link><guid>${guid}</guid>` +
  `<pubDate>${new Date(published).toUTCString()}</pubDate><description><![CDATA[${text}]]></description></item>`

const plantNews = item(
  "plant",
  "Acmn opens a plant in Ohio",
  "2026-11-03T13:30:00Z",
  "<p>Acmn Corp. will open a plant in Columbus, Ohio, that adds 400 jobs.</p><p>The plant will cost $120 million and start production in 2027.</p>"
)
const dividendNews = item(
  "dividend",
  "Acmn raises its dividend",
  "2026-11-05T12:00:00Z",
  "<p>Acmn Corp. raised its quarterly dividend by 10% to $0.55 a share, payable December 15, 2026.</p>"
)

/** The company feed, whose entries change during the test, with an ETag per version. */
let companyEntries = [plantNews]
const wire = `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Wire</title>
  <entry><id>wire-1</id><title>Acmn wins a $40 million contract</title><link href="https://wire.example/1"/>
  <published>2026-11-04T11:00:00Z</published>
  <summary>Acmn Corp. (NYSE: ACMN) won a $40 million contract to supply turbines to a utility.</summary></entry>
</feed>`

const conditionalRequests: Array<string> = []
let feedHost: Server
let origin: string
let files: string
let storage: Awaited<ReturnType<typeof temporaryDataDir>>
let server: RunningServer
let key: string

beforeAll(async () => {
  feedHost = createServer((request, response) => {
    const etag = request.url === "/acmn.rss" ? `"c${companyEntries.length}"` : "\"w1\""
    if (request.headers["if-none-match"] !== undefined) {
      conditionalRequests.push(`${request.url} ${request.headers["if-none-match"]}`)
    }
    if (request.headers["if-none-match"] === etag) {
      response.writeHead(304, { etag }).end()
    } else if (request.url === "/acmn.rss") {
      response.writeHead(200, { "content-type": "application/rss+xml", etag })
        .end(`<rss version="2.0"><channel><title>Acmn news</title>${companyEntries.join("")}</channel></rss>`)
    } else if (request.url === "/wire.atom") {
      response.writeHead(200, { "content-type": "application/atom+xml", etag }).end(wire)
    } else {
      response.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => feedHost.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(feedHost.address() as AddressInfo).port}`

  files = await mkdtemp(join(tmpdir(), "filings-news-"))
  storage = await temporaryDataDir()
  // The company is known before the server starts: its news is stored at the first round.
  await ingestEightK(storage, files, {
    ticker: "ACMN",
    accession: "0000999401-26-000001",
    cik: "0000999401",
    companyName: "ACMN CORP",
    filedAsOf: "2026-11-02",
    items: ["2.02", "9.01"]
  })
  server = await startServer(storage, {
    FILINGS_NEWS_FEEDS: `ACMN=${origin}/acmn.rss, ${origin}/wire.atom`,
    FILINGS_NEWS_POLL: "5"
  })
  key = await createKey(storage, { rateLimit: 10_000 })
}, 180_000)

afterAll(async () => {
  await server?.stop()
  await storage?.remove()
  feedHost?.close()
  await rm(files, { recursive: true, force: true })
})

const get = (path: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } })

const newsFeed = async () => {
  const response = await fetch(`${server.url}/v1/feed`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ tickers: ["ACMN"], doc_types: ["NEWS"] })
  })
  assert.strictEqual(response.status, 200)
  return jsonOf(Feed.FeedResponse, response)
}

const newsTitles = async (count: number) =>
  eventually(() => `${count} news items of ACMN in the feed; the server said:\n${server.output()}`, async () => {
    const feed = await newsFeed()
    return feed.items.length === count ? feed : undefined
  }, 30_000)

describe("news feeds", () => {
  it("serves the followed feeds' entries as cited NEWS items, newest first", async () => {
    const feed = await newsTitles(2)
    assert.deepStrictEqual(feed.items.map((entry) => [entry.title, entry.doc_type, entry.date]), [
      ["Acmn wins a $40 million contract", "NEWS", "2026-11-04T11:00:00.000Z"],
      ["Acmn opens a plant in Ohio", "NEWS", "2026-11-03T13:30:00.000Z"]
    ])
    const [contract, plant] = feed.items
    assert.strictEqual(contract!.company_name, "ACMN CORP")
    assert.strictEqual(
      plant!.highlights[0]!.text,
      "Acmn Corp. will open a plant in Columbus, Ohio, that adds 400 jobs."
    )

    for (const entry of feed.items) {
      for (const highlight of entry.highlights) {
        for (const citation of highlight.citations) {
          const response = await get(`/v1/documents/${citation.source}/chunks/${citation.chunk_id}`)
          assert.strictEqual(response.status, 200, `${citation.source} ${citation.chunk_id}`)
          const chunk = await jsonOf(Feed.DocumentChunk, response)
          for (const figure of highlight.text.match(/\$?\d[\d,.]*\d/g) ?? []) assert.include(chunk.text, figure)
        }
      }
    }
    const document = await jsonOf(
      Document.Document,
      await get(`/v1/documents/${contract!.highlights[0]!.citations[0]!.source}`)
    )
    assert.strictEqual(document.doc_type, "NEWS")
    assert.strictEqual(document.ticker, "ACMN")
    assert.include(document.body ?? "", "https://wire.example/1")
  })

  it("reads a changed feed at the next round, asking with the ETag meanwhile", async () => {
    await newsTitles(2)
    companyEntries = [dividendNews, plantNews]
    const feed = await newsTitles(3)
    assert.deepStrictEqual(feed.items.map((entry) => entry.title), [
      "Acmn raises its dividend",
      "Acmn wins a $40 million contract",
      "Acmn opens a plant in Ohio"
    ])
    assert.include(feed.items[0]!.categories, "Financial")
    assert.include(conditionalRequests, "/acmn.rss \"c1\"")
    // The wire is read after the company feed in a round: its request may be on its way still.
    await eventually(
      "a conditional request for the wire",
      async () => conditionalRequests.includes("/wire.atom \"w1\"") ? true : undefined,
      10_000
    )
  })
})
