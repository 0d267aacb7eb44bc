/**
 * Companies over real HTTP, on the embedded database and on PostgreSQL: `filings companies sync`
 * stores the regulator's list (from a replay of EDGAR) through a running server, `GET /v1/companies`
 * searches it (ticker, key, name words, exchange; exact paging; bad parameters answered 400 in the
 * envelope), `GET /v1/companies/{ticker}` serves a profile, also for a company known only from its
 * filings, and a server following EDGAR fills in each company's details from its submissions
 * record (Apple's recorded one, from the corpus) in the background.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Company } from "@filings/domain"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { corpusDir, corpusMissing } from "./support/corpus.js"
import { type EdgarReplay, followEnv, startEdgarReplay } from "./support/edgarReplay.js"
import { cli, createKey, type RunningServer, startServer, type Storage, temporaryDataDir } from "./support/filings.js"
import { errorOf, jsonOf } from "./support/http.js"
import { adminUrl, createDatabase } from "./support/postgres.js"
import { writeSubmission } from "./support/syntheticFilings.js"
import { eventually } from "./support/waiting.js"

const listed = [
  { cik: "0000320193", ticker: "AAPL", name: "Apple Inc.", exchange: "Nasdaq" },
  { cik: "0001652044", ticker: "GOOGL", name: "Alphabet Inc.", exchange: "Nasdaq" },
  { cik: "0001067983", ticker: "BRK-B", name: "BERKSHIRE HATHAWAY INC", exchange: "NYSE" },
  { cik: "0000789019", ticker: "MSFT", name: "MICROSOFT CORP", exchange: "Nasdaq" },
  { cik: "0001652044", ticker: "GOOG", name: "Alphabet Inc.", exchange: "Nasdaq" },
  { cik: "0000895421", ticker: "MS", name: "MORGAN STANLEY", exchange: "NYSE" },
  { cik: "0000068505", ticker: "MSI", name: "MOTOROLA SOLUTIONS, INC.", exchange: "NYSE" },
  { cik: "0001067983", ticker: "BRK-A", name: "BERKSHIRE HATHAWAY INC", exchange: "NYSE" },
  { cik: "0001999999", ticker: "PINK", name: "Pink Sheet Microcap Co" }
]

const appleSubmissions = join(corpusDir, "feeds", "aapl-submissions-CIK0000320193.json")
const appleTenK = join(corpusDir, "10-K", "aapl-10k-fy2024.htm")
const hasCorpus = !corpusMissing

const contract = (label: string, makeStorage: () => Promise<{ storage: Storage; remove: () => Promise<void> }>) =>
  describe(`companies on ${label}`, () => {
    let replay: EdgarReplay
    let storage: Storage
    let remove: () => Promise<void>
    let server: RunningServer
    let key: string
    let syncOutput: { exitCode: number; stdout: string; stderr: string }

    const get = (path: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } })
    const list = async (query: string) => jsonOf(Company.CompanyList, await get(`/v1/companies?${query}`))
    const profile = async (ticker: string) => jsonOf(Company.CompanyProfile, await get(`/v1/companies/${ticker}`))
    // The regulator's addresses, but not following it: the list comes from the CLI alone.
    const edgarOnly = () => ({ ...followEnv(replay), FILINGS_EDGAR_FOLLOW: "false" })

    beforeAll(async () => {
      replay = await startEdgarReplay({
        companyTickers: listed,
        submissions: hasCorpus ? { "0000320193": readFileSync(appleSubmissions, "utf8") } : {}
      })
      ;({ remove, storage } = await makeStorage())
      key = await createKey(storage, { name: "companies", rateLimit: 100_000 })
      server = await startServer(storage, edgarOnly())
      syncOutput = await cli(storage, ["companies", "sync", "--json"], edgarOnly())
      const scratch = await temporaryDataDir()
      try {
        const file = await writeSubmission(scratch.dataDir, "ctc-8k.txt", {
          accession: "0000999999-24-000101",
          form: "8-K",
          filedAsOf: "2024-03-01",
          periodOfReport: "2024-02-29"
        })
        const stored = await cli(storage, ["ingest", file, "--ticker", "CTC", "--json"])
        assert.strictEqual(stored.exitCode, 0, stored.stderr)
      } finally {
        await scratch.remove()
      }
      if (hasCorpus) {
        const stored = await cli(storage, [
          "ingest",
          appleTenK,
          "--accession",
          "0000320193-24-000123",
          "--filing-date",
          "2024-11-01",
          "--json"
        ])
        assert.strictEqual(stored.exitCode, 0, stored.stderr)
      }
    }, 240_000)

    afterAll(async () => {
      await server?.stop()
      await replay?.close()
      await remove?.()
    })

    it("filings companies sync stores the regulator's list through the running server", () => {
      assert.strictEqual(syncOutput.exitCode, 0, syncOutput.stderr)
      assert.deepStrictEqual(JSON.parse(syncOutput.stdout), { companies: 7, tickers: 9 })
      assert.isTrue(replay.requests.some((request) => request.path === "/files/company_tickers_exchange.json"))
    })

    it("q finds an exact ticker first, then tickers it begins, by ticker; paging is exact", async () => {
      const page = await list("q=ms")
      assert.deepStrictEqual(page.companies.map((company) => company.ticker), ["MS", "MSFT", "MSI"])
      assert.deepStrictEqual(page.companies[0], {
        ticker: "MS",
        cik: "0000895421",
        company_name: "MORGAN STANLEY",
        exchange: "NYSE",
        url: "/v1/companies/MS"
      })
      assert.deepStrictEqual([page.total, page.limit, page.offset], [3, 50, 0])

      const all = await list("")
      assert.strictEqual(all.total, 8)
      const paged: Array<string> = []
      for (let offset = 0; offset < all.total; offset += 3) {
        const next = await list(`limit=3&offset=${offset}`)
        assert.strictEqual(next.total, 8)
        paged.push(...next.companies.map((company) => company.cik))
      }
      assert.deepStrictEqual(paged, all.companies.map((company) => company.cik))
      assert.strictEqual(new Set(paged).size, 8)
      assert.deepStrictEqual(await list("limit=5&offset=100"), { companies: [], total: 8, limit: 5, offset: 100 })
    })

    it("q matches a second class, a key without its zeros and the words of a name; exchange filters", async () => {
      const goog = await list("q=GOOG")
      assert.deepStrictEqual(goog.companies.map((company) => [company.ticker, company.cik]), [["GOOGL", "0001652044"]])
      assert.deepStrictEqual((await list("q=320193")).companies.map((company) => company.ticker), ["AAPL"])
      // "micro" begins a word of two names: by ticker.
      assert.deepStrictEqual((await list("q=micro")).companies.map((company) => company.ticker), ["MSFT", "PINK"])
      assert.deepStrictEqual((await list("q=hathaway%20berk")).companies.map((company) => company.ticker), ["BRK-B"])
      assert.deepStrictEqual(
        (await list("exchange=nyse")).companies.map((company) => company.ticker),
        ["BRK-B", "MS", "MSI"]
      )
      assert.deepStrictEqual((await list("q=ms&exchange=Nasdaq")).companies.map((company) => company.ticker), [
        "MSFT"
      ])
      // Odd text is a search like any other: no match, not an error.
      assert.deepStrictEqual(await list(`q=${encodeURIComponent("%_' OR 1=1; --\\")}`), {
        companies: [],
        total: 0,
        limit: 50,
        offset: 0
      })
    })

    it("answers bad parameters with 400 invalid_request in the envelope", async () => {
      for (
        const query of [
          "limit=0",
          "limit=101",
          "limit=ten",
          "offset=-1",
          "offset=1.5",
          "exchange=",
          `q=${"a".repeat(101)}`
        ]
      ) {
        const response = await get(`/v1/companies?${query}`)
        assert.strictEqual(response.status, 400, query)
        assert.strictEqual((await errorOf(response)).code, "invalid_request", query)
      }
      const badTicker = await get("/v1/companies/not%20a%20ticker!")
      assert.strictEqual(badTicker.status, 400)
      assert.strictEqual((await errorOf(badTicker)).code, "invalid_request")
      const unauthorized = await fetch(`${server.url}/v1/companies?q=ms`)
      assert.strictEqual(unauthorized.status, 401)
    })

    it("a profile: every class, the exchange, details pending; 404 company_not_found for an unknown ticker", async () => {
      const berkshire = await profile("brk-a")
      assert.deepStrictEqual(berkshire, {
        ticker: "BRK-B",
        cik: "0001067983",
        company_name: "BERKSHIRE HATHAWAY INC",
        former_names: [],
        tickers: ["BRK-B", "BRK-A"],
        exchange: "NYSE",
        sic: null,
        sic_description: null,
        state_of_incorporation: null,
        fiscal_year_end: null,
        document_counts: {},
        latest: {},
        latest_metrics: {},
        pending_fields: ["former_names", "sic", "sic_description", "state_of_incorporation", "fiscal_year_end"]
      })
      const missing = await get("/v1/companies/ZZZZ")
      assert.strictEqual(missing.status, 404)
      assert.deepStrictEqual(await errorOf(missing), {
        code: "company_not_found",
        message: "no company with ticker ZZZZ"
      })

      // The operator's view, through the running server: the same profile.
      const shown = await cli(storage, ["companies", "show", "BRK-A", "--json"])
      assert.strictEqual(shown.exitCode, 0, shown.stderr)
      assert.deepStrictEqual(JSON.parse(shown.stdout), berkshire)
      const text = await cli(storage, ["companies", "show", "brk-b"])
      assert.include(text.stdout, "BERKSHIRE HATHAWAY INC (BRK-B, BRK-A), CIK 0001067983, NYSE")
      const unknown = await cli(storage, ["companies", "show", "ZZZZ"])
      assert.strictEqual(unknown.exitCode, 1)
      assert.include(unknown.stderr, "no company with ticker ZZZZ")
    })

    it("a company known only from its filings has a profile and is found by q", async () => {
      const ctc = await profile("CTC")
      assert.deepStrictEqual(
        [ctc.cik, ctc.company_name, ctc.exchange, ctc.tickers, ctc.document_counts, ctc.latest],
        ["0000999999", "CONTRACT TEST CORP", null, ["CTC"], { "8-K": 1 }, { "8-K": "0000999999-24-000101" }]
      )
      assert.deepStrictEqual((await list("q=contract%20test")).companies.map((company) => company.ticker), ["CTC"])
    })

    it.skipIf(!hasCorpus)(
      "Apple's 10-K gives its profile document counts and latest metrics with periods",
      async () => {
        const apple = await profile("AAPL")
        assert.deepStrictEqual([apple.company_name, apple.document_counts, apple.latest], [
          "Apple Inc.",
          { "10-K": 1 },
          { "10-K": "0000320193-24-000123" }
        ])
        assert.deepStrictEqual(apple.latest_metrics.revenue, {
          value: 391_035_000_000,
          unit: "USD",
          period: "FY 2024",
          publication_id: "0000320193-24-000123",
          doc_type: "10-K",
          filing_date: "2024-11-01"
        })
        assert.strictEqual(apple.latest_metrics.eps_diluted?.value, 6.08)
      }
    )

    it.skipIf(!hasCorpus)("a server following EDGAR fills in the details, most-followed first", async () => {
      await server.stop()
      server = await startServer(storage, followEnv(replay))
      const apple = await eventually("Apple's details", async () => {
        const read = await profile("AAPL")
        return read.pending_fields.length === 0 ? read : undefined
      })
      assert.deepStrictEqual(
        [apple.sic, apple.sic_description, apple.state_of_incorporation, apple.fiscal_year_end, apple.exchange],
        ["3571", "Electronic Computers", "CA", "0926", "Nasdaq"]
      )
      assert.deepStrictEqual(apple.former_names, [
        { name: "APPLE INC", until: "2019-08-05" },
        { name: "APPLE COMPUTER INC", until: "2007-01-04" },
        { name: "APPLE COMPUTER INC/ FA", until: "1997-07-28" }
      ])
      // The former names find the company: its name today has no "computer".
      assert.include((await list("q=apple%20computer")).companies.map((company) => company.ticker), "AAPL")
      // A company the data API does not know is settled with nothing known, not asked for again and again.
      const ctc = await eventually("CTC's details", async () => {
        const read = await profile("CTC")
        return read.pending_fields.length === 0 ? read : undefined
      })
      assert.deepStrictEqual([ctc.sic, ctc.former_names], [null, []])
      // Companies with stored filings come first, in the list's order: Apple's record was asked for first.
      const asked = replay.requests.filter((request) => request.path.startsWith("/submissions/"))
      assert.deepStrictEqual(asked.slice(0, 2).map((request) => request.path), [
        "/submissions/CIK0000320193.json",
        "/submissions/CIK0000999999.json"
      ])
    })
  })

contract("the embedded database", async () => {
  const { dataDir, remove } = await temporaryDataDir()
  return { storage: { dataDir }, remove }
})

if (adminUrl === undefined) {
  describe.skip("companies on PostgreSQL (set FILINGS_TEST_DATABASE_URL to an admin URL)", () => {})
} else {
  contract("PostgreSQL", async () => {
    const database = await createDatabase(adminUrl!)
    return { storage: { databaseUrl: database.url }, remove: database.drop }
  })
}
