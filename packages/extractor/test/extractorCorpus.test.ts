/**
 * Where a filing's metrics come from, on real filings of the shared corpus (skipped where it is
 * absent): the XBRL when the filing has it, else the EX-27 financial data schedule of a 1997-2001
 * filing, else the income statement of an earnings release. Values checked against the documents.
 */
import { assert, describe, it } from "@effect/vitest"
import { Parser } from "@filings/filings-parser"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { corpusMissing, corpusUrl } from "../../../test/support/corpus.js"
import { extract } from "../src/Extractor.js"

const corpus = corpusUrl

const extractFile = (path: string) =>
  Effect.gen(function*() {
    const bytes = readFileSync(new URL(path, corpus))
    const parsed = yield* Parser.parse({ bytes, fileName: path })
    return yield* extract({ bytes, parsed, publicationId: "0000000000-00-000000" })
  })

describe.skipIf(corpusMissing)(`metric sources on the corpus in ../shared/corpus`, () => {
  it.effect("an 8-K without financial XBRL: the quarter of its EX-99.1 income statement", () =>
    Effect.gen(function*() {
      const { metrics, tables } = yield* extractFile("8-K/adbe-8k-2023-03-15-full-submission.txt")
      // Adobe's fiscal year ends on the Friday nearest December 1 (header: 1202): March 3 closes Q1.
      assert.deepStrictEqual(metrics.revenue, {
        value: 4_655e6,
        unit: "USD",
        period: "Q1 2023",
        yoyChange: (4_655 - 4_262) / 4_262,
        source: "table:t007:Total revenue"
      })
      assert.strictEqual(metrics.net_income?.value, 1_247e6)
      assert.strictEqual(metrics.eps_diluted?.value, 2.71)
      assert.isUndefined(metrics.total_assets, "the release's balance sheet is not read for metrics")
      const statement = tables.find((table) => table.id === "t007")
      assert.strictEqual(statement?.section, "Exhibit 99.1")
      assert.strictEqual(statement?.tableType, "income_statement")
    }))

  it.effect("a 10-Q of 2000: the EX-27 financial data schedule", () =>
    Effect.gen(function*() {
      const { metrics } = yield* extractFile("old-text/aapl-10q-2000-04-01-full-submission.txt")
      assert.deepStrictEqual(metrics.revenue, {
        value: 1_945e6,
        unit: "USD",
        period: "Q2 2000",
        source: "fds:TOTAL-REVENUES"
      })
      assert.deepStrictEqual(
        [metrics.net_income?.value, metrics.eps_basic?.value, metrics.eps_diluted?.value],
        [233e6, 1.44, 1.28]
      )
      assert.deepStrictEqual(metrics.total_assets, {
        value: 7_007e6,
        unit: "USD",
        period: "Q2 2000",
        asOf: "2000-04-01",
        source: "fds:TOTAL-ASSETS"
      })
    }))

  it.effect("a 10-K with inline XBRL: the XBRL only, though its income statement is a table too", () =>
    Effect.gen(function*() {
      const { metrics } = yield* extractFile("10-K/aapl-10k-fy2024.htm")
      assert.strictEqual(metrics.revenue?.value, 391_035e6)
      assert.strictEqual(metrics.revenue?.period, "FY 2024")
      assert.match(metrics.revenue?.source ?? "", /^us-gaap:/)
      assert.isTrue(Object.values(metrics).every((metric) => !metric?.source.startsWith("table:")))
    }))
})
