/**
 * The quick start of README.md, run for real so it cannot drift: each block between the markers
 * below must appear verbatim under the README's "Quick start" heading, and is run here on a small
 * inline XBRL annual report and, where the shared corpus is present, on Apple's 10-K for fiscal 2024.
 */
import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { corpusMissing, corpusUrl } from "../../../test/support/corpus.js"
import { itShowsQuickStart } from "../../../test/support/quickStart.js"
import { annualReportFy2024 } from "./support/xbrlSnippets.js"

// README:effect:start
import { Extractor } from "@filings/extractor"
import { Parser } from "@filings/filings-parser"
import { Effect } from "effect"

// bytes: a filing as EDGAR serves it, e.g. await readFile("aapl-20240928.htm")
export const revenueOf = (bytes: Uint8Array) =>
  Effect.gen(function*() {
    const parsed = yield* Parser.parse({ bytes })
    const { metrics } = yield* Extractor.extract({ bytes, parsed, publicationId: "0000320193-24-000123" })
    return metrics.revenue // { value: 391035000000, unit: "USD", period: "FY 2024", yoyChange, source }
  })
// README:effect:end

// README:promise:start
import { extractFiling } from "@filings/extractor"

// The same without Effect: bytes or a string in, parsed for you; rejects with the parser's errors
export const netIncomeOf = async (filing: Uint8Array | string) => {
  const { metrics } = await extractFiling(filing, { fileName: "aapl-20240928.htm" })
  return metrics.net_income?.value // 93736000000, in metrics.net_income.unit ("USD")
}
// README:promise:end

const annualReport = annualReportFy2024

const corpusFiling = new URL("10-K/aapl-10k-fy2024.htm", corpusUrl)

describe("README quick start", () => {
  itShowsQuickStart(import.meta.url, ["effect", "promise"])

  it.effect("Effect: the revenue an annual report tags", () =>
    Effect.gen(function*() {
      const revenue = yield* revenueOf(new TextEncoder().encode(annualReport))
      assert.deepStrictEqual(revenue, {
        value: 391_035_000_000,
        unit: "USD",
        period: "FY 2024",
        yoyChange: (391_035 - 383_285) / 383_285,
        source: "us-gaap:Revenues"
      })
    }))

  it("Promise: the net income an annual report tags", async () => {
    assert.strictEqual(await netIncomeOf(annualReport), 93_736_000_000)
  })

  it.effect.skipIf(corpusMissing)(
    "both on Apple's 10-K for fiscal 2024 (shared corpus)",
    () =>
      Effect.gen(function*() {
        const bytes = readFileSync(corpusFiling)
        const revenue = yield* revenueOf(bytes)
        assert.strictEqual(revenue?.value, 391_035_000_000)
        assert.strictEqual(revenue?.unit, "USD")
        assert.strictEqual(revenue?.period, "FY 2024")
        assert.strictEqual(yield* Effect.promise(() => netIncomeOf(bytes)), 93_736_000_000)
      })
  )
})
