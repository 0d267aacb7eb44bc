/**
 * Whole documents to blocks: the EDGAR-specific wrapping around the HTML and text readers (the SGML
 * `<DOCUMENT>` envelope, text filings in an HTML shell, DTD internal subsets) and the warnings that
 * concern the document as a whole.
 */
import { type Block, blockText } from "./blocks.js"
import { stripDocumentEnvelope } from "./envelope.js"
import { readHtml } from "./html/readHtml.js"
import { isTextInHtmlShell, unwrapHtmlShell } from "./htmlShell.js"
import { readText } from "./text/readText.js"
import type { FactSet } from "./xbrl/factSet.js"

/** A document read into blocks. */
export interface DocumentBlocks {
  readonly blocks: ReadonlyArray<Block>
  /** The HTML `<title>`, when there is a non-empty one. */
  readonly title?: string | undefined
  /** Pages found (page breaks in HTML, `<PAGE>` markers and form feeds in text); at least 1. */
  readonly pageCount: number
  readonly warnings: ReadonlyArray<string>
  /** An inline XBRL document's facts, read in the same pass as its blocks. */
  readonly inlineXbrl?: FactSet | undefined
}

const noText = "the document has no text (image-only or empty body?)"

const letterOrDigit = /[\p{L}\p{N}]/u

const finish = (reading: DocumentBlocks): DocumentBlocks => {
  // Same test as a word count of zero, but stops at the first word.
  const hasText = reading.blocks.some((block) => letterOrDigit.test(blockText(block)))
  const warnings = hasText ? reading.warnings : [...reading.warnings, noText]
  return {
    blocks: reading.blocks,
    ...(reading.title === undefined ? {} : { title: reading.title }),
    pageCount: Math.max(1, reading.pageCount),
    warnings,
    ...(reading.inlineXbrl === undefined ? {} : { inlineXbrl: reading.inlineXbrl })
  }
}

/** Reads plain text (old EDGAR filings, the `<TEXT>` of an SGML document) into blocks. */
export const readTextDocument = (input: string): DocumentBlocks => {
  const reading = readText(stripDocumentEnvelope(input))
  return finish({ blocks: reading.blocks, pageCount: reading.pageCount, warnings: [] })
}

// `<!DOCTYPE x [ <!ENTITY ...> ]>`: HTML never expands these; removing the subset keeps its
// declarations from showing up as text.
const internalSubset = /^(\s*(?:<\?xml[^>]*\?>\s*)?)<!DOCTYPE[^[>]*\[[\s\S]*?\]\s*>/i

/**
 * Reads an HTML or inline XBRL document into blocks; a text filing in an HTML shell is read as
 * text, with a warning. Throws `NestingTooDeep` (from `readHtml`) on absurdly deep markup.
 */
export const readHtmlDocument = (html: string): DocumentBlocks => {
  const document = stripDocumentEnvelope(html)
  if (isTextInHtmlShell(document)) {
    const reading = readTextDocument(unwrapHtmlShell(document))
    return { ...reading, warnings: ["plain text in an HTML shell: converted as text", ...reading.warnings] }
  }
  const head = document.slice(0, 1024)
  const withoutSubset = /<!DOCTYPE[^[>]*\[/i.test(head) ? document.replace(internalSubset, "$1") : document
  return finish(readHtml(withoutSubset))
}
