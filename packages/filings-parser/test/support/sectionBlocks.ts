/**
 * Test helpers for section detection: terse constructors of synthetic blocks, blocks of real
 * filings from the shared corpus, and the plain-text size of a section (what the labels measure).
 */
import { readFileSync } from "node:fs"
import type { Block, TextStyle } from "../../src/internal/blocks.js"
import { plainStyle } from "../../src/internal/blocks.js"
import { readHtml } from "../../src/internal/html/readHtml.js"
import { renderMarkdown } from "../../src/internal/markdown/render.js"
import type { DetectedSection } from "../../src/internal/sections/detectSections.js"
import { headerRowCount } from "../../src/internal/tableHeader.js"
import { readText } from "../../src/internal/text/readText.js"

export const heading = (text: string, depth: 1 | 2 | 3 | 4 | 5 | 6 = 3): Block => ({
  kind: "heading",
  depth,
  text,
  inlines: [{ kind: "text", text }],
  style: plainStyle,
  page: 1
})

export const paragraph = (text: string, style: Partial<TextStyle> = {}): Block => ({
  kind: "paragraph",
  text,
  inlines: [{ kind: "text", text }],
  style: { ...plainStyle, ...style },
  page: 1
})

export const bold = (text: string): Block => paragraph(text, { bold: true })

export const table = (...rows: ReadonlyArray<ReadonlyArray<string>>): Block => ({
  kind: "table",
  rows,
  headerRows: headerRowCount(rows),
  page: 1
})

/** Body text of about `words` words. */
export const body = (words = 60, seed = "text"): Block =>
  paragraph(Array.from({ length: words }, (_, index) => `${seed}${index}`).join(" ") + ".")

/** The item keys of sections, in order (sections without an item as their name). */
export const keysOf = (sections: ReadonlyArray<DetectedSection>): Array<string> =>
  sections.map((section) => section.item ?? section.title)

/** Markdown to its visible text: table pipes and delimiter rows, fences, markers, emphasis, links and escapes dropped. */
export const stripMarkdown = (markdown: string): string =>
  markdown
    .split("\n")
    .filter((line) => !/^\|?(?:\s*:?-{3,}:?\s*\|)+\s*$/.test(line) && !/^(?:`{3,}|~{3,})/.test(line))
    .map((line) => line.replace(/^\s*(?:#{1,6}\s+|[-*+]\s+|\d{1,3}[.)]\s+)/, ""))
    .join("\n")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(?<!\\)\|/g, " ")
    .replace(/(\*\*|__)(.*?)\1/g, "$2")
    .replace(/(^|[^\\*])\*(?!\s)([^*\n]+?)\*/g, "$1$2")
    .replace(/\\([\\`*_{}[\]()#+\-.!|~<>&$])/g, "$1")

/**
 * What the labels measure of a section: its rendered Markdown without the heading line, Markdown
 * syntax stripped, whitespace removed, in characters.
 */
export const plainTextSize = (blocks: ReadonlyArray<Block>, section: DetectedSection): number =>
  stripMarkdown(renderMarkdown(blocks, section.startBlock + 1, section.endBlock)).replace(/\s+/g, "").length

/** UTF-8, or Windows-1252 where the bytes are not UTF-8 (older filings). */
const decode = (bytes: Uint8Array): string => {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes)
  } catch {
    return new TextDecoder("windows-1252").decode(bytes)
  }
}

/** The blocks of a corpus file: HTML through `readHtml`, plain text through `readText`. */
export const corpusBlocks = (corpus: URL, path: string): ReadonlyArray<Block> => {
  const text = decode(readFileSync(new URL(path, corpus)))
  return /\.html?$/i.test(path) ? readHtml(text).blocks : readText(text).blocks
}
