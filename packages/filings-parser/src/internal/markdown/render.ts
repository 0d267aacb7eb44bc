/**
 * Blocks to GitHub-flavoured Markdown: the one place that writes Markdown. Inline nodes become
 * escaped text, `**strong**`, `_emphasis_`, `[links](url)`, `![images](src)` and `\` hard breaks,
 * each line escaped where it would otherwise start a heading, quote or list; tables are escaped
 * and preformatted text fenced. Blocks are separated by one blank line and the result ends with one
 * newline, so any range of blocks (a section, a chunk) renders on its own and ranges concatenate
 * into the whole.
 */
import type { Inline } from "@filings/domain/Blocks"
import { type Block, blockText } from "../blocks.js"
import { countWords } from "../characters.js"
import { escapeBlockStart, escapeCell, escapeInline } from "./escape.js"

/** A link or image destination: in `<...>` when it holds spaces or parentheses. */
export const linkDestination = (href: string): string => /[\s()<>]/.test(href) ? `<${href.replace(/[<>]/g, "")}>` : href

/** Inline nodes as Markdown lines: one more line after each hard break, marks repeated on none. */
const renderInlineLines = (nodes: ReadonlyArray<Inline>): Array<string> => {
  const lines: Array<string> = [""]
  const write = (value: string) => {
    lines[lines.length - 1] += value
  }
  const walk = (run: ReadonlyArray<Inline>): void => {
    for (const node of run) {
      switch (node.kind) {
        case "text":
          write(escapeInline(node.text))
          break
        case "break":
          lines.push("")
          break
        case "image":
          write(`![${escapeInline(node.alt)}](${linkDestination(node.src)})`)
          break
        case "strong":
          write("**")
          walk(node.children)
          write("**")
          break
        case "emphasis":
          write("_")
          walk(node.children)
          write("_")
          break
        case "link":
          write("[")
          walk(node.children)
          write(`](${linkDestination(node.url)})`)
          break
      }
    }
  }
  walk(nodes)
  return lines.map(escapeBlockStart)
}

/** Inline nodes as inline Markdown: each line escaped at its start, lines ended by `\` hard breaks. */
export const renderInline = (nodes: ReadonlyArray<Inline>): string => renderInlineLines(nodes).join("\\\n")

const renderTable = (rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const [header, ...body] = rows
  if (header === undefined) return ""
  // A cell is one line in GFM: newlines inside a cell would end the row.
  const row = (cells: ReadonlyArray<string>) =>
    `| ${cells.map((cell) => escapeCell(cell.replace(/\s+/g, " ").trim())).join(" | ")} |`
  const lines = [row(header), `|${" --- |".repeat(header.length)}`]
  for (const cells of body) lines.push(row(cells))
  return lines.join("\n")
}

const renderPreformatted = (text: string): string => {
  // The fence must be longer than any backtick run inside the text.
  let longest = 0
  for (const run of text.match(/`{3,}/g) ?? []) longest = Math.max(longest, run.length)
  const fence = "`".repeat(Math.max(3, longest + 1))
  return `${fence}\n${text}\n${fence}`
}

/** One block as Markdown, without surrounding blank lines. */
export const renderBlock = (block: Block): string => {
  switch (block.kind) {
    case "heading":
      return `${"#".repeat(block.depth)} ${renderInline(block.inlines)}`
    case "paragraph":
      return renderInline(block.inlines)
    case "list":
      return block.items
        .map((item, index) =>
          `${block.ordered ? `${index + 1}.` : "-"} ${renderInlineLines(item.inlines).join("\\\n  ")}`
        )
        .join("\n")
    case "table":
      return renderTable(block.rows)
    case "preformatted":
      return renderPreformatted(block.text)
  }
}

/**
 * Renders blocks `[start, end)` (all by default) as GFM Markdown ending with one newline; blocks
 * that render to nothing are skipped.
 */
export const renderMarkdown = (blocks: ReadonlyArray<Block>, start = 0, end = blocks.length): string => {
  const parts: Array<string> = []
  for (let index = Math.max(0, start); index < Math.min(end, blocks.length); index++) {
    const block = blocks[index]
    if (block === undefined) continue
    const markdown = renderBlock(block)
    if (markdown !== "") parts.push(markdown)
  }
  return `${parts.join("\n\n")}\n`
}

// Blocks are immutable and a document's are counted several times (whole, sections, chunks).
const wordsOfBlock = new WeakMap<Block, number>()

const blockWords = (block: Block): number => {
  let words = wordsOfBlock.get(block)
  if (words === undefined) {
    words = countWords(blockText(block))
    wordsOfBlock.set(block, words)
  }
  return words
}

/** Words in blocks `[start, end)`: their visible text, table values included, Markdown syntax not. */
export const countBlockWords = (blocks: ReadonlyArray<Block>, start = 0, end = blocks.length): number => {
  let count = 0
  for (let index = Math.max(0, start); index < Math.min(end, blocks.length); index++) {
    const block = blocks[index]
    if (block !== undefined) count += blockWords(block)
  }
  return count
}

/**
 * A document's blocks rendered once: each block's Markdown, and the words before each block. The
 * body, the sections and the chunks are ranges of the same blocks, joined from these.
 */
export interface RenderedBlocks {
  readonly markdown: ReadonlyArray<string>
  /** `wordsBefore[i]`: the words of blocks `[0, i)`; one entry more than there are blocks. */
  readonly wordsBefore: ReadonlyArray<number>
}

export const renderOnce = (blocks: ReadonlyArray<Block>): RenderedBlocks => {
  const markdown: Array<string> = new Array(blocks.length)
  const wordsBefore: Array<number> = new Array(blocks.length + 1)
  let words = 0
  wordsBefore[0] = 0
  blocks.forEach((block, index) => {
    markdown[index] = renderBlock(block)
    words += countWords(blockText(block))
    wordsBefore[index + 1] = words
  })
  return { markdown, wordsBefore }
}

const clamp = (rendered: RenderedBlocks, start: number, end: number): readonly [number, number] => {
  const last = rendered.markdown.length
  const from = Math.min(Math.max(0, start), last)
  return [from, Math.max(from, Math.min(end, last))]
}

/** The Markdown of blocks `[start, end)`, as `renderMarkdown` writes it. */
export const markdownOfRange = (rendered: RenderedBlocks, start = 0, end = rendered.markdown.length): string => {
  const [from, to] = clamp(rendered, start, end)
  const parts: Array<string> = []
  for (let index = from; index < to; index++) {
    const markdown = rendered.markdown[index] ?? ""
    if (markdown !== "") parts.push(markdown)
  }
  return `${parts.join("\n\n")}\n`
}

/** The words of blocks `[start, end)`, as `countBlockWords` counts them. */
export const wordsOfRange = (rendered: RenderedBlocks, start = 0, end = rendered.markdown.length): number => {
  const [from, to] = clamp(rendered, start, end)
  return (rendered.wordsBefore[to] ?? 0) - (rendered.wordsBefore[from] ?? 0)
}
