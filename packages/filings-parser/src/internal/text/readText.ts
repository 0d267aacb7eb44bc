/**
 * Plain text (old EDGAR filings, the `<TEXT>` of an SGML document, `<pre>` blocks) to blocks,
 * keeping the author's paragraphs.
 *
 * Text filings are typed for a fixed-width page: paragraphs are separated by blank lines and
 * hard-wrapped, cover pages are centred line by line, and tables are aligned with spaces between
 * SGML `<TABLE>` tags (with `<S>`/`<C>` column markers). So:
 *
 * - a block of wrapped prose becomes one paragraph (lines joined);
 * - a block of short lines (an address, a centred title) keeps its lines (hard breaks);
 * - anything aligned in columns (an SGML table, a line with a wide gap or dot leaders) stays
 *   preformatted, since Markdown cannot reflow it without losing the columns;
 * - "PART I" / "Item 2." lines on their own become headings; `<PAGE>` markers and form feeds end a
 *   page and disappear, and so do bare page numbers.
 */
import { type Block, plainStyle } from "../blocks.js"
import { text } from "../inline.js"

const lineBreak = { kind: "break" } as const

const pageMarker = /^\s*<PAGE>\s*\d*\s*$/i
const tableStart = /^\s*<TABLE\b[^>]*>\s*$/i
const tableEnd = /^\s*<\/TABLE>\s*$/i
// SGML markup that lays out text tables and footnotes: no content of its own.
const layoutTag = /<\/?(?:S|C|CAPTION|FN|F\d{1,2}|R|PAGE)>/gi
const onlyLayoutTags = /^(?:\s*<\/?(?:S|C|CAPTION|FN|F\d{1,2}|R|PAGE)>)+\s*$/i
const separator = /^[-=_*~.\s]{3,}$/
const pageNumber = /^(?:[Pp]age\s+)?[-–—]?\s*(?:\d{1,4}|[ivxlc]{1,7}|[A-Z]{1,2}-\s?\d{1,4})\.?\s*[-–—]?$/
const heading = /^(?:(part\s+(?:i{1,3}|iv|v))|(item\s+\d{1,2}[a-z]?(?:\.\d{1,2})?))\b/i
const columnGap = /\S {4,}\S|\.{5,}/
// Wrapped prose fills most of its block's width; shorter lines were broken on purpose (or end a
// paragraph). A block is prose when most of its lines are full.
const minProseLineLength = 30
const proseLineShare = 0.6
const sentenceEnd = /[.!?:;)"”’]$/
const maxHeadingLength = 120

/** What reading text gives: the blocks, and how many pages the text has. */
export interface TextReading {
  readonly blocks: Array<Block>
  readonly pageCount: number
}

const expandTabs = (line: string): string => {
  if (!line.includes("\t")) return line
  let result = ""
  for (const character of line) {
    result += character === "\t" ? " ".repeat(8 - (result.length % 8)) : character
  }
  return result
}

const blankLayoutTags = (line: string): string => line.replace(layoutTag, (tag) => " ".repeat(tag.length))

/** Lines without their common indentation and surrounding blank lines. */
const dedent = (lines: ReadonlyArray<string>): Array<string> => {
  const filled = lines.filter((line) => line.trim() !== "")
  const indent = filled.reduce((least, line) => Math.min(least, line.length - line.trimStart().length), Infinity)
  const result = lines.map((line) => line.slice(Number.isFinite(indent) ? indent : 0))
  while (result[0]?.trim() === "") result.shift()
  while (result[result.length - 1]?.trim() === "") result.pop()
  return result
}

const squeeze = (line: string): string => line.trim().replace(/\s+/g, " ")

interface Line {
  readonly indent: number
  readonly text: string
}

type Draft =
  | { readonly kind: "heading"; readonly depth: 2 | 3; readonly text: string }
  | { readonly kind: "paragraph"; readonly lines: ReadonlyArray<string> }
  | { readonly kind: "preformatted"; readonly text: string }

const preformatted = (lines: ReadonlyArray<string>): Draft => ({ kind: "preformatted", text: dedent(lines).join("\n") })

/**
 * A wrapped-prose block as paragraphs: a new one starts after a sentence that ends well short of
 * the block's width, or at a line indented further than the others (a first-line indent).
 */
const proseParagraphs = (lines: ReadonlyArray<Line>, isShort: (text: string) => boolean): Array<Draft> => {
  const minIndent = lines.reduce((least, line) => Math.min(least, line.indent), Infinity)
  const groups: Array<Array<string>> = [[]]
  lines.forEach((line, index) => {
    if ((groups[groups.length - 1]?.length ?? 0) > 0 && line.indent >= minIndent + 2) groups.push([])
    groups[groups.length - 1]?.push(line.text)
    if (isShort(line.text) && sentenceEnd.test(line.text) && index < lines.length - 1) groups.push([])
  })
  return groups.filter((group) => group.length > 0).map((group) => ({ kind: "paragraph", lines: [group.join(" ")] }))
}

const readBlock = (raw: ReadonlyArray<string>): Array<Draft> => {
  const allLines: Array<Line> = raw
    .filter((line) => line.trim() !== "")
    .map((line) => ({ indent: line.length - line.trimStart().length, text: squeeze(line) }))
  const [only, second] = allLines
  if (only === undefined || allLines.every((line) => separator.test(line.text))) return []
  if (second === undefined && pageNumber.test(only.text)) return []
  if (second === undefined && only.text.length <= maxHeadingLength) {
    const match = heading.exec(only.text)
    if (match !== null) return [{ kind: "heading", depth: match[1] === undefined ? 3 : 2, text: only.text }]
  }
  if (raw.some((line) => columnGap.test(line.trim()))) return [preformatted(raw)]
  // Outside column layouts, a line of dashes only underlines the line above it.
  const lines = allLines.filter((line) => !separator.test(line.text))
  const [first] = lines
  if (first === undefined) return []
  if (lines.length === 1) return [{ kind: "paragraph", lines: [first.text] }]

  const width = lines.reduce((widest, line) => Math.max(widest, line.text.length), 0)
  const isShort = (text: string) => text.length < Math.max(minProseLineLength, width * proseLineShare)
  const body = lines.slice(0, -1)
  if (body.filter((line) => !isShort(line.text)).length >= body.length * proseLineShare) {
    return proseParagraphs(lines, isShort)
  }
  // Short lines broken on purpose (an address, a centred title): keep the breaks.
  return [{ kind: "paragraph", lines: lines.map((line) => line.text) }]
}

const toBlock = (draft: Draft, page: number): Block => {
  switch (draft.kind) {
    case "heading":
      return {
        kind: "heading",
        depth: draft.depth,
        text: draft.text,
        inlines: [text(draft.text)],
        style: plainStyle,
        page
      }
    case "paragraph":
      return {
        kind: "paragraph",
        text: draft.lines.join(" "),
        // A hard break keeps the short lines of an address or a title.
        inlines: draft.lines.flatMap((line, index) => index === 0 ? [text(line)] : [lineBreak, text(line)]),
        style: plainStyle,
        page
      }
    case "preformatted":
      return { kind: "preformatted", text: draft.text, page }
  }
}

/**
 * Reads plain text into blocks. `firstPage` is the page the text starts on (text inside an HTML
 * `<pre>` continues the page count of its document).
 */
export const readText = (input: string, firstPage = 1): TextReading => {
  const lines = input.replace(/\r\n?/g, "\n").split("\n")
  const blocks: Array<Block> = []
  let page = firstPage
  let contentOnPage = false
  let pending: Array<string> = []
  const flush = () => {
    for (const draft of readBlock(pending)) {
      blocks.push(toBlock(draft, page))
      contentOnPage = true
    }
    pending = []
  }
  const pageBreak = () => {
    flush()
    if (contentOnPage) page++
    contentOnPage = false
  }
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index] ?? ""
    // A form feed ends a page wherever it sits in the line.
    const parts = raw.includes("\f") ? raw.split("\f") : [raw]
    for (let part = 0; part < parts.length; part++) {
      if (part > 0) pageBreak()
      const line = expandTabs(parts[part] ?? "").trimEnd()
      if (tableStart.test(line)) {
        flush()
        const table: Array<string> = []
        for (index++; index < lines.length && !tableEnd.test(lines[index] ?? ""); index++) {
          const row = expandTabs(lines[index] ?? "").replace(/\f/g, "")
          if (!onlyLayoutTags.test(row)) table.push(blankLayoutTags(row).trimEnd())
        }
        if (table.some((row) => row.trim() !== "")) {
          blocks.push(toBlock(preformatted(table), page))
          contentOnPage = true
        }
        break
      }
      if (pageMarker.test(line)) pageBreak()
      else if (line.trim() === "" || onlyLayoutTags.test(line)) flush()
      else pending.push(line.replace(layoutTag, ""))
    }
  }
  flush()
  return { blocks, pageCount: contentOnPage || page === firstPage ? page : page - 1 }
}
