import { assert, describe, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { Blocks, Parser, SgmlSubmission } from "../src/index.js"

const encode = (text: string) => new TextEncoder().encode(text)

const paragraph = (words: number, seed: string) =>
  `<p>${Array.from({ length: words }, (_, index) => `${seed}${index}`).join(" ")}.</p>`

const annualReport = [
  "<SEC-DOCUMENT>0000999999-24-000001.txt : 20240301",
  "<SEC-HEADER>0000999999-24-000001.hdr.sgml : 20240301",
  "ACCESSION NUMBER:\t\t0000999999-24-000001",
  "CONFORMED SUBMISSION TYPE:\t10-K",
  "PUBLIC DOCUMENT COUNT:\t\t2",
  "CONFORMED PERIOD OF REPORT:\t20231231",
  "FILED AS OF DATE:\t\t20240301",
  "FILER:",
  "\tCOMPANY DATA:\t",
  "\t\tCOMPANY CONFORMED NAME:\t\t\tEXAMPLE WIDGETS INC",
  "\t\tCENTRAL INDEX KEY:\t\t\t0000999999",
  "</SEC-HEADER>",
  "<DOCUMENT>",
  "<TYPE>10-K",
  "<SEQUENCE>1",
  "<FILENAME>widgets-20231231.htm",
  "<TEXT>",
  "<html><body>",
  "<p style=\"font-weight:bold\">Item 1. Business</p>",
  paragraph(150, "business"),
  paragraph(150, "products"),
  paragraph(150, "customers"),
  "<p style=\"font-weight:bold\">Item 1A. Risk Factors</p>",
  paragraph(120, "risk"),
  "<p style=\"font-weight:bold\">Item 7. Management's Discussion and Analysis</p>",
  paragraph(60, "results"),
  "</body></html>",
  "</TEXT>",
  "</DOCUMENT>",
  "<DOCUMENT>",
  "<TYPE>EX-99.1",
  "<SEQUENCE>2",
  "<FILENAME>ex991.htm",
  "<DESCRIPTION>PRESS RELEASE",
  "<TEXT>",
  "<html><body><p>Example Widgets reports record widgets.</p></body></html>",
  "</TEXT>",
  "</DOCUMENT>",
  "</SEC-DOCUMENT>"
].join("\n")

describe("Parser.parse", () => {
  it.effect("a full submission: header, form, item sections, exhibits and the primary file", () =>
    Effect.gen(function*() {
      const parsed = yield* Parser.parse({ bytes: encode(annualReport) })
      assert.strictEqual(parsed.form, "10-K")
      assert.strictEqual(parsed.header?.accessionNumber, "0000999999-24-000001")
      assert.strictEqual(parsed.primaryFileName, "widgets-20231231.htm")
      assert.deepStrictEqual(parsed.sections.map((section) => [section.title, section.item]), [
        ["Item 1. Business", "1"],
        ["Item 1A. Risk Factors", "1A"],
        ["Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations", "7"]
      ])
      assert.strictEqual(parsed.sections[1]?.wordCount, 4 + 120)
      assert.deepStrictEqual(
        parsed.exhibits.map((exhibit) => [exhibit.exhibitNumber, exhibit.title, exhibit.fileName]),
        [
          ["99.1", "PRESS RELEASE", "ex991.htm"]
        ]
      )
      assert.include(parsed.exhibits[0]?.content, "record widgets")
    }))

  it.effect("the document model: sections and chunks are ranges of the blocks, Markdown is rendered from them", () =>
    Effect.gen(function*() {
      const parsed = yield* Parser.parse({ bytes: encode(annualReport) })
      const { blocks } = parsed
      assert.strictEqual(parsed.markdown, Blocks.toMarkdown(blocks))
      assert.strictEqual(parsed.wordCount, Blocks.countWords(blocks))
      assert.deepStrictEqual(parsed.sections.map((section) => section.blockRange), [
        { start: 0, end: 4 },
        { start: 4, end: 6 },
        { start: 6, end: 8 }
      ])
      for (const section of parsed.sections) {
        const { end, start } = section.blockRange
        assert.strictEqual(section.content, Blocks.toMarkdown(blocks, start, end))
        assert.strictEqual(section.wordCount, Blocks.countWords(blocks, start, end))
      }
      assert.isAbove(parsed.chunks.length, 1)
      let next = 0
      for (const chunk of parsed.chunks) {
        assert.strictEqual(chunk.blockRange.start, next)
        assert.strictEqual(chunk.text, Blocks.toMarkdown(blocks, chunk.blockRange.start, chunk.blockRange.end))
        next = chunk.blockRange.end
      }
      assert.strictEqual(next, blocks.length)
      const heading = blocks[4]
      assert.deepStrictEqual(heading?.kind === "heading" ? [heading.depth, heading.text] : [], [
        3,
        "Item 1A. Risk Factors"
      ])
      const exhibit = parsed.exhibits[0]
      assert.deepStrictEqual(exhibit?.blocks.map(Blocks.lines), [["Example Widgets reports record widgets."]])
      assert.strictEqual(exhibit?.content, Blocks.toMarkdown(exhibit?.blocks ?? []))
    }))

  it.effect("a submission the caller has split already is read as it is, not split again", () =>
    Effect.gen(function*() {
      const bytes = encode(annualReport)
      const submission = yield* SgmlSubmission.parseBytes(bytes)
      const fromBytes = yield* Parser.parse({ bytes })
      assert.deepStrictEqual(yield* Parser.parse({ bytes, submission }), fromBytes)
      // Given the split, the parser reads nothing else: the same document from no bytes at all.
      assert.deepStrictEqual(yield* Parser.parse({ bytes: new Uint8Array(), submission }), fromBytes)
      assert.isTrue(SgmlSubmission.looksLikeSubmission(bytes))
      assert.isFalse(SgmlSubmission.looksLikeSubmission(encode("<html><body>10-K</body></html>")))
    }))

  it.effect("chunks: ids in order, closed once past 250 words, never across a section start, joined they are the body", () =>
    Effect.gen(function*() {
      const parsed = yield* Parser.parse({ bytes: encode(annualReport) })
      assert.deepStrictEqual(parsed.chunks.map((chunk) => chunk.id), ["c0001", "c0002", "c0003", "c0004"])
      // The heading and two paragraphs pass 250 words, so the third paragraph opens the next chunk.
      assert.deepStrictEqual(parsed.chunks.map((chunk) => chunk.wordCount), [3 + 150 + 150, 150, 4 + 120, 6 + 60])
      assert.deepStrictEqual(parsed.chunks.map((chunk) => chunk.section), [
        "Item 1. Business",
        "Item 1. Business",
        "Item 1A. Risk Factors",
        "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations"
      ])
      assert.strictEqual(parsed.chunks.map((chunk) => chunk.text).join("\n"), parsed.markdown)
      assert.strictEqual(parsed.chunks.reduce((sum, chunk) => sum + chunk.wordCount, 0), parsed.wordCount)
      const again = yield* Parser.parse({ bytes: encode(annualReport) })
      assert.deepStrictEqual(again.chunks, parsed.chunks)
    }))

  it.effect("an inline XBRL document: cover facts, and the form they name", () =>
    Effect.gen(function*() {
      const html = [
        "<html xmlns:ix=\"http://www.xbrl.org/2013/inlineXBRL\"><body>",
        "<div style=\"display:none\"><ix:header><ix:hidden>",
        "<ix:nonNumeric name=\"dei:DocumentType\" contextRef=\"c\">10-Q</ix:nonNumeric>",
        "<ix:nonNumeric name=\"dei:TradingSymbol\" contextRef=\"c\">WDGT</ix:nonNumeric>",
        "<ix:nonNumeric name=\"dei:DocumentPeriodEndDate\" contextRef=\"c\">June 29, 2024</ix:nonNumeric>",
        "</ix:hidden></ix:header></div>",
        "<p style=\"font-weight:bold\">PART I</p><p style=\"font-weight:bold\">Item 2. Management's Discussion</p>",
        paragraph(30, "quarter"),
        "</body></html>"
      ].join("")
      const parsed = yield* Parser.parse({ bytes: encode(html) })
      assert.deepStrictEqual(parsed.cover, {
        documentType: "10-Q",
        tradingSymbol: "WDGT",
        tradingSymbols: ["WDGT"],
        periodEndDate: "2024-06-29"
      })
      assert.strictEqual(parsed.form, "10-Q")
      assert.deepStrictEqual(parsed.sections.map((section) => section.item), ["part1item2"])
      assert.notInclude(parsed.markdown, "WDGT")
    }))

  it.effect("a cover listing two classes of shares: every trading symbol, in the cover's order", () =>
    Effect.gen(function*() {
      const html = [
        "<html xmlns:ix=\"http://www.xbrl.org/2013/inlineXBRL\"><body>",
        "<div style=\"display:none\"><ix:header><ix:hidden>",
        "<ix:nonNumeric name=\"dei:DocumentType\" contextRef=\"c\">10-Q</ix:nonNumeric>",
        "</ix:hidden></ix:header></div>",
        "<table><tr><td>Class A Common Stock</td>",
        "<td><ix:nonNumeric name=\"dei:TradingSymbol\" contextRef=\"a\">TWOA</ix:nonNumeric></td></tr>",
        "<tr><td>Class C Capital Stock</td>",
        "<td><ix:nonNumeric name=\"dei:TradingSymbol\" contextRef=\"c\">TWOC</ix:nonNumeric></td></tr>",
        "<tr><td>Class A again, on another exchange</td>",
        "<td><ix:nonNumeric name=\"dei:TradingSymbol\" contextRef=\"x\">TWOA</ix:nonNumeric></td></tr></table>",
        "<p style=\"font-weight:bold\">PART I</p><p style=\"font-weight:bold\">Item 2. Management's Discussion</p>",
        paragraph(30, "quarter"),
        "</body></html>"
      ].join("")
      const parsed = yield* Parser.parse({ bytes: encode(html) })
      assert.strictEqual(parsed.cover?.tradingSymbol, "TWOA")
      assert.deepStrictEqual(parsed.cover?.tradingSymbols, ["TWOA", "TWOC"])
    }))

  it.effect("character references in cover facts and in a text filing's HTML shell are decoded, all of them", () =>
    Effect.gen(function*() {
      const html = [
        "<html><body><div style=\"display:none\"><ix:header><ix:hidden>",
        "<ix:nonNumeric name=\"dei:EntityRegistrantName\" contextRef=\"c\">Smith&#8217;s Widgets &amp; Gears&nbsp;Inc&period;</ix:nonNumeric>",
        "</ix:hidden></ix:header></div>",
        paragraph(30, "body"),
        "</body></html>"
      ].join("")
      const parsed = yield* Parser.parse({ bytes: encode(html) })
      assert.strictEqual(parsed.cover?.registrantName, "Smith’s Widgets & Gears Inc.")
      const lines = Array.from(
        { length: 120 },
        (_, index) => `Line ${index} of the report, R&amp;D &sect; 2 &rsquo;text&rsquo;.`
      )
      const shell = yield* Parser.parse({
        bytes: encode(`<html><body><pre>\n${lines.join("\n")}\n</pre></body></html>`)
      })
      assert.strictEqual(shell.warnings[0], "plain text in an HTML shell: converted as text")
      assert.include(shell.markdown, "Line 0 of the report, R&D § 2 ’text’.")
    }))

  it.effect("plain text: the form from the cover page's FORM line", () =>
    Effect.gen(function*() {
      const text = [
        "FORM 8-K",
        "",
        "CURRENT REPORT",
        "",
        "Item 2.02. Results of Operations and Financial Condition",
        "",
        "On May 1 the company announced its results for the quarter, which were good for everyone.",
        ""
      ].join("\n")
      const parsed = yield* Parser.parse({ bytes: encode(text) })
      assert.strictEqual(parsed.form, "8-K")
      assert.deepStrictEqual(parsed.sections.map((section) => section.item), ["2.02"])
    }))

  it.effect("a transcript in JSON: speaker turns, prepared remarks and Q&A", () =>
    Effect.gen(function*() {
      const turns = [
        { speaker: "Operator", text: "Welcome to the Example Widgets call. I will hand over to our chief executive." },
        {
          speaker: "Jane Doe",
          text: "Thank you. We sold more widgets than ever this quarter, and margins rose again. ".repeat(5)
        },
        { speaker: "Operator", text: "Our first question comes from Sam Lee with Big Bank. Please go ahead." },
        { speaker: "Sam Lee", text: "How many widgets will you sell next year, and at what price? ".repeat(4) },
        { speaker: "Jane Doe", text: "More than this year, at better prices, we expect. ".repeat(6) },
        { speaker: "Sam Lee", text: "Thank you, that is helpful, and congratulations on the quarter. ".repeat(3) }
      ]
      const parsed = yield* Parser.parse({ bytes: encode(JSON.stringify(turns)), fileName: "call.json" })
      assert.strictEqual(parsed.form, "EARNINGS_CALL")
      const names = parsed.sections.map((section) => section.title)
      assert.includeMembers(names, ["Prepared Remarks", "Questions and Answers"])
      const qa = parsed.sections.find((section) => section.title === "Questions and Answers")
      assert.include(qa?.content, "How many widgets")
    }))

  it.effect("bad input is a typed failure", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<Parser.ParseInput> = [
        { bytes: new Uint8Array() },
        { bytes: new Uint8Array([0, 159, 146, 150, 0, 0, 1, 2, 3, 255, 0, 7]) },
        { bytes: encode("<html><body><p>not a pdf</p></body></html>"), fileName: "report.pdf" },
        { bytes: encode("{\"speaker\": "), fileName: "call.json" },
        { bytes: encode("<SEC-DOCUMENT>0000999999-24-000001.txt : 20240301\n<SEC-HEADER>\nACCESSION NUMBER: 1\n") }
      ]
      for (const input of cases) {
        const result = yield* Effect.either(Parser.parse(input))
        assert.isTrue(Either.isLeft(result), `${input.fileName ?? "bytes"} should fail`)
        if (Either.isLeft(result)) assert.oneOf(result.left._tag, ["UnreadableDocument", "MalformedSubmission"])
      }
    }))
})
