/**
 * The block model: a document as the ordered list of its visible blocks (headings, paragraphs,
 * lists, tables, preformatted text), each with the page it starts on and the typographic hints
 * that section detection needs. Every input format (HTML, plain text, PDF, transcripts) is read
 * into blocks; Markdown, sections and chunks are all made from blocks. The public face of these
 * declarations is the `Blocks` module.
 */
import { Schema } from "effect"

/** How a block looks on the page: the hints that tell a heading from body text. */
export const TextStyle = Schema.Struct({
  /** All of the block's text is bold (font-weight >= 600, `<b>`, `<strong>`). */
  bold: Schema.Boolean,
  /** All of the block's text is italic. */
  italic: Schema.Boolean,
  /** All of the block's text is underlined. */
  underline: Schema.Boolean,
  /** The block is centred. */
  centered: Schema.Boolean,
  /** The largest font size in the block, in points, when the source says it. */
  fontSizePt: Schema.optional(Schema.Number)
})
export type TextStyle = typeof TextStyle.Type

/** The style of ordinary body text: nothing bold, italic, underlined or centred, no size. */
export const plainStyle: TextStyle = { bold: false, italic: false, underline: false, centered: false }

/** 1-based page the block starts on (page breaks in HTML, pages in PDF; 1 when unknown). */
const page = Schema.Int

/** A heading: `# text` to `###### text` in Markdown. */
export const HeadingBlock = Schema.Struct({
  kind: Schema.Literal("heading"),
  page,
  depth: Schema.Literal(1, 2, 3, 4, 5, 6),
  /** Visible text, whitespace collapsed, no Markdown. */
  text: Schema.String,
  /** The same text as inline Markdown (escapes). */
  markdown: Schema.String,
  style: TextStyle
})
export type HeadingBlock = typeof HeadingBlock.Type

/** A paragraph of body text. */
export const ParagraphBlock = Schema.Struct({
  kind: Schema.Literal("paragraph"),
  page,
  /** Visible text, whitespace collapsed (line breaks as spaces), no Markdown. */
  text: Schema.String,
  /** The paragraph as inline Markdown: emphasis, links, images, escapes, `\` line breaks. */
  markdown: Schema.String,
  style: TextStyle
})
export type ParagraphBlock = typeof ParagraphBlock.Type

/** A bulleted or numbered list. */
export const ListBlock = Schema.Struct({
  kind: Schema.Literal("list"),
  page,
  ordered: Schema.Boolean,
  /** Each item as inline Markdown. */
  items: Schema.Array(Schema.String)
})
export type ListBlock = typeof ListBlock.Type

/**
 * A table as rows of plain-text cells, with how many of its leading rows are its header. Rectangular:
 * every row has the same number of cells.
 */
export const TableBlock = Schema.Struct({
  kind: Schema.Literal("table"),
  page,
  /** The rows, header rows first, each cell plain text. */
  rows: Schema.Array(Schema.Array(Schema.String)),
  /**
   * How many of the first `rows` are header rows (column labels): `rows.slice(0, headerRows)` is the
   * header, `rows.slice(headerRows)` the body. Several when the header is written over several
   * lines (`Three Months Ended` above two dates: each header row labels the columns under it); 0
   * when the table has none (its first row already holds values). Never more than `rows.length`.
   * Set by the parser: the leading `<thead>` and `<th>` rows where the HTML marks some, else from the
   * cells: none when the first row holds an amount; otherwise the first row, the row under a mostly
   * empty first row when it holds two labels, and the rows under them with no row label and no
   * amount, always leaving one row under the header. Markdown has one header row: it renders the
   * first row above the `| --- |` line whatever this count is.
   */
  headerRows: Schema.NonNegativeInt
}).pipe(
  Schema.filter((table) =>
    table.headerRows <= table.rows.length ||
    `headerRows (${table.headerRows}) is more than the table's ${table.rows.length} rows`
  )
)
export type TableBlock = typeof TableBlock.Type

/** Text whose line layout matters (column-aligned tables of text filings): a fenced code block. */
export const PreformattedBlock = Schema.Struct({
  kind: Schema.Literal("preformatted"),
  page,
  /** The lines as written, joined with `\n`. */
  text: Schema.String
})
export type PreformattedBlock = typeof PreformattedBlock.Type

/** One block of a document. */
export const Block = Schema.Union(HeadingBlock, ParagraphBlock, ListBlock, TableBlock, PreformattedBlock)
export type Block = typeof Block.Type

/**
 * The blocks `[start, end)` of a document: where a section or a chunk lies in its blocks.
 * `blocks.slice(range.start, range.end)` are its blocks.
 */
export const BlockRange = Schema.Struct({
  /** Index of the first block. */
  start: Schema.Int,
  /** Index after the last block. */
  end: Schema.Int
})
export type BlockRange = typeof BlockRange.Type

/** The visible text of a block, for searching and counting (tables: cells joined by spaces). */
export const blockText = (block: Block): string => {
  switch (block.kind) {
    case "heading":
    case "paragraph":
    case "preformatted":
      return block.text
    case "list":
      return block.items.join(" ")
    case "table":
      return block.rows.map((row) => row.join(" ")).join(" ")
  }
}
