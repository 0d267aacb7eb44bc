/**
 * The unified pipelines behind `FilingsParser`: HTML -> hast -> (EDGAR clean-up) -> mdast -> GFM
 * Markdown, and plain text -> mdast -> GFM Markdown. Each plugin does one job; the order matters and
 * is explained where it does.
 */
import rehypeParse from "rehype-parse"
import rehypeRemark from "rehype-remark"
import remarkGfm from "remark-gfm"
import remarkStringify, { type Options as StringifyOptions } from "remark-stringify"
import { unified } from "unified"
import type { VFile } from "vfile"
import { stripDocumentEnvelope } from "./envelope.js"
import { isTextInHtmlShell, unwrapHtmlShell } from "./htmlShell.js"
import { rehypeDropHidden } from "./rehypeDropHidden.js"
import { rehypeDropPageArtifacts } from "./rehypeDropPageArtifacts.js"
import { rehypeHeadings } from "./rehypeHeadings.js"
import { rehypeNormalizeText } from "./rehypeNormalizeText.js"
import { rehypeTables } from "./rehypeTables.js"
import { rehypeTitle } from "./rehypeTitle.js"
import { rehypeUnwrapInlineXbrl } from "./rehypeUnwrapInlineXbrl.js"
import { remarkBulletLists } from "./remarkBulletLists.js"
import { remarkDropFragmentLinks } from "./remarkDropFragmentLinks.js"
import { remarkParsePlainText } from "./remarkParsePlainText.js"
import { remarkPreformatted } from "./remarkPreformatted.js"
import { remarkTidy } from "./remarkTidy.js"
import { remarkWordCount } from "./remarkWordCount.js"
import { expandSelfClosingTags } from "./xhtml.js"

const stringifyOptions: StringifyOptions = {
  bullet: "-",
  emphasis: "_",
  strong: "*",
  rule: "-",
  fences: true,
  listItemIndent: "one",
  resourceLink: false
}

// Claiming every cell is 3 characters wide gives `| --- |` delimiter rows without padding each
// cell to its column's widest value, which would bloat large tables.
const gfmOptions = { stringLength: () => 3 } as const

const htmlProcessor = unified()
  .use(rehypeParse)
  // The title lives in <head>, which rehypeDropHidden removes.
  .use(rehypeTitle)
  .use(rehypeDropHidden)
  .use(rehypeUnwrapInlineXbrl)
  // Before anything reads text: `&#160;` must count as whitespace.
  .use(rehypeNormalizeText)
  .use(rehypeDropPageArtifacts)
  // Layout tables turn into paragraphs here, so headings are detected after.
  .use(rehypeTables)
  .use(rehypeHeadings)
  .use(rehypeRemark)
  .use(remarkPreformatted)
  .use(remarkDropFragmentLinks)
  .use(remarkBulletLists)
  .use(remarkTidy)
  .use(remarkWordCount)
  .use(remarkGfm, gfmOptions)
  .use(remarkStringify, stringifyOptions)
  .freeze()

const textProcessor = unified()
  .use(remarkParsePlainText)
  .use(remarkTidy)
  .use(remarkWordCount)
  .use(remarkGfm, gfmOptions)
  .use(remarkStringify, stringifyOptions)
  .freeze()

export interface Converted {
  readonly markdown: string
  readonly wordCount: number
  readonly title: string | undefined
  readonly warnings: ReadonlyArray<string>
}

const toConverted = (file: VFile): Converted => {
  const warnings = file.messages.map((message) => message.reason)
  const wordCount = file.data.wordCount ?? 0
  if (wordCount === 0) warnings.push("the document has no text (image-only or empty body?)")
  return { markdown: String(file.value).trimEnd() + "\n", wordCount, title: file.data.title, warnings }
}

/** Runs the plain-text pipeline synchronously. */
export const convertText = (input: string): Converted =>
  toConverted(textProcessor.processSync(stripDocumentEnvelope(input)))

/**
 * Runs the HTML pipeline synchronously (every plugin is synchronous); a text filing in an HTML
 * shell goes to the text pipeline instead, with a warning.
 */
export const convertHtml = (html: string): Converted => {
  const document = stripDocumentEnvelope(html)
  if (isTextInHtmlShell(document)) {
    const converted = convertText(unwrapHtmlShell(document))
    return { ...converted, warnings: ["plain text in an HTML shell: converted as text", ...converted.warnings] }
  }
  return toConverted(htmlProcessor.processSync(expandSelfClosingTags(document)))
}
