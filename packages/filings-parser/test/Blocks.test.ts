/**
 * The public document model's helpers: plain text from the inline Markdown the parser writes, a
 * block's visible lines, and Markdown rendered from blocks.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Blocks } from "../src/index.js"
import { parseHtml } from "./support/parse.js"

const style = Blocks.plainStyle

describe("Blocks", () => {
  it("plainText undoes the marks the renderer writes", () => {
    assert.strictEqual(
      Blocks.plainText("**Revenue** of [$4 million](https://x.example) and _more_ \\*unaudited\\*"),
      "Revenue of $4 million and more *unaudited*"
    )
    assert.strictEqual(Blocks.plainText("![Logo](logo.png)  `code`\n  4.1\\*\\*"), "Logo code 4.1**")
    assert.strictEqual(Blocks.plainText("  plain   text "), "plain text")
    assert.strictEqual(Blocks.plainText("![Logo](logo.png) Results", { images: "omit" }), "Results")
  })

  it("isAmountCell tells amounts from labels and year headings", () => {
    for (const cell of ["$1,234", " (565) ", "6.08", "12%", "$ (1,234)", "—1.5"]) {
      assert.isTrue(Blocks.isAmountCell(cell), cell)
    }
    for (const cell of ["2024", "FY2023", "Revenue", "", "Three Months Ended", "Q3 2024"]) {
      assert.isFalse(Blocks.isAmountCell(cell), cell)
    }
  })

  it("lines keeps a paragraph's hard line breaks apart and reads each kind of block", () => {
    assert.deepStrictEqual(
      Blocks.lines({
        kind: "paragraph",
        page: 1,
        text: "By: /s/ Pat Lee Pat Lee Chief Financial Officer",
        inlines: [
          { kind: "text", text: "By: /s/ Pat Lee" },
          { kind: "break" },
          { kind: "text", text: "Pat Lee" },
          { kind: "break" },
          { kind: "strong", children: [{ kind: "text", text: "Chief Financial Officer" }] }
        ],
        style
      }),
      ["By: /s/ Pat Lee", "Pat Lee", "Chief Financial Officer"]
    )
    assert.deepStrictEqual(
      Blocks.lines({
        kind: "heading",
        page: 2,
        depth: 3,
        text: "Item 1. Business",
        inlines: [{ kind: "text", text: "Item 1. Business" }],
        style
      }),
      ["Item 1. Business"]
    )
    assert.deepStrictEqual(
      Blocks.lines({
        kind: "list",
        page: 1,
        ordered: false,
        items: [
          { text: "one", inlines: [{ kind: "emphasis", children: [{ kind: "text", text: "one" }] }] },
          { text: "two", inlines: [{ kind: "text", text: "two" }] }
        ]
      }),
      [
        "one",
        "two"
      ]
    )
    assert.deepStrictEqual(
      Blocks.lines({ kind: "table", page: 1, rows: [["", "2024"], ["Revenue", "$10"]], headerRows: 1 }),
      [
        "2024",
        "Revenue $10"
      ]
    )
    assert.deepStrictEqual(Blocks.lines({ kind: "preformatted", page: 1, text: "Net sales    $ 10\n\n  Total" }), [
      "Net sales $ 10",
      "Total"
    ])
  })

  it.effect("a table is rows of plain-text cells, its first row the header, rendered as GFM", () =>
    Effect.gen(function*() {
      const reading = yield* parseHtml(
        "<table><tr><th></th><th>2024</th></tr><tr><td>Net *sales* | total</td><td>$ 10</td></tr></table>"
      )
      const table = reading.blocks.find((block) => block.kind === "table")
      assert.deepStrictEqual(table?.kind === "table" ? table.rows : [], [["", "2024"], ["Net *sales* | total", "$ 10"]])
      assert.strictEqual(
        Blocks.toMarkdown(reading.blocks),
        "|  | 2024 |\n| --- | --- |\n| Net \\*sales\\* \\| total | $ 10 |\n"
      )
    }))
})
