/**
 * Following news feeds over real HTTP, against a local server that answers like a feed host:
 * entries stored as `NEWS` documents with cited feed items, conditional requests answered `304`,
 * newswire entries given to the companies they name, redirects to other hosts refused, and what
 * is no feed reported rather than stored.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Ids } from "@filings/domain"
import { SummaryModel } from "@filings/feed-summarizer"
import { CompanyStore, DocumentStore, FeedStore, MemoryStorage } from "@filings/storage"
import { Effect, Either, Fiber, Layer, Option, TestClock } from "effect"
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import * as MarketData from "../src/market/MarketData.js"
import * as NewsFeeds from "../src/news/NewsFeeds.js"
import type { NewsSource } from "../src/news/NewsSources.js"

const acmeFeed = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Acme newsroom</title>
  <item>
    <title>Acme opens a plant in Ohio</title>
    <link>https://acme.example/news/plant</link>
    <guid>acme-plant</guid>
    <pubDate>Tue, 03 Nov 2026 13:30:00 GMT</pubDate>
    <description><![CDATA[<p>Acme Corp. will open a plant in Columbus, Ohio, that adds 400 jobs.</p>
      <p>The plant will cost $120 million and start production in 2027.</p>]]></description>
  </item>
  <item>
    <title>Acme names Jane Roe chief financial officer</title>
    <link>https://acme.example/news/cfo</link>
    <guid>acme-cfo</guid>
    <pubDate>Mon, 02 Nov 2026 21:05:00 GMT</pubDate>
    <description>Acme Corp. appointed Jane Roe as chief financial officer, effective December 1, 2026. She succeeds John Doe, who retires.</description>
  </item>
</channel></rss>`

const wireFeed = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Wire</title>
  <entry>
    <id>wire-1</id><title>Acme to acquire Beta for $2.5 billion</title>
    <link href="https://wire.example/1"/><published>2026-11-04T11:00:00Z</published>
    <summary>Acme Corp. (NYSE: ACME) agreed to acquire Beta Inc. (Nasdaq: BETA) for $2.5 billion in cash. The acquisition of Beta is expected to close in the first quarter of 2027.</summary>
  </entry>
  <entry>
    <id>wire-2</id><title>Zeta reports record sales</title>
    <link href="https://wire.example/2"/><published>2026-11-04T12:00:00Z</published>
    <summary>Zeta Ltd. (NASDAQ: ZETA) reported record quarterly sales of $80 million.</summary>
  </entry>
  <entry>
    <id>wire-3</id><title>Markets close higher</title>
    <link href="https://wire.example/3"/><published>2026-11-04T21:00:00Z</published>
    <summary>Stocks rose on Wednesday.</summary>
  </entry>
</feed>`

interface Seen {
  readonly path: string
  readonly ifNoneMatch?: string | undefined
}

/** A feed host: paths to answers, each request recorded. */
const startFeedHost = (
  answers: Record<
    string,
    (request: IncomingMessage) => { status: number; headers?: Record<string, string>; body?: string }
  >
) => {
  const seen: Array<Seen> = []
  const server = createServer((request, response) => {
    const path = request.url ?? "/"
    const ifNoneMatch = request.headers["if-none-match"]
    seen.push({ path, ...(ifNoneMatch === undefined ? {} : { ifNoneMatch }) })
    if (path === "/stalled.rss") {
      // Headers and the start of a body, then nothing: the reader must give up and hang up.
      response.writeHead(200, { "content-type": "application/rss+xml" })
      response.write("<rss><channel><title>Stalled</title>")
      response.on("close", () => stalledClosed.push(path))
      return
    }
    const answer = answers[path]?.(request) ?? { status: 404, body: "not found" }
    response.writeHead(answer.status, answer.headers ?? {})
    response.end(answer.body ?? "")
  })
  return new Promise<{ readonly server: Server; readonly origin: string; readonly seen: Array<Seen> }>((resolve) =>
    server.listen(
      0,
      "127.0.0.1",
      () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen })
    )
  )
}

/** A feed that answers `304` when asked with its ETag. */
const withEtag = (body: string, etag: string) => (request: IncomingMessage) =>
  request.headers["if-none-match"] === etag
    ? { status: 304, headers: { etag } }
    : { status: 200, headers: { "content-type": "application/rss+xml; charset=utf-8", etag }, body }

/** Stalled answers whose connection the reader closed. */
const stalledClosed: Array<string> = []

/** How often the edited feed was read: its entry's figure is corrected after the first time. */
let editedReads = 0
let host: Awaited<ReturnType<typeof startFeedHost>>
let elsewhere: Awaited<ReturnType<typeof startFeedHost>>

beforeAll(async () => {
  elsewhere = await startFeedHost({ "/feed": () => ({ status: 200, body: acmeFeed }) })
  host = await startFeedHost({
    "/acme.rss": withEtag(acmeFeed, "\"v1\""),
    "/wire.atom": withEtag(wireFeed, "\"w1\""),
    "/unknown.rss": withEtag(acmeFeed, "\"u1\""),
    "/moved": () => ({ status: 301, headers: { location: `${elsewhere.origin}/feed` } }),
    "/moved-here": () => ({ status: 302, headers: { location: "/acme.rss" } }),
    "/moved-nowhere": () => ({ status: 302, headers: { location: "http://[" } }),
    "/error.html": () => ({
      status: 200,
      headers: { "content-type": "text/html" },
      body: "<html><body>Down for maintenance</body></html>"
    }),
    "/copy.rss": () => ({
      status: 200,
      body: `<rss><channel>
        <item><guid>wire-copy-of-plant</guid><title>ACME Opens a Plant in Ohio!</title>
          <pubDate>Tue, 03 Nov 2026 14:02:00 GMT</pubDate><description>Acme Corp. will open a plant.</description></item>
        <item><guid>wire-plant-later</guid><title>Acme opens a plant in Ohio</title>
          <pubDate>Thu, 05 Nov 2026 14:02:00 GMT</pubDate><description>Two days on, a follow-up.</description></item>
      </channel></rss>`
    }),
    "/untitled.rss": () => ({
      status: 200,
      body: `<rss><channel>
        <item><guid>acme-untitled</guid><pubDate>Tue, 03 Nov 2026 15:00:00 GMT</pubDate>
          <description><![CDATA[<h2>Newsroom</h2><table><tr><td></td><td>2026</td><td>2025</td></tr>
          <tr><td>Anvils shipped</td><td>1,200,000</td><td>1,100,000</td></tr></table>
          <p><b>Acme Corp.</b> shipped its <i>ten millionth</i> anvil from the Columbus plant on Tuesday, ahead of
          the schedule it set last year.</p>]]></description></item>
      </channel></rss>`
    }),
    "/edited.rss": () => {
      editedReads++
      const figure = editedReads === 1 ? "$310 million" : "$301 million"
      return {
        status: 200,
        body: `<rss><channel><item><guid>edited</guid><title>Acme wins a state contract</title>
          <pubDate>Tue, 03 Nov 2026 16:00:00 GMT</pubDate>
          <description>Acme Corp. won a state contract worth ${figure} over five years.</description></item>
        </channel></rss>`
      }
    },
    "/sgml.rss": () => ({
      status: 200,
      body: `<rss><channel>
        <item><guid>sgml</guid><title>Acme filing text</title>
          <description><![CDATA[<p><SEC-HEADER>0000999301-26-000001.hdr.sgml</p>]]></description></item>
        <item><guid>after-sgml</guid><title>Acme names a treasurer</title>
          <description>Acme Corp. named Sam Poe treasurer, effective at once.</description></item>
      </channel></rss>`
    }),
    "/dates.rss": () => ({
      status: 200,
      body: `<rss><channel>
        <item><guid>future</guid><title>Acme sets a date far ahead</title><pubDate>Fri, 01 Jan 2100 00:00:00 GMT</pubDate></item>
        <item><guid>undated</guid><title>Acme says nothing of when</title></item>
        <item><guid>garbled</guid><title>Acme has a garbled date</title><pubDate>yesterday-ish</pubDate></item>
      </channel></rss>`
    }),
    "/huge.rss": () => ({ status: 200, body: `<rss><channel>${"<item></item>".repeat(900_000)}</channel></rss>` })
  })
})

afterAll(() => {
  host.server.close()
  elsewhere.server.close()
})

const companies: ReadonlyArray<CompanyStore.Company> = [
  { cik: Ids.Cik.make("0000999301"), ticker: Ids.Ticker.make("ACME"), name: "Acme Corp." },
  { cik: Ids.Cik.make("0000999302"), ticker: Ids.Ticker.make("BETA"), name: "Beta Inc." }
]

const testLayer = Layer.mergeAll(
  MemoryStorage.layer,
  SummaryModel.extractiveLayer,
  MarketData.none,
  NodeHttpClient.layerUndici
)

/** The news reader with the test's companies known; `readSource` needs the configured hosts. */
const readAt = Date.parse("2026-11-05T15:00:00Z")

const newsReader = Effect.gen(function*() {
  yield* TestClock.setTime(readAt)
  const store = yield* CompanyStore.CompanyStore
  for (const company of companies) yield* store.upsert(company)
  return yield* NewsFeeds.make
})

const hosts = () => new Set([new URL(host.origin).host])

/** Acme's own feed at `path` on the test host, as a configured source. */
const acmeSource = (path: string): NewsSource => ({ url: `${host.origin}${path}`, ticker: Ids.Ticker.make("ACME") })

const newsItemsOf = (ticker: string) =>
  Effect.flatMap(
    FeedStore.FeedStore,
    (feed) => feed.query({ tickers: [Ids.Ticker.make(ticker)], docTypes: ["NEWS"], limit: 100 })
  )

describe("NewsFeeds", () => {
  it.effect("stores a company feed's entries as cited NEWS documents, and asks again with the ETag", () =>
    Effect.gen(function*() {
      const news = yield* newsReader
      const source = acmeSource("/acme.rss")
      const first = yield* news.readSource(source, hosts())
      assert.deepInclude(first, { notModified: false, entries: 2, stored: 2, skipped: 0 })

      const items = yield* newsItemsOf("ACME")
      assert.deepStrictEqual(items.map((item) => item.title), [
        "Acme opens a plant in Ohio",
        "Acme names Jane Roe chief financial officer"
      ])
      const [plant, cfo] = items
      assert.strictEqual(plant!.publishedAtMillis, Date.parse("2026-11-03T13:30:00Z"))
      assert.match(plant!.id, /^news-[0-9a-f]{16}$/)
      assert.include(cfo!.categories, "Leadership Changes")

      const documents = yield* DocumentStore.DocumentStore
      const stored = Option.getOrThrow(yield* documents.findByPublicationId(Ids.PublicationId.make(plant!.id)))
      const { companyName, docType, filingDate, secUrl, ticker } = stored
      assert.deepStrictEqual({ docType, ticker, companyName, filingDate, secUrl }, {
        docType: "NEWS",
        ticker: Ids.Ticker.make("ACME"),
        companyName: "Acme Corp.",
        filingDate: "2026-11-03",
        secUrl: ""
      })
      assert.include(stored.body, "https://acme.example/news/plant", "the article's address is in the body")
      // Every highlight cites a chunk of its own document that holds its figures.
      for (const item of items) {
        assert.isAbove(item.highlights.length, 0)
        for (const highlight of item.highlights) {
          for (const citation of highlight.citations) {
            assert.strictEqual(citation.source, item.id)
            const chunk = yield* documents.findChunk(Ids.PublicationId.make(item.id), citation.chunkId)
            assert.isTrue(Option.isSome(chunk), `${item.id} ${citation.chunkId} resolves`)
          }
          const cited = highlight.citations.map((citation) => citation.chunkId)
          for (const figure of highlight.text.match(/\$?\d[\d,.]*/g) ?? []) {
            const texts = yield* Effect.forEach(cited, (id) => documents.findChunk(Ids.PublicationId.make(item.id), id))
            assert.isTrue(texts.some((text) => Option.isSome(text) && text.value.text.includes(figure)), figure)
          }
        }
      }

      const before = host.seen.length
      const second = yield* news.readSource(source, hosts())
      assert.isTrue(second.notModified)
      assert.deepStrictEqual(host.seen.slice(before), [{ path: "/acme.rss", ifNoneMatch: "\"v1\"" }])
      // A restarted server (another reader on the same storage) asks conditionally too.
      const restarted = yield* NewsFeeds.make
      assert.isTrue((yield* restarted.readSource(source, hosts())).notModified)
      assert.strictEqual((yield* newsItemsOf("ACME")).length, 2)

      // The same story from another feed that day is not a second item; on another day it is news.
      const copy = yield* news.readSource(acmeSource("/copy.rss"), hosts())
      assert.deepInclude(copy, { entries: 2, stored: 1 })
      assert.deepStrictEqual((yield* newsItemsOf("ACME")).map((item) => item.publishedAtMillis), [
        Date.parse("2026-11-05T14:02:00Z"),
        Date.parse("2026-11-03T13:30:00Z"),
        Date.parse("2026-11-02T21:05:00Z")
      ])
    }).pipe(Effect.provide(testLayer)))

  it.effect("gives a newswire entry to each known company it names, and counts the others", () =>
    Effect.gen(function*() {
      const news = yield* newsReader
      const reading = yield* news.readSource({ url: `${host.origin}/wire.atom` }, hosts())
      assert.deepInclude(reading, { entries: 3, stored: 2, unknownTickers: ["ZETA"], skipped: 1 })
      const [acme] = yield* newsItemsOf("ACME")
      const [beta] = yield* newsItemsOf("BETA")
      assert.strictEqual(acme!.title, "Acme to acquire Beta for $2.5 billion")
      assert.strictEqual(beta!.title, acme!.title)
      assert.notStrictEqual(acme!.id, beta!.id, "one document per company")
      assert.include(acme!.categories, "Mergers & Acquisitions")

      const again = yield* news.readSource({ url: `${host.origin}/wire.atom` }, hosts())
      assert.isTrue(again.notModified, "a newswire's ETag is kept even with companies not known")
    }).pipe(Effect.provide(testLayer)))

  it.effect("reads a company feed whole again while its company is not known", () =>
    Effect.gen(function*() {
      const news = yield* newsReader
      const source: NewsSource = { url: `${host.origin}/unknown.rss`, ticker: Ids.Ticker.make("OMGA") }
      const first = yield* news.readSource(source, hosts())
      assert.deepInclude(first, { stored: 0, unknownTickers: ["OMGA"] })
      const before = host.seen.length
      const second = yield* news.readSource(source, hosts())
      assert.isFalse(second.notModified)
      assert.deepStrictEqual(host.seen.slice(before), [{ path: "/unknown.rss" }], "no ETag sent")
    }).pipe(Effect.provide(testLayer)))

  it.effect("follows a redirect on a configured host, refuses one to any other host", () =>
    Effect.gen(function*() {
      const news = yield* newsReader
      const here = yield* news.readSource(acmeSource("/moved-here"), hosts())
      assert.strictEqual(here.stored, 2)

      const away = yield* Effect.either(news.readSource({ url: `${host.origin}/moved` }, hosts()))
      assert.isTrue(Either.isLeft(away))
      assert.strictEqual(
        Either.isLeft(away) ? away.left.message : "",
        `the news feed at ${new URL(host.origin).host} could not be read: redirected to ${
          new URL(elsewhere.origin).host
        }, which is not a configured feed host; give that address in FILINGS_NEWS_FEEDS`
      )
      assert.deepStrictEqual(elsewhere.seen, [], "the other host is never asked")
    }).pipe(Effect.provide(testLayer)))

  it.effect("dates an entry that is undated, misdated or dated in the future when it was read", () =>
    Effect.gen(function*() {
      const news = yield* newsReader
      const reading = yield* news.readSource(acmeSource("/dates.rss"), hosts())
      assert.strictEqual(reading.stored, 3)
      assert.deepStrictEqual((yield* newsItemsOf("ACME")).map((item) => item.publishedAtMillis), [
        readAt,
        readAt,
        readAt
      ])
    }).pipe(Effect.provide(testLayer)))

  it.effect("stores an entry again when its text is corrected, keeping its time", () =>
    Effect.gen(function*() {
      const news = yield* newsReader
      const source = acmeSource("/edited.rss")
      assert.deepInclude(yield* news.readSource(source, hosts()), { stored: 1, updated: 0 })
      const highlightOf = Effect.map(newsItemsOf("ACME"), (items) => items.map((item) => item.highlights[0]?.text))
      assert.deepStrictEqual(yield* highlightOf, [
        "Acme Corp. won a state contract worth $310 million over five years."
      ])

      assert.deepInclude(yield* news.readSource(source, hosts()), { stored: 0, updated: 1 })
      const [corrected] = yield* newsItemsOf("ACME")
      assert.strictEqual(
        corrected!.highlights[0]!.text,
        "Acme Corp. won a state contract worth $301 million over five years."
      )
      assert.strictEqual(corrected!.publishedAtMillis, Date.parse("2026-11-03T16:00:00Z"))
      const documents = yield* DocumentStore.DocumentStore
      const body = Option.getOrThrow(yield* documents.findByPublicationId(Ids.PublicationId.make(corrected!.id))).body
      assert.notInclude(body, "$310 million")

      assert.deepInclude(yield* news.readSource(source, hosts()), { stored: 0, updated: 0 }, "unchanged since")
    }).pipe(Effect.provide(testLayer)))

  it.effect("headlines an entry without a title by the first words of its text, past headings and tables", () =>
    Effect.gen(function*() {
      const news = yield* newsReader
      const source: NewsSource = { url: `${host.origin}/untitled.rss`, ticker: Ids.Ticker.make("ACME") }
      assert.deepInclude(yield* news.readSource(source, hosts()), { stored: 1 })
      const [item] = yield* newsItemsOf("ACME")
      assert.strictEqual(
        item?.title,
        "Acme Corp. shipped its ten millionth anvil from the Columbus plant on Tuesday, ahead of the"
      )
    }).pipe(Effect.provide(testLayer)))

  it.effect("skips an entry the parser cannot read, and stores the entries after it", () =>
    Effect.gen(function*() {
      const news = yield* newsReader
      const reading = yield* news.readSource(acmeSource("/sgml.rss"), hosts())
      assert.deepInclude(reading, { entries: 2, stored: 1, skipped: 1 })
      assert.deepStrictEqual((yield* newsItemsOf("ACME")).map((item) => item.title), ["Acme names a treasurer"])
    }).pipe(Effect.provide(testLayer)))

  it.effect("reports an error page, a missing feed, a broken redirect and an oversized answer, storing nothing", () =>
    Effect.gen(function*() {
      const news = yield* newsReader
      const failureOf = (path: string) =>
        Effect.flip(news.readSource(acmeSource(path), hosts())).pipe(
          Effect.map((error) =>
            error.message.replace(`the news feed at ${new URL(host.origin).host} could not be read: `, "")
          )
        )
      assert.strictEqual(yield* failureOf("/error.html"), "the answer is not an RSS or Atom feed: its root is <html>")
      assert.strictEqual(yield* failureOf("/gone.rss"), "HTTP 404")
      assert.strictEqual(yield* failureOf("/moved-nowhere"), "HTTP 302 without a usable Location")
      assert.strictEqual(yield* failureOf("/huge.rss"), "the answer is larger than 10 MB")

      const stalled = yield* Effect.fork(failureOf("/stalled.rss"))
      // Real sockets under the test clock: let the headers arrive before time moves on.
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 200)))
      yield* TestClock.adjust("30 seconds")
      assert.strictEqual(yield* Fiber.join(stalled), "no answer within 30 seconds")
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 200)))
      assert.deepStrictEqual(stalledClosed, ["/stalled.rss"], "the request was ended, not left open")
      assert.deepStrictEqual(yield* newsItemsOf("ACME"), [])
    }).pipe(Effect.provide(testLayer)))
})
