/**
 * The block model (schemas in `@filings/domain/Blocks`): a document as the ordered list of its
 * visible blocks, each with the page it starts on and the typographic hints that section detection
 * needs. Every input format (HTML, plain text, PDF, transcripts) is read into blocks; Markdown,
 * sections and chunks are all made from blocks. The public face of these declarations is the
 * `Blocks` module.
 */
import type { Block } from "@filings/domain/Blocks"
import { inlinesText } from "./inline.js"

export * from "@filings/domain/Blocks"

/** The visible text of a block, for searching and counting (tables: cells joined by spaces). */
export const blockText = (block: Block): string => {
  switch (block.kind) {
    case "heading":
    case "paragraph":
    case "preformatted":
      return block.text
    case "list":
      return block.items.map((item) => item.text).join(" ")
    case "table":
      return block.rows.map((row) => row.join(" ")).join(" ")
  }
}

export { inlinesText }
