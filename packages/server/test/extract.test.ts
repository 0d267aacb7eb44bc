import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Ids } from "@filings/domain"
import { DocumentStore, ExtractionStore, MemoryStorage } from "@filings/storage"
import { sampleDocument } from "@filings/storage/testing"
import { Effect, ManagedRuntime } from "effect"
import * as ApiKeys from "../src/ApiKeys.js"
import * as InProcessApi from "./support/inProcessApi.js"

// The extract endpoints read what ingestion stored: here the stores are filled directly, and the
// API answers through its web handler.
const dependencies = InProcessApi.dependencies(MemoryStorage.layer)
const runtime = ManagedRuntime.make(dependencies)
let handler: (request: Request) => Promise<Response>
let dispose: () => Promise<void>
let key: string

const ticker = Ids.Ticker.make("WDGT")
const annual2023 = sampleDocument({
  publicationId: Ids.PublicationId.make("0000999001-23-000010"),
  ticker,
  companyName: "Widgets Inc",
  docType: "10-K",
  filingDate: "2023-02-01",
  period: "FY 2022"
})
const quarter = sampleDocument({
  publicationId: Ids.PublicationId.make("0000999001-23-000020"),
  ticker,
  companyName: "Widgets Inc",
  docType: "10-Q",
  filingDate: "2023-05-01",
  period: "Q1 2023"
})
const annual2024 = sampleDocument({
  publicationId: Ids.PublicationId.make("0000999001-24-000010"),
  ticker,
  companyName: "Widgets Inc",
  docType: "10-K",
  filingDate: "2024-02-01",
  period: "FY 2023"
})

const extraction = (revenue: number, period: string): ExtractionStore.StoredExtraction => ({
  metrics: [
    { name: "revenue", value: revenue, unit: "USD", period, yoyChange: 0.1, source: "us-gaap:Revenues" },
    { name: "eps_diluted", value: revenue / 1e9, unit: "USD", period, source: "us-gaap:EarningsPerShareDiluted" }
  ],
  tables: [{
    id: "t001",
    title: "CONSOLIDATED STATEMENTS OF OPERATIONS",
    section: "Item 8. Financial Statements and Supplementary Data",
    tableType: "income_statement",
    headers: ["", "2023", "2022"],
    rows: [["Net sales", "1,250", "1,100"], ["Net income, \"adjusted\"", "(75)", "20"]],
    unit: "USD millions"
  }, {
    id: "t002",
    title: "Properties",
    section: "Item 2. Properties",
    tableType: "other",
    headers: ["Site", "Square feet"],
    rows: [["Cupertino", "100"]],
    unit: ""
  }],
  exhibits: [{ number: "31.1", description: "Certification", url: "/v1/documents/0000999001-24-000010?exhibit=31.1" }],
  signatures: { signedDate: "2024-02-01", signers: [{ name: "Jane Doe", title: "Chief Executive Officer" }] },
  warnings: []
})

// Balances: one 10-K stored before balances carried `asOf` (the date in `period`), two stored after.
const balancesTicker = Ids.Ticker.make("BALS")
const balanceDocument = (publicationId: string, docType: "10-K" | "10-Q", filingDate: string, period: string) =>
  sampleDocument({
    publicationId: Ids.PublicationId.make(publicationId),
    ticker: balancesTicker,
    companyName: "Balances Inc",
    docType,
    filingDate,
    period
  })
const legacyAnnual = balanceDocument("0000999002-23-000010", "10-K", "2023-02-15", "FY 2022")
const balanceQuarter = balanceDocument("0000999002-23-000020", "10-Q", "2023-05-10", "Q1 2023")
const balanceAnnual = balanceDocument("0000999002-24-000010", "10-K", "2024-02-15", "FY 2023")
const legacyExtraction: ExtractionStore.StoredExtraction = {
  metrics: [
    { name: "total_assets", value: 5e9, unit: "USD", period: "2022-12-31", source: "us-gaap:Assets" },
    {
      name: "shares_outstanding",
      value: 1e8,
      unit: "shares",
      period: "2023-01-20",
      source: "dei:EntityCommonStockSharesOutstanding"
    }
  ],
  tables: [],
  exhibits: [],
  warnings: []
}
const balances = (value: number, period: string, asOf: string): ExtractionStore.StoredExtraction => ({
  metrics: [{ name: "total_assets", value, unit: "USD", period, asOf, yoyChange: 0.05, source: "us-gaap:Assets" }],
  tables: [],
  exhibits: [],
  warnings: []
})

beforeAll(async () => {
  const { context } = await runtime.runtime()
  const web = InProcessApi.webHandler(context)
  handler = web.handler
  dispose = web.dispose
  key = await runtime.runPromise(Effect.gen(function*() {
    const documents = yield* DocumentStore.DocumentStore
    const extractions = yield* ExtractionStore.ExtractionStore
    yield* Effect.forEach([annual2023, quarter, annual2024], documents.save)
    yield* extractions.save(annual2023.publicationId, extraction(1_000_000_000, "FY 2022"))
    yield* extractions.save(quarter.publicationId, extraction(300_000_000, "Q1 2023"))
    yield* extractions.save(annual2024.publicationId, extraction(1_100_000_000, "FY 2023"))
    yield* Effect.forEach([legacyAnnual, balanceQuarter, balanceAnnual], documents.save)
    yield* extractions.save(legacyAnnual.publicationId, legacyExtraction)
    // A signature page that names its signer but no date.
    yield* extractions.save(balanceQuarter.publicationId, {
      ...balances(5.2e9, "Q1 2023", "2023-03-31"),
      signatures: { signers: [{ name: "Ann Lee", title: "Director" }] }
    })
    yield* extractions.save(balanceAnnual.publicationId, balances(5.5e9, "FY 2023", "2023-12-31"))
    return (yield* (yield* ApiKeys.ApiKeys).create({ name: "test", plan: "enterprise", rateLimit: 10_000 })).key
  }))
})
afterAll(async () => {
  await dispose()
  await runtime.dispose()
})

const get = (path: string) =>
  handler(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${key}` } }))
const json = async (response: Response) => {
  assert.strictEqual(response.status, 200, await response.clone().text())
  return (await response.json()) as Record<string, unknown>
}

describe("GET /v1/documents/{id}/extract", () => {
  it("returns every field by default, and only the fields asked for otherwise", async () => {
    // The document's own fields come with every answer, whichever fields were asked for.
    const documentFields = ["doc_type", "filing_date", "period", "publication_id", "ticker"]
    const all = await json(await get(`/v1/documents/${annual2024.publicationId}/extract`))
    assert.deepStrictEqual(
      Object.keys(all).sort(),
      [...documentFields, "exhibits", "metrics", "signatures", "tables"].sort()
    )
    assert.deepStrictEqual(all.metrics, {
      revenue: { value: 1_100_000_000, unit: "USD", period: "FY 2023", yoy_change: 0.1 },
      eps_diluted: { value: 1.1, unit: "USD", period: "FY 2023" }
    })
    assert.deepStrictEqual(all.signatures, {
      signed_date: "2024-02-01",
      signers: [{ name: "Jane Doe", title: "Chief Executive Officer" }]
    })
    const some = await json(await get(`/v1/documents/${annual2024.publicationId}/extract?fields=metrics,exhibits`))
    assert.deepStrictEqual(Object.keys(some).sort(), [...documentFields, "exhibits", "metrics"].sort())
  })

  it("serves the signers of an undated signature page without a signed_date", async () => {
    const undated = await json(await get(`/v1/documents/${balanceQuarter.publicationId}/extract?fields=signatures`))
    assert.deepStrictEqual(undated.signatures, { signers: [{ name: "Ann Lee", title: "Director" }] })
  })

  it("a balance's period is the document's period, its date is as_of; a store from before is served the same way", async () => {
    const current = await json(await get(`/v1/documents/${balanceAnnual.publicationId}/extract?fields=metrics`))
    assert.deepStrictEqual(current.metrics, {
      total_assets: { value: 5.5e9, unit: "USD", period: "FY 2023", as_of: "2023-12-31", yoy_change: 0.05 }
    })
    const legacy = await json(await get(`/v1/documents/${legacyAnnual.publicationId}/extract?fields=metrics`))
    assert.deepStrictEqual(legacy.metrics, {
      total_assets: { value: 5e9, unit: "USD", period: "FY 2022", as_of: "2022-12-31" },
      shares_outstanding: { value: 1e8, unit: "shares", period: "FY 2022", as_of: "2023-01-20" }
    })
    // What is stored stays as it was written.
    const stored = await runtime.runPromise(
      Effect.flatMap(ExtractionStore.ExtractionStore, (store) => store.find(legacyAnnual.publicationId))
    )
    assert.deepStrictEqual(stored._tag === "Some" ? stored.value.metrics : [], legacyExtraction.metrics)
  })

  it("404 for an unknown document, 400 for an unknown field", async () => {
    assert.strictEqual((await get("/v1/documents/0000000001-99-000001/extract")).status, 404)
    const bad = await get(`/v1/documents/${annual2024.publicationId}/extract?fields=colours`)
    assert.strictEqual(bad.status, 400)
    assert.match(((await bad.json()) as { error: { message: string } }).error.message, /fields.*colours/)
  })
})

describe("GET /v1/extract/metrics", () => {
  it("one ticker: the spec's object, series in filing order, eps under the name asked for", async () => {
    const body = await json(await get("/v1/extract/metrics?tickers=WDGT&metrics=revenue,eps"))
    assert.deepStrictEqual(body, {
      ticker: "WDGT",
      company_name: "Widgets Inc",
      metrics: {
        revenue: {
          unit: "USD",
          data: [
            { period: "FY 2022", value: 1_000_000_000, filing_date: "2023-02-01" },
            { period: "Q1 2023", value: 300_000_000, filing_date: "2023-05-01" },
            { period: "FY 2023", value: 1_100_000_000, filing_date: "2024-02-01" }
          ]
        },
        eps: {
          unit: "USD",
          data: [
            { period: "FY 2022", value: 1, filing_date: "2023-02-01" },
            { period: "Q1 2023", value: 0.3, filing_date: "2023-05-01" },
            { period: "FY 2023", value: 1.1, filing_date: "2024-02-01" }
          ]
        }
      }
    })
  })

  it("frequency and dates filter the points; several tickers give results in the order asked", async () => {
    const annual = await json(await get("/v1/extract/metrics?tickers=WDGT&metrics=revenue&frequency=annual"))
    const series = (annual.metrics as { revenue: { data: Array<{ period: string }> } }).revenue.data
    assert.deepStrictEqual(series.map((point) => point.period), ["FY 2022", "FY 2023"])
    const since = await json(await get("/v1/extract/metrics?tickers=WDGT&metrics=revenue&start_date=2023-03-01"))
    assert.lengthOf((since.metrics as { revenue: { data: Array<unknown> } }).revenue.data, 2)

    const several = await json(await get("/v1/extract/metrics?tickers=ZZZZ,WDGT&metrics=revenue&frequency=quarterly"))
    const results = several.results as Array<{ ticker: string; metrics: Record<string, unknown> }>
    assert.deepStrictEqual(results.map((result) => result.ticker), ["ZZZZ", "WDGT"])
    assert.deepStrictEqual(results[0]?.metrics, {})
  })

  it("balance series: the document's period on every point, the date as as_of, stores from before included", async () => {
    const body = await json(await get("/v1/extract/metrics?tickers=BALS&metrics=total_assets"))
    assert.deepStrictEqual(body.metrics, {
      total_assets: {
        unit: "USD",
        data: [
          { period: "FY 2022", as_of: "2022-12-31", value: 5e9, filing_date: "2023-02-15" },
          { period: "Q1 2023", as_of: "2023-03-31", value: 5.2e9, filing_date: "2023-05-10" },
          { period: "FY 2023", as_of: "2023-12-31", value: 5.5e9, filing_date: "2024-02-15" }
        ]
      }
    })
    const periods = async (frequency: string) => {
      const series = await json(
        await get(`/v1/extract/metrics?tickers=BALS&metrics=total_assets&frequency=${frequency}`)
      )
      return (series.metrics as { total_assets: { data: Array<{ period: string }> } }).total_assets.data.map((point) =>
        point.period
      )
    }
    assert.deepStrictEqual(await periods("annual"), ["FY 2022", "FY 2023"])
    assert.deepStrictEqual(await periods("quarterly"), ["Q1 2023"])
  })

  it("400 for an unknown metric, naming it", async () => {
    const response = await get("/v1/extract/metrics?tickers=WDGT&metrics=revenue,happiness")
    assert.strictEqual(response.status, 400)
    assert.match(((await response.json()) as { error: { message: string } }).error.message, /metrics.*happiness/)
  })
})

describe("GET /v1/extract/tables", () => {
  it("JSON: the tables of 10-Ks by default, with their documents, of the type asked for", async () => {
    const all = await json(await get("/v1/extract/tables?tickers=WDGT"))
    const tables = all.tables as Array<{ publication_id: string; table_type: string; id: string; unit: string }>
    assert.strictEqual(all.total, 4)
    assert.deepStrictEqual(tables.map((table) => [table.publication_id, table.id]), [
      [annual2024.publicationId, "t001"],
      [annual2024.publicationId, "t002"],
      [annual2023.publicationId, "t001"],
      [annual2023.publicationId, "t002"]
    ])
    const statements = await json(
      await get("/v1/extract/tables?tickers=WDGT&table_type=income_statement&doc_types=10-Q")
    )
    assert.deepStrictEqual(
      (statements.tables as Array<{ publication_id: string; table_type: string }>).map((table) => [
        table.publication_id,
        table.table_type
      ]),
      [[quarter.publicationId, "income_statement"]]
    )
  })

  it("CSV: one line per cell, tidy, RFC 4180 quoting", async () => {
    const response = await get("/v1/extract/tables?tickers=WDGT&table_type=income_statement&format=csv&limit=1")
    assert.strictEqual(response.status, 200)
    assert.match(response.headers.get("content-type") ?? "", /^text\/csv/)
    assert.isNotNull(response.headers.get("x-ratelimit-limit"))
    const lines = (await response.text()).split("\r\n")
    assert.deepStrictEqual(lines, [
      "ticker,publication_id,filing_date,period,table_type,table_id,table_title,unit,row_label,column,value",
      `WDGT,${annual2024.publicationId},2024-02-01,FY 2023,income_statement,t001,CONSOLIDATED STATEMENTS OF OPERATIONS,USD millions,Net sales,2023,"1,250"`,
      `WDGT,${annual2024.publicationId},2024-02-01,FY 2023,income_statement,t001,CONSOLIDATED STATEMENTS OF OPERATIONS,USD millions,Net sales,2022,"1,100"`,
      `WDGT,${annual2024.publicationId},2024-02-01,FY 2023,income_statement,t001,CONSOLIDATED STATEMENTS OF OPERATIONS,USD millions,"Net income, ""adjusted""",2023,(75)`,
      `WDGT,${annual2024.publicationId},2024-02-01,FY 2023,income_statement,t001,CONSOLIDATED STATEMENTS OF OPERATIONS,USD millions,"Net income, ""adjusted""",2022,20`,
      ""
    ])
  })
})
