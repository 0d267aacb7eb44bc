// Blocks, with the sections found in them, to the ParsedDocument: the Markdown body, each
// section's Markdown and pages, and the chunks that citations point to.
import type { ParsedDocument, Section } from "../ParsedDocument.js"
import type { Block } from "./blocks.js"
import { markdownOfRange, type RenderedBlocks, renderOnce, wordsOfRange } from "./markdown/render.js"

export interface SectionSpan {
  readonly title: string
  readonly item?: string | undefined
  /** Index of the section's first block. */
  readonly startBlock: number
  /** Index after its last block. */
  readonly endBlock: number
}

/** About this many words a chunk: a paragraph or two of context for a citation. */
export const chunkWordTarget = 250

const chunkId = (index: number): string => `c${String(index + 1).padStart(4, "0")}`

const pagesOf = (blocks: ReadonlyArray<Block>, start: number, end: number) => {
  let pageStart = Number.POSITIVE_INFINITY
  let pageEnd = 1
  for (let index = start; index < end; index++) {
    const page = blocks[index]?.page ?? 1
    pageStart = Math.min(pageStart, page)
    pageEnd = Math.max(pageEnd, page)
  }
  return { pageStart: Number.isFinite(pageStart) ? pageStart : 1, pageEnd: Math.max(pageEnd, pageStart) }
}

/**
 * Cuts blocks into chunks of about `chunkWordTarget` words at block boundaries. A chunk never
 * crosses the start of a section, so every chunk belongs to one section; a block longer than the
 * target (a large table) is a chunk of its own. The same blocks always give the same chunks.
 */
export const chunkBlocks = (
  blocks: ReadonlyArray<Block>,
  sections: ReadonlyArray<SectionSpan>,
  rendered: RenderedBlocks = renderOnce(blocks)
) => {
  const sectionStarts = new Map(sections.map((section) => [section.startBlock, section.title]))
  const sectionAt = (index: number): string | undefined => {
    let title: string | undefined
    for (const section of sections) {
      if (section.startBlock <= index && index < section.endBlock) title = section.title
    }
    return title
  }
  const ranges: Array<readonly [number, number]> = []
  let start = 0
  let words = 0
  for (let index = 0; index < blocks.length; index++) {
    if (index > start && (sectionStarts.has(index) || words >= chunkWordTarget)) {
      ranges.push([start, index])
      start = index
      words = 0
    }
    words += wordsOfRange(rendered, index, index + 1)
  }
  if (start < blocks.length) ranges.push([start, blocks.length])
  return ranges.map(([from, to], index) => {
    const section = sectionAt(from)
    return {
      id: chunkId(index),
      text: markdownOfRange(rendered, from, to),
      ...(section === undefined ? {} : { section }),
      wordCount: wordsOfRange(rendered, from, to),
      ...pagesOf(blocks, from, to),
      blockRange: { start: from, end: to }
    }
  })
}

export const toSections = (
  blocks: ReadonlyArray<Block>,
  spans: ReadonlyArray<SectionSpan>,
  rendered: RenderedBlocks = renderOnce(blocks)
): Array<Section> =>
  spans.map((span) => ({
    title: span.title,
    ...(span.item === undefined ? {} : { item: span.item }),
    content: markdownOfRange(rendered, span.startBlock, span.endBlock),
    wordCount: wordsOfRange(rendered, span.startBlock, span.endBlock),
    ...pagesOf(blocks, span.startBlock, span.endBlock),
    blockRange: { start: span.startBlock, end: span.endBlock }
  }))

export interface Assembly {
  readonly blocks: ReadonlyArray<Block>
  readonly sections: ReadonlyArray<SectionSpan>
  readonly form?: string | undefined
  readonly title?: string | undefined
  readonly pageCount: number
  readonly exhibits: ParsedDocument["exhibits"]
  readonly warnings: ReadonlyArray<string>
}

/** The parsed document: Markdown rendered once from the blocks, sections and chunks as ranges of them. */
export const assemble = (assembly: Assembly): ParsedDocument => {
  const rendered = renderOnce(assembly.blocks)
  return {
    ...(assembly.form === undefined ? {} : { form: assembly.form }),
    blocks: assembly.blocks,
    markdown: markdownOfRange(rendered),
    wordCount: wordsOfRange(rendered),
    ...(assembly.title === undefined ? {} : { title: assembly.title }),
    pageCount: Math.max(1, assembly.pageCount),
    sections: toSections(assembly.blocks, assembly.sections, rendered),
    chunks: chunkBlocks(assembly.blocks, assembly.sections, rendered),
    exhibits: assembly.exhibits,
    warnings: assembly.warnings
  }
}
