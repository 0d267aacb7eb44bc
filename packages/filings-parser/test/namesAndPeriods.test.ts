/**
 * Section names and periods as the API gives them: `Item <n>. <name>` for every form (8-K
 * included), item titles of the filing's era (a 2018 10-K's Item 6 is "Selected Financial Data"),
 * the rule for a 10-Q's two parts, and the period a filing without inline XBRL prints on its cover.
 * Real filings of the shared corpus are read in place and skipped where it is absent.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { corpusMissing, corpusUrl } from "../../../test/support/corpus.js"
import { Parser, SectionQuery } from "../src/index.js"
import { printedPeriodEnd } from "../src/internal/coverPeriod.js"
import { detectSections } from "../src/internal/sections/detectSections.js"
import { buildPdf } from "./support/pdfBuilder.js"
import { body, heading, paragraph } from "./support/sectionBlocks.js"

const encode = (text: string) => new TextEncoder().encode(text)

const itemSix = (periodEnd: string | undefined, title: string) =>
  detectSections(
    [
      heading("Item 5. Market for Registrant's Common Equity"),
      body(),
      heading(`Item 6. ${title}`),
      body(),
      heading("Item 7. Management's Discussion and Analysis"),
      body()
    ],
    "10-K",
    periodEnd
  ).sections.find((section) => section.item === "6")?.title

describe("item names", () => {
  it("8-K items are named `Item <n>. <name>`, as the specification writes them", () => {
    const { sections } = detectSections([heading("Item 2.02 Results of Operations"), body()], "8-K")
    assert.strictEqual(sections[0]?.title, "Item 2.02. Results of Operations and Financial Condition")
  })

  it("a 10-K's Item 6 has the title of its era: the heading's, else the period's", () => {
    // A PDF splits words ("Dat a"): the heading still names the old title.
    assert.strictEqual(itemSix(undefined, "Selected Financial Dat a."), "Item 6. Selected Financial Data")
    // A heading that says neither: the fiscal year decides.
    assert.strictEqual(itemSix("2018-12-31", "Five-Year Summary"), "Item 6. Selected Financial Data")
    assert.strictEqual(itemSix("2022-12-31", "Five-Year Summary"), "Item 6. [Reserved]")
    // A filer that dropped the item early says so in its heading.
    assert.strictEqual(itemSix("2020-12-31", "[Reserved]"), "Item 6. [Reserved]")
  })

  it("a query names an item by its title of any era", () => {
    assert.deepStrictEqual(SectionQuery.itemKeysFor("Item 6. Selected Financial Data", "10-K"), ["6"])
    assert.deepStrictEqual(SectionQuery.itemKeysFor("Item 6. [Reserved]", "10-K"), ["6"])
    assert.isTrue(
      SectionQuery.matches("Item 6. Selected Financial Data", "10-K", { title: "Item 6. [Reserved]", item: "6" })
    )
  })

  it.effect("a 2018 10-K printed to PDF: its cover's fiscal year gives Item 6 its old title", () =>
    Effect.gen(function*() {
      const pdf = buildPdf([
        [
          { text: "FORM 10-K", x: 260, y: 740, size: 14, bold: true },
          { text: "For the fiscal year ended December 31, 2018", x: 180, y: 716 },
          { text: "Item 5. Market for Registrant's Common Equity", x: 72, y: 680, size: 12, bold: true },
          { text: "Our shares trade on the New York Stock Exchange under the symbol ACME.", x: 72, y: 660 },
          { text: "Item 6.", x: 72, y: 620, size: 12, bold: true },
          { text: "The five-year summary of our results is in the table that follows here.", x: 72, y: 600 },
          { text: "Item 7. Management's Discussion and Analysis", x: 72, y: 560, size: 12, bold: true },
          { text: "Revenue grew by ten percent in the year, with margins steady.", x: 72, y: 540 }
        ]
      ])
      const parsed = yield* Parser.parse({ bytes: pdf, fileName: "acme-10k.pdf" })
      assert.strictEqual(parsed.form, "10-K")
      assert.strictEqual(parsed.periodEndDate, "2018-12-31")
      assert.deepStrictEqual(parsed.sections.map((section) => section.title), [
        "Item 5. Market for Registrant's Common Equity, Related Stockholder Matters and Issuer Purchases of Equity Securities",
        "Item 6. Selected Financial Data",
        "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations"
      ])
    }))
})

describe("10-Q parts", () => {
  const tenQ = [
    { title: "Item 1. Financial Statements", item: "part1item1" },
    { title: "Item 2. Management's Discussion and Analysis", item: "part1item2" },
    { title: "Item 1. Legal Proceedings", item: "part2item1" },
    { title: "Item 1A. Risk Factors", item: "part2item1a" },
    { title: "Item 6. Exhibits", item: "part2item6" }
  ]
  const answering = (query: string) =>
    tenQ.filter((section) => SectionQuery.matches(query, "10-Q", section)).map((section) => section.item)

  it("a number both parts have names Part I's item; `Part II, Item <n>` names Part II's", () => {
    assert.deepStrictEqual(SectionQuery.itemKeysFor("Item 1", "10-Q"), ["part1item1"])
    assert.deepStrictEqual(answering("Item 1"), ["part1item1"])
    assert.deepStrictEqual(answering("2"), ["part1item2"])
    assert.deepStrictEqual(answering("Part II, Item 1"), ["part2item1"])
    assert.deepStrictEqual(answering("Part 2 Item 1"), ["part2item1"])
    assert.deepStrictEqual(answering("Part I, Item 1"), ["part1item1"])
  })

  it("`Part II, Item 1A` works, and a number only Part II has needs no part", () => {
    assert.deepStrictEqual(SectionQuery.itemKeysFor("Part II, Item 1A", "10-Q"), ["part2item1a"])
    assert.deepStrictEqual(answering("Part II, Item 1A"), ["part2item1a"])
    assert.deepStrictEqual(answering("Item 1A"), ["part2item1a"])
    assert.deepStrictEqual(answering("Item 6"), ["part2item6"])
    assert.deepStrictEqual(answering("Part I, Item 1A"), [])
    // Titles name their own item, whichever part it is in.
    assert.deepStrictEqual(answering("Legal Proceedings"), ["part2item1"])
  })

  it("other forms take a part as a qualifier only", () => {
    assert.deepStrictEqual(SectionQuery.itemKeysFor("Part II, Item 7", "10-K"), ["7"])
  })
})

describe("the period a cover page prints", () => {
  it.effect("plain text 10-K: `For the fiscal year ended`", () =>
    Effect.gen(function*() {
      const text = [
        "FORM 10-K",
        "",
        "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d)",
        "For the fiscal year ended June 30, 1999.",
        "",
        "Item 1. Business",
        "",
        "We make widgets and sell them in forty countries through our own stores and partners.",
        ""
      ].join("\n")
      const parsed = yield* Parser.parse({ bytes: encode(text) })
      assert.strictEqual(parsed.periodEndDate, "1999-06-30")
    }))

  it.effect("inline XBRL's DocumentPeriodEndDate wins over the printed line; an 8-K has none", () =>
    Effect.gen(function*() {
      const cover = (date: string) =>
        `<html xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"><body><div style="display:none"><ix:header><ix:hidden>`
        + `<ix:nonNumeric name="dei:DocumentPeriodEndDate" contextRef="c">${date}</ix:nonNumeric>`
        + `</ix:hidden></ix:header></div><p>FORM 10-Q</p><p>For the quarterly period ended March 31, 2024</p>`
        + `<p>Item 1. Financial Statements</p><p>Statements follow in the pages after this one, as usual.</p></body></html>`
      const tagged = yield* Parser.parse({ bytes: encode(cover("June 29, 2024")) })
      assert.strictEqual(tagged.periodEndDate, "2024-06-29")
      // An 8-K's cover prints no period: its results "for the quarter ended" are not its report date.
      const eightK = yield* Parser.parse({
        bytes: encode(
          "<html><body><p>FORM 8-K</p><p>Item 2.02 Results of Operations and Financial Condition</p>"
            + "<p>Acme announced its results for the quarter ended March 31, 2024.</p></body></html>"
        )
      })
      assert.strictEqual(eightK.form, "8-K")
      assert.isUndefined(eightK.periodEndDate)
    }))

  it("reads the date however the cover spaces it; a blank transition period is no period", () => {
    assert.strictEqual(printedPeriodEnd([paragraph("For the fiscal year ended December 31 , 2018")]), "2018-12-31")
    assert.strictEqual(printedPeriodEnd([paragraph("FOR THE QUARTERLY PERIOD ENDED: Sept. 30, 2023")]), "2023-09-30")
    assert.isUndefined(printedPeriodEnd([paragraph("For the transition period from ______ to ______")]))
  })
})

const corpus = corpusUrl
const readCorpus = (path: string) => new Uint8Array(readFileSync(new URL(path, corpus)))

describe.skipIf(corpusMissing)("names and periods of corpus filings in ../shared/corpus", () => {
  it.effect("ADBE 8-K: `Item 2.02. Results of Operations and Financial Condition`", () =>
    Effect.gen(function*() {
      const parsed = yield* Parser.parse({ bytes: readCorpus("8-K/adbe-8k-2023-03-15.htm") })
      assert.deepStrictEqual(parsed.sections.map((section) => section.title), [
        "Item 2.02. Results of Operations and Financial Condition",
        "Item 9.01. Financial Statements and Exhibits",
        "Signatures"
      ])
    }))

  it.effect(
    "MMM 10-K FY2018 as PDF: period from its cover, Item 6 `Selected Financial Data`",
    () =>
      Effect.gen(function*() {
        const parsed = yield* Parser.parse({ bytes: readCorpus("pdf/mmm-10k-fy2018.pdf"), fileName: "mmm.pdf" })
        assert.strictEqual(parsed.periodEndDate, "2018-12-31")
        assert.strictEqual(
          parsed.sections.find((section) => section.item === "6")?.title,
          "Item 6. Selected Financial Data"
        )
      }),
    120_000
  )

  it.effect("Plymouth Rock 20-F, fiscal year ended 2020-11-30: the period its cover prints", () =>
    Effect.gen(function*() {
      const parsed = yield* Parser.parse({ bytes: readCorpus("20-F/plymouth-rock-technologies-20f-fy2020.htm") })
      assert.strictEqual(parsed.form, "20-F")
      assert.strictEqual(parsed.periodEndDate, "2020-11-30")
    }))

  it.effect("AA 10-Q 2018 (no inline XBRL): `For the Quarterly Period Ended June 30, 2018`", () =>
    Effect.gen(function*() {
      const parsed = yield* Parser.parse({ bytes: readCorpus("10-Q/aa-10q-2018-06-30.htm") })
      assert.strictEqual(parsed.periodEndDate, "2018-06-30")
      const legal = parsed.sections.filter((section) => SectionQuery.matches("Part II, Item 1", "10-Q", section))
      assert.deepStrictEqual(legal.map((section) => section.title), ["Item 1. Legal Proceedings"])
      const first = parsed.sections.filter((section) => SectionQuery.matches("Item 1", "10-Q", section))
      assert.deepStrictEqual(first.map((section) => section.title), ["Item 1. Financial Statements"])
    }))
})
