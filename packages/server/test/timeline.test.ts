/**
 * `GET /v1/companies/{ticker}/timeline` over real HTTP, on PGlite and on PostgreSQL: a company's
 * filings, press releases, presentations, calls (held and announced) and news, newest first with
 * their 8-K items and first cited highlight, whichever of its tickers each was stored under; the
 * filters; paging by cursor at every page size, compared with the unpaged list, where many entries
 * share one date; the company found by any of its tickers and 404 exactly where its profile is,
 * 400 in the error envelope for every bad input, and the typed client derived from the definition.
 */
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { NodeContext } from "@effect/platform-node"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Api, ApiError, type DocType, Ids, Timeline } from "@filings/domain"
import { CompanyStore, DocumentStore, EventStore, FeedStore, type Stores } from "@filings/storage"
import { SqlStorage, TestDatabase } from "@filings/storage-sql"
import { sampleDocument, sampleFeedItem } from "@filings/storage/testing"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime, Redacted, Schema } from "effect"
import { adminUrl, adminUrlVariable } from "../../../test/support/adminUrl.js"
import * as AdminAccess from "../src/admin/AdminAccess.js"
import * as ApiKeys from "../src/ApiKeys.js"
import { upcomingCallEvent } from "../src/ingest/FilingEvents.js"
import * as Ingest from "../src/ingest/Ingest.js"
import { Ingestion } from "../src/ingest/Ingestion.js"
import * as Server from "../src/Server.js"
import * as ServerConfig from "../src/ServerConfig.js"

const ticker = Ids.Ticker.make("ACME")
const cik = Ids.Cik.make("0000999001")
/** Acme's second listed share class, as GOOG is Alphabet's beside GOOGL. */
const secondClass = Ids.Ticker.make("ACMK")
/** The ticker Acme filed under before it took ACME: no longer its own, only on its old documents. */
const formerTicker = Ids.Ticker.make("ACMO")
const publicationId = (id: string) => Ids.PublicationId.make(id)

const eightK = publicationId("0000999001-26-000002")

const document = (
  id: string,
  docType: DocType.DocType,
  filingDate: string,
  title: string,
  items: ReadonlyArray<string> = [],
  storedUnder: Ids.Ticker = ticker
) =>
  sampleDocument({
    publicationId: publicationId(id),
    ticker: storedUnder,
    cik,
    docType,
    filingDate,
    title,
    items,
    period: "Q1 2026"
  })

/**
 * The company's life: an 8-K with its release, deck and call on one day, and more around it; a 10-Q
 * stored under its second class's ticker and a 10-K under its former ticker.
 */
const documents: Array<DocumentStore.StoredDocument> = [
  document("0000999001-26-000009", "DEF 14A", "2026-03-10", "Acme Corp DEF 14A Q1 2026"),
  document("0000999001-26-000005", "10-K", "2026-02-20", "Acme Corp 10-K FY 2025"),
  document("0000999001-26-000002", "8-K", "2026-01-30", "Acme Corp 8-K Q1 2026", ["Item 2.02", "Item 9.01"]),
  document("0000999001-26-000002-ex99.1", "PRESS_RELEASE", "2026-01-30", "Acme reports record fourth quarter"),
  document("0000999001-26-000002-ex99.2", "PRESENTATION", "2026-01-30", "Acme fourth quarter slides"),
  document("call-acme-2026-01-30", "EARNINGS_CALL", "2026-01-30", "Acme Q4 2025 earnings call"),
  document("news-00000000000000a1", "NEWS", "2026-01-29", "Acme opens a plant in Ohio"),
  // Twelve filings of one day, to page through a date shared by more entries than most pages hold.
  ...Array.from({ length: 12 }, (_, n) =>
    document(
      `0000999001-25-${String(900 - n * 37).padStart(6, "0")}`,
      "8-K",
      "2025-11-14",
      `Acme Corp 8-K #${n}`,
      ["Item 8.01"]
    )),
  // Among the twelve of that day by its id (between 000715 and 000678), under the other class's ticker.
  document("0000999001-25-000700", "10-Q", "2025-11-14", "Acme Corp 10-Q Q3 2025", [], secondClass),
  document("0000999001-24-000100", "10-K", "2024-11-01", "Acme Corp 10-K FY 2024", [], formerTicker),
  // A call stored before the company was known: under the placeholder key, by its ticker.
  {
    ...document("call-acme-2023-07-27", "EARNINGS_CALL", "2023-07-27", "Acme Q2 2023 earnings call"),
    cik: Ingest.UnknownCik
  }
]

const releaseHighlight = {
  text: "Revenue of $412.5 million, up 18%.",
  citations: [{ source: "0000999001-26-000002-ex99.1", chunkId: "c0001" }]
}
const eightKHighlight = { text: "Acme furnished its results.", citations: [{ source: eightK, chunkId: "c0002" }] }

/** The feed items of two documents; the others have none. */
const feedItems = [
  sampleFeedItem({
    id: "0000999001-26-000002-ex99.1",
    ticker,
    docType: "PRESS_RELEASE",
    highlights: [releaseHighlight, { text: "Guidance raised.", citations: [] }]
  }),
  sampleFeedItem({ id: eightK, ticker, docType: "8-K", highlights: [eightKHighlight] })
]

const release = publicationId("0000999001-26-000002-ex99.1")
/**
 * Calls announced: one at 20:00 in New York on January 30 (January 31 in UTC), one in April, and one
 * in 2024 under the former ticker (its event names the company as its release did).
 */
const announcedCalls = [
  ...[
    { scheduledAt: "2026-01-31T01:00:00.000Z", period: "Q4 2025" },
    { scheduledAt: "2026-04-30T21:00:00.000Z", period: "Q1 2026" }
  ].map(({ period, scheduledAt }) =>
    upcomingCallEvent(
      { ticker, companyName: "Acme Corp", scheduledAt, period, sourcePublicationId: release },
      "2026-01-30T12:00:00.000Z"
    )
  ),
  upcomingCallEvent({
    ticker: formerTicker,
    companyName: "Acme Corp",
    scheduledAt: "2024-10-31T20:30:00.000Z",
    period: "Q3 2024",
    sourcePublicationId: null
  }, "2024-10-31T12:00:00.000Z")
]

/** Another company's documents and call, which ACME's timeline must not show. */
const otherTicker = Ids.Ticker.make("OTHR")
const otherCik = Ids.Cik.make("0000999002")
const others = [
  sampleDocument({
    publicationId: publicationId("0000999002-26-000001"),
    ticker: otherTicker,
    cik: otherCik,
    filingDate: "2026-01-30"
  }),
  // The call of a company known only by it, stored under the placeholder key.
  sampleDocument({
    publicationId: publicationId("call-trns-2026-01-15"),
    ticker: Ids.Ticker.make("TRNS"),
    cik: Ingest.UnknownCik,
    docType: "EARNINGS_CALL",
    filingDate: "2026-01-15"
  }),
  // Documents of a ticker no company record has: known to the document store only.
  sampleDocument({
    publicationId: publicationId("0000999003-26-000001"),
    ticker: Ids.Ticker.make("NOCO"),
    cik: Ids.Cik.make("0000999003"),
    filingDate: "2026-01-30"
  })
]
/** The companies: Acme's current ticker from its newest filing, both its classes and Other from the listing. */
const listing: ReadonlyArray<CompanyStore.ListedTicker> = [
  { cik, ticker, name: "Acme Corp", exchange: "NYSE" },
  { cik, ticker: secondClass, name: "Acme Corp", exchange: "NYSE" },
  { cik: otherCik, ticker: otherTicker, name: "Other Inc", exchange: "Nasdaq" }
]
const otherCall = upcomingCallEvent({
  ticker: otherTicker,
  companyName: "Other Inc",
  scheduledAt: "2026-02-02T21:00:00.000Z",
  period: "Q4 2025",
  sourcePublicationId: null
}, "2026-01-30T12:00:00.000Z")

/** Entries as `<date> <type> <publication_id>`, to compare orders at a glance. */
const label = (entry: { readonly date: string; readonly type: string; readonly publication_id: string | null }) =>
  `${entry.date} ${entry.type} ${entry.publication_id}`

const sharedDay = documents.filter((d) => d.filingDate === "2025-11-14")
  .map((d) => d.publicationId)
  .sort()
  .reverse()
  .map((id) => `2025-11-14 filing ${id}`)

/** The whole timeline, newest first; within a date, by sort id descending (event keys before accessions). */
const expectedTimeline = [
  `2026-04-30 upcoming_call ${release}`,
  "2026-03-10 filing 0000999001-26-000009",
  "2026-02-20 filing 0000999001-26-000005",
  // The call at 20:00 New York time keeps its New York date; its sort id is its event key ("earnings_call...").
  `2026-01-30 upcoming_call ${release}`,
  "2026-01-30 earnings_call call-acme-2026-01-30",
  "2026-01-30 presentation 0000999001-26-000002-ex99.2",
  "2026-01-30 press_release 0000999001-26-000002-ex99.1",
  "2026-01-30 filing 0000999001-26-000002",
  "2026-01-29 news news-00000000000000a1",
  ...sharedDay,
  "2024-11-01 filing 0000999001-24-000100",
  // 16:30 in New York, 20:30 UTC: the same date.
  "2024-10-31 upcoming_call null",
  "2023-07-27 earnings_call call-acme-2023-07-27"
]

const ingestionUnused = Layer.succeed(Ingestion, {
  ingest: () => Effect.fail(new ApiError.UnreadableFiling({ message: "not in this test" }))
})

/** The server on `storage`, listening on a free port of 127.0.0.1, with the data above stored. */
const startServer = async <E>(storage: Layer.Layer<Stores.Stores, E>) => {
  const services = Layer.mergeAll(ApiKeys.layer, AdminAccess.layer, ingestionUnused).pipe(
    Layer.provideMerge(storage),
    Layer.provideMerge(ServerConfig.layer()),
    Layer.provideMerge(Layer.merge(NodeContext.layer, FetchHttpClient.layer))
  )
  const runtime = ManagedRuntime.make(
    Server.layer({ host: "127.0.0.1", port: 0 }).pipe(
      Layer.provideMerge(services),
      // The request log of a few hundred requests says nothing a failed assertion does not.
      Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
    )
  )
  const { key, url } = await runtime.runPromise(Effect.gen(function*() {
    const documentStore = yield* DocumentStore.DocumentStore
    yield* Effect.forEach([...documents, ...others], documentStore.save)
    const companies = yield* CompanyStore.CompanyStore
    yield* companies.upsert({ cik, ticker, name: "Acme Corp", asOf: "2026-03-10" })
    yield* companies.saveListing(listing)
    const feed = yield* FeedStore.FeedStore
    yield* Effect.forEach(feedItems, feed.save)
    yield* (yield* EventStore.EventStore).record([...announcedCalls, otherCall])
    // Enterprise: the paging below makes a few hundred requests.
    const created = yield* (yield* ApiKeys.ApiKeys).create({ name: "timeline", plan: "enterprise", rateLimit: 100_000 })
    const address = (yield* HttpServer.HttpServer).address
    const url = address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : ""
    return { key: created.key, url }
  }))
  return { runtime, key, url }
}

type Running = Awaited<ReturnType<typeof startServer>>

const timelineSuite = <E>(name: string, storage: () => Layer.Layer<Stores.Stores, E>) =>
  describe(`GET /v1/companies/{ticker}/timeline on ${name}`, () => {
    let server: Running
    beforeAll(async () => {
      server = await startServer(storage())
    }, 120_000)
    afterAll(async () => {
      await server?.runtime.dispose()
    })

    const get = (path: string, key: string | null = server.key) =>
      fetch(`${server.url}${path}`, key === null ? {} : { headers: { authorization: `Bearer ${key}` } })

    const pageOf = async (query: string, path = "/v1/companies/ACME/timeline") => {
      const response = await get(`${path}${query === "" ? "" : `?${query}`}`)
      const body: unknown = await response.json()
      assert.strictEqual(response.status, 200, JSON.stringify(body))
      Schema.decodeUnknownSync(Timeline.TimelinePage)(body)
      return body as Schema.Schema.Encoded<typeof Timeline.TimelinePage>
    }

    const errorOf = async (path: string) => {
      const response = await get(path)
      const body = (await response.json()) as { error: { code: string; message: string } }
      return { status: response.status, ...body.error }
    }

    /** Every entry of a query, page by page at `limit`, following `next_cursor`. */
    const pagedThrough = async (query: string, limit: number, path?: string) => {
      const labels: Array<string> = []
      let cursor: string | null = null
      for (let requests = 0; requests < 100; requests++) {
        const cursorParam: string = cursor === null ? "" : `&cursor=${cursor}`
        const page = await pageOf(`${query}${query === "" ? "" : "&"}limit=${limit}${cursorParam}`, path)
        assert.isAtMost(page.entries.length, limit)
        labels.push(...page.entries.map(label))
        assert.strictEqual(page.has_more, page.next_cursor !== null)
        if (page.next_cursor === null) return labels
        assert.strictEqual(page.entries.length, limit, "a page followed by more is full")
        cursor = page.next_cursor
      }
      throw new Error(`paging ${query} at limit ${limit} did not end`)
    }

    it("lists the company's life newest first, each entry with its type, items and first cited highlight", async () => {
      const page = await pageOf("limit=100")
      assert.deepStrictEqual(page.entries.map(label), expectedTimeline)
      assert.strictEqual(page.ticker, "ACME")
      assert.strictEqual(page.has_more, false)
      assert.strictEqual(page.next_cursor, null)
      const byLabel = new Map(page.entries.map((entry) => [label(entry), entry]))
      assert.deepStrictEqual(byLabel.get("2026-01-30 filing 0000999001-26-000002"), {
        date: "2026-01-30",
        type: "filing",
        title: "Acme Corp 8-K Q1 2026",
        publication_id: eightK,
        doc_type: "8-K",
        items: ["Item 2.02", "Item 9.01"],
        highlight: { text: eightKHighlight.text, citations: [{ source: eightK, chunk_id: "c0002" }] }
      })
      assert.deepStrictEqual(byLabel.get("2026-01-30 press_release 0000999001-26-000002-ex99.1")?.highlight, {
        text: releaseHighlight.text,
        citations: [{ source: release, chunk_id: "c0001" }]
      })
      assert.deepStrictEqual(page.entries[0], {
        date: "2026-04-30",
        type: "upcoming_call",
        title: "Acme Corp Q1 2026 earnings call",
        publication_id: release,
        doc_type: null,
        items: [],
        highlight: null
      })
      const transcript = byLabel.get("2026-01-30 earnings_call call-acme-2026-01-30")
      assert.deepStrictEqual([transcript?.doc_type, transcript?.items, transcript?.highlight], [
        "EARNINGS_CALL",
        [],
        null
      ])
      // A lower-case ticker names the same company.
      assert.deepStrictEqual(
        (await pageOf("limit=100", "/v1/companies/acme/timeline")).entries.map(label),
        expectedTimeline
      )
    })

    it("pages by cursor at every page size exactly as the unpaged list, also across a shared date", async () => {
      for (let limit = 1; limit <= expectedTimeline.length + 1; limit++) {
        assert.deepStrictEqual(await pagedThrough("", limit), expectedTimeline, `limit ${limit}`)
      }
      const filtered = "types=filing,upcoming_call&start_date=2025-11-14&end_date=2026-02-20"
      const expectedFiltered = expectedTimeline.filter((entry) =>
        /^(2025-11-14|2026-01-\d\d|2026-02-20) (filing|upcoming_call) /.test(entry)
      )
      assert.strictEqual(expectedFiltered.length, 16)
      assert.deepStrictEqual((await pageOf(`${filtered}&limit=100`)).entries.map(label), expectedFiltered)
      for (let limit = 1; limit <= expectedFiltered.length + 1; limit++) {
        assert.deepStrictEqual(await pagedThrough(filtered, limit), expectedFiltered, `filtered, limit ${limit}`)
      }
    }, 120_000)

    it("filters by type and by inclusive dates; 50 entries by default", async () => {
      const releases = await pageOf("types=press_release,news,upcoming_call")
      assert.deepStrictEqual(releases.entries.map(label), [
        `2026-04-30 upcoming_call ${release}`,
        `2026-01-30 upcoming_call ${release}`,
        "2026-01-30 press_release 0000999001-26-000002-ex99.1",
        "2026-01-29 news news-00000000000000a1",
        "2024-10-31 upcoming_call null"
      ])
      const calls = await pageOf("types=upcoming_call&end_date=2026-01-30")
      assert.deepStrictEqual(calls.entries.map(label), [
        `2026-01-30 upcoming_call ${release}`,
        "2024-10-31 upcoming_call null"
      ])
      const day = await pageOf("start_date=2026-01-30&end_date=2026-01-30")
      assert.deepStrictEqual(day.entries.map(label), expectedTimeline.filter((entry) => entry.startsWith("2026-01-30")))
      assert.deepStrictEqual((await pageOf("start_date=2027-01-01")).entries, [], "a known company: empty, not 404")
      assert.strictEqual((await pageOf("")).entries.length, expectedTimeline.length)
    })

    it("finds the company by any of its tickers, with the documents and calls of all of them", async () => {
      for (const path of ["/v1/companies/ACMK/timeline", "/v1/companies/acmk/timeline"]) {
        const page = await pageOf("limit=100", path)
        assert.deepStrictEqual(page.entries.map(label), expectedTimeline, path)
        // The company's current ticker, as its profile names it.
        assert.strictEqual(page.ticker, "ACME", path)
      }
      const tenQ = (await pageOf("types=filing&start_date=2025-11-14&end_date=2025-11-14&limit=100")).entries
        .find((entry) => entry.publication_id === "0000999001-25-000700")
      assert.deepStrictEqual(tenQ, {
        date: "2025-11-14",
        type: "filing",
        title: "Acme Corp 10-Q Q3 2025",
        publication_id: "0000999001-25-000700",
        doc_type: "10-Q",
        items: [],
        highlight: null
      })
    })

    it(
      "pages exactly across the tickers: by the other class's ticker, and from one ticker's cursor by another's",
      async () => {
        for (let limit = 1; limit <= expectedTimeline.length + 1; limit += 2) {
          assert.deepStrictEqual(
            await pagedThrough("", limit, "/v1/companies/ACMK/timeline"),
            expectedTimeline,
            `limit ${limit}`
          )
        }
        // A cursor belongs to the company: a page read by ACME goes on by ACMK, inside the shared day too.
        for (const at of [2, 12]) {
          const first = await pageOf(`limit=${at}`)
          const rest = await pageOf(`limit=100&cursor=${first.next_cursor}`, "/v1/companies/ACMK/timeline")
          assert.deepStrictEqual([...first.entries, ...rest.entries].map(label), expectedTimeline, `after ${at}`)
        }
      },
      120_000
    )

    it("answers 404 company_not_found exactly where the company's profile does", async () => {
      for (const name of ["ACME", "ACMK", "OTHR", "ACMO", "NOCO", "ZZZZ"]) {
        const profile = await get(`/v1/companies/${name}`)
        await profile.body?.cancel()
        const timeline = await get(`/v1/companies/${name}/timeline`)
        await timeline.body?.cancel()
        assert.strictEqual(timeline.status, profile.status, name)
        assert.strictEqual(timeline.status, ["ACMO", "NOCO", "ZZZZ"].includes(name) ? 404 : 200, name)
      }
    })

    it("shows a company known only by calls stored under the placeholder key, whatever the filters", async () => {
      const page = await pageOf("", "/v1/companies/TRNS/timeline")
      assert.deepStrictEqual(page.entries.map(label), ["2026-01-15 earnings_call call-trns-2026-01-15"])
      assert.strictEqual(page.ticker, "TRNS")
      assert.deepStrictEqual((await pageOf("start_date=2026-02-01", "/v1/companies/TRNS/timeline")).entries, [])
    })

    it("answers 404 company_not_found for a ticker of which nothing is stored", async () => {
      for (const query of ["", "?types=upcoming_call", "?start_date=2020-01-01"]) {
        const error = await errorOf(`/v1/companies/ZZZZ/timeline${query}`)
        assert.deepStrictEqual(error, {
          status: 404,
          code: "company_not_found",
          message: "no company with ticker ZZZZ"
        })
      }
    })

    it("refuses bad input with 400 invalid_request naming the field, never a 500", async () => {
      const first = await pageOf("limit=2")
      const cursor = first.next_cursor!
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["/v1/companies/ACME/timeline?types=filings", "types"],
        ["/v1/companies/ACME/timeline?types=", "types"],
        ["/v1/companies/ACME/timeline?start_date=2026-02-30", "start_date"],
        ["/v1/companies/ACME/timeline?end_date=yesterday", "end_date"],
        ["/v1/companies/ACME/timeline?start_date=2026-02-01&end_date=2026-01-01", "start_date"],
        ["/v1/companies/ACME/timeline?limit=0", "limit"],
        ["/v1/companies/ACME/timeline?limit=101", "limit"],
        ["/v1/companies/ACME/timeline?limit=ten", "limit"],
        ["/v1/companies/ACME/timeline?cursor=not-a-cursor", "cursor"],
        [`/v1/companies/ACME/timeline?cursor=${cursor}x`, "cursor"],
        [`/v1/companies/ACME/timeline?cursor=${"A".repeat(400)}`, "cursor"],
        // A cursor is bound to its company and filters.
        [`/v1/companies/ACME/timeline?types=filing&cursor=${cursor}`, "cursor"],
        [`/v1/companies/OTHR/timeline?cursor=${cursor}`, "cursor"],
        ["/v1/companies/AC%20ME/timeline", "ticker"],
        ["/v1/companies/toolongtickername/timeline", "ticker"]
      ]
      for (const [path, field] of cases) {
        const error = await errorOf(path)
        assert.strictEqual(error.status, 400, path)
        assert.strictEqual(error.code, "invalid_request", path)
        assert.include(error.message, field, path)
      }
      // A cursor of the right form that the server did not write for this request.
      const forged = Buffer.from(JSON.stringify({ d: "2026-01-30", id: "\u00e9", f: "x" })).toString("base64url")
      assert.strictEqual((await errorOf(`/v1/companies/ACME/timeline?cursor=${forged}`)).status, 400)
      // The same cursor with the limit changed goes on where the page ended.
      const rest = await pageOf(`limit=100&cursor=${cursor}`)
      assert.deepStrictEqual(rest.entries.map(label), expectedTimeline.slice(2))
    })

    it("needs an API key", async () => {
      const response = await get("/v1/companies/ACME/timeline", null)
      assert.strictEqual(response.status, 401)
      assert.strictEqual(((await response.json()) as { error: { code: string } }).error.code, "unauthorized")
    })

    it("is in the OpenAPI document and in the typed client", async () => {
      const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
        paths: Record<string, { get?: { parameters?: ReadonlyArray<{ name: string }> } }>
      }
      const operation = document.paths["/v1/companies/{ticker}/timeline"]?.get
      assert.deepStrictEqual(operation?.parameters?.map((parameter) => parameter.name).sort(), [
        "cursor",
        "end_date",
        "limit",
        "start_date",
        "ticker",
        "types"
      ])
      const page = await Effect.gen(function*() {
        const client = yield* HttpApiClient.make(Api.FilingsApi, {
          baseUrl: server.url,
          transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(server.key))
        })
        return yield* client.timeline.getTimeline({ path: { ticker }, urlParams: { types: ["filing"], limit: 2 } })
      }).pipe(Effect.provide(FetchHttpClient.layer), Effect.runPromise)
      assert.deepStrictEqual(page.entries.map((entry) => entry.publicationId), [
        "0000999001-26-000009",
        "0000999001-26-000005"
      ])
      assert.isTrue(page.hasMore)
      // The client writes the query's camelCase fields under the URL's names (end_date).
      const older = await Effect.gen(function*() {
        const client = yield* HttpApiClient.make(Api.FilingsApi, {
          baseUrl: server.url,
          transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(server.key))
        })
        return yield* client.timeline.getTimeline({
          path: { ticker },
          urlParams: { types: ["filing"], endDate: "2026-02-20", limit: 2 }
        })
      }).pipe(Effect.provide(FetchHttpClient.layer), Effect.runPromise)
      assert.deepStrictEqual(older.entries.map((entry) => [entry.publicationId, entry.docType]), [
        ["0000999001-26-000005", "10-K"],
        ["0000999001-26-000002", "8-K"]
      ])
      const unknown = await Effect.gen(function*() {
        const client = yield* HttpApiClient.make(Api.FilingsApi, {
          baseUrl: server.url,
          transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(server.key))
        })
        return yield* Effect.flip(
          client.timeline.getTimeline({ path: { ticker: Ids.Ticker.make("ZZZZ") }, urlParams: {} })
        )
      }).pipe(Effect.provide(FetchHttpClient.layer), Effect.runPromise)
      // The client decodes the envelope back into the error class the server failed with.
      assert.instanceOf(unknown, ApiError.CompanyNotFound)
    })
  })

timelineSuite("PGlite", () => SqlStorage.layer.pipe(Layer.provideMerge(TestDatabase.layerPglite())))

if (adminUrl === undefined) {
  describe.skip(`GET /v1/companies/{ticker}/timeline on PostgreSQL (set ${adminUrlVariable} to run it)`, () => {})
} else {
  const admin = Redacted.make(adminUrl)
  timelineSuite("PostgreSQL", () => SqlStorage.layer.pipe(Layer.provideMerge(TestDatabase.layerPostgres(admin))))
}
