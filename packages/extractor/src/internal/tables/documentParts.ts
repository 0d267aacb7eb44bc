/**
 * A parsed document as the table, signature and exhibit readers walk it: its parts (each section,
 * and the stretches of body outside every section) and, in each, its text blocks and tables in
 * reading order, all as plain text. Read from the parser's blocks, never from its Markdown.
 */
import { Blocks, type ParsedDocument } from "@filings/filings-parser"

/** A table: its rows, cells as plain text, and how many of them are header rows (the block's `headerRows`). */
export interface TablePart {
  readonly kind: "table"
  readonly rows: ReadonlyArray<ReadonlyArray<string>>
  readonly headerRows: number
}

/** A block of text between tables: a heading (with its depth), a paragraph or a list item. */
export interface TextPart {
  readonly kind: "text"
  readonly text: string
  /** Heading depth (1-6); 0 for paragraphs, list items and preformatted text. */
  readonly depth: number
  /** The block's lines as plain text (a signature block keeps its name and title apart). */
  readonly lines: ReadonlyArray<string>
}

export type Part = TablePart | TextPart

/** A stretch of a document to read on its own: a section, the text between sections, an exhibit. */
export interface DocumentPart {
  /** The section's title; "" for text outside every section (the cover page, part headings). */
  readonly title: string
  readonly item: string | undefined
  readonly blocks: ReadonlyArray<Blocks.Block>
  readonly start: number
  readonly end: number
}

/**
 * The document cut by section. Sections are ranges of the body's blocks, so the blocks outside
 * every section are kept too, under the title "".
 */
export const partsOf = (document: ParsedDocument.ParsedDocument): Array<DocumentPart> => {
  const { blocks } = document
  const part = (title: string, item: string | undefined, start: number, end: number): DocumentPart => ({
    title,
    item,
    blocks,
    start,
    end
  })
  if (document.sections.length === 0) return [part("", undefined, 0, blocks.length)]
  const parts: Array<DocumentPart> = []
  let cursor = 0
  for (const section of document.sections) {
    const { end, start } = section.blockRange
    // A section overlapping the one before is read on its own; the body around it is not repeated.
    if (start < cursor) {
      parts.push(part(section.title, section.item, start, end))
      continue
    }
    if (start > cursor) parts.push(part("", undefined, cursor, start))
    parts.push(part(section.title, section.item, start, end))
    cursor = end
  }
  if (cursor < blocks.length) parts.push(part("", undefined, cursor, blocks.length))
  return parts
}

/** Every block of an exhibit's document, as one part. */
export const exhibitPart = (title: string, blocks: ReadonlyArray<Blocks.Block>): DocumentPart => ({
  title,
  item: undefined,
  blocks,
  start: 0,
  end: blocks.length
})

const text = (lines: ReadonlyArray<string>, depth = 0): TextPart => ({
  kind: "text",
  text: lines.join(" "),
  depth,
  lines
})

// Whitespace other than single spaces: only then is there something to collapse.
const spacesToCollapse = /[^\S ]| {2}/

/** Cells and preformatted lines are plain text already; only their whitespace is collapsed. */
const collapse = (value: string): string =>
  spacesToCollapse.test(value) ? value.replace(/\s+/g, " ").trim() : value.trim()

const cells = (row: ReadonlyArray<string>): Array<string> => row.map(collapse)

/** Preformatted text as paragraphs: its runs of lines between blank lines. */
const preformattedParts = (value: string, into: Array<Part>): void => {
  let run: Array<string> = []
  for (const line of value.split("\n")) {
    if (line.trim() === "") {
      if (run.length > 0) into.push(text(run))
      run = []
      continue
    }
    const plain = collapse(line)
    if (plain !== "") run.push(plain)
  }
  if (run.length > 0) into.push(text(run))
}

/** The text blocks and tables of blocks `[start, end)`, in reading order. */
export const readParts = (part: DocumentPart): Array<Part> => {
  const parts: Array<Part> = []
  for (let index = part.start; index < part.end; index++) {
    const block = part.blocks[index]
    if (block === undefined) continue
    switch (block.kind) {
      case "heading": {
        const heading = Blocks.inlineText(block.inlines)
        parts.push(text([heading], block.depth))
        break
      }
      case "paragraph":
        if (block.inlines.length > 0) parts.push(text(Blocks.lines(block)))
        break
      case "list":
        for (const item of block.items) parts.push(text([Blocks.inlineText(item.inlines)]))
        break
      case "table":
        if (block.rows.length > 0) {
          parts.push({ kind: "table", rows: block.rows.map(cells), headerRows: block.headerRows })
        }
        break
      case "preformatted":
        preformattedParts(block.text, parts)
        break
    }
  }
  return parts
}
