import { assert, describe, it } from "@effect/vitest"
import { Blocks } from "@filings/filings-parser"
import { ExtractiveModel } from "../src/index.js"

const style = Blocks.plainStyle

/** What a heading or paragraph of one plain run of text on page 1 holds besides its kind. */
const plainRun = (text: string) => ({ page: 1, text, inlines: [{ kind: "text" as const, text }], style })

describe("ExtractiveModel.sentencesOf over blocks", () => {
  it("reads paragraph and list blocks as prose, and leaves headings and tables out by their kind", () => {
    const blocks: ReadonlyArray<Blocks.Block> = [
      { kind: "heading", depth: 2, ...plainRun("Results") },
      {
        kind: "paragraph",
        page: 1,
        text: "Revenue rose 9% to $4.66 billion. Margins held.",
        inlines: [
          { kind: "text", text: "Revenue rose " },
          { kind: "strong", children: [{ kind: "text", text: "9%" }] },
          { kind: "text", text: " to $4.66 billion. Margins held." }
        ],
        style
      },
      { kind: "table", page: 1, rows: [["", "2024"], ["Revenue | total", "$4,655"]], headerRows: 1 },
      {
        kind: "list",
        page: 1,
        ordered: false,
        items: [{
          text: "Record Creative revenue.",
          inlines: [
            { kind: "text", text: "Record " },
            { kind: "emphasis", children: [{ kind: "text", text: "Creative" }] },
            { kind: "text", text: " revenue." }
          ]
        }]
      },
      // A paragraph whose text looks like Markdown is still prose: its kind says so.
      { kind: "paragraph", ...plainRun("# 1 in its market.") }
    ]
    const sentences = ExtractiveModel.sentencesOf([{ id: "c1", text: "ignored when blocks are given", blocks }])
    assert.deepStrictEqual(sentences.map((sentence) => sentence.text), [
      "Revenue rose 9% to $4.66 billion.",
      "Margins held.",
      "Record Creative revenue.",
      "# 1 in its market."
    ])
    assert.isTrue(sentences.every((sentence) => sentence.chunkId === "c1"))
  })

  it("reads a chunk's Markdown through the parser when it has no blocks, as the blocks it renders", () => {
    const blocks: ReadonlyArray<Blocks.Block> = [
      { kind: "heading", depth: 3, ...plainRun("Outlook") },
      { kind: "paragraph", ...plainRun("We expect growth.") },
      { kind: "table", page: 1, rows: [["Total revenue", "$4,750"]], headerRows: 0 }
    ]
    const fromMarkdown = ExtractiveModel.sentencesOf([{ id: "c2", text: Blocks.toMarkdown(blocks) }])
    const fromBlocks = ExtractiveModel.sentencesOf([{ id: "c2", text: "", blocks }])
    assert.deepStrictEqual(fromMarkdown, fromBlocks)
    assert.deepStrictEqual(fromBlocks.map((sentence) => sentence.text), ["We expect growth."])
  })
})
