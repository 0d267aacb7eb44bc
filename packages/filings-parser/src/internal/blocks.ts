/**
 * The block model: a document as the ordered list of its visible blocks (headings, paragraphs,
 * lists, tables, preformatted text), each with the page it starts on and the typographic hints
 * that section detection needs. Every input format (HTML, plain text, PDF, transcripts) is read
 * into blocks; Markdown, sections and chunks are all made from blocks.
 */

/** How a block looks on the page: the hints that tell a heading from body text. */
export interface TextStyle {
  /** All of the block's text is bold (font-weight >= 600, <b>, <strong>). */
  readonly bold: boolean
  /** All of the block's text is italic. */
  readonly italic: boolean
  /** All of the block's text is underlined. */
  readonly underline: boolean
  /** The block is centred. */
  readonly centered: boolean
  /** The largest font size in the block, in points, when the source says it. */
  readonly fontSizePt?: number | undefined
}

export const plainStyle: TextStyle = { bold: false, italic: false, underline: false, centered: false }

interface BlockBase {
  /** 1-based page the block starts on (page breaks in HTML, pages in PDF; 1 when unknown). */
  readonly page: number
}

export interface HeadingBlock extends BlockBase {
  readonly kind: "heading"
  readonly depth: 1 | 2 | 3 | 4 | 5 | 6
  /** Visible text, whitespace collapsed, no Markdown. */
  readonly text: string
  /** The same text as inline Markdown (emphasis, links, escapes). */
  readonly markdown: string
  readonly style: TextStyle
}

export interface ParagraphBlock extends BlockBase {
  readonly kind: "paragraph"
  readonly text: string
  readonly markdown: string
  readonly style: TextStyle
}

export interface ListBlock extends BlockBase {
  readonly kind: "list"
  readonly ordered: boolean
  /** Each item as inline Markdown. */
  readonly items: ReadonlyArray<string>
}

export interface TableBlock extends BlockBase {
  readonly kind: "table"
  /** Rectangular: every row has the same number of cells; the first row is the header row. Plain text. */
  readonly rows: ReadonlyArray<ReadonlyArray<string>>
}

export interface PreformattedBlock extends BlockBase {
  readonly kind: "preformatted"
  readonly text: string
}

export type Block = HeadingBlock | ParagraphBlock | ListBlock | TableBlock | PreformattedBlock

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
