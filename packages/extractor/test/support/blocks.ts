/**
 * Blocks for tests, as the parser reads a heading or a paragraph of plain text: one run of text,
 * plain style, on page 1.
 */
import { Blocks } from "@filings/filings-parser"

/** A heading of plain text. */
export const heading = (depth: 1 | 2 | 3 | 4 | 5 | 6, text: string): Blocks.Block => ({
  kind: "heading",
  page: 1,
  depth,
  text,
  inlines: [{ kind: "text", text }],
  style: Blocks.plainStyle
})

/** A paragraph of plain text. */
export const paragraph = (text: string): Blocks.Block => ({
  kind: "paragraph",
  page: 1,
  text,
  inlines: [{ kind: "text", text }],
  style: Blocks.plainStyle
})
