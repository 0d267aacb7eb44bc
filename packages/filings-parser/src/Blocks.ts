/**
 * The document model: a parsed document as the ordered list of its blocks (headings, paragraphs,
 * lists, tables as rows of cells with their header rows, preformatted text), each with the page it
 * starts on. Every format the parser reads (HTML, inline XBRL, plain text, PDF, transcripts) is read
 * into blocks; a document's sections and chunks are ranges of them (`BlockRange`), and its Markdown
 * is rendered from them. The text of headings, paragraphs and list items is a list of inline nodes
 * (`Inline`: text, strong, emphasis, links, images, hard breaks); the schemas are those of
 * `@filings/domain/Blocks`, re-exported here beside the functions that work on blocks. Code that needs structure (a table's cells and header, a paragraph's lines)
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
import type { Block, Inline } from "@filings/domain/Blocks"
import { inlineLines, inlinesText } from "./internal/inline.js"
import { collapseSpaces, inlinePlainText } from "./internal/markdown/plainText.js"
import { readMarkdown } from "./internal/markdown/readMarkdown.js"
import { countBlockWords, renderMarkdown } from "./internal/markdown/render.js"
import { isAmount } from "./internal/tableHeader.js"

export {
  Block,
  BlockRange,
  HeadingBlock,
  Inline,
  InlineBreak,
  InlineEmphasis,
  InlineImage,
  InlineLink,
  InlineStrong,
  InlineText,
  ListBlock,
  ListItem,
  ParagraphBlock,
  plainStyle,
  PreformattedBlock,
  TableBlock,
  TextStyle
} from "@filings/domain/Blocks"
export { blockText } from "./internal/blocks.js"

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
 * Markdown that `toMarkdown` rendered, read back into blocks: for documents stored before their
 * blocks were kept. It reads what the renderer writes (headings, paragraphs with their marks, links,
 * images and `\` hard breaks, lists, GFM tables, fenced text) and renders back to the same
 * Markdown. What Markdown does not keep comes back plain: pages are 1, styles plain (bold for a
 * paragraph that is all strong text), and a table's header rows are read from its cells
 * (`isAmountCell` and the rule of `TableBlock.headerRows`), as for HTML tables that do not mark them.
 *
 * @example
 * Blocks.fromMarkdown("### Item 2.02 Results\n\n|  | 2024 |\n| --- | --- |\n| Revenue | $10 |\n")
 * // [{ kind: "heading", depth: 3, text: "Item 2.02 Results", ... },
 * //  { kind: "table", page: 1, rows: [["", "2024"], ["Revenue", "$10"]], headerRows: 1 }]
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
 * emphasis and code marks dropped, backslash escapes undone, whitespace collapsed. For a chunk's
 * Markdown or any Markdown the parser wrote; blocks are read through `inlineText` and `lines`.
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
 * Inline nodes as plain text: marks dropped, links to their words, images to their alt text (or
 * nothing), hard breaks as spaces, whitespace collapsed.
 *
 * @example
 * Blocks.inlineText([{ kind: "strong", children: [{ kind: "text", text: "Revenue" }] }, { kind: "text", text: " up" }])
 * // "Revenue up"
 */
export const inlineText = (nodes: ReadonlyArray<Inline>, options: PlainTextOptions = {}): string =>
  inlinesText(nodes, options.images ?? "alt")

/**
 * The visible lines of a block as plain text, empty lines left out: a heading's text, a
 * paragraph's lines (its hard line breaks kept apart: a signature block's name and title), each
 * list item, each row of a table (cells joined by spaces), each line of preformatted text. Read
 * from the block's structure (its inline nodes), not from Markdown.
 *
 * @example
 * Blocks.lines({ kind: "paragraph", page: 1, text: "By: /s/ Pat Lee Pat Lee", style: Blocks.plainStyle,
 *   inlines: [{ kind: "text", text: "By: /s/ Pat Lee" }, { kind: "break" }, { kind: "text", text: "Pat Lee" }] })
 * // ["By: /s/ Pat Lee", "Pat Lee"]
 */
export const lines = (block: Block): Array<string> => {
  switch (block.kind) {
    case "heading":
      return nonEmpty([inlinesText(block.inlines)])
    case "paragraph":
      return inlineLines(block.inlines)
    case "list":
      return nonEmpty(block.items.map((item) => inlinesText(item.inlines)))
    case "table":
      return nonEmpty(block.rows.map((row) => collapseSpaces(row.join(" "))))
    case "preformatted":
      return nonEmpty(block.text.split("\n").map(collapseSpaces))
  }
}

const nonEmpty = (values: Array<string>): Array<string> => values.filter((value) => value !== "")
