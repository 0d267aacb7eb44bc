/**
 * `POST /v1/feed` and the chunks its citations name, end to end: 8-Ks stored with the CLI become
 * feed items (the 8-K and its press release), read back newest first, filtered, and paged by the
 * oldest item's timestamp without a repeat or a loss, even where items share one instant. Every
 * citation resolves through `GET /v1/documents/{id}/chunks/{chunk_id}` to a passage stating the
 * highlight's figures.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Feed } from "@filings/domain"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { corpusDir, corpusMissing } from "./support/corpus.js"
import { cli, createKey, type RunningServer, startServer, temporaryDataDir } from "./support/filings.js"
import { errorOf, jsonOf } from "./support/http.js"
import { ingestEightK } from "./support/syntheticEightK.js"

let files: string
let storage: Awaited<ReturnType<typeof temporaryDataDir>>
let server: RunningServer
let key: string

const filings = [
  { ticker: "ACMF", accession: "0000999201-26-000001", filedAsOf: "2026-11-02" },
  { ticker: "ACMF", accession: "0000999201-26-000002", filedAsOf: "2026-11-03" },
  { ticker: "ACMF", accession: "0000999201-26-000003", filedAsOf: "2026-11-04" },
  { ticker: "ACMG", accession: "0000999202-26-000001", filedAsOf: "2026-11-03", presentation: true }
]

/**
 * Daily closes of ACMF (none of ACMG): the filings, dated at midnight UTC, come out after the
 * previous day's close in New York, so each is met by the next session: Nov 2 up 2.5 %, Nov 3
 * down 1 %, Nov 4 unchanged.
 */
const closes = [
  "ticker,date,close",
  "ACMF,2026-10-29,99.00",
  "ACMF,2026-10-30,100.00",
  "ACMF,2026-11-02,102.50",
  "ACMF,2026-11-03,101.475",
  "ACMF,2026-11-04,101.475"
].join("\n")

beforeAll(async () => {
  files = await mkdtemp(join(tmpdir(), "filings-feed-"))
  const closesFile = join(files, "closes.csv")
  await writeFile(closesFile, closes)
  const env = { FILINGS_MARKET_DATA_CSV: closesFile }
  storage = await temporaryDataDir()
  server = await startServer(storage, env)
  key = await createKey(storage, { rateLimit: 10_000 })
  for (const filing of filings) {
    await ingestEightK(storage, files, {
      ...filing,
      cik: filing.accession.slice(0, 10),
      companyName: `${filing.ticker} CORP`,
      items: ["2.02", "9.01"]
    }, env)
  }
}, 180_000)

afterAll(async () => {
  await server?.stop()
  await storage?.remove()
  await rm(files, { recursive: true, force: true })
})

const post = (body: unknown, token: string | null = key) =>
  fetch(`${server.url}/v1/feed`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body)
  })

const feedOf = async (body: unknown) => {
  const response = await post(body)
  assert.strictEqual(response.status, 200)
  return jsonOf(Feed.FeedResponse, response)
}

const get = (path: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } })

/** An item as `<date> <doc_type>`, to compare orders at a glance. */
const label = (item: { readonly date: string; readonly doc_type: string }) =>
  `${item.date.slice(0, 10)} ${item.doc_type}`

describe("POST /v1/feed", () => {
  it("returns the tickers' items newest first: each 8-K and its press release, summarised and cited", async () => {
    const feed = await feedOf({ tickers: ["ACMF"] })
    // An 8-K and its release share their instant; the tie goes by id, descending (the release's is longer).
    assert.deepStrictEqual(feed.items.map(label), [
      "2026-11-04 PRESS_RELEASE",
      "2026-11-04 8-K",
      "2026-11-03 PRESS_RELEASE",
      "2026-11-03 8-K",
      "2026-11-02 PRESS_RELEASE",
      "2026-11-02 8-K"
    ])
    assert.strictEqual(feed.total_items, 6)
    assert.deepStrictEqual(feed.date_range, { start: "2026-11-02", end: "2026-11-04" })
    for (const item of feed.items) {
      assert.strictEqual(item.ticker, "ACMF")
      assert.strictEqual(item.company_name, "ACMF CORP")
      assert.strictEqual(item.model, "extractive")
      assert.include(item.categories, "Earnings", `${label(item)}: Item 2.02 reports results`)
    }
    // The move of the session that met each filing, from the operator's file of daily closes.
    assert.deepStrictEqual(
      feed.items.map((item) => [label(item), item.stock_change]),
      [
        ["2026-11-04 PRESS_RELEASE", { percentage: 0, direction: "flat" }],
        ["2026-11-04 8-K", { percentage: 0, direction: "flat" }],
        ["2026-11-03 PRESS_RELEASE", { percentage: 1, direction: "down" }],
        ["2026-11-03 8-K", { percentage: 1, direction: "down" }],
        ["2026-11-02 PRESS_RELEASE", { percentage: 2.5, direction: "up" }],
        ["2026-11-02 8-K", { percentage: 2.5, direction: "up" }]
      ]
    )
    const acmg = await feedOf({ tickers: ["ACMG"] })
    assert.isTrue(acmg.items.every((item) => item.stock_change === null), "no closes are known for ACMG")
    const release = feed.items.find((item) => item.doc_type === "PRESS_RELEASE")!
    assert.deepStrictEqual(release.highlights.map((highlight) => highlight.text), [
      "ACMF CORP today reported revenue of $48.2 million and signed a five-year supply agreement."
    ])
  })

  it("every citation resolves to a chunk of its document that states the highlight's figures", async () => {
    const feed = await feedOf({ tickers: ["ACMF", "ACMG"] })
    let citations = 0
    for (const item of feed.items) {
      for (const highlight of item.highlights) {
        for (const citation of highlight.citations) {
          const response = await get(`/v1/documents/${citation.source}/chunks/${citation.chunk_id}`)
          assert.strictEqual(response.status, 200, `${citation.source}/${citation.chunk_id}`)
          const chunk = await jsonOf(Feed.DocumentChunk, response)
          assert.deepStrictEqual([chunk.publication_id, chunk.chunk_id], [citation.source, citation.chunk_id])
          for (const figure of highlight.text.match(/\d[\d,]*(?:\.\d+)?/g) ?? []) {
            assert.include(chunk.text, figure, `${figure} of "${highlight.text}" in ${citation.chunk_id}`)
          }
          citations++
        }
      }
    }
    assert.isAtLeast(citations, 4)
  })

  it("gives an investor presentation filed as EX-99.2 its own item, summarised from its slides", async () => {
    const decks = await feedOf({ tickers: ["ACMF", "ACMG"], doc_types: ["PRESENTATION"] })
    assert.deepStrictEqual(decks.items.map((item) => `${item.ticker} ${label(item)}`), ["ACMG 2026-11-03 PRESENTATION"])
    const [deck] = decks.items
    assert.strictEqual(deck!.title, "ACMG CORP Third Quarter Investor Presentation")
    assert.deepStrictEqual(deck!.categories, ["Earnings", "Guidance Update"])
    assert.deepStrictEqual(deck!.highlights.map((highlight) => highlight.text), [
      "We raise our full-year revenue guidance to $190 million to $195 million.",
      "Revenue grew 11% year over year to $48.2 million, and gross margin expanded 150 basis points to 41.5%."
    ])
    assert.strictEqual(deck!.highlights[0]!.citations[0]!.source, "0000999202-26-000001-ex99.2")
    const stored = await get("/v1/documents/0000999202-26-000001-ex99.2?format=metadata")
    assert.strictEqual(((await stored.json()) as { doc_type: string }).doc_type, "PRESENTATION")
  })

  it("filters by document type and by inclusive dates", async () => {
    const releases = await feedOf({ tickers: ["ACMF", "ACMG"], doc_types: ["PRESS_RELEASE"] })
    assert.deepStrictEqual(releases.items.map((item) => `${item.ticker} ${label(item)}`), [
      "ACMF 2026-11-04 PRESS_RELEASE",
      "ACMG 2026-11-03 PRESS_RELEASE",
      "ACMF 2026-11-03 PRESS_RELEASE",
      "ACMF 2026-11-02 PRESS_RELEASE"
    ])
    const window = await feedOf({ tickers: ["ACMF"], start_date: "2026-11-03", end_date: "2026-11-03" })
    assert.deepStrictEqual(window.items.map(label), ["2026-11-03 PRESS_RELEASE", "2026-11-03 8-K"])
    assert.deepStrictEqual(window.date_range, { start: "2026-11-03", end: "2026-11-03" })
    const none = await feedOf({ tickers: ["ACMF"], start_date: "2025-01-01", end_date: "2025-01-31" })
    assert.deepStrictEqual([none.items, none.total_items, none.date_range], [
      [],
      0,
      { start: "2025-01-01", end: "2025-01-31" }
    ])
  })

  it("pages by the oldest item's timestamp without a repeat or a loss where items share an instant", async () => {
    // Each 8-K and its release share one instant. A page of 3 would split a pair: it stops before it.
    // A page of 1 cannot hold a pair: the pair comes whole, since a timestamp cannot point inside it.
    const all = (await feedOf({ tickers: ["ACMF"] })).items.map(label)
    for (const [limit, sizes] of [[3, [2, 2, 2]], [1, [2, 2, 2]], [2, [2, 2, 2]], [5, [4, 2]]] as const) {
      const seen: Array<string> = []
      const pageSizes: Array<number> = []
      const hasMore: Array<boolean> = []
      let endDate: string | undefined
      for (let page = 0; page < 10; page++) {
        const feed = await feedOf({ tickers: ["ACMF"], limit, ...(endDate === undefined ? {} : { end_date: endDate }) })
        if (feed.items.length === 0) break
        pageSizes.push(feed.items.length)
        hasMore.push(feed.has_more)
        seen.push(...feed.items.map(label))
        endDate = feed.items[feed.items.length - 1]!.date
      }
      assert.deepStrictEqual([pageSizes, hasMore], [sizes, sizes.map((_, n) => n < sizes.length - 1)], `limit ${limit}`)
      assert.deepStrictEqual(seen, all, `limit ${limit}`)
    }
  })

  it("pages by cursor at any page size, also inside the items of one instant, and says when it is done", async () => {
    const all = (await feedOf({ tickers: ["ACMF"] })).items.map(label)
    for (const limit of [1, 2, 4, 6]) {
      const pages: Array<Array<string>> = []
      let cursor: string | null = null
      for (let page = 0; page < 10; page++) {
        const feed: Awaited<ReturnType<typeof feedOf>> = await feedOf({
          tickers: ["ACMF"],
          limit,
          ...(cursor === null ? {} : { cursor })
        })
        pages.push(feed.items.map(label))
        assert.strictEqual(feed.next_cursor === null, !feed.has_more)
        cursor = feed.next_cursor
        if (!feed.has_more) break
      }
      // After the first page, which holds whole instants, pages are full: 4 + 2 for pairs paged by 4.
      assert.deepStrictEqual(
        pages.map((page) => page.length),
        limit === 1 ? [2, 1, 1, 1, 1] : limit === 4 ? [4, 2] : [
          ...Array(Math.ceil(6 / limit) - 1).fill(limit),
          6 - limit * (Math.ceil(6 / limit) - 1)
        ]
      )
      assert.deepStrictEqual(pages.flat(), all, `limit ${limit}`)
    }
    // The first page of one: the pair of Nov 4 whole; the next, by cursor, goes on one by one.
    const first = await feedOf({ tickers: ["ACMF"], limit: 1 })
    const second = await feedOf({ tickers: ["ACMF"], limit: 1, cursor: first.next_cursor })
    assert.deepStrictEqual(second.items.map(label), ["2026-11-03 PRESS_RELEASE"])
    const third = await feedOf({ tickers: ["ACMF"], limit: 1, cursor: second.next_cursor })
    assert.deepStrictEqual(third.items.map(label), ["2026-11-03 8-K"])
    // A cursor goes on whatever the limit, and with the tickers in another order.
    const both = await feedOf({ tickers: ["ACMF", "ACMG"], limit: 2 })
    const rest = await feedOf({ tickers: ["ACMG", "acmf", "ACMG"], limit: 50, cursor: both.next_cursor })
    assert.deepStrictEqual(
      [...both.items, ...rest.items].map(label),
      (await feedOf({ tickers: ["ACMF", "ACMG"] })).items.map(label)
    )
    assert.deepStrictEqual([rest.has_more, rest.next_cursor], [false, null])
  })

  it("pages by the oldest item's date alone without a loss, and never gives the same page twice", async () => {
    // A date is inclusive: the page answered to it holds that whole day and at least the next older
    // instant, so the dates go down and the client ends where has_more is false.
    const pages: Array<Array<string>> = []
    let endDate: string | undefined
    for (let page = 0; page < 10; page++) {
      const feed = await feedOf({
        tickers: ["ACMF"],
        limit: 1,
        ...(endDate === undefined ? {} : { end_date: endDate })
      })
      pages.push(feed.items.map(label))
      if (!feed.has_more) break
      endDate = feed.items[feed.items.length - 1]!.date.slice(0, 10)
    }
    assert.deepStrictEqual(pages, [
      ["2026-11-04 PRESS_RELEASE", "2026-11-04 8-K"],
      ["2026-11-04 PRESS_RELEASE", "2026-11-04 8-K", "2026-11-03 PRESS_RELEASE", "2026-11-03 8-K"],
      ["2026-11-03 PRESS_RELEASE", "2026-11-03 8-K", "2026-11-02 PRESS_RELEASE", "2026-11-02 8-K"]
    ])
  })

  it("refuses a cursor it did not write, or one sent with other filters, naming cursor", async () => {
    const page = await feedOf({ tickers: ["ACMF"], limit: 2 })
    assert.isString(page.next_cursor)
    const cursor = page.next_cursor!
    for (const garbled of ["not a cursor", "e30", `${cursor}x`, cursor.slice(1), "x".repeat(500)]) {
      const response = await post({ tickers: ["ACMF"], limit: 2, cursor: garbled })
      assert.strictEqual(response.status, 400, garbled)
      const error = await errorOf(response)
      assert.strictEqual(error.code, "invalid_request")
      assert.match(error.message, /cursor/, garbled)
    }
    for (
      const other of [
        { tickers: ["ACMG"] },
        { tickers: ["ACMF", "ACMG"] },
        { tickers: ["ACMF"], doc_types: ["8-K"] },
        { tickers: ["ACMF"], end_date: "2026-11-04" },
        { tickers: ["ACMF"], start_date: "2026-11-01" }
      ]
    ) {
      const response = await post({ ...other, limit: 2, cursor })
      assert.strictEqual(response.status, 400, JSON.stringify(other))
      assert.deepStrictEqual(await errorOf(response), {
        code: "invalid_request",
        message: "cursor belongs to a request with other tickers, doc_types, start_date or end_date: send it with " +
          "the filters of the request that returned it, or leave cursor out to start from the newest item"
      })
    }
  })

  it("refuses a start after the end, and a request without a key", async () => {
    const backwards = await post({ tickers: ["ACMF"], start_date: "2026-11-05", end_date: "2026-11-01" })
    assert.strictEqual(backwards.status, 400)
    assert.match((await errorOf(backwards)).message, /start_date 2026-11-05 is after end_date 2026-11-01/)
    assert.strictEqual((await post({ tickers: ["ACMF"] }, null)).status, 401)
  })
})

describe("GET /v1/documents/{publication_id}/chunks/{chunk_id}", () => {
  it("answers a chunk with its section, and 404 for an unknown document or chunk", async () => {
    const chunk = await jsonOf(Feed.DocumentChunk, await get("/v1/documents/0000999201-26-000001-ex99.1/chunks/c0001"))
    assert.include(chunk.text, "revenue of $48.2 million")
    const unknownDocument = await get("/v1/documents/0000999299-26-000001/chunks/c0001")
    assert.strictEqual(unknownDocument.status, 404)
    assert.strictEqual((await errorOf(unknownDocument)).code, "document_not_found")
    const unknownChunk = await get("/v1/documents/0000999201-26-000001/chunks/c9999")
    assert.strictEqual(unknownChunk.status, 404)
    const error = await errorOf(unknownChunk)
    assert.deepStrictEqual(error, {
      code: "chunk_not_found",
      message: "document 0000999201-26-000001 has no chunk c9999"
    })
  })
})

describe("filings summarize", () => {
  it("prints a local document's feed item with the text of every cited chunk, storing nothing", async () => {
    const file = join(files, "acmf-release.htm")
    await writeFile(
      file,
      [
        "<html><body><p><b>ACMF Corp Reports Third Quarter Results</b></p>",
        "<p>ACMF Corp today reported third quarter revenue of $48.2 million, up 12% from $43.0 million a year ago.</p>",
        "<p>Diluted earnings per share were $0.42, compared with $0.35 in the prior-year quarter.</p>",
        "<p>The company raises its full-year outlook and now expects revenue of $190 million to $195 million.</p>",
        "</body></html>"
      ].join("\n")
    )
    const result = await cli(storage, ["summarize", file, "--type", "PRESS_RELEASE", "--ticker", "ACMF", "--json"])
    assert.strictEqual(result.exitCode, 0, result.stderr)
    const item = JSON.parse(result.stdout) as {
      ticker: string
      doc_type: string
      categories: Array<string>
      model: string
      highlights: Array<{ text: string; citations: Array<{ source: string; chunk_id: string; text: string }> }>
    }
    assert.deepStrictEqual([item.ticker, item.doc_type, item.model], ["ACMF", "PRESS_RELEASE", "extractive"])
    assert.deepStrictEqual(item.categories, ["Earnings", "Guidance Update"])
    assert.lengthOf(item.highlights, 3)
    for (const highlight of item.highlights) {
      for (const citation of highlight.citations) {
        assert.strictEqual(citation.source, "acmf-release.htm")
        for (const figure of highlight.text.match(/\d[\d,]*(?:\.\d+)?/g) ?? []) assert.include(citation.text, figure)
      }
    }
  })

  it("refuses a type the feed does not carry, naming the ones it does", async () => {
    const file = join(files, "s1.htm")
    await writeFile(file, "<html><body><p>Prospectus. The offering of 5,000,000 shares.</p></body></html>")
    const result = await cli(storage, ["summarize", file, "--type", "S-1"])
    assert.strictEqual(result.exitCode, 1)
    const unknownType = await cli(storage, ["summarize", file])
    assert.strictEqual(unknownType.exitCode, 1)
    assert.match(unknownType.stderr, /does not say its type; give --type 10-K\|10-Q\|8-K\|EARNINGS_CALL/)
  })
})

describe.skipIf(corpusMissing)("the feed over real documents of the corpus", () => {
  it(
    "gives Apple's 10-K, 10-Q, 8-K and call, and Adobe's 8-K and press release, each citing its own chunks",
    async () => {
      const corpusStorage = await temporaryDataDir()
      const corpusServer = await startServer(corpusStorage)
      try {
        const corpusKey = await createKey(corpusStorage, { rateLimit: 10_000 })
        const ingest = async (file: string, ...flags: Array<string>) => {
          const result = await cli(corpusStorage, ["ingest", join(corpusDir, file), ...flags])
          assert.strictEqual(result.exitCode, 0, result.stderr)
        }
        await ingest("10-K/aapl-10k-fy2024.htm", "--accession", "0000320193-24-000123", "--filing-date", "2024-11-01")
        await ingest(
          "10-Q/aapl-10q-2023-07-01.htm",
          "--accession",
          "0000320193-23-000077",
          "--filing-date",
          "2023-08-04"
        )
        await ingest("8-K/aapl-8k-2019-11-15-full-submission.txt")
        await ingest(
          "transcripts/aapl-q1-fy2022-earnings-call-prepared-and-qa.json",
          "--type",
          "EARNINGS_CALL",
          "--ticker",
          "AAPL",
          "--cik",
          "0000320193",
          "--company-name",
          "Apple Inc.",
          "--filing-date",
          "2022-01-27"
        )
        await ingest("8-K/adbe-8k-2023-03-15-full-submission.txt", "--ticker", "ADBE")

        const response = await fetch(`${corpusServer.url}/v1/feed`, {
          method: "POST",
          headers: { authorization: `Bearer ${corpusKey}`, "content-type": "application/json" },
          body: JSON.stringify({ tickers: ["AAPL", "ADBE"] })
        })
        const feed = await jsonOf(Feed.FeedResponse, response)
        assert.deepStrictEqual(feed.items.map((item) => `${item.ticker} ${item.doc_type} ${item.date.slice(0, 10)}`), [
          "AAPL 10-K 2024-11-01",
          "AAPL 10-Q 2023-08-04",
          "ADBE PRESS_RELEASE 2023-03-15",
          "ADBE 8-K 2023-03-15",
          "AAPL EARNINGS_CALL 2022-01-27",
          "AAPL 8-K 2019-11-15"
        ])
        const byType = new Map(feed.items.map((item) => [`${item.ticker} ${item.doc_type}`, item]))
        assert.deepStrictEqual(byType.get("AAPL 8-K")?.categories, ["Financial"])
        assert.deepStrictEqual(byType.get("ADBE 8-K")?.categories, ["Earnings"])
        assert.include(byType.get("ADBE PRESS_RELEASE")?.categories ?? [], "Earnings")
        assert.include(byType.get("AAPL EARNINGS_CALL")?.categories ?? [], "Earnings")
        for (const item of feed.items) {
          assert.isAbove(item.highlights.length, 0, `${item.ticker} ${item.doc_type} has highlights`)
          for (const highlight of item.highlights) {
            for (const citation of highlight.citations) {
              const chunk = await jsonOf(
                Feed.DocumentChunk,
                await fetch(`${corpusServer.url}/v1/documents/${citation.source}/chunks/${citation.chunk_id}`, {
                  headers: { authorization: `Bearer ${corpusKey}` }
                })
              )
              const stated = chunk.text.replace(/,(?=\d{3})/g, "")
              for (const figure of highlight.text.replace(/,(?=\d{3})/g, "").match(/\d+(?:\.\d+)?/g) ?? []) {
                assert.include(
                  stated,
                  figure,
                  `${figure} of "${highlight.text}" in ${citation.source}/${citation.chunk_id}`
                )
              }
            }
          }
        }
      } finally {
        await corpusServer.stop()
        await corpusStorage.remove()
      }
    },
    180_000
  )
})
