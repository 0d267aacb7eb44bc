/**
 * Plain text (old EDGAR filings, `<pre>` documents) to mdast, keeping the author's paragraphs.
 *
 * Text filings are typed for a fixed-width page: paragraphs are separated by blank lines and
 * hard-wrapped, cover pages are centred line by line, and tables are aligned with spaces between
 * SGML `<TABLE>` tags (with `<S>`/`<C>` column markers). So:
 *
 * - a block of wrapped prose becomes one paragraph (lines joined);
 * - a block of short lines (an address, a centred title) keeps its lines (hard breaks);
 * - anything aligned in columns (an SGML table, a line with a wide gap or dot leaders) stays a
 *   fenced code block, since Markdown cannot reflow it without losing the columns;
 * - "PART I" / "Item 2." lines on their own become headings; `<PAGE>` markers, form feeds and bare
 *   page numbers disappear.
 */
import type { BlockContent, Code, Heading, Paragraph, PhrasingContent, Root } from "mdast"

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

const code = (lines: ReadonlyArray<string>): Code => ({
  type: "code",
  lang: null,
  meta: null,
  value: dedent(lines).join("\n")
})

const squeeze = (line: string): string => line.trim().replace(/\s+/g, " ")

const paragraph = (text: string): Paragraph => ({ type: "paragraph", children: [{ type: "text", value: text }] })

interface Line {
  readonly indent: number
  readonly text: string
}

/**
 * A wrapped-prose block as paragraphs: a new one starts after a sentence that ends well short of
 * the block's width, or at a line indented further than the others (a first-line indent).
 */
const proseParagraphs = (lines: ReadonlyArray<Line>, isShort: (text: string) => boolean): Array<Paragraph> => {
  const minIndent = lines.reduce((least, line) => Math.min(least, line.indent), Infinity)
  const groups: Array<Array<string>> = [[]]
  lines.forEach((line, index) => {
    if ((groups[groups.length - 1]?.length ?? 0) > 0 && line.indent >= minIndent + 2) groups.push([])
    groups[groups.length - 1]?.push(line.text)
    if (isShort(line.text) && sentenceEnd.test(line.text) && index < lines.length - 1) groups.push([])
  })
  return groups.filter((group) => group.length > 0).map((group) => paragraph(group.join(" ")))
}

const block = (raw: ReadonlyArray<string>): Array<BlockContent> => {
  const allLines: Array<Line> = raw
    .filter((line) => line.trim() !== "")
    .map((line) => ({ indent: line.length - line.trimStart().length, text: squeeze(line) }))
  const [only, second] = allLines
  if (only === undefined || allLines.every((line) => separator.test(line.text))) return []
  if (second === undefined && pageNumber.test(only.text)) return []
  if (second === undefined && only.text.length <= maxHeadingLength) {
    const match = heading.exec(only.text)
    if (match !== null) {
      const depth = match[1] === undefined ? 3 : 2
      return [{ type: "heading", depth, children: [{ type: "text", value: only.text }] } satisfies Heading]
    }
  }
  if (raw.some((line) => columnGap.test(line.trim()))) return [code(raw)]
  // Outside column layouts, a line of dashes only underlines the line above it.
  const lines = allLines.filter((line) => !separator.test(line.text))
  const [first] = lines
  if (first === undefined) return []
  if (lines.length === 1) return [paragraph(first.text)]

  const width = lines.reduce((widest, line) => Math.max(widest, line.text.length), 0)
  const isShort = (text: string) => text.length < Math.max(minProseLineLength, width * proseLineShare)
  const body = lines.slice(0, -1)
  if (body.filter((line) => !isShort(line.text)).length >= body.length * proseLineShare) {
    return proseParagraphs(lines, isShort)
  }
  // Short lines broken on purpose (an address, a centred title): keep the breaks.
  const children: Array<PhrasingContent> = lines.flatMap((line, index) =>
    index === 0 ? [{ type: "text", value: line.text }] : [{ type: "break" }, { type: "text", value: line.text }]
  )
  return [{ type: "paragraph", children }]
}

export const plainTextToMdast = (input: string): Root => {
  const lines = input.replace(/\r\n?/g, "\n").split(/[\n\f]/).map((line) => expandTabs(line).trimEnd())
  const children: Array<BlockContent> = []
  let pending: Array<string> = []
  const flush = () => {
    for (const node of block(pending)) children.push(node)
    pending = []
  }
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? ""
    if (tableStart.test(line)) {
      flush()
      const table: Array<string> = []
      for (index++; index < lines.length && !tableEnd.test(lines[index] ?? ""); index++) {
        const row = lines[index] ?? ""
        if (!onlyLayoutTags.test(row)) table.push(blankLayoutTags(row).trimEnd())
      }
      if (table.some((row) => row.trim() !== "")) children.push(code(table))
      continue
    }
    if (line.trim() === "" || pageMarker.test(line) || onlyLayoutTags.test(line)) {
      flush()
      continue
    }
    pending.push(line.replace(layoutTag, ""))
  }
  flush()
  return { type: "root", children }
}
