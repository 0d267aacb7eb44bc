/**
 * The "Use" example of README.md, run for real so it cannot drift from the code: the block between
 * the markers below must appear verbatim in the README.
 */
import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"

// README:start
import { Parser } from "@filings/filings-parser"
import { Effect } from "effect"

// An inline XBRL fragment as EDGAR serves it: hidden facts, a bold Item line, a print-layout table.
const html = `<div style="display:none"><ix:header>hidden XBRL facts</ix:header></div>
<p><b>Item 2.02 Results of Operations</b></p>
<table>
  <tr><td></td><td colspan="3">2024</td></tr>
  <tr><td>Revenue</td><td>$</td><td>1,234</td><td></td></tr>
  <tr><td>Net loss</td><td></td><td>(56</td><td>)</td></tr>
</table>`

export const example = Effect.gen(function*() {
  const bytes = new TextEncoder().encode(html)
  const { markdown, warnings, wordCount } = yield* Parser.parse({ bytes, contentType: "text/html" })
  // ### Item 2.02 Results of Operations
  //
  // |  | 2024 |
  // | --- | --- |
  // | Revenue | $1,234 |
  // | Net loss | (56) |
  return { markdown, warnings, wordCount }
})

// A full submission (`<accession>.txt`): its header and its primary document as Markdown.
export const submissionToMarkdown = (bytes: Uint8Array) =>
  Effect.gen(function*() {
    const { header, markdown } = yield* Parser.parse({ bytes })
    return { accessionNumber: header?.accessionNumber, form: header?.form, markdown }
  })
// README:end

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8")
const source = readFileSync(new URL(import.meta.url), "utf8")

describe("README", () => {
  it("shows the example that this file runs", () => {
    const example = source.slice(source.indexOf("// README:start\n") + 16, source.indexOf("// README:end"))
    assert.include(readme, "```ts\n" + example + "```")
  })

  it.effect("example: HTML to Markdown", () =>
    Effect.gen(function*() {
      const result = yield* example
      assert.deepStrictEqual(result, {
        markdown:
          "### Item 2.02 Results of Operations\n\n|  | 2024 |\n| --- | --- |\n| Revenue | $1,234 |\n| Net loss | (56) |\n",
        warnings: [],
        wordCount: 11
      })
    }))

  it.effect("example: a full submission", () =>
    Effect.gen(function*() {
      const text = [
        "<SEC-DOCUMENT>0009999999-24-000001.txt : 20240102",
        "<SEC-HEADER>0009999999-24-000001.hdr.sgml : 20240102",
        "ACCESSION NUMBER:\t\t0009999999-24-000001",
        "CONFORMED SUBMISSION TYPE:\t8-K",
        "</SEC-HEADER>",
        "<DOCUMENT>",
        "<TYPE>8-K",
        "<SEQUENCE>1",
        "<FILENAME>acme-8k.htm",
        "<TEXT>",
        "<html><body><p>Acme announced a dividend.</p></body></html>",
        "</TEXT>",
        "</DOCUMENT>",
        "</SEC-DOCUMENT>"
      ].join("\n")
      const result = yield* submissionToMarkdown(new TextEncoder().encode(text))
      assert.deepStrictEqual(result, {
        accessionNumber: "0009999999-24-000001",
        form: "8-K",
        markdown: "Acme announced a dividend.\n"
      })
    }))
})
