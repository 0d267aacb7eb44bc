/**
 * The metric rules on small synthetic inline XBRL documents: scale, sign, formats, dimensions,
 * duplicates, broken contexts, the 10-Q quarter against year-to-date, and the change against the prior year.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { readInlineFacts } from "../src/internal/xbrl/inlineFacts.js"
import { readInstanceFacts } from "../src/internal/xbrl/instanceFacts.js"
import { parseDate } from "../src/internal/xbrl/select.js"
import { extractMetrics } from "../src/Metrics.js"
import { annualContexts, inlineDocument, nonFraction } from "./support/xbrlSnippets.js"

const annual = (body: string) =>
  inlineDocument({ periodEnd: "2024-09-28", fiscalYear: "2024", fiscalPeriod: "FY", contexts: annualContexts, body })

const valueOf = (html: string, concept: string): number | null | undefined =>
  readInlineFacts(html).numericFacts.find((fact) => fact.concept === concept)?.value

describe("inline facts", () => {
  it("applies scale, sign and the ixt number formats", () => {
    const cases: ReadonlyArray<readonly [string, Record<string, string>, number | null | undefined]> = [
      ["391,035", {}, 391_035_000_000],
      ["6.11", { scale: "0", format: "ixt:numdotdecimal" }, 6.11],
      ["1.234,5", { scale: "3", format: "ixt:num-comma-decimal" }, 1_234_500],
      ["1 234,5", { scale: "0", format: "ixt:numcommadecimal" }, 1234.5],
      ["—", { format: "ixt:fixed-zero" }, 0],
      ["-", { format: "ixt:zerodash" }, 0],
      ["(1,502)", { sign: "-" }, -1_502_000_000],
      ["12.5", { scale: "-2", format: "ixt:num-dot-decimal" }, 0.125],
      ["two", { scale: "0", format: "ixt-sec:numwordsen" }, 2]
    ]
    for (const [text, attributes, expected] of cases) {
      const html = annual(nonFraction("us-gaap:Revenues", "fy24", text.replace(/[()]/g, ""), attributes))
      assert.strictEqual(valueOf(html, "us-gaap:Revenues"), expected, `${text} ${JSON.stringify(attributes)}`)
    }
  })

  it("reads nil facts as null and skips unknown formats with a warning", () => {
    const nil = annual(
      `<tr><td><ix:nonFraction name="us-gaap:Revenues" contextRef="fy24" unitRef="usd" xsi:nil="true"/></td></tr>` +
        nonFraction("us-gaap:GrossProfit", "fy24", "12", { format: "ixt:num-unknown" })
    )
    const facts = readInlineFacts(nil)
    assert.strictEqual(facts.numericFacts.find((fact) => fact.concept === "us-gaap:Revenues")?.value, null)
    assert.isUndefined(facts.numericFacts.find((fact) => fact.concept === "us-gaap:GrossProfit"))
    assert.isTrue(facts.warnings.some((warning) => warning.includes("us-gaap:GrossProfit")))
  })

  it("reads nested nonFraction facts: both the outer and the inner value", () => {
    const html = annual(
      `<tr><td><ix:nonFraction name="us-gaap:Revenues" contextRef="fy24" unitRef="usd" decimals="-6" scale="6"><ix:nonFraction name="us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax" contextRef="fy24" unitRef="usd" decimals="-6" scale="6">1,000</ix:nonFraction></ix:nonFraction></td></tr>`
    )
    assert.strictEqual(valueOf(html, "us-gaap:Revenues"), 1_000_000_000)
    assert.strictEqual(valueOf(html, "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"), 1_000_000_000)
  })

  it("reads contexts with dimensions and divided units", () => {
    const facts = readInlineFacts(annual(""))
    assert.deepStrictEqual(facts.units.get("usdPerShare")?.measure, "USD/shares")
    assert.deepStrictEqual(facts.units.get("shares")?.measure, "shares")
    assert.deepStrictEqual(facts.contexts.get("fy24"), {
      id: "fy24",
      entity: "0000000001",
      startDate: "2023-10-01",
      endDate: "2024-09-28",
      dimensions: []
    })
  })

  it("reads an XBRL instance into the same model", () => {
    const xml =
      `<?xml version="1.0"?><xbrl xmlns="http://www.xbrl.org/2003/instance" xmlns:us-gaap="http://fasb.org/us-gaap/2017-01-31" xmlns:xbrldi="http://xbrl.org/2006/xbrldi">
<context id="D2017"><entity><identifier scheme="http://www.sec.gov/CIK">1</identifier></entity><period><startDate>2017-01-01</startDate><endDate>2017-12-31</endDate></period></context>
<context id="D2017_seg"><entity><identifier scheme="http://www.sec.gov/CIK">1</identifier><segment><xbrldi:typedMember dimension="x:Axis"><x:m>7</x:m></xbrldi:typedMember></segment></entity><period><startDate>2017-01-01</startDate><endDate>2017-12-31</endDate></period></context>
<unit id="USD"><measure>iso4217:USD</measure></unit>
<us-gaap:NetIncomeLoss contextRef="D2017" unitRef="USD" decimals="-3">-253116000</us-gaap:NetIncomeLoss>
<us-gaap:Revenues contextRef="D2017_seg" unitRef="USD" decimals="-3">1.5E3</us-gaap:Revenues>
</xbrl>`
    const facts = readInstanceFacts(xml)
    assert.deepStrictEqual(facts.numericFacts.map((fact) => [fact.concept, fact.value]), [
      ["us-gaap:NetIncomeLoss", -253_116_000],
      ["us-gaap:Revenues", 1500]
    ])
    assert.deepStrictEqual(facts.contexts.get("D2017_seg")?.dimensions, ["x:Axis=7"])
    assert.deepStrictEqual(facts.units.get("USD")?.measure, "USD")
  })

  it("parses the cover date formats", () => {
    assert.strictEqual(parseDate("September 28, 2024"), "2024-09-28")
    assert.strictEqual(parseDate("Sept. 1 2024"), "2024-09-01")
    assert.strictEqual(parseDate("28 September 2024"), "2024-09-28")
    assert.strictEqual(parseDate("2017-12-31"), "2017-12-31")
    assert.isUndefined(parseDate("the end of the year"))
  })
})

describe("extractMetrics", () => {
  it.effect("reads an annual report: values, units, the document's period on every metric with balances' as_of, sources and the change against the prior year", () =>
    Effect.gen(function*() {
      const html = annual(
        nonFraction("us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax", "fy24", "391,035") +
          nonFraction("us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax", "fy23", "383,285") +
          nonFraction("us-gaap:EarningsPerShareBasic", "fy24", "6.11", { unitRef: "usdPerShare", scale: "0" }) +
          nonFraction("us-gaap:StockholdersEquity", "i24", "56,950") +
          nonFraction("dei:EntityCommonStockSharesOutstanding", "cover", "15,115,823", {
            unitRef: "shares",
            scale: "3"
          }) +
          nonFraction("us-gaap:LongTermDebtCurrent", "i24", "10,912") +
          nonFraction("us-gaap:LongTermDebtNoncurrent", "i24", "85,750")
      )
      const result = yield* extractMetrics({ inlineXbrl: html })
      assert.deepStrictEqual(result.metrics.revenue, {
        value: 391_035_000_000,
        unit: "USD",
        period: "FY 2024",
        yoyChange: (391_035 - 383_285) / 383_285,
        source: "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"
      })
      assert.deepStrictEqual(result.metrics.eps_basic, {
        value: 6.11,
        unit: "USD",
        period: "FY 2024",
        source: "us-gaap:EarningsPerShareBasic"
      })
      assert.deepStrictEqual(result.metrics.total_equity, {
        value: 56_950_000_000,
        unit: "USD",
        period: "FY 2024",
        asOf: "2024-09-28",
        source: "us-gaap:StockholdersEquity"
      })
      assert.deepStrictEqual(result.metrics.shares_outstanding, {
        value: 15_115_823_000,
        unit: "shares",
        period: "FY 2024",
        asOf: "2024-10-18",
        source: "dei:EntityCommonStockSharesOutstanding"
      })
      assert.deepStrictEqual(result.metrics.book_value_per_share, {
        value: 56_950_000_000 / 15_115_823_000,
        unit: "USD",
        period: "FY 2024",
        asOf: "2024-09-28",
        source: "derived"
      })
      assert.deepStrictEqual(result.metrics.total_debt, {
        value: 96_662_000_000,
        unit: "USD",
        period: "FY 2024",
        asOf: "2024-09-28",
        source: "derived"
      })
      assert.isUndefined(result.metrics.net_income)
      assert.isUndefined(result.metrics.total_liabilities)
      assert.strictEqual(result.period?.label, "FY 2024")
      assert.strictEqual(result.period?.endDate, "2024-09-28")
    }))

  it.effect("prefers concepts in order: Revenues before the ASC 606 concept, NetIncomeLoss before ProfitLoss", () =>
    Effect.gen(function*() {
      const html = annual(
        nonFraction("us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax", "fy24", "90") +
          nonFraction("us-gaap:Revenues", "fy24", "100") +
          nonFraction("us-gaap:ProfitLoss", "fy24", "12") +
          nonFraction("us-gaap:NetIncomeLoss", "fy24", "10") +
          nonFraction("us-gaap:CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents", "i24", "8") +
          nonFraction("us-gaap:CashAndCashEquivalentsAtCarryingValue", "i24", "7") +
          nonFraction("us-gaap:LongTermDebt", "i24", "50") +
          nonFraction("us-gaap:LongTermDebtNoncurrent", "i24", "45")
      )
      const { metrics } = yield* extractMetrics({ inlineXbrl: html })
      assert.deepStrictEqual(
        [
          metrics.revenue?.source,
          metrics.net_income?.source,
          metrics.cash_and_equivalents?.source,
          metrics.total_debt?.source
        ],
        [
          "us-gaap:Revenues",
          "us-gaap:NetIncomeLoss",
          "us-gaap:CashAndCashEquivalentsAtCarryingValue",
          "us-gaap:LongTermDebt"
        ]
      )
      assert.deepStrictEqual([metrics.revenue?.value, metrics.cash_and_equivalents?.value], [100_000_000, 7_000_000])
    }))

  it.effect("never takes a fact with dimensions as a total", () =>
    Effect.gen(function*() {
      const html = inlineDocument({
        periodEnd: "2024-09-28",
        fiscalYear: "2024",
        fiscalPeriod: "FY",
        contexts: [...annualContexts, {
          id: "fy24iphone",
          start: "2023-10-01",
          end: "2024-09-28",
          members: ["srt:ProductOrServiceAxis=aapl:IPhoneMember"]
        }],
        body: nonFraction("us-gaap:Revenues", "fy24iphone", "201,183") + nonFraction("us-gaap:GrossProfit", "fy24", "5")
      })
      const { metrics } = yield* extractMetrics({ inlineXbrl: html })
      assert.isUndefined(metrics.revenue)
      assert.strictEqual(metrics.gross_profit?.value, 5_000_000)
    }))

  it.effect("collapses agreeing duplicates and omits a concept with conflicting ones, with a warning", () =>
    Effect.gen(function*() {
      const html = annual(
        nonFraction("us-gaap:Revenues", "fy24", "391,035") +
          nonFraction("us-gaap:Revenues", "fy24", "391,035,000", { scale: "3", decimals: "-3" }) +
          nonFraction("us-gaap:NetIncomeLoss", "fy24", "93,736") +
          nonFraction("us-gaap:NetIncomeLoss", "fy24", "93,737") +
          nonFraction("us-gaap:ProfitLoss", "fy24", "94,000")
      )
      const { metrics, warnings } = yield* extractMetrics({ inlineXbrl: html })
      assert.strictEqual(metrics.revenue?.value, 391_035_000_000)
      // Conflicting NetIncomeLoss: omitted, and not replaced by the next synonym either.
      assert.isUndefined(metrics.net_income)
      assert.isTrue(
        warnings.some((warning) => warning.includes("conflicting") && warning.includes("us-gaap:NetIncomeLoss"))
      )
      assert.isFalse(
        warnings.some((warning) => warning.includes("conflicting") && warning.includes("us-gaap:Revenues"))
      )
    }))

  it.effect("skips a fact whose context is missing, with a warning", () =>
    Effect.gen(function*() {
      const html = annual(nonFraction("us-gaap:Revenues", "nowhere", "1") + nonFraction("us-gaap:Assets", "i24", "2"))
      const { metrics, warnings } = yield* extractMetrics({ inlineXbrl: html })
      assert.isUndefined(metrics.revenue)
      assert.strictEqual(metrics.total_assets?.value, 2_000_000)
      assert.include(warnings.join("\n"), `context "nowhere" is not defined: 1 fact(s) skipped`)
    }))

  it.effect("takes the three-month quarter of a 10-Q, not the year to date, and its change from a year before", () =>
    Effect.gen(function*() {
      const html = inlineDocument({
        periodEnd: "2023-07-01",
        fiscalYear: "2023",
        fiscalPeriod: "Q3",
        documentType: "10-Q",
        documentContext: { id: "doc", start: "2022-09-25", end: "2023-07-01" },
        contexts: [
          { id: "q3", start: "2023-04-02", end: "2023-07-01" },
          { id: "q3prior", start: "2022-03-27", end: "2022-06-25" },
          { id: "ytd", start: "2022-09-25", end: "2023-07-01" },
          { id: "ytdprior", start: "2021-09-26", end: "2022-06-25" },
          { id: "bs", instant: "2023-07-01" },
          { id: "fyend", instant: "2022-09-24" }
        ],
        body: nonFraction("us-gaap:Revenues", "ytd", "293,787") +
          nonFraction("us-gaap:Revenues", "q3", "81,797") +
          nonFraction("us-gaap:Revenues", "ytdprior", "304,182") +
          nonFraction("us-gaap:Revenues", "q3prior", "82,959") +
          nonFraction("us-gaap:NetIncomeLoss", "ytd", "74,039") +
          nonFraction("us-gaap:Assets", "bs", "335,038") +
          nonFraction("us-gaap:Assets", "fyend", "352,755")
      })
      const { metrics, period } = yield* extractMetrics({ inlineXbrl: html })
      assert.deepStrictEqual(metrics.revenue, {
        value: 81_797_000_000,
        unit: "USD",
        period: "Q3 2023",
        yoyChange: (81_797 - 82_959) / 82_959,
        source: "us-gaap:Revenues"
      })
      // Only the year to date: not a quarter's figure, so absent.
      assert.isUndefined(metrics.net_income)
      // The fiscal year end is not a year before the quarter end: no change reported.
      assert.deepStrictEqual(metrics.total_assets, {
        value: 335_038_000_000,
        unit: "USD",
        period: "Q3 2023",
        asOf: "2023-07-01",
        source: "us-gaap:Assets"
      })
      assert.strictEqual(period?.label, "Q3 2023")
    }))

  it.effect("reports a negative change as a negative fraction and skips it when the prior year is zero", () =>
    Effect.gen(function*() {
      const html = annual(
        nonFraction("us-gaap:NetIncomeLoss", "fy24", "75") +
          nonFraction("us-gaap:NetIncomeLoss", "fy23", "100") +
          nonFraction("us-gaap:GrossProfit", "fy24", "5") +
          nonFraction("us-gaap:GrossProfit", "fy23", "0", { format: "ixt:fixed-zero" }) +
          nonFraction("us-gaap:OperatingIncomeLoss", "fy24", "50", { sign: "-" }) +
          nonFraction("us-gaap:OperatingIncomeLoss", "fy23", "100", { sign: "-" })
      )
      const { metrics } = yield* extractMetrics({ inlineXbrl: html })
      assert.strictEqual(metrics.net_income?.yoyChange, -0.25)
      assert.isUndefined(metrics.gross_profit?.yoyChange)
      assert.strictEqual(metrics.gross_profit?.value, 5_000_000)
      assert.strictEqual(metrics.operating_income?.value, -50_000_000)
      // A smaller loss is an improvement: +50 % against the absolute prior value.
      assert.strictEqual(metrics.operating_income?.yoyChange, 0.5)
    }))

  it.effect("keeps a currency other than USD as the unit", () =>
    Effect.gen(function*() {
      const html = annual(nonFraction("ifrs-full:Revenue", "fy24", "12", { unitRef: "eur" }))
      const { metrics } = yield* extractMetrics({ inlineXbrl: html })
      assert.deepStrictEqual(metrics.revenue, {
        value: 12_000_000,
        unit: "EUR",
        period: "FY 2024",
        source: "ifrs-full:Revenue"
      })
    }))

  it.effect("fails with UnusableXbrl when there is nothing to read", () =>
    Effect.gen(function*() {
      const none = yield* Effect.exit(extractMetrics({}))
      assert.isTrue(Exit.isFailure(none))
      const empty = yield* Effect.flip(extractMetrics({ inlineXbrl: "<html><body><p>No XBRL here</p></body></html>" }))
      assert.strictEqual(empty._tag, "UnusableXbrl")
      assert.strictEqual(empty.reason, "no facts")
    }))
})
