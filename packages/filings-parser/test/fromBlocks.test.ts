/**
 * `Parser.fromBlocks` assembles blocks read already (a submission's exhibit) into the document
 * `Parser.parse` makes of the exhibit's own bytes: same Markdown, sections, chunks, word count and
 * discussed period, without reading the exhibit a second time.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Parser } from "../src/index.js"

const releaseHtml = [
  "<html><head><title>Q3 release</title></head><body>",
  "<p>FOR IMMEDIATE RELEASE</p>",
  "<h1>Northwind Traders Reports Record Third Quarter Fiscal 2026 Revenue</h1>",
  "<p>SEATTLE, Nov. 5, 2026 -- Northwind Traders today reported revenue of $12.5 million for the third ",
  "quarter of fiscal 2026, up 20% from a year ago.</p>",
  "<h2>Outlook</h2>",
  "<p>The company raised its outlook for the full year.</p>",
  "<table><tr><th></th><th>Q3 2026</th><th>Q3 2025</th></tr>",
  "<tr><td>Revenue</td><td>$12.5</td><td>$10.4</td></tr></table>",
  "<div style=\"page-break-before:always\"></div>",
  "<p>About Northwind Traders: Northwind sells widgets.</p>",
  "</body></html>"
].join("")

/** An 8-K submission furnishing `releaseHtml` as its EX-99.1. */
const submission = [
  "<SEC-DOCUMENT>0000888801-26-000001.txt : 20261105",
  "<SEC-HEADER>0000888801-26-000001.hdr.sgml : 20261105",
  "ACCESSION NUMBER:\t\t0000888801-26-000001",
  "CONFORMED SUBMISSION TYPE:\t8-K",
  "PUBLIC DOCUMENT COUNT:\t\t2",
  "FILED AS OF DATE:\t\t20261105",
  "</SEC-HEADER>",
  "<DOCUMENT>",
  "<TYPE>8-K",
  "<SEQUENCE>1",
  "<FILENAME>report.htm",
  "<TEXT>",
  "<html><body><p><b>Item 2.02 Results of Operations and Financial Condition.</b></p>",
  "<p>The company furnishes its press release as Exhibit 99.1.</p></body></html>",
  "</TEXT>",
  "</DOCUMENT>",
  "<DOCUMENT>",
  "<TYPE>EX-99.1",
  "<SEQUENCE>2",
  "<FILENAME>release.htm",
  "<DESCRIPTION>PRESS RELEASE",
  "<TEXT>",
  releaseHtml,
  "</TEXT>",
  "</DOCUMENT>",
  "</SEC-DOCUMENT>"
].join("\n")

const encode = (text: string) => new TextEncoder().encode(text)

describe("Parser.fromBlocks", () => {
  it.effect("makes of an exhibit's blocks what parse makes of its bytes", () =>
    Effect.gen(function*() {
      const filing = yield* Parser.parse({ bytes: encode(submission) })
      const exhibit = filing.exhibits.find((candidate) => candidate.exhibitNumber === "99.1")
      assert.isDefined(exhibit)
      const assembled = Parser.fromBlocks({ blocks: exhibit!.blocks, form: "PRESS_RELEASE" })
      const parsed = yield* Parser.parse({ bytes: encode(releaseHtml), fileName: "release.htm", form: "PRESS_RELEASE" })
      assert.strictEqual(assembled.markdown, parsed.markdown)
      assert.strictEqual(assembled.wordCount, parsed.wordCount)
      assert.deepStrictEqual(assembled.sections, parsed.sections)
      assert.deepStrictEqual(assembled.chunks, parsed.chunks)
      assert.deepStrictEqual(assembled.discussedPeriod, parsed.discussedPeriod)
      assert.deepStrictEqual(assembled.discussedPeriod, { quarter: 3, fiscalYear: 2026, source: "text" })
      assert.strictEqual(assembled.pageCount, parsed.pageCount)
      assert.strictEqual(assembled.form, "PRESS_RELEASE")
      assert.include(assembled.markdown, "# Northwind Traders Reports Record Third Quarter Fiscal 2026 Revenue")
    }))

  it("counts pages from the blocks unless told, and keeps the title and warnings given", () => {
    const blocks = [
      {
        kind: "paragraph",
        page: 1,
        text: "First page.",
        inlines: [{ kind: "text", text: "First page." }],
        style: plain
      },
      {
        kind: "paragraph",
        page: 3,
        text: "Third page.",
        inlines: [{ kind: "text", text: "Third page." }],
        style: plain
      }
    ] as const
    const counted = Parser.fromBlocks({ blocks })
    assert.strictEqual(counted.pageCount, 3)
    assert.strictEqual(counted.markdown, "First page.\n\nThird page.\n")
    assert.isUndefined(counted.form)
    const told = Parser.fromBlocks({ blocks, pageCount: 5, title: "Deck", warnings: ["a table was flattened"] })
    assert.strictEqual(told.pageCount, 5)
    assert.strictEqual(told.title, "Deck")
    assert.deepStrictEqual(told.warnings, ["a table was flattened"])
  })
})

const plain = { bold: false, italic: false, underline: false, centered: false }
