/**
 * What the printed page adds to a filing, and the heading rule for EDGAR's bold lines.
 *
 * - Page artefacts between blocks: bare page numbers ("12", "- 12 -", "F-7", "iii"), running
 *   footers ending in a page number ("Apple Inc. | 2024 Form 10-K | 12") and "Table of Contents"
 *   back-links. Table cells are never artefacts: a lone number there is data.
 * - A table of contents near the start: a table whose rows are mostly Part/Item labels with page
 *   numbers. Its entries repeat the headings that follow, so it only adds noise.
 * - Running headers and footers: a short line at the top or bottom of most pages.
 *
 * Removal is conservative: every rule needs several signals, and what is removed is reported.
 */
import type { Block, HeadingBlock, ParagraphBlock } from "../blocks.js"
import { hasImage } from "../inline.js"

const pageNumber = /^(?:[Pp]age\s+)?[-–—]?\s*(?:\d{1,4}|[ivxlc]{1,7}|[A-Z]{1,2}-\s?\d{1,4})\.?\s*[-–—]?$/
const runningFooter = /^[^|]{1,80}(?:\|[^|]{1,80})*\|\s*(?:\d{1,4}|[A-Z]{1,2}-\d{1,4})$/
const tableOfContentsLink = /^(?:back to |return to )?(?:table of contents|index)$/i
// Longer text is never a page artefact.
const maxArtifactLength = 160

/** Whether a paragraph between blocks is a page number, a running footer or a back-link. */
export const isPageArtifact = (paragraph: ParagraphBlock, hasFragmentLink: boolean): boolean => {
  const text = paragraph.text
  if (text.length > maxArtifactLength || hasImage(paragraph.inlines)) return false
  return pageNumber.test(text) || runningFooter.test(text) || (hasFragmentLink && tableOfContentsLink.test(text))
}

const part = /^part\s+(?:i{1,3}|iv|v)\b/i
const item = /^item\s+\d{1,2}[a-z]?(?:\.\d{1,2})?\b/i
const hasLetter = /\p{L}/u
// Not headings: sentence fragments, "(Exact name of registrant ...)" captions, check-box lines,
// fill-in blanks and "Label: value" lines.
const notGenericHeading = /[,;]$|^[\p{Ll}(\[☐☒☑✓✔•·]|__|:\s*\S/u
// Part and Item headings can be long ("Item 5. Market for Registrant's Common Equity, ...").
const maxItemLength = 200
const maxGenericLength = 120

/**
 * The heading depth of a bold standalone line, since filings rarely use `<h1>`..`<h6>`: "PART II"
 * is 2, "Item 1A. Risk Factors" or "Item 2.02 Results of Operations" 3, any other short bold line 4.
 */
export const headingDepthOf = (paragraph: ParagraphBlock): 2 | 3 | 4 | undefined => {
  const value = paragraph.text
  if (!paragraph.style.bold || value.length > maxItemLength || !hasLetter.test(value)) return undefined
  if (hasImage(paragraph.inlines)) return undefined
  if (part.test(value)) return 2
  if (item.test(value)) return 3
  if (value.length > maxGenericLength || notGenericHeading.test(value)) return undefined
  return 4
}

const tocLabel = /^(?:part\s+[ivx]+\b|item\s+\d{1,2}[a-z]?\b)/i
const tocTitle = /^(?:table of contents|contents|index)$/i
const tocPage = /^(?:\d{1,3}|[ivxlc]{1,6}|[A-Z]{1,2}-\s?\d{1,3})$/
// A table of contents sits in the front matter.
const tocSearchShare = 0.25
const minTocEntries = 3

const isTableOfContents = (rows: ReadonlyArray<ReadonlyArray<string>>): boolean => {
  let labels = 0
  let paged = 0
  for (const row of rows) {
    if (row.some((cell) => tocLabel.test(cell))) labels++
    const filled = row.filter((cell) => cell !== "")
    const last = filled[filled.length - 1]
    if (filled.length >= 2 && last !== undefined && tocPage.test(last)) paged++
  }
  return labels >= minTocEntries && labels >= rows.length * 0.3 && paged >= rows.length * 0.5
}

const furnitureKey = (block: HeadingBlock | ParagraphBlock): string =>
  block.text.toLowerCase().replace(/\d+/g, "#").replace(/\s+/g, " ")

const maxFurnitureLength = 100
// Running headers and footers sit among the first or last blocks of a page.
const pageEdge = 2
const minRepeatShare = 0.5
const minRepeats = 3

export interface Furnished {
  readonly blocks: Array<Block>
  readonly warnings: Array<string>
}

/** Removes front-matter tables of contents and running headers/footers. */
export const removeFurniture = (blocks: ReadonlyArray<Block>, pageCount: number): Furnished => {
  const warnings: Array<string> = []
  const drop = new Set<number>()

  const searchEnd = Math.ceil(blocks.length * tocSearchShare)
  let tocRows = 0
  for (let index = 0; index < searchEnd; index++) {
    const block = blocks[index]
    if (block?.kind === "table" && isTableOfContents(block.rows)) {
      drop.add(index)
      tocRows += block.rows.length
      // Its title goes with it.
      const previous = blocks[index - 1]
      if ((previous?.kind === "heading" || previous?.kind === "paragraph") && tocTitle.test(previous.text)) {
        drop.add(index - 1)
      }
    }
  }
  if (tocRows > 0) warnings.push(`removed a table of contents (${tocRows} rows)`)

  if (pageCount >= minRepeats) {
    // Candidates: short lines at the edges of each page, keyed with digits masked (page numbers).
    const candidates = new Map<string, Array<number>>()
    const pagesOf = new Map<string, Set<number>>()
    let pageStart = 0
    const visitPage = (start: number, end: number) => {
      for (let index = start; index < end; index++) {
        if (index - start >= pageEdge && end - index > pageEdge) continue
        const block = blocks[index]
        if (block === undefined || (block.kind !== "paragraph" && block.kind !== "heading")) continue
        if (block.text.length > maxFurnitureLength || part.test(block.text) || item.test(block.text)) continue
        const key = furnitureKey(block)
        const indices = candidates.get(key) ?? []
        indices.push(index)
        candidates.set(key, indices)
        const pages = pagesOf.get(key) ?? new Set<number>()
        pages.add(block.page)
        pagesOf.set(key, pages)
      }
    }
    for (let index = 1; index <= blocks.length; index++) {
      if (index === blocks.length || blocks[index]?.page !== blocks[pageStart]?.page) {
        visitPage(pageStart, index)
        pageStart = index
      }
    }
    const threshold = Math.max(minRepeats, Math.ceil(pageCount * minRepeatShare))
    let removed = 0
    const examples: Array<string> = []
    for (const [key, indices] of candidates) {
      if ((pagesOf.get(key)?.size ?? 0) < threshold) continue
      for (const index of indices) drop.add(index)
      removed += indices.length
      const first = blocks[indices[0] ?? -1]
      if (first !== undefined && examples.length < 3 && (first.kind === "paragraph" || first.kind === "heading")) {
        examples.push(`"${first.text}"`)
      }
    }
    if (removed > 0) warnings.push(`removed ${removed} running page header/footer line(s): ${examples.join(", ")}`)
  }

  return { blocks: drop.size === 0 ? [...blocks] : blocks.filter((_, index) => !drop.has(index)), warnings }
}
