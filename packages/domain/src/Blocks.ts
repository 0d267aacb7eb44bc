/**
 * The document model: a document as the ordered list of its visible blocks (headings, paragraphs,
 * lists, tables as rows of cells with their header rows, preformatted text), each with the page it
 * starts on. The text of headings, paragraphs and list items is a list of inline nodes (`Inline`:
 * text, strong and emphasised runs, links, images, hard line breaks), never Markdown: Markdown is
 * one rendering of these blocks, made by the parser (`Blocks.toMarkdown` of
 * `@filings/filings-parser`) for output. Sections and chunks of a document are ranges of its blocks
 * (`BlockRange`). Schemas only; the functions that work on blocks live in the parser's `Blocks`.
 *
 * @module
 */
import { Schema } from "effect"

/** Plain text, exactly as it reads (no escapes, no marks); whitespace already collapsed by the reader. */
export interface InlineText {
  readonly kind: "text"
  readonly text: string
}

/** Strongly emphasised (bold) inline content. */
export interface InlineStrong {
  readonly kind: "strong"
  readonly children: ReadonlyArray<Inline>
}

/** Emphasised (italic) inline content. */
export interface InlineEmphasis {
  readonly kind: "emphasis"
  readonly children: ReadonlyArray<Inline>
}

/** A link: its visible content and where it leads (as the source wrote it: a URL or a `#fragment`). */
export interface InlineLink {
  readonly kind: "link"
  readonly url: string
  readonly children: ReadonlyArray<Inline>
}

/** An image: the text that stands for it (its alt text, maybe empty) and its source. */
export interface InlineImage {
  readonly kind: "image"
  readonly alt: string
  readonly src: string
}

/** A hard line break inside a paragraph or list item (`<br>`, the short lines of an address). */
export interface InlineBreak {
  readonly kind: "break"
}

/**
 * One inline node. Marks nest (a link may hold strong text holding emphasised text); text nodes
 * never hold line breaks (an `InlineBreak` does). Two text nodes may sit side by side where the
 * source wrote its text in separate runs.
 */
export type Inline = InlineText | InlineStrong | InlineEmphasis | InlineLink | InlineImage | InlineBreak

const children: Schema.Schema<ReadonlyArray<Inline>> = Schema.Array(Schema.suspend((): Schema.Schema<Inline> => Inline))

/** Schema of `InlineText`. */
export const InlineText: Schema.Schema<InlineText> = Schema.Struct({
  kind: Schema.Literal("text"),
  text: Schema.String
})

/** Schema of `InlineStrong`. */
export const InlineStrong: Schema.Schema<InlineStrong> = Schema.Struct({
  kind: Schema.Literal("strong"),
  children
})

/** Schema of `InlineEmphasis`. */
export const InlineEmphasis: Schema.Schema<InlineEmphasis> = Schema.Struct({
  kind: Schema.Literal("emphasis"),
  children
})

/** Schema of `InlineLink`. */
export const InlineLink: Schema.Schema<InlineLink> = Schema.Struct({
  kind: Schema.Literal("link"),
  url: Schema.String,
  children
})

/** Schema of `InlineImage`. */
export const InlineImage: Schema.Schema<InlineImage> = Schema.Struct({
  kind: Schema.Literal("image"),
  alt: Schema.String,
  src: Schema.String
})

/** Schema of `InlineBreak`. */
export const InlineBreak: Schema.Schema<InlineBreak> = Schema.Struct({ kind: Schema.Literal("break") })

/** Schema of `Inline`. */
export const Inline: Schema.Schema<Inline> = Schema.Union(
  InlineText,
  InlineStrong,
  InlineEmphasis,
  InlineLink,
  InlineImage,
  InlineBreak
)

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
/** How a block looks on the page. */
export type TextStyle = typeof TextStyle.Type

/** The style of ordinary body text: nothing bold, italic, underlined or centred, no size. */
export const plainStyle: TextStyle = { bold: false, italic: false, underline: false, centered: false }

/** 1-based page the block starts on (page breaks in HTML, pages in PDF; 1 when unknown). */
const page = Schema.Int

/**
 * The ids of the inline XBRL facts tagged in a block's text (the `id` of each `ix:nonFraction` or
 * `ix:nonNumeric` that opens there), when the source tags any: where a fact stands in the document.
 */
const factIds = Schema.optional(Schema.Array(Schema.String))

/** The facts tagged in one cell of a table: the cell's row and column in `rows`, and the facts' ids. */
export const CellFacts = Schema.Struct({
  row: Schema.NonNegativeInt,
  column: Schema.NonNegativeInt,
  factIds: Schema.Array(Schema.String)
})
/** The facts tagged in one cell of a table. */
export type CellFacts = typeof CellFacts.Type

/** A heading, depth 1 (the title) to 6. */
export const HeadingBlock = Schema.Struct({
  kind: Schema.Literal("heading"),
  page,
  depth: Schema.Literal(1, 2, 3, 4, 5, 6),
  /** Visible text, whitespace collapsed. */
  text: Schema.String,
  /** The same text as inline nodes. */
  inlines: Schema.Array(Inline),
  style: TextStyle,
  factIds
})
/** A heading. */
export type HeadingBlock = typeof HeadingBlock.Type

/** A paragraph of body text. */
export const ParagraphBlock = Schema.Struct({
  kind: Schema.Literal("paragraph"),
  page,
  /** Visible text, whitespace collapsed (line breaks as spaces), images left out. */
  text: Schema.String,
  /** The paragraph as inline nodes: its marks, links, images and hard line breaks. */
  inlines: Schema.Array(Inline),
  style: TextStyle,
  factIds
})
/** A paragraph. */
export type ParagraphBlock = typeof ParagraphBlock.Type

/** One item of a list: one line of inline content (a nested list continues the items). */
export const ListItem = Schema.Struct({
  /** Visible text of the item, whitespace collapsed. */
  text: Schema.String,
  /** The item as inline nodes. */
  inlines: Schema.Array(Inline),
  factIds
})
/** One item of a list. */
export type ListItem = typeof ListItem.Type

/** A bulleted or numbered list. */
export const ListBlock = Schema.Struct({
  kind: Schema.Literal("list"),
  page,
  ordered: Schema.Boolean,
  items: Schema.Array(ListItem)
})
/** A list. */
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
  headerRows: Schema.NonNegativeInt,
  /** The facts tagged in the table's cells, cell by cell, when the source tags any. */
  cellFacts: Schema.optional(Schema.Array(CellFacts))
}).pipe(
  Schema.filter((table) =>
    table.headerRows <= table.rows.length ||
    `headerRows (${table.headerRows}) is more than the table's ${table.rows.length} rows`
  )
)
/** A table. */
export type TableBlock = typeof TableBlock.Type

/** Text whose line layout matters (column-aligned tables of text filings). */
export const PreformattedBlock = Schema.Struct({
  kind: Schema.Literal("preformatted"),
  page,
  /** The lines as written, joined with `\n`. */
  text: Schema.String
})
/** Preformatted text. */
export type PreformattedBlock = typeof PreformattedBlock.Type

/** One block of a document. */
export const Block = Schema.Union(HeadingBlock, ParagraphBlock, ListBlock, TableBlock, PreformattedBlock)
/** One block of a document. */
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
/** A range of blocks. */
export type BlockRange = typeof BlockRange.Type
