// Markdown back to blocks: the reverse of `render.ts`, for Markdown the parser wrote (a stored
// chunk's text, a section's Markdown) when its blocks are not at hand. The one place outside the
// readers of filings that knows how the renderer writes a table, a heading, a list and a fence.
// What Markdown does not keep is not recovered: every block is on page 1 in plain style, and a
// table's header rows are counted from its cells by the parser's own rule (`headerRowCount`).
import { type Block, plainStyle } from "../blocks.js"
import { headerRowCount } from "../tableHeader.js"
import { collapseSpaces, inlinePlainText } from "./plainText.js"

const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/
const tableLine = /^\s*\|/
const rule = /^\s*(?:[-*_]\s*){3,}$/
const fence = /^\s*(`{3,}|~{3,})/
const listItem = /^(?:[-*+]|\d{1,9}[.)])\s+/
const ruleCell = /^:?-+:?$/

/** A table line's cells: split on the `|` that are not escaped, each cell to plain text. */
const cellsOf = (line: string): Array<string> => {
  const inner = line.trim().replace(/^\|/, "").replace(/(?<!\\)\|$/, "")
  return inner.split(/(?<!\\)\|/).map((cell) => inlinePlainText(cell.replace(/\\\|/g, "|")))
}

const tableOf = (lines: ReadonlyArray<string>): Block | undefined => {
  const rows = lines.map(cellsOf).filter((cells) => !cells.every((cell) => ruleCell.test(cell)))
  if (rows.length === 0) return undefined
  const width = Math.max(...rows.map((row) => row.length))
  const rectangular = rows.map((row) => [...row, ...Array.from({ length: width - row.length }, () => "")])
  return { kind: "table", page: 1, rows: rectangular, headerRows: headerRowCount(rectangular) }
}

/** The blocks of `markdown`, in order; blank lines and thematic breaks end a block and are no block. */
export const readMarkdown = (markdown: string): Array<Block> => {
  const blocks: Array<Block> = []
  const lines = markdown.split("\n")
  let paragraph: Array<string> = []
  let table: Array<string> = []
  let list: { ordered: boolean; items: Array<string> } | undefined
  const close = () => {
    if (paragraph.length > 0) {
      const text = paragraph.join("\n")
      blocks.push({ kind: "paragraph", page: 1, text: inlinePlainText(text), markdown: text, style: plainStyle })
    }
    if (table.length > 0) {
      const block = tableOf(table)
      if (block !== undefined) blocks.push(block)
    }
    if (list !== undefined) blocks.push({ kind: "list", page: 1, ordered: list.ordered, items: list.items })
    paragraph = []
    table = []
    list = undefined
  }
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index]!
    const opened = fence.exec(raw)
    if (opened !== null) {
      close()
      const body: Array<string> = []
      while (++index < lines.length && !lines[index]!.trim().startsWith(opened[1]!)) body.push(lines[index]!)
      blocks.push({ kind: "preformatted", page: 1, text: body.join("\n") })
      continue
    }
    if (raw.trim() === "" || rule.test(raw)) {
      close()
      continue
    }
    if (tableLine.test(raw)) {
      if (table.length === 0) close()
      table.push(raw)
      continue
    }
    if (table.length > 0) close()
    const line = raw.replace(/^\s*(?:>\s*)*/, "")
    const title = heading.exec(line)
    if (title !== null) {
      close()
      const markdown = title[2]!
      const depth = title[1]!.length as 1 | 2 | 3 | 4 | 5 | 6
      blocks.push({ kind: "heading", page: 1, depth, text: inlinePlainText(markdown), markdown, style: plainStyle })
      continue
    }
    const item = listItem.exec(line)
    if (item !== null) {
      if (list === undefined) close()
      list ??= { ordered: /\d/.test(item[0]), items: [] }
      list.items.push(line.slice(item[0].length))
      continue
    }
    if (list !== undefined) {
      // A line under an item goes on with it.
      const last = list.items.length - 1
      list.items[last] = `${list.items[last]}\n${collapseSpaces(line)}`
      continue
    }
    paragraph.push(line)
  }
  close()
  return blocks
}
