import { assert, describe, it } from "@effect/vitest"
import { Blocks } from "@filings/filings-parser"
import { ExtractiveModel } from "../src/index.js"

const style = Blocks.plainStyle

describe("ExtractiveModel.sentencesOf over blocks", () => {
  it("reads paragraph and list blocks as prose, and leaves headings and tables out by their kind", () => {
    const blocks: ReadonlyArray<Blocks.Block> = [
      { kind: "heading", page: 1, depth: 2, text: "Results", inlines: [{ kind: "text", text: "Results" }], style },
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
      {
        kind: "paragraph",
        page: 1,
        text: "# 1 in its market.",
        inlines: [{ kind: "text", text: "# 1 in its market." }],
        style
      }
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
      { kind: "heading", page: 1, depth: 3, text: "Outlook", inlines: [{ kind: "text", text: "Outlook" }], style },
      {
        kind: "paragraph",
        page: 1,
        text: "We expect growth.",
        inlines: [{ kind: "text", text: "We expect growth." }],
        style
      },
      { kind: "table", page: 1, rows: [["Total revenue", "$4,750"]], headerRows: 0 }
    ]
    const fromMarkdown = ExtractiveModel.sentencesOf([{ id: "c2", text: Blocks.toMarkdown(blocks) }])
    const fromBlocks = ExtractiveModel.sentencesOf([{ id: "c2", text: "", blocks }])
    assert.deepStrictEqual(fromMarkdown, fromBlocks)
    assert.deepStrictEqual(fromBlocks.map((sentence) => sentence.text), ["We expect growth."])
  })
})
