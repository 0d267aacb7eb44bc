/**
 * `Blocks.fromMarkdown`: Markdown the parser rendered, read back into blocks (for documents stored
 * before their blocks were kept). Its blocks render to the same Markdown, on synthetic documents
 * and on real filings of the corpus.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { corpusFile, corpusMissing } from "../../../test/support/corpus.js"
import { Blocks, Parser } from "../src/index.js"
import { parseHtml } from "./support/parse.js"

const style = Blocks.plainStyle
const text = (value: string): Blocks.Inline => ({ kind: "text", text: value })

describe("Blocks.fromMarkdown", () => {
  it("reads headings, paragraphs with marks and breaks, lists, tables and fenced text", () => {
    const blocks: Array<Blocks.Block> = [
      { kind: "heading", page: 1, depth: 3, text: "Item 1. Business", inlines: [text("Item 1. Business")], style },
      {
        kind: "paragraph",
        page: 1,
        text: "Net sales of $4 million *unaudited* Pat Lee",
        inlines: [
          { kind: "strong", children: [text("Net sales")] },
          text(" of "),
          { kind: "link", url: "https://example.com/a b", children: [text("$4 million")] },
          text(" *unaudited*"),
          { kind: "break" },
          { kind: "emphasis", children: [text("Pat Lee")] }
        ],
        style
      },
      {
        kind: "list",
        page: 1,
        ordered: true,
        items: [
          { text: "first", inlines: [text("first")] },
          { text: "second line", inlines: [text("second"), { kind: "break" }, text("line")] }
        ]
      },
      {
        kind: "table",
        page: 1,
        rows: [["", "Three Months Ended", ""], ["", "2024", "2023"], ["Revenue | net", "$ 10", "(5)"]],
        headerRows: 2
      },
      { kind: "preformatted", page: 1, text: "Net sales    $ 10\n\n  Total ```" }
    ]
    const markdown = Blocks.toMarkdown(blocks)
    const read = Blocks.fromMarkdown(markdown)
    assert.deepStrictEqual(read, blocks)
    assert.strictEqual(Blocks.toMarkdown(read), markdown)
  })

  it("reads a hand-written GFM table: tight delimiters, alignment marks, an empty corner cell", () => {
    const [table, list] = Blocks.fromMarkdown(
      "| | 2024 | 2023 |\n|---|:--:|--:|\n|Total assets|3,220|3,000|\n\n- First"
    )
    assert.deepStrictEqual(table, {
      kind: "table",
      page: 1,
      rows: [["", "2024", "2023"], ["Total assets", "3,220", "3,000"]],
      headerRows: 1
    })
    assert.strictEqual(list?.kind, "list")
  })

  it("gives a paragraph that is all strong text the bold style, and reads images", () => {
    const [bold, image] = Blocks.fromMarkdown("**PART II**\n\n![Acme logo](logo.png) Results\n")
    assert.deepStrictEqual(bold, {
      kind: "paragraph",
      page: 1,
      text: "PART II",
      inlines: [{ kind: "strong", children: [text("PART II")] }],
      style: { ...style, bold: true }
    })
    assert.deepStrictEqual(image, {
      kind: "paragraph",
      page: 1,
      text: "Results",
      inlines: [{ kind: "image", alt: "Acme logo", src: "logo.png" }, text(" Results")],
      style
    })
  })

  it.effect("reads back the blocks the HTML reader made, tables with their header rows", () =>
    Effect.gen(function*() {
      const parsed = yield* parseHtml(
        `<p><b>Item 7. Management's Discussion</b></p><p>Revenue grew <i>12%</i>.<br>See below.</p>
        <table><tr><td></td><td>2024</td><td>2023</td></tr><tr><td>Revenue</td><td>$ 10</td><td>$ 8</td></tr></table>
        <ul><li>One</li><li>Two</li></ul>`
      )
      const read = Blocks.fromMarkdown(parsed.markdown)
      assert.strictEqual(Blocks.toMarkdown(read), parsed.markdown)
      assert.deepStrictEqual(
        read.map((block) => block.kind),
        parsed.blocks.map((block) => block.kind)
      )
      const table = read.find((block) => block.kind === "table")
      assert.deepStrictEqual(table, {
        kind: "table",
        page: 1,
        rows: [["", "2024", "2023"], ["Revenue", "$ 10", "$ 8"]],
        headerRows: 1
      })
      assert.deepStrictEqual(Blocks.lines(read[1]!), ["Revenue grew 12%.", "See below."])
    }))

  it.effect.skipIf(corpusMissing)("renders real filings back to the same Markdown", () =>
    Effect.gen(function*() {
      for (const path of ["10-K/aapl-10k-fy2024.htm", "8-K/adbe-8k-2023-03-15.htm", "10-K/medicis-10k-fy1999.htm"]) {
        const parsed = yield* Parser.parse({ bytes: new Uint8Array(readFileSync(corpusFile(path))), fileName: path })
        const read = Blocks.fromMarkdown(parsed.markdown)
        assert.strictEqual(Blocks.toMarkdown(read), parsed.markdown, path)
        const tables = (blocks: ReadonlyArray<Blocks.Block>) =>
          blocks.flatMap((block) => block.kind === "table" ? [block.rows] : [])
        assert.deepStrictEqual(
          tables(read),
          tables(parsed.blocks).map((rows) => rows.map((row) => row.map((cell) => cell.replace(/\s+/g, " ").trim()))),
          path
        )
      }
    }), 120_000)
})
