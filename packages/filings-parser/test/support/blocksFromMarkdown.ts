/**
 * Test-only adapter: reads short Markdown back into blocks, so tests can write the documents they
 * need as Markdown (section detection here, the extractor's table, signature and exhibit readers
 * there). Headings (`#`), GFM tables (`|`), lists, fenced code and paragraphs (their lines kept as
 * written); a paragraph that is all `**bold**` gets `style.bold`. Pages are unknown (1).
 */
import type { Block, TextStyle } from "../../src/internal/blocks.js"
import { plainStyle } from "../../src/internal/blocks.js"
import { inlinesText } from "../../src/internal/inline.js"
import { readInline } from "../../src/internal/markdown/readInline.js"
import { headerRowCount } from "../../src/internal/tableHeader.js"

/** Inline Markdown to visible text: emphasis, links, escapes and `<br>`s dropped. */
export const markdownToText = (markdown: string): string =>
  markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<br\s*\/?>/gi, " ")
    .replace(/(\*\*|__)(.*?)\1/g, "$2")
    .replace(/(^|[^\\*])\*(?!\s)([^*]+?)\*/g, "$1$2")
    .replace(/\\([\\`*_{}[\]()#+\-.!|~<>&$])/g, "$1")
    .replace(/\\$/gm, "")
    .replace(/\s+/g, " ")
    .trim()

const splitRow = (line: string): Array<string> =>
  line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split(/(?<!\\)\|/)
    .map((cell) => markdownToText(cell))

const isDelimiterRow = (line: string): boolean => /^\|(?:\s*:?-{3,}:?\s*\|)+\s*$/.test(line.trim())

const listItem = /^\s*(?:[-*+]|\d{1,3}[.)])\s+(.*)$/

const boldOnly = (markdown: string): boolean =>
  /^\*\*[^]*\*\*$/.test(markdown.trim()) && markdownToText(markdown).length > 0

export const blocksFromMarkdown = (markdown: string): Array<Block> => {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n")
  const blocks: Array<Block> = []
  let index = 0
  while (index < lines.length) {
    const line = lines[index] ?? ""
    if (line.trim() === "") {
      index++
      continue
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line)
    if (heading !== null) {
      const depth = (heading[1] ?? "#").length as 1 | 2 | 3 | 4 | 5 | 6
      const inline = heading[2] ?? ""
      blocks.push({
        kind: "heading",
        depth,
        text: markdownToText(inline),
        inlines: readInline(inline),
        style: plainStyle,
        page: 1
      })
      index++
      continue
    }
    if (/^(```|~~~)/.test(line)) {
      const fence = line.slice(0, 3)
      const body: Array<string> = []
      for (index++; index < lines.length && !(lines[index] ?? "").startsWith(fence); index++) {
        body.push(lines[index] ?? "")
      }
      index++
      blocks.push({ kind: "preformatted", text: body.join("\n"), page: 1 })
      continue
    }
    if (line.trimStart().startsWith("|")) {
      const rows: Array<Array<string>> = []
      for (; index < lines.length && (lines[index] ?? "").trimStart().startsWith("|"); index++) {
        if (!isDelimiterRow(lines[index] ?? "")) rows.push(splitRow(lines[index] ?? ""))
      }
      const width = Math.max(...rows.map((row) => row.length))
      const padded = rows.map((row) => [...row, ...Array<string>(width - row.length).fill("")])
      // The header rows as the parser would find them in the same cells (GFM's own header is one row).
      blocks.push({ kind: "table", rows: padded, headerRows: headerRowCount(padded), page: 1 })
      continue
    }
    if (listItem.test(line)) {
      const items: Array<string> = []
      for (; index < lines.length; index++) {
        const current = lines[index] ?? ""
        const item = listItem.exec(current)
        if (item !== null) items.push(item[1] ?? "")
        else if (current.trim() !== "" && /^\s{2,}/.test(current) && items.length > 0) {
          items[items.length - 1] += ` ${current.trim()}`
        } else break
      }
      blocks.push({
        kind: "list",
        ordered: /^\s*\d/.test(line),
        items: items.map((item) => ({ text: inlinesText(readInline(item)), inlines: readInline(item) })),
        page: 1
      })
      continue
    }
    const paragraph: Array<string> = []
    for (; index < lines.length; index++) {
      const current = lines[index] ?? ""
      if (current.trim() === "" || /^(#{1,6}\s|\||```|~~~)/.test(current)) break
      paragraph.push(current)
    }
    const inline = paragraph.join("\n")
    const style: TextStyle = boldOnly(inline) ? { ...plainStyle, bold: true } : plainStyle
    blocks.push({ kind: "paragraph", text: markdownToText(inline), inlines: readInline(inline), style, page: 1 })
  }
  return blocks
}
