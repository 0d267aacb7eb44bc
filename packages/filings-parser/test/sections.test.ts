/**
 * Section detection on synthetic block sequences, one per hard case of real filings (tables of
 * contents, cross-references, odd spacing, combined and split items, 10-Q parts, 8-K items), the
 * item catalogs, and the `?section=` filter.
 */
import { assert, describe, it } from "@effect/vitest"
import type { Block } from "../src/internal/blocks.js"
import { catalogFor, itemFormOf, itemSectionName, normalizeQuery } from "../src/internal/sections/catalog.js"
import { detectSections, parseItemLabel } from "../src/internal/sections/detectSections.js"
import { findSection } from "../src/internal/sections/findSection.js"
import { readText } from "../src/internal/text/readText.js"
import { blocksFromMarkdown } from "./support/blocksFromMarkdown.js"
import { body, bold, heading, keysOf, paragraph, stripMarkdown, table } from "./support/sectionBlocks.js"

const tenKItems = ["1", "1A", "1B", "2", "3", "4", "5", "7", "7A", "8", "9", "9A", "9B"]

/** The 10-K catalog title of an item, as a filer would print it. */
const titleOf = (item: string): string => catalogFor("10-K").items.find((entry) => entry.key === item)?.title ?? item

/** A cover page, a TOC table of all items, then each item as a heading and body text. */
const tenK = (): Array<Block> => [
  heading("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", 4),
  paragraph("FORM 10-K"),
  table(["", "", "Page"], ...tenKItems.map((item, index) => [`Item ${item}.`, titleOf(item), String(index + 3)])),
  ...tenKItems.flatMap((item) => [heading(`Item ${item}. ${titleOf(item)}`), body(80, `i${item}w`)]),
  heading("SIGNATURES", 4),
  paragraph("Pursuant to the requirements of Section 13 or 15(d) of the Securities Exchange Act of 1934 ...")
]

describe("detectSections: 10-K", () => {
  it("skips a table of contents and finds each item once, at its heading", () => {
    const blocks = tenK()
    const { sections, warnings } = detectSections(blocks, "10-K")
    assert.deepStrictEqual(keysOf(sections), [...tenKItems, "Signatures"])
    assert.deepStrictEqual(warnings, [])
    for (const section of sections) {
      const first = blocks[section.startBlock]
      assert.strictEqual(first?.kind, "heading")
    }
    const sevenA = sections.find((section) => section.item === "7A")
    assert.strictEqual(sevenA?.title, "Item 7A. Quantitative and Qualitative Disclosures About Market Risk")
    assert.strictEqual(sevenA !== undefined ? sevenA.endBlock - sevenA.startBlock : 0, 2)
    // The last item ends at SIGNATURES; the signature page is a section of its own.
    const last = sections[sections.length - 2]
    const signatures = sections[sections.length - 1]
    assert.strictEqual(last?.endBlock, signatures?.startBlock)
    assert.strictEqual(signatures?.endBlock, blocks.length)
  })

  it("uses canonical titles, not the filer's spelling", () => {
    const { sections } = detectSections(
      [heading("ITEM 7. MANAGEMENT’S DISCUSSION & ANALYSIS"), body(), heading("Item 1A: Risks"), body()],
      "10-K"
    )
    // In catalog order the run 7 → 1A is impossible: the longest ordered run keeps one of them.
    assert.strictEqual(sections.length, 1)
    const { sections: ordered } = detectSections(
      [heading("Item 1A: Risks"), body(), heading("ITEM 7. MANAGEMENT’S DISCUSSION & ANALYSIS"), body()],
      "10-K"
    )
    assert.deepStrictEqual(ordered.map((section) => section.title), [
      "Item 1A. Risk Factors",
      "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations"
    ])
  })

  it("skips a TOC of paragraph lines ending in page numbers", () => {
    const blocks = [
      bold("TABLE OF CONTENTS"),
      ...["1", "1A", "2", "3"].map((item) => paragraph(`Item ${item}. ${titleOf(item)} ${item.length + 4}`)),
      ...["1", "1A", "2", "3"].flatMap((item) => [bold(`Item ${item}. ${titleOf(item)}`), body()])
    ]
    const { sections } = detectSections(blocks, "10-K")
    assert.deepStrictEqual(keysOf(sections), ["1", "1A", "2", "3"])
    assert.deepStrictEqual(sections.map((section) => section.startBlock), [5, 7, 9, 11])
  })

  it("skips a TOC of linked item lines without page numbers", () => {
    const items = ["1", "1A", "1B", "2", "3", "4"]
    const blocks = [
      ...items.map((item) => heading(`Item ${item}. ${titleOf(item)}`, 4)),
      ...items.flatMap((item) => [heading(`Item ${item}. ${titleOf(item)}`), body()])
    ]
    const { sections } = detectSections(blocks, "10-K")
    assert.deepStrictEqual(keysOf(sections), items)
    assert.strictEqual(sections[0]?.startBlock, items.length)
  })

  it("keeps short items incorporated by reference, even several in a row", () => {
    const blocks = [
      heading("Item 9B. Other Information"),
      body(),
      heading("PART III", 2),
      heading("Item 10. Directors, Executive Officers and Corporate Governance"),
      heading("Item 11. Executive Compensation"),
      heading("Item 12. Security Ownership of Certain Beneficial Owners and Management"),
      heading("Item 13. Certain Relationships and Related Transactions"),
      heading("Item 14. Principal Accountant Fees and Services"),
      paragraph("The information required by Items 10 through 14 is incorporated by reference to our proxy statement."),
      heading("Item 15. Exhibits"),
      body()
    ]
    const { sections } = detectSections(blocks, "10-K")
    assert.deepStrictEqual(keysOf(sections), ["9B", "10", "11", "12", "13", "14", "15"])
    // A PART heading between items stays in the item before it.
    assert.strictEqual(sections[0]?.endBlock, 3)
  })

  it("never cuts at cross-references in running text", () => {
    const blocks = [
      heading("Item 1. Business"),
      paragraph("See Item 7, Management's Discussion and Analysis, for a discussion of our results."),
      paragraph("Item 7 of this report describes our liquidity; Part II, Item 8 of this report has the statements."),
      paragraph("Item 1A of Part I lists the risks."),
      paragraph("Item 8 below contains the financial statements and the notes to them, which are incorporated here."),
      body(),
      heading("Item 1A. Risk Factors"),
      body()
    ]
    const { sections } = detectSections(blocks, "10-K")
    assert.deepStrictEqual(keysOf(sections), ["1", "1A"])
    assert.strictEqual(sections[0]?.endBlock, 6)
  })

  it("reads all-caps and oddly spaced labels", () => {
    const labels = [
      "I TEM 1A. RISK FACTORS",
      "ITEM 1A - RISK FACTORS",
      "Item 1A: Risk Factors",
      "Item1A. Risk Factors",
      "Item\u00a01A.\u00a0Risk Factors",
      "ITEM 1A – RISK FACTORS",
      "ITEM 1A— RISK FACTORS",
      "ITEM 1A.RISK FACTORS",
      "Item 1A Risk Factors"
    ]
    for (const label of labels) {
      assert.deepStrictEqual(parseItemLabel(label)?.numbers, ["1A"], label)
      const { sections } = detectSections([heading("Item 1. Business"), body(), bold(label), body()], "10-K")
      assert.deepStrictEqual(keysOf(sections), ["1", "1A"], label)
    }
    assert.deepStrictEqual(parseItemLabel("Item - 5.02 Departure of Directors")?.numbers, ["5.02"])
    assert.deepStrictEqual(parseItemLabel("ITEM 9.01(d). Exhibits")?.numbers, ["9.01"])
    assert.deepStrictEqual(
      parseItemLabel("Section 5 – Corporate Governance and Management Item 5.02. Departure of Directors")?.numbers,
      ["5.02"]
    )
    assert.deepStrictEqual(parseItemLabel("Items 1 and 2. Business and Properties")?.numbers, ["1", "2"])
    assert.deepStrictEqual(parseItemLabel("Part II, Item 1A. Risk Factors")?.part, 2)
    assert.strictEqual(parseItemLabel("Items of note"), undefined)
    assert.strictEqual(parseItemLabel("Itemized deductions 1"), undefined)
  })

  it("takes headings from bold, centred, all-caps paragraphs and one-row tables", () => {
    const blocks = [
      paragraph("ITEM 1. BUSINESS"),
      body(),
      paragraph("Item 1A. Risk Factors", { centered: true }),
      body(),
      table(["Item 2.", "Properties"]),
      body(),
      paragraph("Item 3. Legal Proceedings", { underline: true }),
      body()
    ]
    const { sections } = detectSections(blocks, "10-K")
    assert.deepStrictEqual(keysOf(sections), ["1", "1A", "2", "3"])
  })

  it("takes a run-in heading whose text continues with the body", () => {
    const long = "Item 3. Legal Proceedings. The Company is party to various claims arising in the ordinary course. "
      .repeat(4)
    const blocks = [heading("Item 2. Properties"), body(), paragraph(long), heading("Item 4. Mine Safety Disclosures")]
    const { sections } = detectSections(blocks, "10-K")
    assert.deepStrictEqual(keysOf(sections), ["2", "3", "4"])
    assert.strictEqual(sections[1]?.startBlock, 2)
  })

  it("treats `Items 1 and 2.` as one section keyed by the first item", () => {
    const blocks = [
      heading("Items 1 and 2. Business and Properties"),
      body(),
      heading("Item 3. Legal Proceedings"),
      body()
    ]
    const { sections } = detectSections(blocks, "10-K")
    assert.deepStrictEqual(keysOf(sections), ["1", "3"])
    assert.strictEqual(sections[0]?.title, "Items 1 and 2. Business and Properties")
    assert.deepStrictEqual(sections[0]?.combinedItems, ["1", "2"])
    assert.strictEqual(findSection(sections, "Properties", "10-K"), sections[0])
    assert.strictEqual(findSection(sections, "Item 2", "10-K"), sections[0])
  })

  it("reads `Items 10 through 14` as one section covering the range", () => {
    const blocks = [
      heading("Item 9B. Other Information"),
      body(),
      heading("Items 10 through 14."),
      paragraph("Incorporated by reference to our proxy statement for the 2025 annual meeting of shareholders."),
      heading("Item 15. Exhibits and Financial Statement Schedules"),
      body()
    ]
    const { sections } = detectSections(blocks, "10-K")
    assert.deepStrictEqual(keysOf(sections), ["9B", "10", "15"])
    assert.deepStrictEqual(sections[1]?.combinedItems, ["10", "11", "12", "13", "14"])
    assert.strictEqual(findSection(sections, "Executive Compensation", "10-K"), sections[1])
  })

  it("keeps an item split across pages as one section", () => {
    const blocks = [
      heading("Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations"),
      body(),
      { ...heading("ITEM 7. MANAGEMENT'S DISCUSSION AND ANALYSIS (continued)"), page: 2 },
      { ...body(), page: 2 },
      heading("Item 7A. Quantitative and Qualitative Disclosures About Market Risk"),
      body()
    ]
    const { sections } = detectSections(blocks, "10-K")
    assert.deepStrictEqual(keysOf(sections), ["7", "7A"])
    assert.deepStrictEqual([sections[0]?.startBlock, sections[0]?.endBlock], [0, 4])
  })

  it("reads a pre-2005 10-K without Item 1A, with the titles of its time", () => {
    const blocks = [
      heading("Item 1: Business"),
      body(),
      heading("Item 2: Properties"),
      body(),
      heading("Item 4: Submission of Matters to a Vote of Security Holders"),
      body(),
      heading("Item 6: Selected Financial Data"),
      body(),
      heading("Item 14: Exhibits, Financial Statement Schedules and Reports on Form 8-K"),
      heading("Item 14(a)(1):"),
      body()
    ]
    const { sections } = detectSections(blocks, "10-K405")
    assert.deepStrictEqual(keysOf(sections), ["1", "2", "4", "6", "14"])
    assert.deepStrictEqual(sections.slice(2).map((section) => section.title), [
      "Item 4. Submission of Matters to a Vote of Security Holders",
      "Item 6. Selected Financial Data",
      "Item 14. Exhibits, Financial Statement Schedules and Reports on Form 8-K"
    ])
    assert.strictEqual(sections[4]?.endBlock, blocks.length)
  })
})

describe("detectSections: 10-Q", () => {
  it("restarts numbering in Part II and keys items by part", () => {
    const blocks = [
      table(["PART I", "", ""], ["Item 1.", "Financial Statements", "1"], ["Item 2.", "MD&A", "14"]),
      heading("PART I — FINANCIAL INFORMATION", 2),
      heading("Item 1. Financial Statements"),
      body(),
      heading("Item 2. Management’s Discussion and Analysis of Financial Condition and Results of Operations"),
      body(),
      heading("Item 4. Controls and Procedures"),
      body(),
      heading("PART II — OTHER INFORMATION", 2),
      heading("Item 1. Legal Proceedings"),
      body(),
      heading("Item 1A. Risk Factors"),
      body(),
      heading("Item 6. Exhibits"),
      body(),
      bold("SIGNATURES")
    ]
    const { sections } = detectSections(blocks, "10-Q")
    assert.deepStrictEqual(keysOf(sections), [
      "part1item1",
      "part1item2",
      "part1item4",
      "part2item1",
      "part2item1a",
      "part2item6",
      "Signatures"
    ])
    assert.strictEqual(
      sections[1]?.title,
      "Item 2. Management's Discussion and Analysis of Financial Condition and Results of Operations"
    )
    assert.strictEqual(sections[3]?.title, "Item 1. Legal Proceedings")
  })

  it("sees Part II begin from a Part II-only item or a `Part II, Item` label", () => {
    const noHeading = detectSections(
      [heading("Item 1. Financial Statements"), body(), heading("Item 1A. Risk Factors"), body()],
      "10-Q"
    )
    assert.deepStrictEqual(keysOf(noHeading.sections), ["part1item1", "part2item1a"])
    const inline = detectSections(
      [heading("Item 4. Controls and Procedures"), body(), heading("Part II, Item 1. Legal Proceedings"), body()],
      "10-Q"
    )
    assert.deepStrictEqual(keysOf(inline.sections), ["part1item4", "part2item1"])
  })
})

describe("detectSections: 8-K", () => {
  it("finds several items, named `Item <n>. <name>`", () => {
    const blocks = [
      heading("FORM 8-K", 4),
      paragraph("Check the appropriate box below if the Form 8-K filing is intended to satisfy the filing obligation."),
      bold("Item 2.02. Results of Operations and Financial Condition."),
      paragraph("On March 15, 2023 the Company issued a press release; see Item 9.01 for the exhibit."),
      paragraph("Item - 7.01 Regulation FD Disclosure"),
      body(),
      heading("ITEM 9.01(d). Exhibits"),
      table(["Exhibit No.", "Description"], ["99.1", "Press release"]),
      heading("SIGNATURE", 4),
      body()
    ]
    const { sections } = detectSections(blocks, "8-K")
    assert.deepStrictEqual(keysOf(sections), ["2.02", "7.01", "9.01", "Signatures"])
    assert.deepStrictEqual(sections.map((section) => section.title).slice(0, 3), [
      "Item 2.02. Results of Operations and Financial Condition",
      "Item 7.01. Regulation FD Disclosure",
      "Item 9.01. Financial Statements and Exhibits"
    ])
  })

  it("reads the pre-2004 numbering", () => {
    const { sections } = detectSections([heading("Item 9. Regulation FD Disclosure"), body()], "8-K")
    assert.deepStrictEqual(sections.map((section) => section.title), ["Item 9. Regulation FD Disclosure"])
  })

  it("guesses the catalog of an unknown form from its labels", () => {
    const eightK = detectSections([heading("Item 5.02 Departure of Directors"), body()], undefined)
    assert.deepStrictEqual(keysOf(eightK.sections), ["5.02"])
    const tenQ = detectSections(
      [
        heading("Item 1. Financial Statements"),
        body(),
        heading("Item 2. MD&A"),
        body(),
        heading("PART II", 2),
        heading("Item 1. Legal Proceedings"),
        body()
      ],
      undefined
    )
    assert.deepStrictEqual(keysOf(tenQ.sections), ["part1item1", "part1item2", "part2item1"])
  })
})

describe("detectSections: heading-named forms", () => {
  it("names an S-1's sections from its top-level headings, past the cover page and TOC", () => {
    const blocks = [
      heading("UNITED STATES", 4),
      heading("SECURITIES AND EXCHANGE COMMISSION", 4),
      heading("FORM S-1", 4),
      heading("TABLE OF CONTENTS", 4),
      table(["Prospectus Summary", "1"], ["Risk Factors", "8"], ["Use of Proceeds", "30"]),
      heading("PROSPECTUS SUMMARY", 4),
      body(),
      heading("Overview", 4),
      body(),
      heading("RISK FACTORS", 4),
      body(),
      heading("USE OF PROCEEDS", 4),
      body(),
      heading("UNDERWRITING", 4),
      body()
    ]
    const { sections } = detectSections(blocks, "S-1")
    assert.deepStrictEqual(sections.map((section) => section.title), [
      "Prospectus Summary",
      "Risk Factors",
      "Use of Proceeds",
      "Underwriting"
    ])
    assert.deepStrictEqual(sections.map((section) => section.item), [undefined, undefined, undefined, undefined])
    // `Overview` is a sub-heading of the summary.
    assert.deepStrictEqual([sections[0]?.startBlock, sections[0]?.endBlock], [5, 9])
  })

  it("names a proxy statement's proposals and standard parts, once each", () => {
    const blocks = [
      bold("PROXY STATEMENT"),
      body(),
      paragraph("Proposal 1 — Election of Directors"),
      body(),
      paragraph("Proposal 1 — Election of Directors (continued)"),
      body(),
      bold("EXECUTIVE COMPENSATION"),
      body(),
      bold("Security Ownership of Certain Beneficial Owners and Management"),
      body(),
      bold("PROPOSAL NO. 2 RATIFICATION OF THE APPOINTMENT OF THE INDEPENDENT AUDITORS"),
      body()
    ]
    const { sections } = detectSections(blocks, "DEF 14A")
    assert.deepStrictEqual(sections.map((section) => section.title), [
      "Proxy Statement",
      "Proposal 1 — Election of Directors",
      "Executive Compensation",
      "Security Ownership of Certain Beneficial Owners and Management",
      "Proposal No. 2 Ratification of the Appointment of the Independent Auditors"
    ])
  })

  it("names a proposal from the title over its `(Proposal No. N)` line", () => {
    const blocks = [
      bold("PROXY STATEMENT"),
      body(),
      heading("ELECTION OF DIRECTORS", 4),
      paragraph("(Proposal No. 1)", { centered: true }),
      body(),
      heading("REVERSE STOCK SPLIT", 4),
      paragraph("(Proposal No. 2)", { centered: true }),
      body()
    ]
    const { sections } = detectSections(blocks, "DEF 14A")
    assert.deepStrictEqual(sections.map((section) => [section.title, section.startBlock]), [
      ["Proxy Statement", 0],
      ["Election of Directors (Proposal No. 1)", 2],
      ["Reverse Stock Split (Proposal No. 2)", 5]
    ])
  })

  it("falls back to the shallowest headings when no known title is there", () => {
    const blocks = [heading("Press release", 1), body(), heading("Details", 2), body(), heading("About Us", 1), body()]
    const { sections } = detectSections(blocks, "6-K")
    assert.deepStrictEqual(sections.map((section) => section.title), ["Press release", "About Us"])
  })
})

describe("catalog", () => {
  it("maps form variants to item forms", () => {
    assert.deepStrictEqual(
      ["10-K", "10-K405", "10-KSB", "10-K/A", "10-Q", "10-QSB", "8-K", "8-K/A", "20-F", "S-1", "DEF 14A", undefined]
        .map(
          itemFormOf
        ),
      ["10-K", "10-K", "10-K", "10-K", "10-Q", "10-Q", "8-K", "8-K", "20-F", undefined, undefined, undefined]
    )
  })

  it("has the items of each form, in order", () => {
    assert.deepStrictEqual(catalogFor("10-K").items.map((item) => item.key), [
      "1",
      "1A",
      "1B",
      "1C",
      "2",
      "3",
      "4",
      "5",
      "6",
      "7",
      "7A",
      "8",
      "9",
      "9A",
      "9B",
      "9C",
      "10",
      "11",
      "12",
      "13",
      "14",
      "15",
      "16"
    ])
    assert.deepStrictEqual(catalogFor("10-Q").items.map((item) => item.key), [
      "part1item1",
      "part1item2",
      "part1item3",
      "part1item4",
      "part2item1",
      "part2item1a",
      "part2item2",
      "part2item3",
      "part2item4",
      "part2item5",
      "part2item6"
    ])
    const twentyF = catalogFor("20-F").items.map((item) => item.key)
    assert.includeMembers(twentyF, ["1", "4A", "16A", "16J", "19"])
    const eightK = catalogFor("8-K").items.filter((item) => item.key.includes(".")).map((item) => item.key)
    assert.includeMembers(eightK, ["1.01", "2.02", "5.02", "5.07", "7.01", "8.01", "9.01"])
    const item = catalogFor("8-K").items.find((entry) => entry.key === "2.02")
    assert.strictEqual(item && itemSectionName("8-K", item), "Item 2.02. Results of Operations and Financial Condition")
  })

  it("normalises queries", () => {
    assert.strictEqual(
      normalizeQuery("  Management’s Discussion & Analysis "),
      "management'sdiscussionandanalysis".replace("'", "")
    )
    assert.strictEqual(normalizeQuery("Item 2.02"), "item202")
  })
})

describe("findSection", () => {
  const tenKSections = detectSections(tenK(), "10-K").sections
  const tenQSections = detectSections(
    [
      heading("Item 1. Financial Statements"),
      body(),
      heading("Item 2. Management's Discussion and Analysis"),
      body(),
      heading("PART II", 2),
      heading("Item 1. Legal Proceedings"),
      body(),
      heading("Item 1A. Risk Factors"),
      body()
    ],
    "10-Q"
  ).sections
  const eightKSections = detectSections(
    [heading("Item 2.02 Results of Operations"), body(), heading("Item 9.01 Exhibits"), body()],
    "8-K"
  ).sections

  it("finds 10-K items by name, item and alias", () => {
    for (
      const query of ["Risk Factors", "risk factors", "Item 1A", "1A", "item 1a", "ITEM 1A.", "Item 1A. Risk Factors"]
    ) {
      assert.strictEqual(findSection(tenKSections, query, "10-K")?.item, "1A", query)
    }
    for (const query of ["MD&A", "md&a", "MDA", "Management’s Discussion and Analysis", "Item 7"]) {
      assert.strictEqual(findSection(tenKSections, query, "10-K")?.item, "7", query)
    }
    assert.strictEqual(findSection(tenKSections, "Item 7A", "10-K")?.item, "7A")
    assert.strictEqual(findSection(tenKSections, "Market Risk")?.item, "7A")
    assert.strictEqual(findSection(tenKSections, "signatures")?.title, "Signatures")
    assert.strictEqual(findSection(tenKSections, "Item 16", "10-K"), undefined)
    assert.strictEqual(findSection(tenKSections, "", "10-K"), undefined)
  })

  it("finds 10-Q items by part", () => {
    assert.strictEqual(findSection(tenQSections, "MD&A", "10-Q")?.item, "part1item2")
    assert.strictEqual(findSection(tenQSections, "MD&A")?.item, "part1item2")
    assert.strictEqual(findSection(tenQSections, "Risk Factors", "10-Q")?.item, "part2item1a")
    assert.strictEqual(findSection(tenQSections, "Item 1A", "10-Q")?.item, "part2item1a")
    assert.strictEqual(findSection(tenQSections, "part2item1a")?.item, "part2item1a")
    assert.strictEqual(findSection(tenQSections, "Item 1")?.item, "part1item1")
    assert.strictEqual(findSection(tenQSections, "Part II, Item 1")?.item, "part2item1")
    assert.strictEqual(findSection(tenQSections, "part i item 1")?.item, "part1item1")
    assert.strictEqual(findSection(tenQSections, "Legal Proceedings")?.item, "part2item1")
  })

  it("finds 8-K items by number and title", () => {
    assert.strictEqual(findSection(eightKSections, "Item 2.02", "8-K")?.item, "2.02")
    assert.strictEqual(findSection(eightKSections, "2.02")?.item, "2.02")
    assert.strictEqual(findSection(eightKSections, "results of operations and financial condition")?.item, "2.02")
    assert.strictEqual(findSection(eightKSections, "Exhibits", "8-K")?.item, "9.01")
    assert.strictEqual(findSection(eightKSections, "Item 5.02", "8-K"), undefined)
  })

  it("finds named sections by name or its start", () => {
    const sections = [{ title: "Prospectus Summary" }, { title: "Use of Proceeds" }]
    assert.strictEqual(findSection(sections, "use of proceeds")?.title, "Use of Proceeds")
    assert.strictEqual(findSection(sections, "USE-OF-PROCEEDS")?.title, "Use of Proceeds")
    assert.strictEqual(findSection(sections, "Prospectus")?.title, "Prospectus Summary")
    assert.strictEqual(findSection(sections, "Dilution"), undefined)
  })
})

describe("blocksFromMarkdown (test adapter)", () => {
  it("reads headings, tables, lists and bold paragraphs", () => {
    const blocks = blocksFromMarkdown(
      "### Item 1. Business\n\n**ITEM 1A. RISK FACTORS**\n\n| Item 2. | Properties | 5 |\n| --- | --- | --- |\n\n- one\n- two\n\nPlain \\[text]."
    )
    assert.deepStrictEqual(blocks.map((block) => block.kind), ["heading", "paragraph", "table", "list", "paragraph"])
    const boldParagraph = blocks[1]
    assert.isTrue(boldParagraph?.kind === "paragraph" && boldParagraph.style.bold)
    assert.strictEqual(boldParagraph?.kind === "paragraph" ? boldParagraph.text : "", "ITEM 1A. RISK FACTORS")
    assert.deepStrictEqual(blocks[2]?.kind === "table" ? blocks[2].rows : [], [["Item 2.", "Properties", "5"]])
    assert.strictEqual(blocks[4]?.kind === "paragraph" ? blocks[4].text : "", "Plain [text].")
  })
})

describe("stripMarkdown (test support)", () => {
  it("keeps the visible text only", () => {
    assert.strictEqual(
      stripMarkdown(
        "### Item 1\n\n| A | B\\|C |\n| --- | --- |\n\n- **bold** and *it* [link](http://x)\n\n```\ncode\n```"
      ),
      "Item 1\n\n  A   B|C  \n\nbold and it link\n\ncode"
    )
  })
})

describe("detectSections: 10-Q without PART headings", () => {
  it("starts Part II where the numbering goes back, also after a TOC of item lines", () => {
    const part1 = ["Financial Statements", "Management's Discussion and Analysis", "Controls and Procedures"]
    const part2 = ["Legal Proceedings", "Exhibits"]
    const numbers1 = ["1", "2", "4"]
    const numbers2 = ["1", "6"]
    const lines = (numbers: ReadonlyArray<string>, titles: ReadonlyArray<string>, withBody: boolean) =>
      numbers.flatMap((number, index) => {
        const label = bold(`Item ${number}. ${titles[index]}`)
        return withBody ? [label, body()] : [label]
      })
    const blocks = [
      ...lines(numbers1, part1, false),
      ...lines(numbers2, part2, false),
      ...lines(numbers1, part1, true),
      ...lines(numbers2, part2, true)
    ]
    const { sections } = detectSections(blocks, "10-Q")
    assert.deepStrictEqual(keysOf(sections), ["part1item1", "part1item2", "part1item4", "part2item1", "part2item6"])
    assert.strictEqual(sections[0]?.startBlock, 5)
  })

  it("does not let a cross-reference switch parts", () => {
    const blocks = [
      heading("Item 2. Management's Discussion and Analysis"),
      paragraph("Part II, Item 1A of our Annual Report on Form 10-K describes the risks."),
      body(),
      heading("Item 3. Quantitative and Qualitative Disclosures About Market Risk"),
      body()
    ]
    assert.deepStrictEqual(keysOf(detectSections(blocks, "10-Q").sections), ["part1item2", "part1item3"])
  })
})

describe("detectSections: 20-F", () => {
  it("reads Items 16A-16J however they are spelled, and sub-items like 4.A as parts of their item", () => {
    const blocks = [
      heading("Item 4. Information on the Company"),
      heading("Item 4.A History and Development of the Company"),
      body(),
      heading("Item 4A. Unresolved Staff Comments"),
      body(),
      heading("Item 15. Controls and Procedures"),
      body(),
      heading("ITEM 16. [RESERVED]"),
      heading("ITEM 16.A AUDIT COMMITTEE FINANCIAL EXPERT"),
      body(),
      heading("Item 16 B. Code of Ethics"),
      body(),
      heading("Item 16C. Principal Accountant Fees and Services"),
      body(),
      heading("ITEM 16J. INSIDER TRADING POLICIES"),
      body()
    ]
    const { sections } = detectSections(blocks, "20-F")
    assert.deepStrictEqual(keysOf(sections), ["4", "4A", "15", "16", "16A", "16B", "16C", "16J"])
    assert.strictEqual(sections[0]?.endBlock, 3)
    assert.strictEqual(sections[4]?.title, "Item 16A. Audit Committee Financial Expert")
  })
})

describe("detectSections: large type", () => {
  it("takes the tier of large type that holds known titles as the top level, joining split titles", () => {
    const sized = (text: string, fontSizePt: number) => paragraph(text, { fontSizePt })
    const prose = (seed: string) => sized(`${seed} `.repeat(80), 10)
    const blocks = [
      sized("Notice of Annual Meeting", 14),
      prose("a"),
      sized("About the Annual Meeting", 22),
      prose("b"),
      sized("Who can vote?", 13),
      prose("c"),
      sized("Proposal 1 — Election of Directors", 22),
      prose("d"),
      sized("Beneficial Ownership of Directors and", 22),
      sized("Executive Officers", 22),
      prose("e"),
      sized("Executive Compensation (continued)", 22),
      sized("Executive Compensation", 22),
      prose("f")
    ]
    const { sections } = detectSections(blocks, "DEF 14A")
    assert.deepStrictEqual(sections.map((section) => [section.title, section.startBlock, section.endBlock]), [
      ["About the Annual Meeting", 2, 6],
      ["Proposal 1 — Election of Directors", 6, 8],
      // A `(continued)` running header stays in the section it continues.
      ["Beneficial Ownership of Directors and Executive Officers", 8, 12],
      ["Executive Compensation", 12, 14]
    ])
  })
})

describe("detectSections: plain-text filings (readText)", () => {
  it("skips a dotted TOC and finds the item headings of an old text 10-K", () => {
    const prose = "The Company designs and sells widgets to customers in many markets around the world.\n"
      + "It competes with other widget makers on price, quality and service, and expects more competition.\n"
    const text = [
      "                                 FORM 10-K",
      "",
      "                              TABLE OF CONTENTS",
      "                                                                        Page",
      "PART I",
      "Item 1.    Business.....................................................   3",
      "Item 2.    Properties...................................................   9",
      "Item 4.    Submission of Matters to a Vote of Security Holders..........  10",
      "",
      "                                   PART I",
      "",
      "ITEM 1.  BUSINESS",
      "",
      prose,
      "ITEM 2.  PROPERTIES",
      "",
      prose,
      "ITEM 4.  SUBMISSION OF MATTERS TO A VOTE OF SECURITY HOLDERS",
      "",
      "     None.",
      "",
      "                                 SIGNATURES",
      "",
      prose
    ].join("\n")
    const { sections } = detectSections(readText(text).blocks, "10-K405")
    assert.deepStrictEqual(sections.map((section) => section.title), [
      "Item 1. Business",
      "Item 2. Properties",
      "Item 4. Submission of Matters to a Vote of Security Holders",
      "Signatures"
    ])
  })
})

describe("detectSections: degenerate input", () => {
  it("returns no sections for no blocks, and says so for an item form", () => {
    assert.deepStrictEqual(detectSections([], undefined), { sections: [], warnings: [] })
    assert.deepStrictEqual(detectSections([], "10-K"), {
      sections: [],
      warnings: ["no 10-K item headings found; sections from headings"]
    })
  })
})
