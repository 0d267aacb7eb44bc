/**
 * Tests on real EDGAR filings from the shared corpus (`../shared/corpus/`, see its CATALOGUE.md).
 * The files are read in place, never copied into the project; where the corpus is absent (a fresh
 * clone without it) these tests are skipped.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { readFileSync } from "node:fs"
import { corpusMissing, corpusUrl } from "../../../test/support/corpus.js"
import { Parser, SgmlSubmission } from "../src/index.js"
import { parseBytes, parseSubmission, parseSubmissionDocument } from "./support/parse.js"

const corpus = corpusUrl
const read = (path: string): Uint8Array => readFileSync(new URL(path, corpus))

/** The GFM tables of a document, and their rows whose cell count differs from the header's. */
const tableShape = (markdown: string): { readonly tables: number; readonly problems: Array<string> } => {
  let tables = 0
  const problems: Array<string> = []
  const lines = markdown.split("\n")
  const cellCount = (line: string) => line.replace(/\\\|/g, "").split("|").length - 2
  for (let index = 0; index < lines.length; index++) {
    const delimiter = lines[index + 1]
    if (!lines[index]?.startsWith("|") || delimiter === undefined || !/^\| --- (\| --- )*\|$/.test(delimiter)) continue
    tables++
    const width = cellCount(lines[index] ?? "")
    if (cellCount(delimiter) !== width) problems.push(`line ${index + 2}: delimiter row width`)
    for (index += 2; lines[index]?.startsWith("|"); index++) {
      if (cellCount(lines[index] ?? "") !== width) problems.push(`line ${index + 1}: ${lines[index]}`)
    }
  }
  return { tables, problems }
}

// Text that only exists in the hidden inline XBRL header (facts, contexts, units).
const hiddenXbrl = /us-gaap:|iso4217:|xbrli:|dei:|ix:header|display:\s*none/
const rawHtml = /<\/?(?:div|span|p|td|tr|table|font|ix:[a-z]+)\b/i

describe.skipIf(corpusMissing)(`corpus in ../shared/corpus`, () => {
  it.effect("GOOG 10-Q Q2 2023: the cover's trading symbols, both classes, GOOGL first", () =>
    Effect.gen(function*() {
      const parsed = yield* Parser.parse({ bytes: read("10-Q/goog-10q-2023-06-30.htm"), fileName: "goog-10q.htm" })
      assert.strictEqual(parsed.cover?.tradingSymbol, "GOOGL")
      assert.deepStrictEqual(parsed.cover?.tradingSymbols, ["GOOGL", "GOOG"])
    }))

  it.effect("AAPL 10-K FY2024: tables, headings, no hidden XBRL", () =>
    Effect.gen(function*() {
      const converted = yield* parseBytes(read("10-K/aapl-10k-fy2024.htm"), "text/html")
      const { markdown } = converted
      assert.strictEqual(converted.title, "aapl-20240928")
      // The table of contents repeats the Item headings with page numbers: removed, and reported.
      assert.deepStrictEqual(converted.warnings, ["removed a table of contents (28 rows)"])
      assert.notInclude(markdown, "| Item 1A. | Risk Factors |")
      assert.isAbove(converted.wordCount, 25_000)
      assert.isBelow(converted.wordCount, 35_000)
      assert.notMatch(markdown, hiddenXbrl)
      assert.notMatch(markdown, rawHtml)
      assert.include(
        markdown,
        "The Company designs, manufactures and markets smartphones, personal computers, tablets, wearables and accessories"
      )
      assert.include(markdown, "\n## PART I\n")
      assert.include(markdown, "\n### Item 1A. Risk Factors\n")
      assert.include(markdown, "\n### Item 7. Management’s Discussion and Analysis of Financial Condition")
      // The income statement: `$` cells merged into their values, spacer columns gone.
      assert.include(markdown, "| Total net sales | 391,035 | 383,285 | 394,328 |")
      assert.include(markdown, "| Net income | $93,736 | $96,995 | $99,803 |")
      assert.include(markdown, "| Americas | $167,045 | 3% | $162,560 | (4)% | $169,658 |")
      assert.include(markdown, "| Other income/(expense), net | 269 | (565) | (334) |")
      assert.notInclude(markdown, "| $ |")
      // Page footers ("Apple Inc. | 2024 Form 10-K | 12") are gone.
      assert.notInclude(markdown, "2024 Form 10-K |")
      const shape = tableShape(markdown)
      assert.isAbove(shape.tables, 40)
      assert.deepStrictEqual(shape.problems, [])
    }))

  const htmlDocuments = [
    "8-K/adbe-8k-2023-03-15.htm",
    "8-K/afcg-8k-2023-03-17.htm",
    "8-K/bke-8k-2024-11-22.htm",
    "8-K/blk-8k-2023-02-24.htm",
    "8-K/jpm-8k-2026-06-25.htm",
    "8-K/jwn-8k-2023-03-06.htm",
    "8-K/lge-ku-8k-2003-03-25.htm",
    "8-K/meta-8k-2025-12-19.htm",
    "8-K/nvda-8k-2026-03-06.htm",
    "8-K/orcl-8k-2024-11-14.htm",
    "8-K/sphs-8k-2016-03-23.htm",
    "10-K/goog-10k-fy2023.htm",
    "10-K/crr-10k-fy2017.htm",
    "10-K/medicis-10k-fy1999.htm",
    "10-Q/aapl-10q-2023-07-01.htm",
    "press-releases/adbe-8k-2023-03-15-ex99-1.htm"
  ]
  for (const path of htmlDocuments) {
    it.effect(`${path}: clean Markdown with rectangular tables`, () =>
      Effect.gen(function*() {
        const converted = yield* parseBytes(read(path))
        assert.isAbove(converted.wordCount, 300)
        assert.notMatch(converted.markdown, hiddenXbrl)
        assert.notMatch(converted.markdown, rawHtml)
        assert.notInclude(converted.markdown, "&#160;")
        assert.notMatch(converted.markdown, /\n{3,}/)
        const shape = tableShape(converted.markdown)
        assert.isAbove(shape.tables, 0)
        assert.deepStrictEqual(shape.problems, [])
      }))
  }

  it.effect("ADBE 8-K: Item headings and the exhibit table", () =>
    Effect.gen(function*() {
      const { markdown } = yield* parseBytes(read("8-K/adbe-8k-2023-03-15.htm"))
      assert.include(markdown, "\n### Item 2.02. Results of Operations and Financial Condition.\n")
      assert.include(markdown, "\n### Item 9.01. Financial Statements and Exhibits.\n")
      assert.match(markdown, /\| --- \| --- \|/)
    }))

  it.effect("WFC 10-K: the 1.15 MB hidden XBRL header does not leak", () =>
    Effect.gen(function*() {
      const converted = yield* parseBytes(read("10-K/wfc-10k-fy2024.htm"))
      assert.notMatch(converted.markdown, hiddenXbrl)
      assert.notInclude(converted.markdown, "WELLS FARGO & COMPANY/MN")
      assert.include(converted.markdown, "\n### ITEM 1. BUSINESS\n")
      assert.isBelow(converted.markdown.length, 200_000)
    }))

  it.effect("AEGON 20-F of 2001: a text filing in an HTML shell goes through the text path", () =>
    Effect.gen(function*() {
      const converted = yield* parseBytes(read("20-F/aeg-20f-fy2000.htm"))
      assert.strictEqual(converted.warnings[0], "plain text in an HTML shell: converted as text")
      assert.notMatch(converted.markdown, /<TABLE>|<S>|<C>/)
      // Its SGML tables stay aligned in code blocks instead of collapsing into one paragraph.
      assert.isAbove(converted.markdown.split("\n```\n").length, 50)
      assert.isAbove(converted.wordCount, 50_000)
    }))

  it.effect("AAPL 8-K full submission: header, documents, binary exhibits, primary document", () =>
    Effect.gen(function*() {
      const submission = yield* SgmlSubmission.parseBytes(read("8-K/aapl-8k-2019-11-15-full-submission.txt"))
      const { header } = submission
      assert.strictEqual(header.accessionNumber, "0001193125-19-292676")
      assert.strictEqual(header.form, "8-K")
      assert.strictEqual(header.cik, "0000320193")
      assert.strictEqual(header.companyName, "Apple Inc.")
      assert.strictEqual(header.fiscalYearEnd, "0928")
      assert.strictEqual(header.periodOfReport, "2019-11-07")
      assert.strictEqual(header.filedAsOf, "2019-11-15")
      assert.strictEqual(header.acceptedAt, "2019-11-15T06:02:24")
      assert.deepStrictEqual(header.items, ["Other Events", "Financial Statements and Exhibits"])
      assert.deepStrictEqual(submission.warnings, [])

      assert.lengthOf(submission.documents, 19)
      assert.deepStrictEqual(
        submission.documents.slice(0, 4).map((document) => [document.type, document.sequence, document.format]),
        [["8-K", 1, "html"], ["EX-1.1", 2, "html"], ["EX-4.1", 3, "html"], ["EX-5.1", 4, "html"]]
      )
      const binary = submission.documents.filter((document) => document.format === "binary")
      assert.deepStrictEqual(binary.map((document) => document.type), ["GRAPHIC", "GRAPHIC", "GRAPHIC", "ZIP", "EXCEL"])
      const logo = yield* SgmlSubmission.decodeBinary(binary[0] ?? submission.documents[0]!)
      assert.deepStrictEqual([...logo.subarray(0, 3)], [0xff, 0xd8, 0xff]) // JPEG start
      assert.deepStrictEqual([...logo.subarray(-2)], [0xff, 0xd9]) // JPEG end
      const zip = yield* SgmlSubmission.decodeBinary(binary[3] ?? submission.documents[0]!)
      assert.deepStrictEqual([...zip.subarray(0, 4)], [0x50, 0x4b, 0x03, 0x04])
      const schema = submission.documents.find((document) => document.type === "EX-101.SCH")
      assert.isTrue(schema?.body.startsWith("<?xml"))

      const converted = yield* parseSubmission(submission)
      assert.include(converted.markdown, "\n### Item 8.01 Other Events.\n")
      assert.include(
        converted.markdown,
        "consummated the issuance and sale of €1,000,000,000 aggregate principal amount"
      )
      assert.notMatch(converted.markdown, hiddenXbrl)
    }))

  it.effect("CarMax ABS 10-K full submission: header values", () =>
    Effect.gen(function*() {
      const submission = yield* SgmlSubmission.parseBytes(
        read("10-K/carmax-auto-owner-trust-2019-3-10k-fy2023-full-submission.txt")
      )
      assert.deepStrictEqual(
        {
          accessionNumber: submission.header.accessionNumber,
          form: submission.header.form,
          cik: submission.header.cik,
          companyName: submission.header.companyName,
          fiscalYearEnd: submission.header.fiscalYearEnd,
          periodOfReport: submission.header.periodOfReport,
          filedAsOf: submission.header.filedAsOf,
          items: submission.header.items
        },
        {
          accessionNumber: "0001779026-23-000027",
          form: "10-K",
          cik: "0001779026",
          companyName: "CarMax Auto Owner Trust 2019-3",
          fiscalYearEnd: "0228",
          periodOfReport: "2023-02-28",
          filedAsOf: "2023-05-26",
          items: []
        }
      )
      assert.deepStrictEqual(
        submission.documents.map((document) => document.type),
        ["10-K", "EX-31.1", "EX-33.1", "EX-33.2", "EX-34.1", "EX-34.2", "EX-35.1"]
      )
    }))

  it.effect("Apple 10-Q of 2000 (plain text): paragraphs, headings, text tables", () =>
    Effect.gen(function*() {
      const submission = yield* SgmlSubmission.parseBytes(read("old-text/aapl-10q-2000-04-01-full-submission.txt"))
      assert.strictEqual(submission.header.accessionNumber, "0000912057-00-023442")
      assert.strictEqual(submission.header.companyName, "APPLE COMPUTER INC")
      assert.strictEqual(submission.header.filedAsOf, "2000-05-11")
      assert.isUndefined(submission.header.acceptedAt)
      assert.deepStrictEqual(
        submission.documents.map((document) => [document.type, document.format]),
        [["10-Q", "text"], ["EX-3.2", "text"], ["EX-10.A49", "text"], ["EX-10.A51", "text"], ["EX-27", "text"]]
      )
      const { markdown, wordCount } = yield* parseSubmission(submission)
      assert.include(markdown, "\n## PART I. FINANCIAL INFORMATION\n")
      assert.include(markdown, "\n### ITEM 1. FINANCIAL STATEMENTS\n")
      // The SGML table stays aligned in a code block, without its <S>/<C> markers.
      assert.match(markdown, /```\n\s+Three Months Ended/)
      assert.include(markdown, "Net sales                                                           $  1,945")
      assert.notMatch(markdown, /<PAGE>|<S>|<C>|<TABLE>/)
      assert.isAbove(wordCount, 8_000)
    }))

  it.effect("a 1995 filing without SGML header: documents with a warning", () =>
    Effect.gen(function*() {
      const submission = yield* SgmlSubmission.parseBytes(read("old-text/page-america-s3a-1995-05-25.txt"))
      assert.deepStrictEqual(submission.warnings, ["no <SEC-HEADER>: header fields are unknown"])
      assert.deepStrictEqual(submission.documents.map((document) => document.type), ["S-3/A", "EX-99"])
      const primary = Option.getOrThrow(SgmlSubmission.primaryDocument(submission))
      const { markdown } = yield* parseSubmissionDocument(primary)
      assert.include(
        markdown,
        "This Prospectus relates to 654,514 shares (the \"Shares\") of Common Stock, $.10 par value (the \"Common Stock\")"
      )
    }))

  it.effect("corrupt and wrong inputs fail with typed errors", () =>
    Effect.gen(function*() {
      const pdf = read("pdf/pep-8k-2023-05-30.pdf")
      // A PDF is read as one; its body without the `%PDF-` header is no document of any format.
      const notText = yield* Effect.flip(parseBytes(pdf.slice(4_096), "text/html"))
      assert.deepStrictEqual([notText._tag, notText.reason], ["UnreadableDocument", "binary"])
      const pdfSubmission = yield* Effect.flip(SgmlSubmission.parseBytes(pdf))
      assert.strictEqual(pdfSubmission._tag, "UnreadableDocument")

      const html = new TextDecoder().decode(read("8-K/meta-8k-2025-12-19.htm"))
      const notSubmission = yield* Effect.flip(SgmlSubmission.parse(html))
      assert.deepStrictEqual([notSubmission._tag, notSubmission.reason], ["MalformedSubmission", "not-a-submission"])

      const full = new TextDecoder().decode(read("8-K/meta-8k-2025-12-19-full-submission.txt"))
      const headerOnly = yield* Effect.flip(SgmlSubmission.parse(full.slice(0, full.indexOf("<DOCUMENT>"))))
      assert.strictEqual(headerOnly.reason, "no-documents")

      // Cut in the middle of the primary document: parsed as far as it goes, with warnings.
      const truncated = yield* SgmlSubmission.parse(full.slice(0, Math.floor(full.indexOf("<DOCUMENT>") + 5_000)))
      assert.lengthOf(truncated.documents, 1)
      assert.include(truncated.warnings, "document 1 has no </DOCUMENT> (truncated?)")
    }))
})
