/**
 * A company with several listed classes of shares, over real HTTP: every ticker its filing's cover
 * lists is an alias of the company. A filing ingested with `--ticker` of its second class is
 * accepted and stored under the primary ticker (the cover's first); the company's profile and
 * timeline answer by either ticker with the primary one; a `tickers` filter naming the second
 * class finds the documents and feed items stored under the first. The fixture is a small
 * synthetic inline XBRL 10-Q whose cover lists two classes, as Alphabet's does.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Company, Document, Feed, Timeline } from "@filings/domain"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { cli, createKey, type RunningServer, startServer, temporaryDataDir } from "./support/filings.js"
import { jsonOf } from "./support/http.js"

const accession = "0009990001-23-000070"

/** A 10-Q whose cover lists Class A (TWCA, first) and Class C (TWCC), each with its trading symbol. */
const twoClassTenQ = [
  "<html xmlns:ix=\"http://www.xbrl.org/2013/inlineXBRL\"><body>",
  "<div style=\"display:none\"><ix:header><ix:hidden>",
  "<ix:nonNumeric name=\"dei:DocumentType\" contextRef=\"c\">10-Q</ix:nonNumeric>",
  "<ix:nonNumeric name=\"dei:EntityCentralIndexKey\" contextRef=\"c\">0009990001</ix:nonNumeric>",
  "<ix:nonNumeric name=\"dei:EntityRegistrantName\" contextRef=\"c\">Two Class Holdings Inc.</ix:nonNumeric>",
  "<ix:nonNumeric name=\"dei:DocumentPeriodEndDate\" contextRef=\"c\">June 30, 2023</ix:nonNumeric>",
  "<ix:nonNumeric name=\"dei:DocumentFiscalYearFocus\" contextRef=\"c\">2023</ix:nonNumeric>",
  "<ix:nonNumeric name=\"dei:DocumentFiscalPeriodFocus\" contextRef=\"c\">Q2</ix:nonNumeric>",
  "</ix:hidden></ix:header></div>",
  "<table>",
  "<tr><td>Class A Common Stock</td>",
  "<td><ix:nonNumeric name=\"dei:TradingSymbol\" contextRef=\"a\">TWCA</ix:nonNumeric></td></tr>",
  "<tr><td>Class C Capital Stock</td>",
  "<td><ix:nonNumeric name=\"dei:TradingSymbol\" contextRef=\"cc\">TWCC</ix:nonNumeric></td></tr>",
  "</table>",
  "<p style=\"font-weight:bold\">PART I</p>",
  "<p style=\"font-weight:bold\">Item 2. Management's Discussion and Analysis</p>",
  "<p>Revenue of Two Class Holdings grew in the quarter as customers bought more of both its products, ",
  "and operating income rose with it while costs stayed level across the company's segments.</p>",
  "</body></html>"
].join("")

describe("a company with two listed classes", () => {
  let storage: { readonly dataDir: string; readonly remove: () => Promise<void> }
  let files: string
  let server: RunningServer
  let key: string
  let ingested: { exitCode: number; stdout: string; stderr: string }

  const get = (path: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } })

  beforeAll(async () => {
    storage = await temporaryDataDir()
    files = await mkdtemp(join(tmpdir(), "filings-aliases-"))
    const file = join(files, "twc-10q.htm")
    await writeFile(file, twoClassTenQ)
    // The second class's ticker, which the cover lists after the first.
    ingested = await cli(storage, [
      "ingest",
      file,
      "--ticker",
      "TWCC",
      "--accession",
      accession,
      "--filing-date",
      "2023-07-26"
    ])
    key = await createKey(storage)
    server = await startServer(storage)
  }, 600_000)

  afterAll(async () => {
    await server?.stop()
    await storage?.remove()
    await rm(files, { recursive: true, force: true })
  })

  it("ingest --ticker of the second class is accepted, the document stored under the primary ticker", () => {
    assert.strictEqual(ingested.exitCode, 0, ingested.stdout + ingested.stderr)
    assert.match(ingested.stdout, new RegExp(`^created ${accession} TWCA 10-Q 2023-07-26 `))
  })

  it("GET /v1/companies/{ticker} answers the company by either ticker, with the primary one", async () => {
    for (const ticker of ["TWCC", "TWCA"]) {
      const profile = await jsonOf(Company.CompanyProfile, await get(`/v1/companies/${ticker}`))
      assert.deepStrictEqual(
        [profile.ticker, profile.cik, profile.company_name, profile.tickers],
        ["TWCA", "0009990001", "Two Class Holdings Inc.", ["TWCA", "TWCC"]]
      )
      assert.strictEqual(profile.document_counts["10-Q"], 1)
    }
  })

  it("tickers=TWCC on the documents list and the feed, and the timeline by TWCC, find the document", async () => {
    const list = await jsonOf(Document.DocumentList, await get("/v1/documents?tickers=TWCC"))
    assert.deepStrictEqual(list.documents.map((document) => [document.publication_id, document.ticker]), [
      [accession, "TWCA"]
    ])
    assert.strictEqual(list.total, 1)

    const feed = await jsonOf(
      Feed.FeedResponse,
      await fetch(`${server.url}/v1/feed`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ tickers: ["TWCC"] })
      })
    )
    assert.deepStrictEqual(feed.items.map((item) => [item.ticker, item.doc_type, item.title]), [
      ["TWCA", "10-Q", "Two Class Holdings Inc. 10-Q Q2 2023"]
    ])

    const timeline = await jsonOf(Timeline.TimelinePage, await get("/v1/companies/TWCC/timeline"))
    assert.strictEqual(timeline.ticker, "TWCA")
    assert.deepStrictEqual(
      timeline.entries.flatMap((entry) => (entry.publication_id === null ? [] : [entry.publication_id])),
      [accession]
    )
  })
})
