/**
 * The quality bar on real filings from the shared corpus (`../shared/corpus/`, never copied into the
 * project): every metric whose concept the regulator's companyfacts data holds for the filing's
 * accession number and period must carry exactly the regulator's value and period. Skipped where the
 * corpus is absent.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { corpusMissing, corpusUrl } from "../../../test/support/corpus.js"
import { metricNames } from "../src/internal/xbrl/concepts.js"
import { readInlineFacts } from "../src/internal/xbrl/inlineFacts.js"
import { readInstanceFacts } from "../src/internal/xbrl/instanceFacts.js"
import { type Selection, selectMetrics } from "../src/internal/xbrl/select.js"
import { extractMetrics } from "../src/Metrics.js"
import { type CompanyFacts, expectedMetric } from "./support/xbrlCompanyFacts.js"

const corpus = corpusUrl
const read = (path: string): string => readFileSync(new URL(path, corpus), "utf8")

const companyFactsCache = new Map<string, CompanyFacts>()
const companyFacts = (ticker: string): CompanyFacts => {
  let facts = companyFactsCache.get(ticker)
  if (facts === undefined) {
    facts = JSON.parse(read(`xbrl/${ticker}-companyfacts.json`)) as CompanyFacts
    companyFactsCache.set(ticker, facts)
  }
  return facts
}

interface CorpusFiling {
  readonly name: string
  readonly ticker: string
  readonly path: string
  readonly accn: string
  readonly endDate: string
  readonly label: string
  /** Metrics the regulator's data must confirm for this filing (a floor, so a regression cannot pass silently). */
  readonly mustMatch: ReadonlyArray<string>
}

/**
 * The metrics that one companyfacts concept confirms: all but `total_debt`, derived from several
 * concepts (checked by hand below), and `book_value_per_share`, derived from two others.
 */
const singleConceptMetrics = metricNames.filter((name) => name !== "total_debt" && name !== "book_value_per_share")

/** Those of a filer that reports no gross profit (GOOG). */
const withoutGrossProfit = singleConceptMetrics.filter((name) => name !== "gross_profit")

const filings: ReadonlyArray<CorpusFiling> = [
  {
    name: "AAPL 10-K FY2024",
    ticker: "aapl",
    path: "10-K/aapl-10k-fy2024.htm",
    accn: "0000320193-24-000123",
    endDate: "2024-09-28",
    label: "FY 2024",
    mustMatch: singleConceptMetrics
  },
  {
    name: "AAPL 10-Q 2023-07-01",
    ticker: "aapl",
    path: "10-Q/aapl-10q-2023-07-01.htm",
    accn: "0000320193-23-000077",
    endDate: "2023-07-01",
    label: "Q3 2023",
    mustMatch: singleConceptMetrics
  },
  {
    name: "AAPL 10-Q instance 2023-07-01",
    ticker: "aapl",
    path: "xbrl/aapl-10q-2023-07-01-instance.xml",
    accn: "0000320193-23-000077",
    endDate: "2023-07-01",
    label: "Q3 2023",
    mustMatch: singleConceptMetrics
  },
  {
    name: "AAPL 10-Q 2025-03-29",
    ticker: "aapl",
    path: "10-Q/aapl-10q-2025-03-29.htm",
    accn: "0000320193-25-000057",
    endDate: "2025-03-29",
    label: "Q2 2025",
    mustMatch: singleConceptMetrics
  },
  {
    name: "AAPL 10-Q instance 2025-03-29",
    ticker: "aapl",
    path: "xbrl/aapl-10q-2025-03-29-instance.xml",
    accn: "0000320193-25-000057",
    endDate: "2025-03-29",
    label: "Q2 2025",
    mustMatch: singleConceptMetrics
  },
  {
    name: "NVDA 10-K FY2024",
    ticker: "nvda",
    path: "10-K/nvda-10k-fy2024.htm",
    accn: "0001045810-24-000029",
    endDate: "2024-01-28",
    label: "FY 2024",
    mustMatch: singleConceptMetrics
  },
  {
    name: "GOOG 10-K FY2023",
    ticker: "goog",
    path: "10-K/goog-10k-fy2023.htm",
    accn: "0001652044-24-000022",
    endDate: "2023-12-31",
    label: "FY 2023",
    mustMatch: withoutGrossProfit
  },
  {
    name: "GOOG 10-Q 2023-06-30",
    ticker: "goog",
    path: "10-Q/goog-10q-2023-06-30.htm",
    accn: "0001652044-23-000070",
    endDate: "2023-06-30",
    label: "Q2 2023",
    mustMatch: withoutGrossProfit
  }
]

const select = (path: string): Selection => {
  const text = read(path)
  return selectMetrics(path.endsWith(".xml") ? readInstanceFacts(text) : readInlineFacts(text))
}

describe.skipIf(corpusMissing)(`metrics against the regulator's companyfacts in ../shared/corpus`, () => {
  for (const filing of filings) {
    it(`${filing.name}: every metric the regulator reports matches exactly`, () => {
      const selection = select(filing.path)
      assert.strictEqual(selection.period?.endDate, filing.endDate)
      assert.strictEqual(selection.period?.label, filing.label)
      const quarterly = filing.label.startsWith("Q")
      const matched: Array<string> = []
      for (const name of singleConceptMetrics) {
        const expected = expectedMetric(companyFacts(filing.ticker), name, filing.accn, {
          endDate: filing.endDate,
          quarterly
        })
        const actual = selection.metrics[name]
        if (expected === undefined) continue
        assert.isDefined(actual, `${name}: the regulator reports ${expected.concept} = ${expected.fact.val}`)
        if (actual === undefined) continue
        assert.strictEqual(actual.source, expected.concept, name)
        assert.strictEqual(actual.value, expected.fact.val, `${name} (${expected.concept})`)
        assert.strictEqual(actual.endDate, expected.fact.end, `${name} end`)
        assert.strictEqual(actual.period, filing.label, `${name} period`)
        assert.strictEqual(
          actual.asOf,
          expected.fact.start === undefined ? expected.fact.end : undefined,
          `${name} as_of`
        )
        assert.strictEqual(actual.startDate, expected.fact.start, `${name} start`)
        assert.strictEqual(actual.unit, expected.unit.replace("/shares", ""), `${name} unit`)
        matched.push(name)
      }
      for (const name of filing.mustMatch) assert.include(matched, name, `${name} confirmed by the regulator's data`)
    })
  }

  it.effect("AAPL 10-K FY2024: the public result, with changes against fiscal 2023", () =>
    Effect.gen(function*() {
      const { metrics, period, warnings } = yield* extractMetrics({ inlineXbrl: read("10-K/aapl-10k-fy2024.htm") })
      assert.strictEqual(period?.label, "FY 2024")
      assert.deepStrictEqual(metrics.revenue, {
        value: 391_035_000_000,
        unit: "USD",
        period: "FY 2024",
        yoyChange: (391_035 - 383_285) / 383_285,
        source: "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"
      })
      assert.deepStrictEqual(metrics.total_debt, {
        value: 96_662_000_000,
        unit: "USD",
        period: "FY 2024",
        asOf: "2024-09-28",
        yoyChange: (96_662 - 105_103) / 105_103,
        source: "us-gaap:LongTermDebt"
      })
      assert.deepStrictEqual(metrics.book_value_per_share, {
        value: 56_950_000_000 / 15_115_823_000,
        unit: "USD",
        period: "FY 2024",
        asOf: "2024-09-28",
        source: "derived"
      })
      assert.isFalse(warnings.some((warning) => warning.includes("conflicting")))
    }))

  it("the inline document and its XBRL instance give the same metrics (AAPL 10-Q 2025-03-29)", () => {
    const inline = select("10-Q/aapl-10q-2025-03-29.htm")
    const instance = select("xbrl/aapl-10q-2025-03-29-instance.xml")
    assert.deepStrictEqual(instance.metrics, inline.metrics)
  })

  it("CRR 10-K FY2017 instance (no companyfacts in the corpus): the reported statements' values", () => {
    const { metrics, period } = select("xbrl/crr-10k-fy2017-instance.xml")
    assert.strictEqual(period?.label, "FY 2017")
    assert.deepStrictEqual(
      Object.fromEntries(Object.entries(metrics).map(([name, metric]) => [name, [metric.value, metric.source]])),
      {
        revenue: [188_756_000, "us-gaap:SalesRevenueNet"],
        net_income: [-253_116_000, "us-gaap:NetIncomeLoss"],
        gross_profit: [-53_325_000, "us-gaap:GrossProfit"],
        operating_income: [-248_383_000, "us-gaap:OperatingIncomeLoss"],
        eps_basic: [-9.49, "us-gaap:EarningsPerShareBasic"],
        eps_diluted: [-9.49, "us-gaap:EarningsPerShareDiluted"],
        total_assets: [540_598_000, "us-gaap:Assets"],
        total_equity: [405_765_000, "us-gaap:StockholdersEquity"],
        total_debt: [87_738_000, "derived"],
        cash_and_equivalents: [68_169_000, "us-gaap:CashAndCashEquivalentsAtCarryingValue"],
        shares_outstanding: [27_414_445, "dei:EntityCommonStockSharesOutstanding"],
        book_value_per_share: [405_765_000 / 27_414_445, "derived"]
      }
    )
  })

  it("WAT 8-K instance: a cover page only, so a period and no metrics", () => {
    const { metrics, period } = select("xbrl/wat-8k-2024-01-08-instance.xml")
    assert.strictEqual(period?.documentType, "8-K")
    assert.strictEqual(period?.endDate, "2024-01-08")
    assert.deepStrictEqual(metrics, {})
  })

  it.effect("WFC 10-K FY2024 (a bank, statements in the EX-13 not included): only the cover share count, nothing guessed", () =>
    Effect.gen(function*() {
      const { metrics, period } = yield* extractMetrics({ inlineXbrl: read("10-K/wfc-10k-fy2024.htm") })
      assert.strictEqual(period?.label, "FY 2024")
      assert.deepStrictEqual(metrics, {
        shares_outstanding: {
          value: 3_288_186_582,
          unit: "shares",
          period: "FY 2024",
          asOf: "2025-02-14",
          source: "dei:EntityCommonStockSharesOutstanding"
        }
      })
    }))

  it.effect("META 10-Q 2019-03-31 (before inline XBRL): UnusableXbrl", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(extractMetrics({ inlineXbrl: read("10-Q/meta-10q-2019-03-31.htm") }))
      assert.strictEqual(error.reason, "no facts")
    }))
})
