/**
 * total_debt on real filings of several companies in the shared corpus (`../shared/corpus/`, never
 * copied into the project). Each expected value was checked by hand against the filing's balance
 * sheet and debt note: term debt, current portion included, as carried, commercial paper and
 * operating leases left out, finance leases only where the filer's debt lines include them.
 * Skipped where the corpus is absent.
 */
import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { corpusMissing, corpusUrl } from "../../../test/support/corpus.js"
import { readInlineFacts } from "../src/internal/xbrl/inlineFacts.js"
import { readInstanceFacts } from "../src/internal/xbrl/instanceFacts.js"
import { selectMetrics } from "../src/internal/xbrl/select.js"

const corpus = corpusUrl

interface DebtCase {
  readonly name: string
  readonly path: string
  readonly asOf: string
  readonly value: number
  /** What the filing shows, in millions unless said otherwise. */
  readonly why: string
}

const cases: ReadonlyArray<DebtCase> = [
  {
    name: "AAPL 10-K FY2024",
    path: "10-K/aapl-10k-fy2024.htm",
    asOf: "2024-09-28",
    value: 96_662_000_000,
    why: "term debt 10,912 current + 85,750 non-current = LongTermDebt 96,662; commercial paper 9,967 excluded"
  },
  {
    name: "AAPL 10-Q Q3 FY2023",
    path: "10-Q/aapl-10q-2023-07-01.htm",
    asOf: "2023-07-01",
    value: 105_287_000_000,
    why: "term debt 7,216 + 98,071 as carried; the note's principal $105.3 billion (LongTermDebt, decimals -8) agrees"
  },
  {
    name: "AAPL 10-Q Q2 FY2025 (XBRL instance)",
    path: "xbrl/aapl-10q-2025-03-29-instance.xml",
    asOf: "2025-03-29",
    value: 92_204_000_000,
    why: "term debt 13,638 + 78,566 as carried; the note's $92.2 billion agrees"
  },
  {
    name: "NVDA 10-K FY2024",
    path: "10-K/nvda-10k-fy2024.htm",
    asOf: "2024-01-28",
    value: 9_709_000_000,
    why: "short-term debt 1,250 (the 2024 notes) + long-term debt 8,459 = LongTermDebt 9,709"
  },
  {
    name: "GOOG 10-K FY2023",
    path: "10-K/goog-10k-fy2023.htm",
    asOf: "2023-12-31",
    value: 14_616_000_000,
    why: "debt note: total debt 14,746 (notes 13,000 + finance leases 1,746) less unamortized discount 130, i.e. " +
      "long-term 13,253 + current notes 1,000 + current finance leases 363; LongTermDebt 14,862 is the maturity total"
  },
  {
    name: "GOOG 10-Q Q2 2023",
    path: "10-Q/goog-10q-2023-06-30.htm",
    asOf: "2023-06-30",
    value: 15_022_000_000,
    why: "debt note: total debt 15,159 less discount 137 = long-term 13,705 + current notes 999 + current leases 318"
  },
  {
    name: "GME 10-K FY2023",
    path: "10-K/gme-10k-fy2023.htm",
    asOf: "2024-02-03",
    value: 28_500_000,
    why: "current portion of long-term debt 10.8 + long-term debt 17.7 (LongTermNotesPayable) = LongTermDebt 28.5"
  },
  {
    name: "GME 10-Q Q2 2023",
    path: "10-Q/gme-10q-2023-07-29.htm",
    asOf: "2023-07-29",
    value: 34_600_000,
    why: "current portion 11.0 + long-term debt 23.6 = LongTermDebt 34.6 (French term loans)"
  },
  {
    name: "MARA 10-K FY2023",
    path: "10-K/mara-10k-fy2023.htm",
    asOf: "2023-12-31",
    value: 325_654_000,
    why: "convertible notes payable 325,654 thousand, term loan nil, no current portion"
  },
  {
    name: "CRR 10-K FY2017 (XBRL instance)",
    path: "xbrl/crr-10k-fy2017-instance.xml",
    asOf: "2017-12-31",
    value: 87_738_000,
    why: "balance sheet: long-term debt, net 60,698 thousand (tagged LongTermDebt) and notes payable to related " +
      "parties 27,040 thousand on a line of its own; no current portion"
  }
]

const read = (path: string) => {
  const text = readFileSync(new URL(path, corpus), "utf8")
  return selectMetrics(path.endsWith(".xml") ? readInstanceFacts(text) : readInlineFacts(text))
}

describe.skipIf(corpusMissing)("total_debt on corpus filings of several companies, checked by hand", () => {
  for (const debtCase of cases) {
    it(`${debtCase.name}: ${debtCase.why}`, () => {
      const { metrics } = read(debtCase.path)
      assert.strictEqual(metrics.total_debt?.value, debtCase.value)
      assert.strictEqual(metrics.total_debt?.asOf, debtCase.asOf)
      assert.strictEqual(metrics.total_debt?.unit, "USD")
    })
  }

  it("CRR 10-K FY2017: the year before counts its current portion too (13,000 + 42,404 + 25,000 thousand)", () => {
    const { metrics, warnings } = read("xbrl/crr-10k-fy2017-instance.xml")
    assert.strictEqual(metrics.total_debt?.yoyChange, (87_738 - 80_404) / 80_404)
    // The current year's lines and total are consistent: no warning for it.
    assert.isFalse(warnings.some((warning) => warning.startsWith("total_debt")))
  })

  it("GOOG 10-K FY2023: the change is against the same reading of fiscal 2022 (14,701 + 298 + 0)", () => {
    const { metrics } = read("10-K/goog-10k-fy2023.htm")
    assert.strictEqual(metrics.total_debt?.yoyChange, (14_616 - 14_999) / 14_999)
  })
})
