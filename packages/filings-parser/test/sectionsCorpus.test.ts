/**
 * Section detection on real filings of the shared corpus (`../shared/corpus/`, read in place,
 * never copied): the labeled 10-Ks and 10-Qs must give every labeled item, in order, once, each
 * within a factor of 1.5 of its labeled size; the other filings the sections checked by eye
 * against the documents. Blocks come from the engine's readers (`readHtml`, `readText`); sizes
 * are the non-whitespace characters of a section's blocks after its heading. Skipped where the
 * corpus is absent.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { corpusMissing, corpusUrl } from "../../../test/support/corpus.js"
import { SgmlSubmission } from "../src/index.js"
import { type Block, plainStyle } from "../src/internal/blocks.js"
import { readHtml } from "../src/internal/html/readHtml.js"
import { detectSections } from "../src/internal/sections/detectSections.js"
import { readText } from "../src/internal/text/readText.js"
import { parseHtml } from "./support/parse.js"
import { corpusBlocks, keysOf, plainTextSize } from "./support/sectionBlocks.js"

const corpus = corpusUrl
const labels = new URL("labels/", corpus)

interface LabeledItem {
  readonly item: string
  readonly heading: string
  readonly plain_text_chars: number
}

interface SectionLabel {
  readonly document: string
  readonly items: ReadonlyArray<LabeledItem>
}

const labelFiles = corpusMissing
  ? []
  : readdirSync(labels).filter((name) => name.endsWith(".expected-sections.json")).sort()

/** `10-K/aapl-10k-fy2024.htm` → `10-K`: the corpus keeps each form in its own folder. */
const formOfPath = (path: string): string => path.split("/")[0] ?? ""

const sizeTolerance = 1.5
const minimumCheckedSize = 300

describe.skipIf(corpusMissing)(`labeled sections in ../shared/corpus`, () => {
  it("has labels to check", () => {
    assert.isAtLeast(labelFiles.length, 10)
  })

  for (const file of labelFiles) {
    it(file.replace(".expected-sections.json", ""), () => {
      const label: SectionLabel = JSON.parse(readFileSync(new URL(file, labels), "utf8"))
      const blocks = corpusBlocks(corpus, label.document)
      const { sections } = detectSections(blocks, formOfPath(label.document))
      const items = sections.filter((section) => section.item !== undefined)
      // Every labeled item, in order, none extra, none twice.
      assert.deepStrictEqual(
        items.map((section) => section.item),
        label.items.map((item) => item.item)
      )
      const sizes = label.items.flatMap((expected, index) => {
        const section = items[index]
        if (section === undefined || expected.plain_text_chars < minimumCheckedSize) return []
        const size = plainTextSize(blocks, section)
        const ratio = size / expected.plain_text_chars
        return ratio > sizeTolerance || ratio < 1 / sizeTolerance
          ? [`${expected.item}: ${size} characters, labeled ${expected.plain_text_chars}`]
          : []
      })
      assert.deepStrictEqual(sizes, [])
    })
  }
})

/**
 * The same filings with their typography taken away, as other engines or older markup give them:
 * headings as plain paragraphs, the TOC table as lines with page numbers or as bare bold lines,
 * no PART headings. The item keys must not change.
 */
const degradations: ReadonlyArray<readonly [name: string, degrade: (blocks: ReadonlyArray<Block>) => Array<Block>]> = [
  [
    "headings as plain paragraphs",
    (blocks) =>
      blocks.map((block) =>
        block.kind === "heading"
          ? { kind: "paragraph", text: block.text, inlines: block.inlines, style: plainStyle, page: block.page }
          : block
      )
  ],
  [
    "TOC as lines, no PART headings",
    (blocks) =>
      blocks.flatMap((block): Array<Block> => {
        if (
          (block.kind === "heading" || block.kind === "paragraph") && /^part\s+i/i.test(block.text) &&
          block.text.length < 60
        ) {
          return []
        }
        if (block.kind !== "table" || block.rows.filter((row) => /^\s*item/i.test(row.join(" "))).length < 2) {
          return [block]
        }
        return block.rows
          .map((row) => row.filter((cell) => cell.trim().length > 0).join(" ").replace(/\s+\S{1,4}$/, ""))
          .filter((line) => line.length > 0)
          .map((line) => ({
            kind: "paragraph",
            text: line,
            inlines: [{ kind: "text" as const, text: line }],
            style: { ...plainStyle, bold: true },
            page: block.page
          }))
      })
  ]
]

describe.skipIf(corpusMissing)("labeled items survive plainer typography", () => {
  for (const file of labelFiles) {
    for (const [name, degrade] of degradations) {
      it(`${file.replace(".expected-sections.json", "")}: ${name}`, () => {
        const label: SectionLabel = JSON.parse(readFileSync(new URL(file, labels), "utf8"))
        const blocks = degrade(corpusBlocks(corpus, label.document))
        const { sections } = detectSections(blocks, formOfPath(label.document))
        assert.deepStrictEqual(
          sections.flatMap((section) => section.item ?? []),
          label.items.map((item) => item.item)
        )
      })
    }
  }
})

/** Sections found in the other corpus filings, checked by eye against each document. */
const expectedKeys: ReadonlyArray<readonly [path: string, form: string, keys: ReadonlyArray<string>]> = [
  ["8-K/adbe-8k-2023-03-15.htm", "8-K", ["2.02", "9.01", "Signatures"]],
  ["8-K/afcg-8k-2023-03-17.htm", "8-K", ["5.02", "7.01", "9.01", "Signatures"]],
  ["8-K/bke-8k-2024-11-22.htm", "8-K", ["2.02", "9.01", "Signatures"]],
  ["8-K/blk-8k-2023-02-24.htm", "8-K", ["5.02", "Signatures"]],
  ["8-K/jpm-8k-2026-06-25.htm", "8-K", ["5.02", "9.01", "Signatures"]],
  ["8-K/jwn-8k-2023-03-06.htm", "8-K", ["5.02", "9.01", "Signatures"]],
  ["8-K/lge-ku-8k-2003-03-25.htm", "8-K", ["9", "Signatures"]],
  ["8-K/meta-8k-2025-12-19.htm", "8-K", ["5.02", "Signatures"]],
  ["8-K/nvda-8k-2026-03-06.htm", "8-K", ["5.02", "9.01", "Signatures"]],
  ["8-K/orcl-8k-2024-11-14.htm", "8-K", ["5.07", "Signatures"]],
  ["8-K/shuiyun-qinghe-8k-2024-12-20-pre.htm", "8-K", ["5.02"]],
  ["8-K/sphs-8k-2016-03-23.htm", "8-K", ["2.02", "9.01", "Signatures"]],
  [
    "10-K/crr-10k-fy2017.htm",
    "10-K",
    [
      ...["1", "1A", "1B", "2", "3", "4", "5", "6", "7", "7A", "8", "9", "9A", "9B"],
      ...["10", "11", "12", "13", "14", "15", "16", "Signatures"]
    ]
  ],
  [
    "10-K/wfc-10k-fy2024.htm",
    "10-K",
    [
      ...["1", "1A", "1B", "1C", "2", "3", "4", "5", "6", "7", "7A", "8", "9", "9A", "9B", "9C"],
      ...["10", "11", "12", "13", "14", "15", "16", "Signatures"]
    ]
  ],
  [
    "10-K/commonwealth-income-growth-fund-v-10k-fy2015.htm",
    "10-K",
    [
      ...["1", "1A", "1B", "2", "3", "4", "5", "6", "7", "7A", "8", "9", "9A", "9B"],
      ...["10", "11", "12", "13", "14", "15", "Signatures"]
    ]
  ],
  // Pre-2005: no Item 1A; Items 10-13 incorporated by reference with no text of their own.
  [
    "10-K/medicis-10k-fy1999.htm",
    "10-K",
    ["1", "2", "3", "4", "5", "6", "7", "7A", "8", "9", "10", "11", "12", "13", "14", "Signatures"]
  ],
  [
    "20-F/plymouth-rock-technologies-20f-fy2020.htm",
    "20-F",
    [
      ...["1", "2", "3", "4", "4A", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15"],
      ...["16A", "16B", "16C", "16D", "16E", "16F", "17", "18", "19", "Signatures"]
    ]
  ],
  // A plain-text 10-Q of 2000: no Part I Item 4 yet.
  [
    "old-text/aapl-10q-2000-04-01-full-submission.txt",
    "10-Q",
    ["part1item1", "part1item2", "part1item3", "part2item1", "part2item4", "part2item6", "Signatures"]
  ]
]

const expectedNames: ReadonlyArray<readonly [path: string, form: string, names: ReadonlyArray<string>]> = [
  [
    "S-1/acxp-s1-2023-06-29.htm",
    "S-1",
    [
      "About This Prospectus",
      "Prospectus Summary",
      "The Offering",
      "Risk Factors",
      "The Private Placement",
      "Special Note Regarding Forward-Looking Statements",
      "Use of Proceeds",
      "Market for Common Stock and Dividend Policy",
      "Selling Stockholder",
      "Plan of Distribution",
      "Description of Our Securities to be Registered",
      "Legal Matters",
      "Experts",
      "Where You Can Find More Information",
      "Exhibit Index"
    ]
  ],
  [
    "S-1/lcw-s1-2021-03-29.htm",
    "S-1",
    [
      "Summary",
      "The Offering",
      "Summary Financial Data",
      "Risk Factors",
      "Cautionary Note Regarding Forward-Looking Statements",
      "Use of Proceeds",
      "Dividend Policy",
      "Dilution",
      "Capitalization",
      "Proposed Business",
      "Management",
      "Principal Shareholders",
      "Certain Relationships and Related Party Transactions",
      "Description of Securities",
      "Taxation",
      "Underwriting",
      "Legal Matters",
      "Experts",
      "Index to Financial Statements"
    ]
  ],
  ["6-K/alc-6k-2023-02-13.htm", "6-K", ["Exhibit Index", "Signatures"]],
  ["6-K/phg-6k-2023-01-30.htm", "6-K", ["Press information"]]
]

describe.skipIf(corpusMissing)(`sections of other filings in ../shared/corpus`, () => {
  for (const [path, form, keys] of expectedKeys) {
    it(path, () => {
      const { sections } = detectSections(corpusBlocks(corpus, path), form)
      assert.deepStrictEqual(keysOf(sections), keys)
    })
  }

  for (const [path, form, names] of expectedNames) {
    it(path, () => {
      const { sections } = detectSections(corpusBlocks(corpus, path), form)
      assert.deepStrictEqual(sections.map((section) => section.title), names)
    })
  }

  it("8-K item names follow the catalog, with a period after the number, as the spec writes them", () => {
    const { sections } = detectSections(corpusBlocks(corpus, "8-K/afcg-8k-2023-03-17.htm"), "8-K")
    assert.deepStrictEqual(sections.map((section) => section.title), [
      "Item 5.02. Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers; "
      + "Compensatory Arrangements of Certain Officers",
      "Item 7.01. Regulation FD Disclosure",
      "Item 9.01. Financial Statements and Exhibits",
      "Signatures"
    ])
  })

  it("DEF 14A: the part titles set in large type, proposals among them", () => {
    const { sections } = detectSections(corpusBlocks(corpus, "DEF14A/cbt-def14a-2024.htm"), "DEF 14A")
    assert.deepStrictEqual(sections.map((section) => section.title), [
      "About the Annual Meeting",
      "Board Leadership, Governance and Composition, and Risk Management",
      "Governance",
      "Proposal 1 — Election of Directors",
      "Other Governance Policies and Practices",
      "Director Compensation",
      "Beneficial Stock Ownership of Directors, Executive Officers and Persons Owning More Than Five Percent of Common Stock",
      "Executive Compensation",
      "Proposal 2 — Advisory Approval of Executive Compensation",
      "Proposal 3 — Approval of the Cabot Corporation 2024 Non-Employee Director Plan",
      "Audit Committee Matters",
      "Proposal 4 — Ratification of Appointment of Independent Registered Public Accounting Firm",
      "Other Information",
      "Appendix A Non-Gaap Measures",
      "Appendix B Cabot Corporation 2024 Non-Employee Director Plan"
    ])
  })

  it("an unknown form: the catalog its labels fit", () => {
    const { sections } = detectSections(corpusBlocks(corpus, "10-Q/aapl-10q-2023-07-01.htm"), undefined)
    assert.deepStrictEqual(keysOf(sections).slice(0, 5), [
      "part1item1",
      "part1item2",
      "part1item3",
      "part1item4",
      "part2item1"
    ])
    const s3 = detectSections(corpusBlocks(corpus, "old-text/page-america-s3a-1995-05-25.txt"), undefined)
    assert.isTrue(s3.sections.every((section) => section.item === undefined))
  })

  // A text filing in a bare HTML shell: read as the parser reads it (the shell unwrapped), its
  // newline-laid-out items become headings.
  it("20-F/aeg-20f-fy2000.htm", () => {
    const html = readFileSync(new URL("20-F/aeg-20f-fy2000.htm", corpus), "latin1")
    const { blocks } = Effect.runSync(parseHtml(html))
    const { sections } = detectSections(blocks, "20-F")
    assert.deepStrictEqual(keysOf(sections), [
      ...Array.from({ length: 16 }, (_, index) => String(index + 1)),
      "18",
      "19",
      "Signatures"
    ])
  })
})

/** The blocks and form of a full submission's primary document. */
const submissionBlocks = (path: string) =>
  Effect.gen(function*() {
    const submission = yield* SgmlSubmission.parseBytes(readFileSync(new URL(path, corpus)))
    const primary = yield* Effect.fromNullable(Option.getOrUndefined(SgmlSubmission.primaryDocument(submission)))
    const blocks: ReadonlyArray<Block> = primary.format === "html"
      ? readHtml(primary.body).blocks
      : readText(primary.body).blocks
    return { blocks, form: primary.type }
  })

const expectedSubmissionKeys: ReadonlyArray<readonly [path: string, keys: ReadonlyArray<string>]> = [
  ["8-K/aapl-8k-2019-11-15-full-submission.txt", ["8.01", "9.01", "Signatures"]],
  // `Item 2.02 of this Current Report ... is incorporated herein` under Item 7.01 is no boundary.
  ["8-K/abvc-8k-2025-04-15-full-submission.txt", ["2.02", "4.02", "7.01", "9.01", "Signatures"]],
  ["8-K/mmm-8k-2024-03-08-full-submission.txt", ["8.01", "9.01", "Signatures"]],
  // `Section 5 – Corporate Governance and Management Item 5.02. ...` in one bold line.
  ["old-text/exc-8k-2005-04-27-full-submission.txt", ["5.02", "Signatures"]],
  // A plain-text 8-K of 1998: the old numbering.
  ["old-text/aames-capital-8k-1998-12-31-full-submission.txt", ["7", "Signatures"]],
  // An asset-backed issuer's 10-K: omitted items listed in tables; Regulation AB items stay inside.
  ["10-K/carmax-auto-owner-trust-2019-3-10k-fy2023-full-submission.txt", ["1B", "4", "9B", "15", "16", "Signatures"]]
]

describe.skipIf(corpusMissing)(`sections of full submissions in ../shared/corpus`, () => {
  for (const [path, keys] of expectedSubmissionKeys) {
    it.effect(path, () =>
      Effect.gen(function*() {
        const { blocks, form } = yield* submissionBlocks(path)
        assert.deepStrictEqual(keysOf(detectSections(blocks, form).sections), keys)
      }))
  }

  it.effect("DEF 14A without large type: known titles and proposals", () =>
    Effect.gen(function*() {
      const { blocks, form } = yield* submissionBlocks("DEF14A/turn-def14a-2020-03-25-full-submission.txt")
      assert.strictEqual(form, "DEF 14A")
      assert.deepStrictEqual(detectSections(blocks, form).sections.map((section) => section.title), [
        "Notice of Annual Meeting of Shareholders",
        "Proxy Statement",
        "Election of Directors (Proposal No. 1)",
        "Section 16(a) Beneficial Ownership Reporting Compliance",
        "Reverse Stock Split (Proposal No. 2)",
        "Selection of Independent Registered Public Accountant (Proposal No. 3)",
        "Other Matters"
      ])
    }))
})
