/**
 * Financial Data Schedules (EX-27): reading tags, columns, multiplier and signs, then choosing the
 * schedule and period that metrics come from. Synthetic schedules first, then Apple's 10-Q for the
 * quarter ended 1 April 2000 from the shared corpus (skipped where the corpus is absent).
 */
import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { corpusMissing, corpusUrl } from "../../../test/support/corpus.js"
import {
  metricsFromSchedules,
  parseScheduleDate,
  parseScheduleNumber,
  readFinancialDataSchedules
} from "../src/internal/fds/financialDataSchedule.js"

const corpus = corpusUrl

/** A one-column Article 5 schedule; `lines` are the value tags, `header` replaces the period tags. */
const articleFive = (
  lines: string,
  header = "<PERIOD-TYPE> 3-MOS\n<FISCAL-YEAR-END> DEC-31-1999\n<PERIOD-END> MAR-31-1999"
) =>
  `<TYPE>EX-27
<SEQUENCE>3
<TEXT>
<TABLE> <S> <C>
<ARTICLE> 5
<LEGEND>
THIS SCHEDULE CONTAINS SUMMARY FINANCIAL INFORMATION EXTRACTED FROM THE BALANCE SHEET <AND> INCOME STATEMENT.
</LEGEND>
<MULTIPLIER> 1,000
<S>                 <C>
${header}
${lines}
</TABLE>
</TEXT>`

const read = (text: string) => {
  const { schedules, warnings } = readFinancialDataSchedules(text)
  return { schedules, readWarnings: warnings, ...metricsFromSchedules(schedules) }
}

describe("numbers and dates", () => {
  it("reads separators, both negative spellings, bare decimals and scale", () => {
    assert.strictEqual(parseScheduleNumber("1,662", 1_000_000), 1_662_000_000)
    assert.strictEqual(parseScheduleNumber("(1,234)", 1000), -1_234_000)
    assert.strictEqual(parseScheduleNumber("-1,234"), -1234)
    assert.strictEqual(parseScheduleNumber("(.05)"), -0.05)
    assert.strictEqual(parseScheduleNumber("12.3", 1000), 12_300)
    assert.strictEqual(parseScheduleNumber("(0)"), 0)
    assert.strictEqual(parseScheduleNumber("N/A"), undefined)
    assert.strictEqual(parseScheduleNumber("1,23"), undefined)
    assert.strictEqual(parseScheduleNumber("--"), undefined)
  })

  it("reads the schedule date spelling", () => {
    assert.strictEqual(parseScheduleDate("SEP-30-2000"), "2000-09-30")
    assert.strictEqual(parseScheduleDate("dec-31-97"), "1997-12-31")
    assert.strictEqual(parseScheduleDate("FEB-30-2000"), undefined)
    assert.strictEqual(parseScheduleDate("SOON"), undefined)
  })
})

describe("reading schedules", () => {
  it("scales amounts by the multiplier but not per-share values, and keeps tags as written", () => {
    const { readWarnings, schedules } = read(articleFive(`<CASH> 1,500
<PP&E> 2,000
<TOTAL-REVENUES> 10,250
<NET-INCOME> (1,234)
<EPS-BASIC> (.25)
<EPS-DILUTED> -0.25`))
    // The legend's `<AND>` is prose, not a tag.
    assert.deepStrictEqual(readWarnings, [])
    assert.strictEqual(schedules.length, 1)
    const [schedule] = schedules
    assert.strictEqual(schedule?.article, "5")
    assert.strictEqual(schedule?.multiplier, 1000)
    assert.strictEqual(schedule?.months, 3)
    assert.strictEqual(schedule?.periodEnd, "1999-03-31")
    assert.strictEqual(schedule?.fiscalYearEnd, "1999-12-31")
    assert.strictEqual(schedule?.restated, false)
    assert.deepStrictEqual(
      [...(schedule?.values ?? [])],
      [["CASH", 1_500_000], ["PP&E", 2_000_000], ["TOTAL-REVENUES", 10_250_000], ["NET-INCOME", -1_234_000], [
        "EPS-BASIC",
        -0.25
      ], ["EPS-DILUTED", -0.25]]
    )
  })

  it("splits columns into schedules and drops footnote marks", () => {
    const { schedules, readWarnings } = read(`<ARTICLE> 5
<RESTATED>
<MULTIPLIER> 1
<PERIOD-TYPE> 12-MOS 3-MOS
<FISCAL-YEAR-END> DEC-31-1996 DEC-31-1997
<PERIOD-START> JAN-01-1996 JAN-01-1997
<PERIOD-END> DEC-31-1996 MAR-31-1997
<TOTAL-ASSETS> 3,916 3,988
<TOTAL-REVENUES> 3,884<F1> 997
<EPS-PRIMARY> 4.22 1.46
<FN>
<F1>RECLASSIFIED.
</FN>`)
    assert.deepStrictEqual(schedules.map((each) => [each.periodType, each.months, each.periodEnd, each.restated]), [
      ["12-MOS", 12, "1996-12-31", true],
      ["3-MOS", 3, "1997-03-31", true]
    ])
    assert.strictEqual(schedules[0]?.values.get("TOTAL-REVENUES"), 3884)
    assert.strictEqual(schedules[1]?.values.get("EPS-PRIMARY"), 1.46)
    assert.deepStrictEqual(readWarnings, [])
  })

  it("skips unreadable values with a warning and never throws on garbage", () => {
    const { schedules, readWarnings } = read(articleFive("<CASH> N/A\n<TOTAL-ASSETS> 7,007"))
    assert.strictEqual(schedules[0]?.values.has("CASH"), false)
    assert.strictEqual(schedules[0]?.values.get("TOTAL-ASSETS"), 7_007_000)
    assert.isTrue(readWarnings.some((warning) => warning.includes("<CASH>")))

    for (const garbage of ["", "no tags at all", "<<<<>>>>", "<ARTICLE>", "<".repeat(100_000), "<A".repeat(50_000)]) {
      const result = read(garbage)
      assert.deepStrictEqual(result.metrics, {})
      assert.isTrue(result.warnings.length > 0)
    }
    const huge = read(`<ARTICLE> 5\n<PERIOD-END> DEC-31-1999\n${"<CASH> x\n".repeat(20_000)}`)
    assert.isAtMost(huge.readWarnings.length, 51)
  })
})

describe("metrics", () => {
  it("reads an Article 5 quarter with units, periods and sources", () => {
    const { metrics, warnings } = read(articleFive(`<CASH> 1,500
<TOTAL-ASSETS> 9,000
<TOTAL-REVENUES> 10,250
<NET-INCOME> (1,234)
<EPS-BASIC> (.25)
<EPS-DILUTED> (.25)`))
    assert.deepStrictEqual(metrics, {
      revenue: { value: 10_250_000, unit: "USD", period: "Q1 1999", source: "fds:TOTAL-REVENUES" },
      net_income: { value: -1_234_000, unit: "USD", period: "Q1 1999", source: "fds:NET-INCOME" },
      eps_basic: { value: -0.25, unit: "USD", period: "Q1 1999", source: "fds:EPS-BASIC" },
      eps_diluted: { value: -0.25, unit: "USD", period: "Q1 1999", source: "fds:EPS-DILUTED" },
      total_assets: {
        value: 9_000_000,
        unit: "USD",
        period: "Q1 1999",
        asOf: "1999-03-31",
        source: "fds:TOTAL-ASSETS"
      },
      cash_and_equivalents: { value: 1_500_000, unit: "USD", period: "Q1 1999", asOf: "1999-03-31", source: "fds:CASH" }
    })
    assert.deepStrictEqual(warnings, [])
  })

  it("reads EPS-PRIMARY as basic EPS and a YEAR as FY <year>", () => {
    const { metrics } = read(
      articleFive(
        "<NET-INCOME> 500\n<EPS-PRIMARY> 1.10\n<EPS-DILUTED> 1.05",
        "<PERIOD-TYPE> YEAR\n<FISCAL-YEAR-END> JUN-30-1998\n<PERIOD-END> JUN-30-1998"
      )
    )
    assert.deepStrictEqual(metrics.eps_basic, { value: 1.1, unit: "USD", period: "FY 1998", source: "fds:EPS-PRIMARY" })
    assert.strictEqual(metrics.net_income?.period, "FY 1998")
    assert.strictEqual(metrics.net_income?.value, 500_000)
  })

  it("leaves out primary EPS of a period before SFAS 128: it is not basic EPS", () => {
    const { metrics, warnings } = read(
      articleFive(
        "<NET-INCOME> 500\n<EPS-PRIMARY> 1.10\n<EPS-DILUTED> 1.05",
        "<PERIOD-TYPE> YEAR\n<FISCAL-YEAR-END> JUN-30-1997\n<PERIOD-END> JUN-30-1997"
      )
    )
    assert.isUndefined(metrics.eps_basic)
    assert.strictEqual(metrics.eps_diluted?.value, 1.05)
    assert.isTrue(warnings.some((warning) => warning.includes("eps_basic omitted")))
  })

  it("omits period values of a six-month year-to-date schedule but keeps balances", () => {
    const { metrics, warnings } = read(
      articleFive(
        "<TOTAL-ASSETS> 9,000\n<TOTAL-REVENUES> 20,000\n<NET-INCOME> 900\n<EPS-BASIC> .50",
        "<PERIOD-TYPE> 6-MOS\n<FISCAL-YEAR-END> DEC-31-1999\n<PERIOD-END> JUN-30-1999"
      )
    )
    assert.deepStrictEqual(Object.keys(metrics), ["total_assets"])
    // The balance still carries the document's period, the quarter the six months end with.
    assert.strictEqual(metrics.total_assets?.period, "Q2 1999")
    assert.strictEqual(metrics.total_assets?.asOf, "1999-06-30")
    assert.isTrue(warnings.some((warning) => warning.includes("year-to-date")))
  })

  it("skips restated schedules for the current one", () => {
    const text = `<ARTICLE> 5
<RESTATED>
<PERIOD-TYPE> 3-MOS
<FISCAL-YEAR-END> DEC-31-1998
<PERIOD-END> MAR-31-1998
<TOTAL-REVENUES> 111
</TABLE>
<TABLE>
<ARTICLE> 5
<PERIOD-TYPE> 3-MOS
<FISCAL-YEAR-END> DEC-31-1999
<PERIOD-END> MAR-31-1999
<TOTAL-REVENUES> 222`
    const { metrics, schedules } = read(text)
    assert.strictEqual(schedules.length, 2)
    assert.deepStrictEqual(metrics.revenue, {
      value: 222,
      unit: "USD",
      period: "Q1 1999",
      source: "fds:TOTAL-REVENUES"
    })
    const onlyRestated = metricsFromSchedules(schedules.filter((each) => each.restated))
    assert.deepStrictEqual(onlyRestated.metrics, {})
    assert.isTrue(onlyRestated.warnings.some((warning) => warning.includes("restated")))
  })

  it("omits revenue and cash of an Article 9 bank schedule", () => {
    const { metrics, warnings } = read(`<ARTICLE> 9
<MULTIPLIER> 1,000
<PERIOD-TYPE> 12-MOS
<FISCAL-YEAR-END> DEC-31-1999
<PERIOD-END> DEC-31-1999
<CASH> 100
<INT-LOAN> 5,000
<TOTAL-ASSETS> 80,000
<TOTAL-INTEREST-EXPENSE> 2,000
<NET-INCOME> 1,200
<EPS-BASIC> 2.40
<EPS-DILUTED> 2.35`)
    assert.deepStrictEqual(Object.keys(metrics).sort(), ["eps_basic", "eps_diluted", "net_income", "total_assets"])
    assert.strictEqual(metrics.total_assets?.value, 80_000_000)
    assert.strictEqual(metrics.net_income?.period, "FY 1999")
    assert.isTrue(warnings.some((warning) => warning.includes("article 9") && warning.includes("revenue")))
  })

  it("omits everything without a readable period end", () => {
    const { metrics, warnings } = read(articleFive("<TOTAL-ASSETS> 9,000", "<PERIOD-TYPE> 3-MOS\n<PERIOD-END> LATER"))
    assert.deepStrictEqual(metrics, {})
    assert.isTrue(warnings.some((warning) => warning.includes("PERIOD-END")))
  })

  it("takes the currency from the schedule and does not guess an unknown one", () => {
    const header =
      "<CURRENCY> U.S. DOLLARS\n<PERIOD-TYPE> YEAR\n<FISCAL-YEAR-END> DEC-31-1999\n<PERIOD-END> DEC-31-1999"
    assert.strictEqual(read(articleFive("<TOTAL-ASSETS> 9", header)).metrics.total_assets?.unit, "USD")
    const canadian = read(articleFive("<TOTAL-ASSETS> 9", header.replace("U.S. DOLLARS", "CANADIAN DOLLARS")))
    assert.strictEqual(canadian.metrics.total_assets?.unit, "CAD")
    const unknown = read(articleFive("<TOTAL-ASSETS> 9", header.replace("U.S. DOLLARS", "FLORINS")))
    assert.deepStrictEqual(unknown.metrics, {})
    assert.isTrue(unknown.warnings.some((warning) => warning.includes("FLORINS")))
  })

  it("labels a quarter without a fiscal year end as the calendar quarter, with a warning", () => {
    const { metrics, warnings } = read(articleFive("<NET-INCOME> 5", "<PERIOD-TYPE> 3-MOS\n<PERIOD-END> JUN-30-1999"))
    assert.strictEqual(metrics.net_income?.period, "Q2 1999")
    assert.isTrue(warnings.some((warning) => warning.includes("calendar")))
  })
})

describe.skipIf(corpusMissing)("Apple 10-Q for the quarter ended 1 April 2000 (corpus)", () => {
  it("reads the EX-27 schedule", () => {
    const submission = readFileSync(new URL("old-text/aapl-10q-2000-04-01-full-submission.txt", corpus), "utf8")
    const start = submission.indexOf("<TYPE>EX-27")
    assert.isAtLeast(start, 0)
    const document = submission.slice(start, submission.indexOf("</DOCUMENT>", start))
    const { readWarnings, schedules, metrics, warnings } = read(document)
    assert.deepStrictEqual(readWarnings, [])
    assert.deepStrictEqual(warnings, [])
    assert.strictEqual(schedules.length, 1)
    assert.strictEqual(schedules[0]?.values.get("PP&E"), 723e6)
    assert.deepStrictEqual(metrics, {
      revenue: { value: 1_945_000_000, unit: "USD", period: "Q2 2000", source: "fds:TOTAL-REVENUES" },
      net_income: { value: 233e6, unit: "USD", period: "Q2 2000", source: "fds:NET-INCOME" },
      eps_basic: { value: 1.44, unit: "USD", period: "Q2 2000", source: "fds:EPS-BASIC" },
      eps_diluted: { value: 1.28, unit: "USD", period: "Q2 2000", source: "fds:EPS-DILUTED" },
      total_assets: { value: 7_007e6, unit: "USD", period: "Q2 2000", asOf: "2000-04-01", source: "fds:TOTAL-ASSETS" },
      cash_and_equivalents: { value: 1_662e6, unit: "USD", period: "Q2 2000", asOf: "2000-04-01", source: "fds:CASH" }
    })
  })
})
