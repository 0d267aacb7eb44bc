/**
 * The document model: a parsed document as the ordered list of its blocks (headings, paragraphs,
 * lists, tables as rows of cells with their header rows, preformatted text), each with the page it
 * starts on. Every format the parser reads (HTML, inline XBRL, plain text, PDF, transcripts) is read
 * into blocks; a document's sections and chunks are ranges of them (`BlockRange`), and its Markdown
 * is rendered from them. Code that needs structure (a table's cells and header, a paragraph's lines)
 * reads the blocks of a `ParsedDocument` rather than its Markdown.
 *
 * @example
 * import { Blocks, Parser } from "@filings/filings-parser"
 * import { Effect } from "effect"
 *
 * const parsed = Effect.runSync(Parser.parse({ bytes, fileName: "10-K.htm" }))
 * const risk = parsed.sections.find((section) => section.item === "1A")
 * const tables = parsed.blocks
 *   .slice(risk?.blockRange.start, risk?.blockRange.end)
 *   .filter((block) => block.kind === "table")
 *
 * @module
 */
import { type Block } from "./internal/blocks.js"
import { collapseSpaces, inlinePlainText } from "./internal/markdown/plainText.js"
import { readMarkdown } from "./internal/markdown/read.js"
import { countBlockWords, renderMarkdown } from "./internal/markdown/render.js"
import { isAmount } from "./internal/tableHeader.js"

export {
  Block,
  BlockRange,
  blockText,
  HeadingBlock,
  ListBlock,
  ParagraphBlock,
  plainStyle,
  PreformattedBlock,
  TableBlock,
  TextStyle
} from "./internal/blocks.js"

/**
 * Whether a table cell holds an amount rather than a label or a year heading: `$1,234`, `(565)`,
 * `6.08`, `12%`, but not `2024` or `FY2023`. The rule that tells a table's header rows
 * (`TableBlock.headerRows`) from its values, for readers that class the rows under them.
 *
 * @example
 * Blocks.isAmountCell("$ (1,234)") // true
 * Blocks.isAmountCell("2024") // false
 */
export const isAmountCell: (cell: string) => boolean = isAmount

/**
 * Renders blocks `[start, end)` (all by default) as GitHub-flavoured Markdown ending with one
 * newline: one blank line between blocks, a table's first row as its header row (GFM has one, so a
 * table's other header rows render as the first rows under it, and a table without a header still
 * renders its first row there), `|` escaped in cells, preformatted text fenced. A section's or
 * chunk's Markdown is its range rendered alone.
 *
 * @example
 * Blocks.toMarkdown([{ kind: "table", page: 1, rows: [["", "2024"], ["Revenue", "$10"]], headerRows: 1 }])
 * // "|  | 2024 |\n| --- | --- |\n| Revenue | $10 |\n"
 */
export const toMarkdown: (blocks: ReadonlyArray<Block>, start?: number, end?: number) => string = renderMarkdown

/**
 * Reads Markdown the parser wrote (`toMarkdown`: a stored chunk's or section's text) back into
 * blocks, for a reader that needs structure where only the Markdown was kept. What Markdown does not
 * keep is not recovered: every block is on page 1 in plain style, and a table's `headerRows` are
 * counted from its cells by the parser's rule. Blank lines and thematic breaks end blocks.
 *
 * @example
 * Blocks.fromMarkdown("## Results\n\n|  | 2024 |\n| --- | --- |\n| Revenue | $10 |\n")
 * // [{ kind: "heading", depth: 2, text: "Results", ... },
 * //  { kind: "table", rows: [["", "2024"], ["Revenue", "$10"]], headerRows: 1, ... }]
 */
export const fromMarkdown: (markdown: string) => Array<Block> = readMarkdown

/** Words in blocks `[start, end)`: whitespace-separated tokens with a letter or digit, table values included. */
export const countWords: (blocks: ReadonlyArray<Block>, start?: number, end?: number) => number = countBlockWords

/** Options of `plainText`. */
export interface PlainTextOptions {
  /**
   * What an image becomes: its alt text (`"alt"`, the default: what a reader is told it shows) or
   * nothing (`"omit"`: for prose, where a logo's name is no sentence).
   */
  readonly images?: "alt" | "omit" | undefined
}

/**
 * Inline Markdown to plain text: links to their words, images to their alt text (or nothing),
 * emphasis and code marks dropped, backslash escapes undone, whitespace collapsed. For the inline
 * Markdown of a block, a chunk's text, or any Markdown the parser wrote.
 *
 * @example
 * Blocks.plainText("**Revenue** of [$4 million](https://example.com) \\*unaudited\\*")
 * // "Revenue of $4 million *unaudited*"
 * Blocks.plainText("![Logo](logo.png) Results", { images: "omit" })
 * // "Results"
 */
export const plainText = (markdown: string, options: PlainTextOptions = {}): string =>
  inlinePlainText(markdown, options.images ?? "alt")

/**
 * The visible lines of a block as plain text, empty lines left out: a heading's text, a
 * paragraph's lines (its hard line breaks kept apart: a signature block's name and title), each
 * list item, each row of a table (cells joined by spaces), each line of preformatted text.
 *
 * @example
 * Blocks.lines({ kind: "paragraph", page: 1, text: "By: /s/ Pat Lee Pat Lee",
 *   markdown: "By: /s/ Pat Lee\\\nPat Lee", style: Blocks.plainStyle })
 * // ["By: /s/ Pat Lee", "Pat Lee"]
 */
export const lines = (block: Block): Array<string> => {
  switch (block.kind) {
    case "heading":
      return nonEmpty([inlinePlainText(block.markdown)])
    case "paragraph":
      return paragraphLines(block.markdown)
    case "list":
      return nonEmpty(block.items.map((item) => inlinePlainText(item)))
    case "table":
      return nonEmpty(block.rows.map((row) => collapseSpaces(row.join(" "))))
    case "preformatted":
      return nonEmpty(block.text.split("\n").map(collapseSpaces))
  }
}

const nonEmpty = (values: Array<string>): Array<string> => values.filter((value) => value !== "")

/** A paragraph's inline Markdown to its lines: a trailing `\` is the hard line break. */
export const paragraphLines = (markdown: string): Array<string> => {
  if (!markdown.includes("\n")) return nonEmpty([inlinePlainText(markdown)])
  return nonEmpty(markdown.split("\n").map((line) => inlinePlainText(line.endsWith("\\") ? line.slice(0, -1) : line)))
}
