/**
 * Search over real HTTP and from the CLI: real filings of the corpus (a 10-K printed to PDF, an
 * HTML 10-K, an 8-K submission) ingested with `filings ingest`, searched with `GET /v1/search` and
 * `filings search`, every citation read back through the chunk route, and bad queries answered
 * with a 400 in the envelope, never a 500.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Feed, Search } from "@filings/domain"
import { Schema } from "effect"
import { join } from "node:path"
import { corpusDir, corpusMissing } from "./support/corpus.js"
import { cli, cliJson, createKey, type RunningServer, startServer, temporaryDataDir } from "./support/filings.js"
import { errorOf, jsonOf } from "./support/http.js"

const mmm = "0001558370-19-000470"
const apple = "0000320193-24-000123"

describe.skipIf(corpusMissing)("search over real filings", () => {
  let dataDir: string
  let removeDataDir: () => Promise<void>
  let server: RunningServer
  let key: string
  let directSearch: Search.SearchResults

  const get = (path: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } })
  const search = async (query: string) => {
    const response = await get(`/v1/search?${query}`)
    assert.strictEqual(response.status, 200, query)
    return jsonOf(Search.SearchResults, response)
  }
  const refused = async (query: string, message: RegExp) => {
    const response = await get(`/v1/search?${query}`)
    assert.strictEqual(response.status, 400, query)
    const error = await errorOf(response)
    assert.strictEqual(error.code, "invalid_request")
    assert.match(error.message, message)
  }

  beforeAll(async () => {
    ;({ dataDir, remove: removeDataDir } = await temporaryDataDir())
    const storage = { dataDir }
    key = await createKey(storage, { name: "search", rateLimit: 100_000 })
    // The first filing is stored and searched on the database directly, before any server runs ...
    await cliJson(storage, [
      "ingest",
      join(corpusDir, "pdf/mmm-10k-fy2018.pdf"),
      "--ticker",
      "MMM",
      "--cik",
      "66740",
      "--company-name",
      "3M Company",
      "--type",
      "10-K",
      "--accession",
      mmm,
      "--filing-date",
      "2019-02-07"
    ])
    directSearch = Schema.decodeUnknownSync(Search.SearchResults)(
      await cliJson(storage, ["search", "$1,577", "--tickers", "MMM", "--limit", "3"])
    )
    // ... the others through the running server, as an operator would.
    server = await startServer(storage)
    await cliJson(storage, [
      "ingest",
      join(corpusDir, "10-K/aapl-10k-fy2024.htm"),
      "--accession",
      apple,
      "--filing-date",
      "2024-11-01"
    ])
    await cliJson(storage, ["ingest", join(corpusDir, "8-K/adbe-8k-2023-03-15-full-submission.txt")])
  }, 300_000)

  afterAll(async () => {
    await server?.stop()
    await removeDataDir?.()
  })

  it("filings search on the database finds a figure as printed, its commas and sign aside", () => {
    assert.isAbove(directSearch.total, 0)
    const first = directSearch.results[0]!
    assert.strictEqual(first.publicationId, mmm)
    assert.include(first.snippet, "**1,577**")
    assert.isAtLeast(first.pageStart, 1)
  })

  it("filings search through the running server answers as the API does", async () => {
    const viaServer = await cli({ dataDir }, ["search", "net sales by category", "--tickers", "AAPL", "--limit", "2"])
    assert.strictEqual(viaServer.exitCode, 0, viaServer.stderr)
    assert.match(viaServer.stdout, /^1\. AAPL · 10-K · FY 2024 · 2024-11-01 · pp?\. \d+/m)
    assert.match(viaServer.stdout, /0000320193-24-000123\/c\d{4}/)
    const api = await search("q=net%20sales%20by%20category&tickers=AAPL&limit=2")
    assert.include(viaServer.stdout, `${api.results[0]!.publication_id}/${api.results[0]!.chunk_id}`)
  })

  it("every result's citation resolves to the chunk it names, with the same pages and section", async () => {
    const page = await search("q=capital%20expenditures&limit=20")
    assert.isTrue(page.results.some((result) => /\*\*capital\*\* \*\*expenditures?\*\*/i.test(result.snippet)))
    assert.isAbove(page.results.length, 5)
    assert.includeMembers([...new Set(page.results.map((result) => result.ticker))], ["AAPL", "MMM"])
    for (const result of page.results) {
      const response = await get(`/v1/documents/${result.publication_id}/chunks/${result.chunk_id}`)
      assert.strictEqual(response.status, 200)
      const chunk = await jsonOf(Feed.DocumentChunk, response)
      assert.deepStrictEqual(
        [chunk.section, chunk.page_start, chunk.page_end],
        [result.section, result.page_start, result.page_end]
      )
      assert.isAtLeast(result.page_end, result.page_start)
      // The words matched are marked: the query's own, or a synonym's (Purchases of property, plant ...).
      assert.match(result.snippet, /\*\*[^*]+\*\*/)
    }
    const scores = page.results.map((result) => result.score)
    assert.deepStrictEqual(scores, [...scores].sort((a, b) => b - a))
  })

  it("stems and derives: acquired also finds acquisition, which the word alone in quotes does not", async () => {
    const derived = await search("q=acquired&tickers=MMM&limit=100")
    const exact = await search("q=%22acquired%22&tickers=MMM&limit=100")
    assert.isAbove(exact.total, 0)
    assert.isAbove(derived.total, exact.total)
    assert.isTrue(derived.results.some((result) => /\*\*acquisitions?\*\*/i.test(result.snippet)))
    // The PDF's physical pages: 3M's 10-K has fewer than 200.
    assert.isTrue(derived.results.every((result) => result.page_start >= 1 && result.page_end <= 200))
  })

  it("filters by ticker, form, date and section", async () => {
    const eightK = await search("q=revenue&doc_types=8-K")
    assert.isAbove(eightK.total, 0)
    assert.isTrue(eightK.results.every((result) => result.doc_type === "8-K" && result.ticker === "ADBE"))
    const dated = await search("q=revenue&start_date=2024-01-01&end_date=2024-12-31")
    assert.isTrue(dated.results.every((result) => result.filing_date.startsWith("2024")))
    const risks = await search("q=competition&tickers=AAPL&section=Risk%20Factors")
    assert.isAbove(risks.total, 0)
    assert.isTrue(risks.results.every((result) => result.section === "Item 1A. Risk Factors"))
    const byItem = await search("q=competition&tickers=AAPL&section=1A")
    assert.strictEqual(byItem.total, risks.total)
  })

  it("pages exactly: limit and offset walk every result once", async () => {
    const all = await search("q=products%20services&tickers=AAPL&limit=100")
    assert.isAbove(all.total, 12)
    const keys = all.results.map((result) => `${result.publication_id}/${result.chunk_id}`)
    const walked: Array<string> = []
    for (let offset = 0; offset < Math.min(all.total, 100); offset += 7) {
      const page = await search(`q=products%20services&tickers=AAPL&limit=7&offset=${offset}`)
      assert.strictEqual(page.total, all.total)
      walked.push(...page.results.map((result) => `${result.publication_id}/${result.chunk_id}`))
    }
    assert.deepStrictEqual(walked, keys)
  })

  it("a quoted phrase must be held and an excluded word must not", async () => {
    const phrase = await search("q=%22iPhone%20net%20sales%22&tickers=AAPL&limit=50")
    assert.isAbove(phrase.total, 0)
    const excluded = await search("q=%22iPhone%20net%20sales%22%20-Mac&tickers=AAPL&limit=50")
    assert.isBelow(excluded.total, phrase.total)
    assert.isTrue(excluded.results.every((result) => !/\bMac\b/.test(result.snippet)))
  })

  it("bad queries get a 400 in the envelope, or a sensible answer; never a 500", async () => {
    await refused("tickers=AAPL", /q/)
    await refused("q=", /no word/)
    await refused("q=%20%20", /no word/)
    await refused(`q=${"revenue%20".repeat(1_200)}`, /at most 2000 characters/)
    await refused("q=OR%20-", /no word|only excludes/)
    await refused("q=-revenue", /only excludes/)
    await refused("q=the%20what%20of", /no word/)
    await refused("q=revenue&limit=0", /limit/)
    await refused("q=revenue&limit=101", /limit/)
    await refused("q=revenue&start_date=2024-02-01&end_date=2024-01-01", /start_date/)
    await refused("q=revenue&doc_types=10-K&section=Nonsense", /section/)
    // Without doc_types a section name may be any document's own heading: nothing holds this one.
    assert.strictEqual((await search("q=revenue&section=Nonsense")).total, 0)
    for (
      const odd of [
        "%22unbalanced%20quote",
        "revenue'%3B%20DROP%20TABLE%20documents%3B%20--",
        "a%20%26%20b%20%7C%20!c%20%3C-%3E%20d%3A*",
        "%5C%5C%27%27",
        "(revenue)%20OR%20OR%20OR",
        "%F0%9F%93%88%20growth"
      ]
    ) {
      const response = await get(`/v1/search?q=${odd}`)
      assert.oneOf(response.status, [200, 400], odd)
      if (response.status === 400) assert.strictEqual((await errorOf(response)).code, "invalid_request")
    }
    const stillThere = await search("q=revenue&tickers=ADBE")
    assert.isAbove(stillThere.total, 0)
  })

  it("the OpenAPI document describes GET /v1/search and the chunk route's pages", async () => {
    const openApi = await (await fetch(`${server.url}/openapi.json`)).json() as {
      paths: Record<string, unknown>
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> }
    }
    assert.property(openApi.paths, "/v1/search")
    assert.notProperty(openApi.paths, "/admin/search")
    assert.includeMembers(Object.keys(openApi.components.schemas["SearchResult"]?.properties ?? {}), [
      "publication_id",
      "chunk_id",
      "page_start",
      "page_end",
      "score",
      "snippet"
    ])
    assert.includeMembers(Object.keys(openApi.components.schemas["DocumentChunk"]?.properties ?? {}), [
      "page_start",
      "page_end"
    ])
  })
})
