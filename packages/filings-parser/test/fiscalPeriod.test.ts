/**
 * The fiscal period a call or a release discusses, read from short synthetic openings: the ways
 * companies say it, and the mentions that name another period (a comparison, an outlook).
 */
import { assert, describe, it } from "@effect/vitest"
import { Dates } from "@filings/domain"
import { Effect } from "effect"
import { Blocks, FiscalPeriod, Parser } from "../src/index.js"

const period = (text: string, options: FiscalPeriod.FromTextOptions = {}, date = "2024-08-28") =>
  FiscalPeriod.periodOf(FiscalPeriod.fromText(text, options), Dates.IsoDate.make(date))

describe("FiscalPeriod.fromText: how the period is said", () => {
  const cases: ReadonlyArray<readonly [string, string]> = [
    ["Good afternoon, and welcome to NVIDIA's conference call for the second quarter of fiscal 2025.", "Q2 2025"],
    ["Greetings, and welcome to the Microsoft Fiscal Year 2023 First Quarter Earnings Conference Call.", "Q1 2023"],
    ["Good day and welcome to the Apple Q1 FY 2022 earnings conference call.", "Q1 2022"],
    ["Welcome to the Contoso Q1 FY23 earnings call.", "Q1 2023"],
    ["Good morning and welcome to the 3M third quarter 2021 earnings conference call.", "Q3 2021"],
    ["Thank you for joining our third-quarter 2021 earnings call.", "Q3 2021"],
    ["Acme Bancorp Reports Fourth Quarter and Full Year 2021 Results", "Q4 2021"],
    ["Acme reports fourth-quarter and full-year 2021 results.", "Q4 2021"],
    ["Acme Corp reports fiscal 2024 third quarter results.", "Q3 2024"],
    ["Acme Bank 4Q21 earnings: net income of $1.6 billion.", "Q4 2021"],
    ["Adobe Reports Record Revenue in Q1 Fiscal 2023", "Q1 2023"],
    ["Acme today reported results for its second fiscal quarter of 2025.", "Q2 2025"],
    ["Acme reports 2021 third quarter results.", "Q3 2021"],
    [
      "On March 23, 2016, Acme issued a press release announcing its results for the three months and year ended December 31, 2015.",
      "Q4 2015"
    ],
    ["Acme reports fiscal 2023 results and provides outlook for fiscal 2024.", "FY 2023"],
    ["Acme today announced its financial results for the fiscal year ended December 31, 2024.", "FY 2024"]
  ]
  for (const [text, expected] of cases) {
    it(`${expected}: ${text}`, () => {
      assert.strictEqual(period(text), expected)
    })
  }
})

describe("FiscalPeriod.fromText: mentions of other periods", () => {
  it("an outlook for a later quarter and next year's guidance are not the period discussed", () => {
    const text = [
      "Our outlook for the third quarter of fiscal 2025 calls for revenue of $32.5 billion.",
      "We will also talk about fiscal 2026 guidance.",
      "Welcome to our conference call for the second quarter of fiscal 2025."
    ].join("\n")
    assert.strictEqual(period(text), "Q2 2025")
  })

  it("a comparison with last year's quarter names no year of the quarter discussed", () => {
    const text = [
      "Revenue for the second quarter was a record $30 billion.",
      "That is up 122% compared with the second quarter of fiscal 2024.",
      "Diluted earnings per share were $3.92 in the second quarter, up from $3.18 in the second quarter last year."
    ].join("\n")
    assert.deepStrictEqual(FiscalPeriod.fromText(text), { quarter: 2, source: "text" })
    // Its year then comes from the date: the second quarter reported in August 2024.
    assert.strictEqual(period(text), "Q2 2024")
  })

  it("an estimate for the next quarter is looked forward to, not reported", () => {
    const text = [
      "Earnings for the quarter were $0.95 per share.",
      "We currently estimate third quarter 2021 adjusted earnings of between $1.90 and $2 per share.",
      "In the second quarter, volumes rose across all segments."
    ].join("\n")
    assert.strictEqual(period(text, {}, "2021-07-27"), "Q2 2021")
  })

  it("the same quarter of an earlier year is a comparison: the latest year stated is the call's", () => {
    const text = [
      "Our results for the fourth quarter of 2019 were strong.",
      "Net income was $14 million in the fourth quarter of 2018.",
      "Our results for the fourth quarter of 2019 reflect higher rates."
    ].join("\n")
    assert.strictEqual(period(text, {}, "2020-02-20"), "Q4 2019")
  })

  it("a release that reports no results states no period, whatever quarter it names", () => {
    const text = [
      "Beyond Example Announces Approval to Conduct a Phase 1b Clinical Trial",
      "Patient screening will begin in the first quarter of 2025."
    ].join("\n")
    assert.isUndefined(FiscalPeriod.fromText(text, { reportsResults: true }))
  })

  it("a text that names no period states none", () => {
    assert.isUndefined(FiscalPeriod.fromText("Thank you, operator. Good afternoon, everyone."))
  })
})

describe("FiscalPeriod.fromBlocks", () => {
  it("reads the blocks' lines as fromText reads the Markdown, tables left out", () => {
    const blocks = Blocks.fromMarkdown(
      [
        "# Acme Reports Results for the **Second Quarter** of Fiscal 2025",
        "| | Third quarter fiscal 2024 |",
        "| --- | --- |",
        "| Revenue | 12 |",
        "- Revenue for the second quarter of fiscal 2025 was $48.2 million."
      ].join("\n\n").replace("|\n\n|", "|\n|").replace("|\n\n| Revenue", "|\n| Revenue")
    )
    assert.deepStrictEqual(blocks.map((block) => block.kind), ["heading", "table", "list"])
    const expected = { quarter: 2, fiscalYear: 2025, source: "text" } as const
    assert.deepStrictEqual(FiscalPeriod.fromBlocks(blocks, { reportsResults: true }), expected)
    assert.deepStrictEqual(FiscalPeriod.fromText(Blocks.toMarkdown(blocks), { reportsResults: true }), expected)
    // The table's period alone is no period the document states.
    assert.isUndefined(FiscalPeriod.fromBlocks(blocks.filter((block) => block.kind === "table")))
  })
})

describe("FiscalPeriod.fromFields and periodOf", () => {
  it("reads a transcript's own quarter and year", () => {
    assert.deepStrictEqual(FiscalPeriod.fromFields({ year: 2025, quarter: 2 }), {
      quarter: 2,
      fiscalYear: 2025,
      source: "fields"
    })
    assert.deepStrictEqual(FiscalPeriod.fromFields({ year: "2023", quarter: "Q1" }), {
      quarter: 1,
      fiscalYear: 2023,
      source: "fields"
    })
    assert.isUndefined(FiscalPeriod.fromFields({ year: 2025, quarter: 5 }))
    assert.isUndefined(FiscalPeriod.fromFields({ quarter: 2 }))
  })

  it("places a quarter stated without its year by the document's date", () => {
    const third = { quarter: 3, source: "text" } as const
    assert.strictEqual(FiscalPeriod.periodOf(third, Dates.IsoDate.make("2024-11-22")), "Q3 2024")
    const fourth = { quarter: 4, source: "text" } as const
    assert.strictEqual(FiscalPeriod.periodOf(fourth, Dates.IsoDate.make("2022-01-20")), "Q4 2021")
    assert.strictEqual(
      FiscalPeriod.periodOf({ fiscalYear: 2023, source: "text" }, Dates.IsoDate.make("2023-08-15")),
      "FY 2023"
    )
    assert.isUndefined(FiscalPeriod.periodOf(undefined, Dates.IsoDate.make("2023-08-15")))
  })
})

describe("Parser.parse: the discussed period of calls, releases and 8-Ks", () => {
  const encode = (text: string) => new TextEncoder().encode(text)

  it.effect("a JSON transcript's own quarter and year come first", () =>
    Effect.gen(function*() {
      const parsed = yield* Parser.parse({
        bytes: encode(JSON.stringify({
          event: { year: 2025, quarter: 2 },
          // Its text says nothing of the period: the fields say it.
          prepared_remarks: "Good afternoon, everyone. Thank you for joining us today.",
          questions_and_answers: null
        })),
        fileName: "call.json"
      })
      assert.deepStrictEqual(parsed.discussedPeriod, { quarter: 2, fiscalYear: 2025, source: "fields" })
    }))

  it.effect("a text transcript's opening", () =>
    Effect.gen(function*() {
      const parsed = yield* Parser.parse({
        bytes: encode(
          "Operator: Welcome to the Acme third quarter 2021 earnings call.\n\n" +
            "Jane Doe -- Chief Financial Officer\nThank you. Our outlook for the fourth quarter 2021 is strong."
        ),
        form: "EARNINGS_CALL"
      })
      assert.deepStrictEqual(parsed.discussedPeriod, { quarter: 3, fiscalYear: 2021, source: "text" })
    }))

  it.effect("an 8-K reporting results under Item 2.02", () =>
    Effect.gen(function*() {
      const parsed = yield* Parser.parse({
        bytes: encode(
          "<html><body><p>FORM 8-K</p><p><b>Item 2.02 Results of Operations and Financial Condition.</b></p>" +
            "<p>On August 28, 2024, Acme issued a press release announcing its results for the second quarter of " +
            "fiscal 2025.</p></body></html>"
        ),
        form: "8-K"
      })
      assert.deepStrictEqual(parsed.discussedPeriod, { quarter: 2, fiscalYear: 2025, source: "text" })
    }))

  it.effect("no discussed period for an annual report, which has its own tags", () =>
    Effect.gen(function*() {
      const parsed = yield* Parser.parse({
        bytes: encode("<html><body><p>FORM 10-K</p><p>Our results for the fourth quarter of 2023.</p></body></html>"),
        form: "10-K"
      })
      assert.isUndefined(parsed.discussedPeriod)
    }))
})
