/**
 * Black-box contract tests: the real `filings` program, started as a server on an embedded
 * database and fed with the CLI, checked over HTTP against the /v1 contract (status codes,
 * headers, error envelopes, paging, formats, rate limits).
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { ExtractionApi, Feed, Sections } from "@filings/domain"
import { Schema } from "effect"
import { execFile } from "node:child_process"
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { promisify } from "node:util"
import { adminTokenOf } from "./support/adminEvents.js"
import { corpusDir, corpusMissing } from "./support/corpus.js"
import {
  cli,
  cliJson,
  createKey,
  repositoryRoot,
  type RunningServer,
  startServer,
  temporaryDataDir
} from "./support/filings.js"
import { documentOf, errorOf, jsonOf, listOf } from "./support/http.js"
import { awaitFreshRateWindow } from "./support/rateWindow.js"
import { submission, writeSubmission } from "./support/syntheticFilings.js"

const execFileAsync = promisify(execFile)

const OpenApiPaths = Schema.Struct({
  paths: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  components: Schema.Unknown
})

// Seven filings of one company on six dates (two share a date, to check the tie-break).
const filings = [
  { accession: "0000999999-24-000001", form: "10-Q", filedAsOf: "2024-01-15", periodOfReport: "2023-12-31" },
  { accession: "0000999999-24-000002", form: "8-K", filedAsOf: "2024-02-15", periodOfReport: "2024-02-14" },
  { accession: "0000999999-24-000003", form: "8-K", filedAsOf: "2024-02-15", periodOfReport: "2024-02-15" },
  { accession: "0000999999-24-000004", form: "10-Q", filedAsOf: "2024-04-15", periodOfReport: "2024-03-31" },
  { accession: "0000999999-24-000005", form: "10-K", filedAsOf: "2024-06-03", periodOfReport: "2024-03-31" },
  { accession: "0000999999-24-000006", form: "10-Q", filedAsOf: "2024-07-15", periodOfReport: "2024-06-30" },
  { accession: "0000999999-24-000007", form: "8-K", filedAsOf: "2024-09-02", periodOfReport: "2024-09-01" }
] as const

let dataDir: string
let removeDataDir: () => Promise<void>
let server: RunningServer
let key: string
let standardKey: string
let ingestOutput: { stored: number; failed: number; results: Array<{ file: string; error?: string; status?: string }> }
let ingestExitCode: number

const get = (path: string, token: string | null = key) =>
  fetch(`${server.url}${path}`, token === null ? {} : { headers: { authorization: `Bearer ${token}` } })

beforeAll(async () => {
  ;({ dataDir, remove: removeDataDir } = await temporaryDataDir())
  const storage = { dataDir }
  // Keys are made before the server starts (straight on the database) ...
  key = await createKey(storage, { name: "contract", rateLimit: 100_000 })
  server = await startServer(storage)
  // ... and while it runs (through its admin routes), as an operator would.
  standardKey = await createKey(storage, { name: "standard plan" })

  const files = await Promise.all(filings.map((filing) => writeSubmission(dataDir, `${filing.accession}.txt`, filing)))
  const corrupt = join(dataDir, "corrupt.txt")
  await writeFile(corrupt, Buffer.from([0x00, 0xff, 0x13, 0x37, 0x00, 0x00, 0x89, 0x50, 0x4e, 0x47, 0x00]))
  const truncated = join(dataDir, "truncated.txt")
  await writeFile(truncated, submission(filings[0]).slice(0, 400))
  // The bad files sit in the middle of the batch: the files after them must be stored too.
  const batch = [...files.slice(0, 3), corrupt, truncated, ...files.slice(3)]
  const result = await cli(storage, ["ingest", ...batch, "--ticker", "CTC", "--json"])
  ingestExitCode = result.exitCode
  ingestOutput = JSON.parse(result.stdout)
}, 180_000)

afterAll(async () => {
  await server?.stop()
  await removeDataDir?.()
})

/** Asks for `path`, checks that the answer is a 404 whose error has `code`, and answers the error. */
const notFound = async (path: string, code: string) => {
  const response = await get(path)
  assert.strictEqual(response.status, 404)
  const error = await errorOf(response)
  assert.strictEqual(error.code, code)
  return error
}

describe("ingest", () => {
  it("stores every good file of a batch and reports each bad one, exiting non-zero", () => {
    assert.strictEqual(ingestExitCode, 1)
    assert.deepStrictEqual([ingestOutput.stored, ingestOutput.failed], [7, 2])
    const failures = ingestOutput.results.filter((result) => result.error !== undefined)
    assert.deepStrictEqual(failures.map((failure) => failure.file.split("/").pop()), ["corrupt.txt", "truncated.txt"])
    assert.match(failures[0]!.error!, /binary/)
    assert.isTrue(ingestOutput.results.filter((r) => r.status === "created").length === 7)
  })

  it("ingesting the same file again updates the document instead of adding one", async () => {
    const file = join(dataDir, `${filings[0].accession}.txt`)
    const again = await cliJson<{ results: Array<{ status: string }> }>({ dataDir }, [
      "ingest",
      file,
      "--ticker",
      "CTC"
    ])
    assert.strictEqual(again.results[0]?.status, "updated")
    const list = await listOf(await get("/v1/documents?tickers=CTC"))
    assert.strictEqual(list.total, 7)
  })
})

describe("authentication", () => {
  it("401 unauthorized without a key", async () => {
    const response = await get("/v1/documents?tickers=CTC", null)
    assert.strictEqual(response.status, 401)
    assert.strictEqual((await errorOf(response)).code, "unauthorized")
  })

  it("401 unauthorized with a wrong key", async () => {
    const response = await get("/v1/documents?tickers=CTC", "fk_not-a-real-key-at-all-000000000")
    assert.strictEqual(response.status, 401)
    assert.strictEqual((await errorOf(response)).code, "unauthorized")
    assert.isNull(response.headers.get("x-ratelimit-limit"))
  })

  it("401 with a revoked key", async () => {
    const doomed = await createKey({ dataDir }, { name: "to revoke" })
    assert.strictEqual((await get("/v1/documents?tickers=CTC", doomed)).status, 200)
    const keys = await cliJson<{ keys: Array<{ id: string; name: string }> }>({ dataDir }, ["keys", "list"])
    const id = keys.keys.find((listed) => listed.name === "to revoke")!.id
    assert.strictEqual((await cli({ dataDir }, ["keys", "revoke", id])).exitCode, 0)
    assert.strictEqual((await get("/v1/documents?tickers=CTC", doomed)).status, 401)
  })
})

describe("validation", () => {
  const invalid = async (path: string, field: RegExp) => {
    const response = await get(path)
    assert.strictEqual(response.status, 400, path)
    const error = await errorOf(response)
    assert.strictEqual(error.code, "invalid_request")
    assert.match(error.message, field)
  }

  it("400 for a malformed publication_id, naming the field", () =>
    invalid("/v1/documents/not-an-accession", /publication_id.*not-an-accession/))
  it("400 when no filter is given", () => invalid("/v1/documents", /at least one filter/))
  it("400 for limit=0, naming the field", () =>
    invalid("/v1/documents?tickers=CTC&limit=0", /limit.*between 1 and 100/))
  it("400 for limit=101, naming the field", () =>
    invalid("/v1/documents?tickers=CTC&limit=101", /limit.*between 1 and 100/))
  it("400 for a bad date, naming the field", () =>
    invalid("/v1/documents?start_date=2024-02-30", /start_date.*YYYY-MM-DD.*2024-02-30/))
  it("400 for an unknown document type, naming the field and value", () =>
    invalid("/v1/documents?doc_types=10-X", /doc_types.*10-X/))
  const post = (path: string, body: string) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body
    })

  it("400 naming the missing body field (POST /v1/feed without tickers)", async () => {
    const response = await post("/v1/feed", JSON.stringify({ limit: 5 }))
    assert.strictEqual(response.status, 400)
    const error = await errorOf(response)
    assert.strictEqual(error.code, "invalid_request")
    assert.match(error.message, /tickers/)
  })

  it("400 for a body that is not JSON", async () => {
    const response = await post("/v1/feed", "{not json")
    assert.strictEqual(response.status, 400)
    assert.strictEqual((await errorOf(response)).code, "invalid_request")
  })

  it("400 for an unknown format", () => invalid("/v1/documents/0000999999-24-000001?format=pdf", /format.*pdf/))
})

describe("not found", () => {
  it("404 document_not_found names the id", async () => {
    const error = await notFound("/v1/documents/0000000001-99-000001", "document_not_found")
    assert.include(error.message, "0000000001-99-000001")
  })

  it("404 not_found for an unknown route, in the envelope", () => notFound("/v1/nothing-here", "not_found"))

  it("405 method_not_allowed with Allow for a known path and a wrong method", async () => {
    const response = await fetch(`${server.url}/v1/documents/0000999999-24-000001`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${key}` }
    })
    assert.strictEqual(response.status, 405)
    assert.strictEqual(response.headers.get("allow"), "GET")
    assert.strictEqual((await errorOf(response)).code, "method_not_allowed")
  })
})

describe("GET /v1/documents", () => {
  const expectedDesc = [...filings]
    .sort((a, b) => b.filedAsOf.localeCompare(a.filedAsOf) || b.accession.localeCompare(a.accession))
    .map((filing) => filing.accession)

  it("pages through every match, newest first by default, until offset + limit >= total", async () => {
    const seen: Array<string> = []
    let offset = 0
    for (;;) {
      const page = await listOf(await get(`/v1/documents?tickers=CTC&limit=3&offset=${offset}`))
      assert.deepStrictEqual([page.total, page.limit, page.offset], [7, 3, offset])
      seen.push(...page.documents.map((document: { publication_id: string }) => document.publication_id))
      if (page.offset + page.limit >= page.total) break
      offset += page.limit
    }
    assert.deepStrictEqual(seen, expectedDesc)
  })

  it("sorts oldest first with sort=filing_date_asc", async () => {
    const page = await listOf(await get("/v1/documents?tickers=CTC&sort=filing_date_asc"))
    assert.deepStrictEqual(
      page.documents.map((d: { publication_id: string }) => d.publication_id),
      [...expectedDesc].reverse()
    )
  })

  it("filters by type and inclusive date range", async () => {
    const page = await listOf(await get("/v1/documents?doc_types=8-K,10-K&start_date=2024-02-15&end_date=2024-06-03"))
    assert.deepStrictEqual(
      page.documents.map((d: { publication_id: string }) => d.publication_id),
      ["0000999999-24-000005", "0000999999-24-000003", "0000999999-24-000002"]
    )
  })

  it("list items carry the metadata fields of the spec and a relative url", async () => {
    const page = await listOf(await get("/v1/documents?tickers=CTC&limit=1&sort=filing_date_asc"))
    assert.deepStrictEqual(page.documents[0], {
      publication_id: "0000999999-24-000001",
      ticker: "CTC",
      company_name: "CONTRACT TEST CORP",
      cik: "0000999999",
      doc_type: "10-Q",
      title: "CONTRACT TEST CORP 10-Q Q4 2023",
      filing_date: "2024-01-15",
      period: "Q4 2023",
      sec_url: "https://www.sec.gov/Archives/edgar/data/999999/000099999924000001/ctc-20231231.htm",
      url: "/v1/documents/0000999999-24-000001"
    })
  })
})

describe("GET /v1/documents/{publication_id}", () => {
  it("format=markdown (the default) has the body, with tables as GFM tables", async () => {
    const document = await documentOf(await get("/v1/documents/0000999999-24-000005"))
    assert.strictEqual(document.doc_type, "10-K")
    assert.strictEqual(document.period, "FY 2024")
    const body = document.body ?? ""
    assert.match(body, /^\| +\| 2024 \| 2023 \|\n\| --- \| --- \| --- \|$/m)
    assert.match(body, /\| Revenue \| \$1,250 \| \$1,100 \|/)
    assert.match(body, /\| Net loss \| \(75\) \| \(20\) \|/)
    assert.isAbove(document.word_count, 10)
    assert.isUndefined(document.sections)
  })

  it("format=metadata omits the body", async () => {
    const document = await documentOf(await get("/v1/documents/0000999999-24-000005?format=metadata"))
    assert.isUndefined(document.body)
    assert.strictEqual(document.publication_id, "0000999999-24-000005")
    assert.isAbove(document.word_count, 10)
  })

  it("format=sections adds the labeled sections", async () => {
    const document = await documentOf(await get("/v1/documents/0000999999-24-000005?format=sections"))
    const sections = document.sections ?? []
    assert.deepStrictEqual(sections.map((section) => section.title), [
      "Item 1. Business",
      "Item 1A. Risk Factors",
      "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations",
      "Signatures"
    ])
    assert.isTrue(sections.every((section) => section.page_start >= 1))
    assert.include(sections[1]?.content, "the risks it faces")
    assert.isString(document.body)
  })
})

describe("sections", () => {
  const sectionsOf = (response: Response) => jsonOf(Sections.DocumentSections, response)
  const resultsOf = (response: Response) => jsonOf(Sections.SectionResults, response)

  it("GET /v1/documents/{id}/sections lists a document's sections with their words and pages", async () => {
    const document = await sectionsOf(await get("/v1/documents/0000999999-24-000006/sections"))
    assert.deepStrictEqual([document.publication_id, document.ticker, document.doc_type, document.filing_date], [
      "0000999999-24-000006",
      "CTC",
      "10-Q",
      "2024-07-15"
    ])
    assert.deepStrictEqual(document.sections.map((section) => section.name), [
      "Item 1. Financial Statements",
      "Item 2. Management's Discussion and Analysis of Financial Condition and Results of Operations",
      "Item 1A. Risk Factors",
      "Item 6. Exhibits",
      "Signatures"
    ])
    for (const section of document.sections) {
      assert.isAbove(section.word_count, 0)
      assert.isTrue(section.page_start >= 1 && section.page_end >= section.page_start)
    }
  })

  it("?section= finds a section by name, item number or alias", async () => {
    const queries: ReadonlyArray<readonly [string, string, string]> = [
      ["0000999999-24-000005", "Risk Factors", "Item 1A. Risk Factors"],
      ["0000999999-24-000005", "Item 1A", "Item 1A. Risk Factors"],
      ["0000999999-24-000005", "1a", "Item 1A. Risk Factors"],
      [
        "0000999999-24-000005",
        "MD&A",
        "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations"
      ],
      [
        "0000999999-24-000006",
        "MD&A",
        "Item 2. Management's Discussion and Analysis of Financial Condition and Results of Operations"
      ],
      ["0000999999-24-000006", "Risk Factors", "Item 1A. Risk Factors"],
      ["0000999999-24-000006", "Part II, Item 1A", "Item 1A. Risk Factors"],
      ["0000999999-24-000007", "Item 2.02", "Item 2.02. Results of Operations and Financial Condition"]
    ]
    for (const [id, query, name] of queries) {
      const document = await sectionsOf(await get(`/v1/documents/${id}/sections?section=${encodeURIComponent(query)}`))
      assert.deepStrictEqual(document.sections.map((section) => section.name), [name], `${id} ${query}`)
    }
  })

  it("404 section_not_found lists the sections the document has", async () => {
    const path = "/v1/documents/0000999999-24-000005/sections?section=Executive%20Compensation"
    const error = await notFound(path, "section_not_found")
    assert.include(error.message, "Item 1A. Risk Factors")
  })

  it("GET /v1/sections finds one section across documents, newest first, paged", async () => {
    const all = await resultsOf(await get("/v1/sections?tickers=CTC&section=Risk%20Factors"))
    assert.deepStrictEqual([all.section, all.total, all.limit, all.offset], ["Risk Factors", 4, 20, 0])
    assert.deepStrictEqual(all.results.map((result) => result.publication_id), [
      "0000999999-24-000006",
      "0000999999-24-000005",
      "0000999999-24-000004",
      "0000999999-24-000001"
    ])
    assert.isTrue(all.results.every((result) => /the risks it faces/.test(result.content) && result.word_count > 0))
    assert.strictEqual(all.results[1]?.period, "FY 2024")

    const page = await resultsOf(await get("/v1/sections?tickers=CTC&section=Risk%20Factors&limit=2&offset=2"))
    assert.deepStrictEqual(page.results.map((result) => result.publication_id), [
      "0000999999-24-000004",
      "0000999999-24-000001"
    ])
    const annual = await resultsOf(await get("/v1/sections?tickers=CTC&section=Item%201A&doc_types=10-K"))
    assert.deepStrictEqual(annual.results.map((result) => result.publication_id), ["0000999999-24-000005"])
    const current = await resultsOf(await get("/v1/sections?tickers=CTC&section=2.02&doc_types=8-K"))
    assert.strictEqual(current.total, 3)
  })

  it("400 for a section no form has, and for a missing one", async () => {
    const unknown = await get("/v1/sections?tickers=CTC&section=Favourite%20Colours")
    assert.strictEqual(unknown.status, 400)
    assert.match((await errorOf(unknown)).message, /section "Favourite Colours"/)
    const missing = await get("/v1/sections?tickers=CTC")
    assert.strictEqual(missing.status, 400)
    assert.match((await errorOf(missing)).message, /section is required/)
  })
})

describe("rate limiting", () => {
  it("every authenticated response carries the X-RateLimit headers, errors included", async () => {
    const ok = await get("/v1/documents?tickers=CTC")
    const notFound = await get("/v1/documents/0000000001-99-000001")
    for (const response of [ok, notFound]) {
      assert.strictEqual(response.headers.get("x-ratelimit-limit"), "100000")
      assert.match(response.headers.get("x-ratelimit-remaining") ?? "", /^\d+$/)
      const reset = Number(response.headers.get("x-ratelimit-reset"))
      const now = Date.now() / 1000
      assert.isTrue(reset > now - 1 && reset <= now + 61, `reset ${reset} is within the minute`)
    }
  })

  it("a standard key gets 100 requests a minute, then 429 rate_limit_exceeded with Retry-After", async () => {
    await awaitFreshRateWindow()
    const remaining: Array<number> = []
    for (let request = 1; request <= 100; request++) {
      const response = await get("/v1/documents?tickers=CTC&limit=1", standardKey)
      assert.strictEqual(response.status, 200)
      remaining.push(Number(response.headers.get("x-ratelimit-remaining")))
      await response.arrayBuffer()
    }
    assert.deepStrictEqual(remaining, Array.from({ length: 100 }, (_, index) => 99 - index))
    const limited = await get("/v1/documents?tickers=CTC&limit=1", standardKey)
    assert.strictEqual(limited.status, 429)
    assert.strictEqual((await errorOf(limited)).code, "rate_limit_exceeded")
    assert.strictEqual(limited.headers.get("x-ratelimit-limit"), "100")
    assert.strictEqual(limited.headers.get("x-ratelimit-remaining"), "0")
    const retryAfter = Number(limited.headers.get("retry-after"))
    assert.isTrue(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`)
    // Other keys are not affected.
    assert.strictEqual((await get("/v1/documents?tickers=CTC&limit=1")).status, 200)
  })
})

describe("examples", () => {
  const runExample = (file: string, args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
    execFileAsync(process.execPath, ["--import", "tsx", join(repositoryRoot, "examples", file), ...args], {
      cwd: repositoryRoot,
      env: { ...process.env, ...env }
    })

  it("examples/api-client.ts lists documents with the typed client", async () => {
    const { stdout } = await runExample("api-client.ts", ["CTC"], { FILINGS_URL: server.url, FILINGS_KEY: key })
    assert.include(stdout, "7 documents of CTC")
    assert.include(stdout, "2024-09-02 8-K 0000999999-24-000007 CONTRACT TEST CORP 8-K Q3 2024")
    assert.include(stdout, "Contract Test Corp reports on its results")
  })

  it("examples/extract-filing.ts extracts the example filing", async () => {
    const { stdout } = await runExample("extract-filing.ts", ["examples/filings/acme-8k-2024-11-05.txt"])
    assert.include(stdout, "Exhibit 99.1: Press release of Acme Anvil Corp dated November 5, 2024")
    assert.include(stdout, "Signed 2024-11-05 by Wile E. Coyote (Chief Financial Officer)")
  })

  it("examples/parse-filing.ts converts the example filing", async () => {
    const { stdout } = await runExample("parse-filing.ts", ["examples/filings/acme-8k-2024-11-05.txt"])
    assert.include(stdout, "0000999001-24-000017 8-K filed 2024-11-05 by ACME ANVIL CORP")
    assert.include(stdout, "8-K: 123 words, 1 pages")
    assert.include(stdout, "  Item 2.02. Results of Operations and Financial Condition (36 words, pages 1-1)")
    assert.include(stdout, "  Exhibit 99.1: PRESS RELEASE")
  })
})

describe("OpenAPI and docs", () => {
  it("serves the OpenAPI document with every /v1 path and a docs page", async () => {
    const spec = await jsonOf(OpenApiPaths, await fetch(`${server.url}/openapi.json`))
    for (
      const path of [
        "/v1/documents/{publication_id}",
        "/v1/documents",
        "/v1/documents/{publication_id}/extract",
        "/v1/extract/metrics",
        "/v1/extract/tables",
        "/v1/documents/{publication_id}/sections",
        "/v1/sections",
        "/v1/feed",
        "/v1/webhooks",
        "/v1/webhooks/{webhook_id}"
      ]
    ) assert.property(spec.paths, path)
    assert.notProperty(spec.paths, "/admin/keys")
    // Validation failures are answered in the API's envelope, so the framework's shape is not documented.
    assert.notInclude(JSON.stringify(spec), "HttpApiDecodeError")
    const docs = await fetch(`${server.url}/docs`)
    assert.strictEqual(docs.status, 200)
    assert.match(docs.headers.get("content-type") ?? "", /text\/html/)
    assert.strictEqual((await fetch(`${server.url}/healthz`)).status, 200)
  })
})

describe.skipIf(corpusMissing)("real filings from the corpus", () => {
  it("an 8-K submission and a 10-K document ingested with the CLI are served back with their tables", async () => {
    const submissionFile = join(corpusDir, "8-K/nvda-8k-2026-03-06-full-submission.txt")
    const tenK = join(corpusDir, "10-K/aapl-10k-fy2024.htm")
    const eightK = await cliJson<{ stored: number }>({ dataDir }, ["ingest", submissionFile])
    const annual = await cliJson<{ stored: number }>({ dataDir }, [
      "ingest",
      tenK,
      "--accession",
      "0000320193-24-000123",
      "--filing-date",
      "2024-11-01"
    ])
    assert.deepStrictEqual([eightK.stored, annual.stored], [1, 1])

    const nvda = await documentOf(await get("/v1/documents/0001045810-26-000024?include_exhibits=true"))
    assert.deepStrictEqual(
      [nvda.ticker, nvda.company_name, nvda.cik, nvda.doc_type, nvda.filing_date],
      ["NVDA", "NVIDIA CORP", "0001045810", "8-K", "2026-03-06"]
    )
    assert.include((nvda.exhibits ?? []).map((exhibit) => exhibit.exhibit_number), "10.1")

    const apple = await documentOf(await get("/v1/documents/0000320193-24-000123"))
    assert.deepStrictEqual(
      [apple.ticker, apple.company_name, apple.cik, apple.period, apple.title],
      ["AAPL", "Apple Inc.", "0000320193", "FY 2024", "Apple Inc. 10-K FY 2024"]
    )
    const body = apple.body ?? ""
    assert.match(body, /^\| --- \| --- \|/m)
    assert.match(body, /\| Total net sales \| \$391,035 \|/)
    assert.notInclude(body, "ix:header")
  })

  it("the 10-K's own XBRL numbers, tables, exhibits and signatures are extracted at ingestion and served", async () => {
    const extraction = await jsonOf(
      ExtractionApi.ExtractionResult,
      await get("/v1/documents/0000320193-24-000123/extract")
    )
    const metrics = extraction.metrics ?? {}
    assert.deepStrictEqual(
      [metrics.revenue?.value, metrics.revenue?.unit, metrics.revenue?.period],
      [391_035_000_000, "USD", "FY 2024"]
    )
    assert.strictEqual(metrics.net_income?.value, 93_736_000_000)
    assert.strictEqual(metrics.eps_diluted?.value, 6.08)
    // Balances carry the document's period too; the date they are measured at is as_of.
    assert.deepStrictEqual(
      [metrics.total_debt?.value, metrics.total_debt?.period, metrics.total_debt?.as_of],
      [96_662_000_000, "FY 2024", "2024-09-28"]
    )
    assert.deepStrictEqual(
      [metrics.shares_outstanding?.period, metrics.shares_outstanding?.as_of],
      ["FY 2024", "2024-10-18"]
    )
    const titles = (extraction.tables ?? []).map((table) => table.title)
    assert.isAbove(titles.length, 20)
    assert.include((extraction.exhibits ?? []).map((exhibit) => exhibit.number), "31.1")
    assert.strictEqual(extraction.signatures?.signed_date, "2024-11-01")
    assert.include((extraction.signatures?.signers ?? []).map((signer) => signer.name), "Timothy D. Cook")

    const series = await jsonOf(
      ExtractionApi.CompanyMetrics,
      await get("/v1/extract/metrics?tickers=AAPL&metrics=revenue,eps&frequency=annual")
    )
    assert.deepStrictEqual(series.metrics.revenue?.data, [
      { period: "FY 2024", value: 391_035_000_000, filing_date: "2024-11-01" }
    ])
    assert.deepStrictEqual(series.metrics.eps?.data.map((point) => point.value), [6.08])
    const balances = await jsonOf(
      ExtractionApi.CompanyMetrics,
      await get("/v1/extract/metrics?tickers=AAPL&metrics=total_assets&frequency=annual")
    )
    assert.deepStrictEqual(balances.metrics.total_assets?.data, [
      { period: "FY 2024", as_of: "2024-09-28", value: 364_980_000_000, filing_date: "2024-11-01" }
    ])

    const statements = await jsonOf(
      ExtractionApi.CompanyTables,
      await get("/v1/extract/tables?tickers=AAPL&table_type=income_statement")
    )
    assert.isAbove(statements.total, 0)
    assert.isTrue(statements.tables.every((table) => table.table_type === "income_statement"))
  })
})

describe.skipIf(corpusMissing)("a company's name across its filings", () => {
  const adminGet = async (path: string) => {
    return fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${await adminTokenOf(dataDir)}` } })
  }

  it("a filing of 2000 stored after the 10-K of 2024 keeps APPLE COMPUTER INC for itself and renames nothing", async () => {
    // The 10-K of 2024 ("Apple Inc.") first (stored again if the test above stored it), then the 10-Q of 2000.
    await cliJson({ dataDir }, [
      "ingest",
      join(corpusDir, "10-K/aapl-10k-fy2024.htm"),
      "--accession",
      "0000320193-24-000123",
      "--filing-date",
      "2024-11-01"
    ])
    const old = await cliJson<{ results: Array<{ ticker: string; company_name: string }> }>({ dataDir }, [
      "ingest",
      join(corpusDir, "old-text/aapl-10q-2000-04-01-full-submission.txt")
    ])
    assert.deepStrictEqual([old.results[0]?.ticker, old.results[0]?.company_name], ["AAPL", "APPLE COMPUTER INC"])
    const filedIn2000 = await documentOf(await get("/v1/documents/0000912057-00-023442"))
    assert.strictEqual(filedIn2000.company_name, "APPLE COMPUTER INC")
    assert.strictEqual((await documentOf(await get("/v1/documents/0000320193-24-000123"))).company_name, "Apple Inc.")

    // What speaks of the company now says its current name: the old filing's feed item and event,
    // a transcript named by ticker alone, the metric series.
    const feed = await jsonOf(
      Feed.FeedResponse,
      await fetch(`${server.url}/v1/feed`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ tickers: ["AAPL"], start_date: "2000-01-01", end_date: "2000-12-31" })
      })
    )
    assert.deepStrictEqual(feed.items.map((item) => [item.doc_type, item.company_name]), [["10-Q", "Apple Inc."]])
    const events = ((await (await adminGet("/admin/events?limit=1000")).json()) as {
      events: ReadonlyArray<{ type: string; payload: { data: { publication_id?: string; company_name?: string } } }>
    }).events
    const oldEvent = events.find((event) =>
      event.type === "filing.new" && event.payload.data.publication_id === "0000912057-00-023442"
    )
    assert.strictEqual(oldEvent?.payload.data.company_name, "Apple Inc.")

    const call = await cliJson<{ results: Array<{ publication_id: string; company_name: string }> }>({ dataDir }, [
      "ingest",
      join(corpusDir, "transcripts/aapl-q1-fy2022-earnings-call-speakers.json"),
      "--type",
      "EARNINGS_CALL",
      "--ticker",
      "AAPL",
      "--filing-date",
      "2022-01-27"
    ])
    assert.deepStrictEqual(call.results.map((result) => [result.publication_id, result.company_name]), [[
      "call-aapl-2022-01-27",
      "Apple Inc."
    ]])

    const series = await jsonOf(
      ExtractionApi.CompanyMetrics,
      await get("/v1/extract/metrics?tickers=AAPL&metrics=revenue&doc_types=10-K,10-Q")
    )
    assert.strictEqual(series.company_name, "Apple Inc.")
  })
})

describe.skipIf(corpusMissing)("a press release on its own", () => {
  it("a release PDF of a company not stored yet is stored with --type PRESS_RELEASE, --ticker and --company-name", async () => {
    const stored = await cliJson<{ results: Array<{ publication_id: string; doc_type: string; title: string }> }>(
      { dataDir },
      [
        "ingest",
        join(corpusDir, "pdf/amcr-q4-fy2023-earnings-release.pdf"),
        "--type",
        "PRESS_RELEASE",
        "--ticker",
        "AMCR",
        "--company-name",
        "Amcor plc",
        "--filing-date",
        "2023-08-15"
      ]
    )
    const id = stored.results[0]?.publication_id ?? ""
    assert.match(id, /^release-[0-9a-f]{16}$/)
    const release = await documentOf(await get(`/v1/documents/${id}`))
    assert.deepStrictEqual(
      [release.doc_type, release.ticker, release.company_name, release.filing_date, release.sec_url],
      ["PRESS_RELEASE", "AMCR", "Amcor plc", "2023-08-15", ""]
    )
    assert.match(release.body ?? "", /Amcor/)
  })
})

describe.skipIf(corpusMissing)("metrics of an earnings release from the corpus", () => {
  it("an 8-K's EX-99.1 income statement gives the quarter's metrics, served in quarterly series", async () => {
    const submissionFile = join(corpusDir, "8-K/adbe-8k-2023-03-15-full-submission.txt")
    const ingested = await cliJson<{ stored: number }>({ dataDir }, ["ingest", submissionFile])
    assert.strictEqual(ingested.stored, 1)
    const query = "/v1/extract/metrics?tickers=ADBE&metrics=revenue,eps&doc_types=8-K"
    const quarterly = await jsonOf(ExtractionApi.CompanyMetrics, await get(`${query}&frequency=quarterly`))
    assert.deepStrictEqual(quarterly.metrics.revenue?.data, [
      { period: "Q1 2023", value: 4_655_000_000, filing_date: "2023-03-15" }
    ])
    assert.deepStrictEqual(quarterly.metrics.eps?.data.map((point) => point.value), [2.71])
    const annual = await jsonOf(ExtractionApi.CompanyMetrics, await get(`${query}&frequency=annual`))
    // A metric without a value in the range is left out of the answer.
    assert.deepStrictEqual(annual.metrics, {})
    assert.strictEqual(annual.company_name, quarterly.company_name)
  })
})

if (corpusMissing) it.skip("real filings from the corpus (skipped: ../shared/corpus is absent)", () => {})
