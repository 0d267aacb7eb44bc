/**
 * A small reader for the Markdown the parser renders: GFM tables (`| a | b |` with a `| --- |`
 * delimiter row after the header row, `|` inside cells escaped as `\|`) and the text blocks around
 * them. It reads our own rendering, not arbitrary Markdown: one table row per line, no alignment
 * colons, cells already trimmed.
 */

/** A GFM table as written: the header row, the body rows, and its first line in the Markdown. */
export interface MarkdownTable {
  readonly kind: "table"
  readonly header: ReadonlyArray<string>
  readonly rows: ReadonlyArray<ReadonlyArray<string>>
  /** Offset of the table's first character in the Markdown it was read from. */
  readonly offset: number
}

/** A block of text between tables: a heading (with its depth) or a paragraph, as plain text. */
export interface MarkdownText {
  readonly kind: "text"
  readonly text: string
  /** `#` count for headings, 0 for paragraphs and list items. */
  readonly depth: number
  /** The block's lines as plain text (a signature block keeps its name and title apart). */
  readonly lines: ReadonlyArray<string>
  readonly offset: number
}

export type MarkdownBlock = MarkdownTable | MarkdownText

const delimiterRow = /^\|(?:\s*:?-{3,}:?\s*\|)+\s*$/

// Whitespace other than single spaces: only then is there something to collapse.
const spacesToCollapse = /[^\S ]| {2}/

/** `replace(/\s+/g, " ").trim()`, without building a new string for text already single-spaced. */
const collapseSpaces = (text: string): string =>
  spacesToCollapse.test(text) ? text.replace(/\s+/g, " ").trim() : text.trim()

/** Markdown inline syntax to plain text: backslash escapes, emphasis, links, code spans. */
export const plainText = (markdown: string): string =>
  !/[\\*_`[]/.test(markdown) ? collapseSpaces(markdown) : markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(?<!\\)(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, "$2")
    .replace(/(?<![\\*\w])([*_])(?=\S)([^*_]*?\S)\1(?![*\w])/g, "$2")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/\\([!-/:-@[-`{-~])/g, "$1")
    .replace(/\s+/g, " ")
    .trim()

/** Splits one table line into its cells, honouring `\|`; cells come back as plain text. */
export const splitRow = (line: string): Array<string> => {
  const trimmed = line.trim()
  const inner = trimmed.slice(
    trimmed.startsWith("|") ? 1 : 0,
    trimmed.endsWith("|") && !trimmed.endsWith("\\|") ? -1 : undefined
  )
  // Without escapes, every `|` separates two cells.
  if (!inner.includes("\\")) return inner.split("|").map(plainText)
  const cells: Array<string> = []
  let current = ""
  for (let index = 0; index < inner.length; index++) {
    const char = inner[index]
    if (char === "\\" && index + 1 < inner.length) {
      current += char + inner[index + 1]
      index++
    } else if (char === "|") {
      cells.push(current)
      current = ""
    } else {
      current += char
    }
  }
  cells.push(current)
  return cells.map(plainText)
}

/** The tables and text blocks of a Markdown string, in order. */
export const readMarkdownBlocks = (markdown: string): Array<MarkdownBlock> => {
  const blocks: Array<MarkdownBlock> = []
  const lines = markdown.split("\n")
  let offset = 0
  let paragraph: Array<string> = []
  let paragraphOffset = 0
  const flush = () => {
    if (paragraph.length > 0) {
      const paragraphLines = paragraph.map((line) => plainText(line.endsWith("\\") ? line.slice(0, -1) : line)).filter((
        line
      ) => line !== "")
      blocks.push({
        kind: "text",
        text: paragraphLines.join(" "),
        depth: 0,
        lines: paragraphLines,
        offset: paragraphOffset
      })
      paragraph = []
    }
  }
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? ""
    const lineOffset = offset
    offset += line.length + 1
    const next = lines[index + 1]
    if (line.startsWith("|") && next !== undefined && delimiterRow.test(next)) {
      flush()
      const header = splitRow(line)
      const rows: Array<Array<string>> = []
      offset += next.length + 1
      index++
      while (index + 1 < lines.length && (lines[index + 1] ?? "").startsWith("|")) {
        const row = lines[index + 1] ?? ""
        rows.push(splitRow(row))
        offset += row.length + 1
        index++
      }
      blocks.push({ kind: "table", header, rows, offset: lineOffset })
      continue
    }
    const heading = line.startsWith("#") ? /^(#{1,6})\s+(.*)$/.exec(line) : null
    if (heading !== null) {
      flush()
      const text = plainText(heading[2] ?? "")
      blocks.push({ kind: "text", text, depth: heading[1]?.length ?? 0, lines: [text], offset: lineOffset })
      continue
    }
    if (line.trim() === "" || /^(`{3,})/.test(line)) {
      flush()
      continue
    }
    if (/^\s*(?:[-*+]|\d+\.)\s+/.test(line)) {
      flush()
      const text = plainText(line.replace(/^\s*(?:[-*+]|\d+\.)\s+/, ""))
      blocks.push({ kind: "text", text, depth: 0, lines: [text], offset: lineOffset })
      continue
    }
    if (paragraph.length === 0) paragraphOffset = lineOffset
    paragraph.push(line)
  }
  flush()
  return blocks
}
