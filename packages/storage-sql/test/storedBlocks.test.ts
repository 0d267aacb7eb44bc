/**
 * The `blocks` column's compact JSON: blocks read back as they were saved, with what says nothing
 * left out of what is written, and rows written with whole styles read the same.
 */
import { assert, describe, it } from "@effect/vitest"
import { Blocks } from "@filings/domain"
import { Schema } from "effect"
import { BlocksColumn, storedBlocks } from "../src/internal/storedBlocks.js"

const paragraph = (text: string, style: Blocks.TextStyle = Blocks.plainStyle): Blocks.Block => ({
  kind: "paragraph",
  page: 3,
  text,
  inlines: [{ kind: "text", text }],
  style
})

const blocks: ReadonlyArray<Blocks.Block> = [
  paragraph("Net sales rose 2%.", { ...Blocks.plainStyle, fontSizePt: 10 }),
  paragraph("Plain."),
  {
    kind: "heading",
    page: 3,
    depth: 2,
    text: "Item 7. Management's Discussion",
    inlines: [{ kind: "strong", children: [{ kind: "text", text: "Item 7. Management's Discussion" }] }],
    style: { bold: true, italic: false, underline: false, centered: true, fontSizePt: 12 }
  },
  {
    kind: "list",
    page: 4,
    ordered: false,
    items: [{ text: "One", inlines: [{ kind: "text", text: "One" }] }, {
      text: "Two here",
      inlines: [{ kind: "text", text: "Two " }, { kind: "emphasis", children: [{ kind: "text", text: "here" }] }]
    }]
  },
  { kind: "table", page: 5, rows: [["", "2024"], ["Net sales", "391,035"]], headerRows: 1 }
]

const read = Schema.decodeUnknownSync(BlocksColumn)

describe("a chunk's stored blocks", () => {
  it("read back as saved, through JSON", () => {
    assert.deepStrictEqual(read(JSON.parse(JSON.stringify(storedBlocks(blocks)))), blocks)
  })

  it("leave out one-run inline nodes and every style mark that is not set", () => {
    const [sized, plain, heading] = storedBlocks(blocks) as ReadonlyArray<Record<string, unknown>>
    assert.deepStrictEqual(sized, { kind: "paragraph", page: 3, text: "Net sales rose 2%.", style: { fontSizePt: 10 } })
    assert.deepStrictEqual(plain, { kind: "paragraph", page: 3, text: "Plain." })
    assert.deepStrictEqual(heading?.style, { bold: true, centered: true, fontSizePt: 12 })
    assert.isDefined(heading?.inlines)
  })

  it("read a style written whole, as rows saved before styles were kept as their changes", () => {
    const whole = [{
      kind: "paragraph",
      page: 3,
      text: "Net sales rose 2%.",
      style: { bold: false, italic: false, underline: false, centered: false, fontSizePt: 10 }
    }]
    assert.deepStrictEqual(read(whole), blocks.slice(0, 1))
  })
})
