/**
 * `Blocks.fromMarkdown`: the Markdown the parser renders read back into the blocks it came from,
 * for readers that have only a stored chunk's Markdown.
 */
import { assert, describe, it } from "@effect/vitest"
import { Blocks } from "../src/index.js"

const style = Blocks.plainStyle

describe("Blocks.fromMarkdown", () => {
  it("reads back what toMarkdown rendered: headings, paragraphs, lists, tables and fences", () => {
    const blocks: ReadonlyArray<Blocks.Block> = [
      { kind: "heading", page: 1, depth: 2, text: "Results", markdown: "Results", style },
      {
        kind: "paragraph",
        page: 1,
        text: "(In millions, except per share amounts)",
        markdown: "(In millions, except per share amounts)",
        style
      },
      {
        kind: "table",
        page: 1,
        rows: [["", "Years ended", ""], ["", "2024", "2023"], ["Net sales | total", "$391,035", "$383,285"], [
          "Research and development",
          "(31,370)",
          "(29,915)"
        ]],
        headerRows: 2
      },
      { kind: "list", page: 1, ordered: false, items: ["Competition could harm us.", "Supply may fail."] },
      { kind: "preformatted", page: 1, text: "a  |  b\n# not a heading" }
    ]
    const read = Blocks.fromMarkdown(Blocks.toMarkdown(blocks))
    assert.deepStrictEqual(read, blocks)
  })

  it("counts a table's header rows from its cells: none when the first row holds amounts", () => {
    const [table] = Blocks.fromMarkdown("| Total revenue | $4,655 |\n| --- | --- |\n| Cost of revenue | 568 |\n")
    assert.strictEqual(table?.kind, "table")
    assert.strictEqual(table?.kind === "table" ? table.headerRows : -1, 0)
  })

  it("ends blocks at blank lines and rules, and keeps a line under a list item with the item", () => {
    const read = Blocks.fromMarkdown("First line\nsecond line\n\n---\n\n- an item\n  goes on\n- another\n\nAfter.")
    assert.deepStrictEqual(read.map((block) => block.kind), ["paragraph", "list", "paragraph"])
    assert.deepStrictEqual(read[0]?.kind === "paragraph" ? read[0].text : "", "First line second line")
    assert.deepStrictEqual(read[1]?.kind === "list" ? read[1].items : [], ["an item\ngoes on", "another"])
  })

  it("reads a table written right under a paragraph as a table of its own", () => {
    const read = Blocks.fromMarkdown("Net sales were as follows:\n|  | 2024 |\n| --- | --- |\n| iPhone | $201,183 |")
    assert.deepStrictEqual(read.map((block) => block.kind), ["paragraph", "table"])
  })
})
