/**
 * Metrics read from income statement tables (for documents without XBRL): scale from the unit,
 * per-share rows unscaled, parentheses as negatives, one value per period column. Synthetic
 * tables first, then real earnings releases and a 10-K from the shared corpus (skipped where the
 * corpus is absent; values checked by eye).
 */
import { assert, describe, it } from "@effect/vitest"
import { Parser } from "@filings/filings-parser"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { corpusMissing, corpusUrl } from "../../../test/support/corpus.js"
import type { ReadTable } from "../src/internal/tables/readTables.js"
import { metricsFromIncomeStatement, parseAmount, selectTableMetrics } from "../src/internal/tables/tableMetrics.js"
import { extractTables } from "../src/Tables.js"

const corpus = corpusUrl

const statement = (rows: Array<Array<string>>, unit = "USD millions"): ReadTable => ({
  id: "t009",
  title: "CONSOLIDATED STATEMENTS OF OPERATIONS",
  section: "Item 8. Financial Statements",
  headers: ["", "Three Months Ended June 30, 2024", "Change", "Year Ended December 31, 2023"],
  rows,
  unit,
  tableType: "income_statement"
})

/** name → values in column order. */
const valuesOf = (table: ReadTable) => {
  const values: Record<string, Array<number>> = {}
  for (const metric of metricsFromIncomeStatement(table)) (values[metric.name] ??= []).push(metric.value)
  return values
}

describe("amounts", () => {
  it("reads signs, currency marks and dashes", () => {
    assert.strictEqual(parseAmount("$1,234.5"), 1234.5)
    assert.strictEqual(parseAmount("$(0.15)"), -0.15)
    assert.strictEqual(parseAmount("(565)"), -565)
    assert.strictEqual(parseAmount("—"), 0)
    assert.strictEqual(parseAmount("n/a"), undefined)
  })
})

describe("income statement metrics", () => {
  it("scales amounts, not per-share values, and skips change columns", () => {
    const table = statement([
      ["Revenue:", "", "", ""],
      ["Products", "$80", "5%", "$300"],
      ["Total revenue", "100", "4%", "400"],
      ["Net income (loss)", "$(12.5)", "n/m", "$40"],
      ["Earnings per share:", "", "", ""],
      ["Basic", "$(0.13)", "", "$0.41"],
      ["Diluted", "$(0.13)", "", "$0.40"],
      ["Shares used in computing earnings per share:", "", "", ""],
      ["Basic", "96", "", "97"]
    ])
    assert.deepStrictEqual(valuesOf(table), {
      revenue: [100e6, 400e6],
      net_income: [-12.5e6, 40e6],
      eps_basic: [-0.13, 0.41],
      eps_diluted: [-0.13, 0.4]
    })
    const first = metricsFromIncomeStatement(table)[0]
    assert.deepStrictEqual(first, {
      name: "revenue",
      value: 100e6,
      unit: "USD",
      column: "Three Months Ended June 30, 2024",
      periodEnd: "2024-06-30",
      months: 3,
      source: "table:t009:Total revenue"
    })
  })

  it("reads nothing from tables that are not income statements", () => {
    assert.deepStrictEqual(
      metricsFromIncomeStatement({ ...statement([["Total revenue", "1", "", "2"]]), tableType: "other" }),
      []
    )
  })
})

describe("the filing's own period from its income statements", () => {
  const release = (title = "CONDENSED CONSOLIDATED STATEMENTS OF INCOME"): ReadTable => ({
    id: "t002",
    title,
    section: "Exhibit 99.1",
    headers: [
      "",
      "Three Months Ended March 31, 2025",
      "Three Months Ended March 31, 2024",
      "Six Months Ended March 31, 2025",
      "Six Months Ended March 31, 2024"
    ],
    rows: [
      ["Total revenue", "$120", "$100", "$230", "$190"],
      ["Net income", "(6)", "4", "10", "8"],
      ["Diluted", "$(0.05)", "$0.04", "$0.09", "$0.07"]
    ],
    unit: "USD millions",
    tableType: "income_statement"
  })

  it("takes the quarter of an earnings release, with its year-earlier change", () => {
    const { metrics, warnings } = selectTableMetrics([release()], { form: "8-K", fiscalYearEnd: "0930" })
    assert.deepStrictEqual(metrics.revenue, {
      value: 120e6,
      unit: "USD",
      period: "Q2 2025",
      yoyChange: 0.2,
      source: "table:t002:Total revenue"
    })
    assert.strictEqual(metrics.net_income?.yoyChange, -2.5)
    assert.deepStrictEqual(warnings, [])
  })

  it("counts the quarter from a year-to-date column when the fiscal year end is unknown", () => {
    assert.strictEqual(selectTableMetrics([release()], {}).metrics.revenue?.period, "Q2 2025")
  })

  it("says when the quarter is only the calendar's", () => {
    const quarterOnly: ReadTable = {
      ...release(),
      headers: ["", "Three Months Ended March 31, 2025", "Three Months Ended March 31, 2024"],
      rows: [["Total revenue", "$120", "$100"]]
    }
    const { metrics, warnings } = selectTableMetrics([quarterOnly], { form: "8-K" })
    assert.strictEqual(metrics.revenue?.period, "Q1 2025")
    assert.match(warnings[0] ?? "", /calendar quarter/)
  })

  it("takes the year of an annual report and nothing from a 10-Q without quarter columns", () => {
    const annual: ReadTable = {
      ...release(),
      headers: ["", "Year Ended June 30, 2025", "Year Ended June 30, 2024"],
      rows: [["Total revenue", "$480", "$400"]]
    }
    assert.deepStrictEqual(selectTableMetrics([annual], { form: "10-K" }).metrics.revenue, {
      value: 480e6,
      unit: "USD",
      period: "FY 2025",
      yoyChange: 0.2,
      source: "table:t002:Total revenue"
    })
    const { metrics, warnings } = selectTableMetrics([annual], { form: "10-Q" })
    assert.deepStrictEqual(metrics, {})
    assert.match(warnings[0] ?? "", /3 months/)
  })

  it("skips pro forma and non-GAAP statements, and keeps the first of conflicting values", () => {
    assert.deepStrictEqual(selectTableMetrics([release("Unaudited Pro Forma Statement of Income")], {}).metrics, {})
    const restated: ReadTable = { ...release(), id: "t005", rows: [["Total revenue", "$125", "$100", "", ""]] }
    const { metrics, warnings } = selectTableMetrics([release(), restated], { fiscalYearEnd: "0930" })
    assert.strictEqual(metrics.revenue?.value, 120e6)
    assert.match(warnings.join("\n"), /revenue: table:t005:Total revenue gives 125000000/)
  })

  it("reads nothing from columns without dates", () => {
    const undated: ReadTable = { ...release(), headers: ["", "Current", "Prior", "", ""] }
    const { metrics, warnings } = selectTableMetrics([undated], {})
    assert.deepStrictEqual(metrics, {})
    assert.match(warnings[0] ?? "", /names its period/)
  })
})

describe.skipIf(corpusMissing)(`income statement metrics in the corpus in ../shared/corpus`, () => {
  const metricsOf = (path: string) =>
    Parser.parse({ bytes: readFileSync(new URL(path, corpus)), fileName: path }).pipe(
      Effect.map((document) =>
        extractTables(document).tables.filter((table) => table.tableType === "income_statement").flatMap(
          metricsFromIncomeStatement
        )
      )
    )

  it.effect("ADBE EX-99.1 Q1 FY2023 (in millions, except per share data)", () =>
    Effect.gen(function*() {
      const metrics = yield* metricsOf("press-releases/adbe-8k-2023-03-15-ex99-1.htm")
      const current = (name: string) =>
        metrics.find((metric) => metric.name === name && metric.column === "Three Months Ended March 3, 2023")
      assert.strictEqual(current("revenue")?.value, 4_655e6)
      assert.strictEqual(current("net_income")?.value, 1_247e6)
      assert.strictEqual(current("eps_basic")?.value, 2.72)
      assert.strictEqual(current("eps_diluted")?.value, 2.71)
      assert.strictEqual(current("revenue")?.periodEnd, "2023-03-03")
      assert.strictEqual(current("revenue")?.months, 3)
    }))

  it.effect("BKE EX-99.1 Q3 2024 (amounts in thousands), thirteen and thirty-nine weeks", () =>
    Effect.gen(function*() {
      const metrics = yield* metricsOf("press-releases/bke-8k-2024-11-22-ex99-1.htm")
      const revenue = metrics.filter((metric) => metric.name === "revenue")
      assert.deepStrictEqual(revenue.map((metric) => [metric.value, metric.months, metric.periodEnd]), [
        [293_618_000, 3, "2024-11-02"],
        [303_457_000, 3, "2023-10-28"],
        [838_490_000, 9, "2024-11-02"],
        [878_719_000, 9, "2023-10-28"]
      ])
      assert.deepStrictEqual(metrics.filter((metric) => metric.name === "eps_diluted").map((metric) => metric.value), [
        0.88,
        1.04,
        2.35,
        2.81
      ])
      assert.strictEqual(metrics.find((metric) => metric.name === "net_income")?.value, 44_172_000)
    }))

  it.effect("USB EX-99.1 Q4 2021: the hand-labelled credit figures sit in the tables, in USD millions", () =>
    Effect.gen(function*() {
      // labels/imtorg-press-release-labels.json labels bank credit figures (not in our metric list):
      // allowance (ACL), provision (PCL), net charge-offs and loans, in millions.
      const labels = JSON.parse(
        readFileSync(new URL("labels/imtorg-press-release-labels.json", corpus), "utf8")
      ) as { readonly USB: { readonly output: Record<string, Record<string, number>> } }
      const expected = Object.values(labels.USB.output)[0]
      const path = "press-releases/usb-8k-2022-01-ex99-1.htm"
      const document = yield* Parser.parse({ bytes: readFileSync(new URL(path, corpus)), fileName: path })
      const { tables } = extractTables(document)
      // The labelled value is the current-quarter column of its row in a table in USD millions.
      const reported = (label: string): Array<number | undefined> =>
        tables.filter((table) => table.unit === "USD millions").flatMap((table) =>
          table.rows.filter((row) => row[0] === label).map((row) => parseAmount(row[1] ?? ""))
        )
      assert.include(reported("Total loans"), expected?.Loans)
      assert.include(reported("Total net charge-offs"), expected?.ChargeOffs)
      assert.include(reported("Provision for credit losses"), expected?.PCL)
      assert.include(reported("Balance, end of period"), expected?.ACL)
    }))

  it.effect("AAPL 10-K FY2024 income statement", () =>
    Effect.gen(function*() {
      const metrics = yield* metricsOf("10-K/aapl-10k-fy2024.htm")
      const fy2024 = (name: string) =>
        metrics.find((metric) => metric.name === name && metric.periodEnd === "2024-09-28")?.value
      assert.deepStrictEqual(
        ["revenue", "gross_profit", "operating_income", "net_income", "eps_basic", "eps_diluted"].map(fy2024),
        [391_035e6, 180_683e6, 123_216e6, 93_736e6, 6.11, 6.08]
      )
    }))
})
