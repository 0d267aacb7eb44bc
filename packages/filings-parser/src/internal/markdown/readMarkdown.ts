/**
 * Markdown the parser rendered back into blocks: the inverse of `render.ts`, for documents stored
 * before their blocks were kept. It reads exactly what the renderer writes (blocks separated by a
 * blank line; `#` headings; paragraphs whose lines end in `\` hard breaks; `-` and `1.` lists with
 * items continued on lines indented by two spaces; GFM tables; fenced code) and nothing more. What
 * Markdown does not keep comes back as its plainest value: pages are 1, styles plain (but `bold`
 * for a paragraph that is all strong text), a table's header rows are read from its cells as the
 * HTML reader does for tables that do not mark them.
 */
import type { Block, Inline, ListItem } from "@filings/domain/Blocks"
import { plainStyle } from "@filings/domain/Blocks"
import { inlinesText } from "../inline.js"
import { headerRowCount } from "../tableHeader.js"
import { readInline } from "./readInline.js"

const heading = /^(#{1,6}) (.*)$/
const fence = /^(`{3,})$/
// The renderer writes `| --- |`; hand-written GFM (`|---|:--:|`) reads the same.
const delimiterRow = /^\|(?:\s*:?-+:?\s*\|)+$/
const tableRow = /^\|.*\|$/
const listItem = /^(?:-|\d{1,9}\.) (.*)$/

const unescape = (value: string): string => value.replace(/\\([!-/:-@[-`{-~])/g, "$1")

/** A rendered table row (`| a | b |`) to its plain-text cells. */
const cellsOf = (line: string): Array<string> =>
  line.slice(1, -1).split(/(?<!\\)\|/).map((cell) => unescape(cell).trim())

const isAllStrong = (nodes: ReadonlyArray<Inline>): boolean => nodes.length === 1 && nodes[0]?.kind === "strong"

/** Reads the Markdown of a document (or of any range of its blocks) back into blocks. */
export const readMarkdown = (markdown: string): Array<Block> => {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n")
  const blocks: Array<Block> = []
  let index = 0
  while (index < lines.length) {
    const line = lines[index] ?? ""
    if (line === "") {
      index++
      continue
    }
    const opening = fence.exec(line)
    if (opening !== null) {
      const close = lines.indexOf(opening[1] ?? "```", index + 1)
      const end = close === -1 ? lines.length : close
      blocks.push({ kind: "preformatted", page: 1, text: lines.slice(index + 1, end).join("\n") })
      index = end + 1
      continue
    }
    const headingMatch = heading.exec(line)
    if (headingMatch !== null) {
      const inlines = readInline(headingMatch[2] ?? "")
      blocks.push({
        kind: "heading",
        page: 1,
        depth: (headingMatch[1] ?? "#").length as 1 | 2 | 3 | 4 | 5 | 6,
        text: inlinesText(inlines),
        inlines,
        style: plainStyle
      })
      index++
      continue
    }
    if (tableRow.test(line) && delimiterRow.test(lines[index + 1] ?? "")) {
      const rows = [cellsOf(line)]
      for (index += 2; index < lines.length && tableRow.test(lines[index] ?? ""); index++) {
        rows.push(cellsOf(lines[index] ?? ""))
      }
      blocks.push({ kind: "table", page: 1, rows, headerRows: headerRowCount(rows) })
      continue
    }
    const firstItem = listItem.exec(line)
    if (firstItem !== null) {
      const sources: Array<string> = []
      for (; index < lines.length; index++) {
        const current = lines[index] ?? ""
        const item = listItem.exec(current)
        if (item !== null) sources.push(item[1] ?? "")
        else if (current.startsWith("  ") && sources.length > 0) sources[sources.length - 1] += `\n${current.slice(2)}`
        else break
      }
      const items = sources.map((source): ListItem => {
        const inlines = readInline(source)
        return { text: inlinesText(inlines), inlines }
      })
      blocks.push({ kind: "list", page: 1, ordered: !line.startsWith("-"), items })
      continue
    }
    const paragraph: Array<string> = []
    for (; index < lines.length && (lines[index] ?? "") !== ""; index++) paragraph.push(lines[index] ?? "")
    const inlines = readInline(paragraph.join("\n"))
    blocks.push({
      kind: "paragraph",
      page: 1,
      text: inlinesText(inlines, "omit"),
      inlines,
      style: isAllStrong(inlines) ? { ...plainStyle, bold: true } : plainStyle
    })
  }
  return blocks
}
