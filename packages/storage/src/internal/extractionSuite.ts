// The ExtractionStore part of the conformance suite: extractions and tables kept beside their documents.
import { assert, describe, type Vitest } from "@effect/vitest"
import { Effect, Option } from "effect"
import { DocumentStore } from "../DocumentStore.js"
import { ExtractionStore, type StoredExtraction, type StoredTable } from "../ExtractionStore.js"
import type { Stores } from "../Stores.js"
import { sampleDocument, uniqueTicker } from "./conformanceSamples.js"

/** Registers the ExtractionStore tests on a layer's `it`. */
export const extractionSuite = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("ExtractionStore", () => {
    const table = (id: string, tableType: StoredTable["tableType"], title: string): StoredTable => ({
      id,
      title,
      section: "Item 8. Financial Statements and Supplementary Data",
      tableType,
      headers: ["", "2024", "2023"],
      rows: [["Total net sales", "391,035", "383,285"], ["Net income", "93,736", "96,995"]],
      unit: "USD millions"
    })
    const extraction = (revenue: number, fiscalYear: number): StoredExtraction => ({
      metrics: [
        {
          name: "revenue",
          value: revenue,
          unit: "USD",
          period: `FY ${fiscalYear}`,
          yoyChange: 0.02,
          source: "us-gaap:Revenues"
        },
        {
          name: "eps_diluted",
          value: 6.08,
          unit: "USD",
          period: `FY ${fiscalYear}`,
          source: "us-gaap:EarningsPerShareDiluted"
        },
        {
          name: "total_debt",
          value: 96_662_000_000,
          unit: "USD",
          period: `FY ${fiscalYear}`,
          asOf: `${fiscalYear}-09-28`,
          source: "us-gaap:LongTermDebt"
        },
        // As stored before balances had `asOf`: the date in `period`, kept as it was written.
        { name: "book_value_per_share", value: 3.77, unit: "USD", period: `${fiscalYear}-09-28`, source: "derived" }
      ],
      tables: [
        table("t001", "income_statement", "CONSOLIDATED STATEMENTS OF OPERATIONS"),
        table("t002", "balance_sheet", "CONSOLIDATED BALANCE SHEETS"),
        { ...table("t003", "other", "Share repurchases"), format: "percent" }
      ],
      exhibits: [{ number: "31.1", description: "Certification of the CEO", url: "/v1/documents/x?exhibit=31.1" }],
      signatures: { signedDate: "2024-11-01", signers: [{ name: "Tim Cook", title: "Chief Executive Officer" }] },
      warnings: ["a warning"]
    })

    it.effect("stores a document's extraction and replaces it when saved again", () =>
      Effect.gen(function*() {
        const documents = yield* DocumentStore
        const store = yield* ExtractionStore
        const document = sampleDocument()
        yield* documents.save(document)
        assert.isTrue(Option.isNone(yield* store.find(document.publicationId)))
        const first = extraction(391_035_000_000, 2024)
        yield* store.save(document.publicationId, first)
        assert.deepStrictEqual(yield* store.find(document.publicationId), Option.some(first))
        const second = { metrics: [], tables: [], exhibits: [], warnings: [] }
        yield* store.save(document.publicationId, second)
        assert.deepStrictEqual(yield* store.find(document.publicationId), Option.some(second))
      }))

    it.effect("metric series: the asked metrics of the asked companies and forms, oldest filing first", () =>
      Effect.gen(function*() {
        const documents = yield* DocumentStore
        const store = yield* ExtractionStore
        const ticker = uniqueTicker()
        const older = sampleDocument({ ticker, docType: "10-K", filingDate: "2023-11-03", period: "FY 2023" })
        const newer = sampleDocument({ ticker, docType: "10-K", filingDate: "2024-11-01" })
        const quarter = sampleDocument({ ticker, docType: "10-Q", filingDate: "2024-08-02", period: "Q3 2024" })
        yield* Effect.forEach([older, newer, quarter], documents.save)
        yield* store.save(newer.publicationId, extraction(391, 2024))
        yield* store.save(older.publicationId, extraction(383, 2023))
        yield* store.save(quarter.publicationId, extraction(85, 2024))

        const annual = yield* store.metricSeries({ tickers: [ticker], metrics: ["revenue"], docTypes: ["10-K"] })
        assert.deepStrictEqual(
          annual.map((point) => [point.publicationId, point.filingDate, point.metric.value, point.metric.period]),
          [[older.publicationId, "2023-11-03", 383, "FY 2023"], [newer.publicationId, "2024-11-01", 391, "FY 2024"]]
        )
        assert.deepStrictEqual(annual[0]?.metric, extraction(383, 2023).metrics[0])
        assert.deepStrictEqual([annual[0]?.ticker, annual[0]?.companyName, annual[0]?.docType], [
          ticker,
          "Acme Corp",
          "10-K"
        ])

        const both = yield* store.metricSeries({
          tickers: [ticker],
          metrics: ["revenue", "eps_diluted"],
          docTypes: ["10-K", "10-Q"],
          startDate: "2024-01-01"
        })
        assert.deepStrictEqual(
          both.map((point) => [point.filingDate, point.metric.name]),
          [["2024-08-02", "revenue"], ["2024-08-02", "eps_diluted"], ["2024-11-01", "revenue"], [
            "2024-11-01",
            "eps_diluted"
          ]]
        )
        // Each point carries its document's period, and a balance its as_of date.
        const balances = yield* store.metricSeries({
          tickers: [ticker],
          metrics: ["total_debt", "book_value_per_share"],
          docTypes: ["10-K", "10-Q"]
        })
        assert.deepStrictEqual(
          balances.map((
            point
          ) => [point.documentPeriod, point.metric.name, point.metric.period, point.metric.asOf]),
          [
            ["FY 2023", "total_debt", "FY 2023", "2023-09-28"],
            ["FY 2023", "book_value_per_share", "2023-09-28", undefined],
            ["Q3 2024", "total_debt", "FY 2024", "2024-09-28"],
            ["Q3 2024", "book_value_per_share", "2024-09-28", undefined],
            ["FY 2024", "total_debt", "FY 2024", "2024-09-28"],
            ["FY 2024", "book_value_per_share", "2024-09-28", undefined]
          ]
        )
        const none = yield* store.metricSeries({
          tickers: [uniqueTicker()],
          metrics: ["revenue"],
          docTypes: ["10-K"]
        })
        assert.deepStrictEqual(none, [])
      }))

    it.effect("tables: by type and form, newest filing first, paged", () =>
      Effect.gen(function*() {
        const documents = yield* DocumentStore
        const store = yield* ExtractionStore
        const ticker = uniqueTicker()
        const older = sampleDocument({ ticker, docType: "10-K", filingDate: "2023-11-03" })
        const newer = sampleDocument({ ticker, docType: "10-K", filingDate: "2024-11-01" })
        yield* Effect.forEach([older, newer], documents.save)
        yield* store.save(older.publicationId, extraction(1, 2023))
        yield* store.save(newer.publicationId, extraction(2, 2024))

        const all = yield* store.tables({ tickers: [ticker], docTypes: ["10-K"], limit: 10, offset: 0 })
        assert.strictEqual(all.total, 6)
        assert.deepStrictEqual(
          all.results.map((hit) => [hit.document.publicationId, hit.table.id]),
          [
            [newer.publicationId, "t001"],
            [newer.publicationId, "t002"],
            [newer.publicationId, "t003"],
            [older.publicationId, "t001"],
            [older.publicationId, "t002"],
            [older.publicationId, "t003"]
          ]
        )
        assert.deepStrictEqual(all.results[2]?.table, extraction(2, 2024).tables[2])

        const statements = yield* store.tables({
          tickers: [ticker],
          docTypes: ["10-K"],
          tableTypes: ["income_statement"],
          limit: 1,
          offset: 1
        })
        assert.deepStrictEqual(
          [statements.total, statements.results.map((hit) => hit.document.publicationId)],
          [2, [older.publicationId]]
        )
        const quarterly = yield* store.tables({ tickers: [ticker], docTypes: ["10-Q"], limit: 10, offset: 0 })
        assert.strictEqual(quarterly.total, 0)
      }))
  })
}
