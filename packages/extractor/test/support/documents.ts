/**
 * Parsed documents for tests, shaped the way the parser shapes one: sections written as Markdown
 * are read into blocks (the parser's test reader), the sections are ranges of those blocks, and
 * the Markdown of the body and of each section is rendered from them.
 */
import { Blocks, type ParsedDocument } from "@filings/filings-parser"
import { blocksFromMarkdown } from "../../../filings-parser/test/support/blocksFromMarkdown.js"

export interface SectionSource {
  readonly title: string
  readonly item?: string
  /** The section as Markdown, its heading included, or as blocks. */
  readonly content: string | ReadonlyArray<Blocks.Block>
}

/** A parsed document with the given sections and exhibits. */
export const documentOf = (
  sections: ReadonlyArray<SectionSource>,
  options: { readonly form?: string; readonly exhibits?: ReadonlyArray<ParsedDocument.ParsedExhibit> } = {}
): ParsedDocument.ParsedDocument => {
  const blocks: Array<Blocks.Block> = []
  const ranges = sections.map((section) => {
    const start = blocks.length
    blocks.push(...(typeof section.content === "string" ? blocksFromMarkdown(section.content) : section.content))
    return { start, end: blocks.length }
  })
  return {
    form: options.form ?? "10-K",
    blocks,
    markdown: Blocks.toMarkdown(blocks),
    wordCount: Blocks.countWords(blocks),
    pageCount: 1,
    sections: sections.map((section, index) => {
      const blockRange = ranges[index] ?? { start: 0, end: 0 }
      return {
        title: section.title,
        ...(section.item === undefined ? {} : { item: section.item }),
        content: Blocks.toMarkdown(blocks, blockRange.start, blockRange.end),
        wordCount: Blocks.countWords(blocks, blockRange.start, blockRange.end),
        pageStart: 1,
        pageEnd: 1,
        blockRange
      }
    }),
    chunks: [],
    exhibits: options.exhibits ?? [],
    warnings: []
  }
}

/** An exhibit of a submission whose document is the given Markdown. */
export const exhibitOf = (exhibitNumber: string, title: string, markdown = ""): ParsedDocument.ParsedExhibit => {
  const blocks = blocksFromMarkdown(markdown)
  return {
    exhibitNumber,
    title,
    content: Blocks.toMarkdown(blocks),
    fileName: `ex${exhibitNumber.replace(".", "")}.htm`,
    blocks,
    wordCount: Blocks.countWords(blocks)
  }
}
