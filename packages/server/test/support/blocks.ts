/**
 * Plain blocks for tests that hand passages to the readers over blocks: a heading and a paragraph
 * of one run of text each, in the plain style.
 */
import { Blocks } from "@filings/domain"

/** A heading (depth 4, as filings' statement titles are read) of one run of text. */
export const headingBlock = (text: string, page = 1): Blocks.Block => ({
  kind: "heading",
  page,
  depth: 4,
  text,
  inlines: [{ kind: "text", text }],
  style: Blocks.plainStyle
})

/** A paragraph of one run of text. */
export const paragraphBlock = (text: string, page = 1): Blocks.Block => ({
  kind: "paragraph",
  page,
  text,
  inlines: [{ kind: "text", text }],
  style: Blocks.plainStyle
})
