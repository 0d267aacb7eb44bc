/**
 * The XBRL facts of a filing, as the filer tagged them: contexts, units, numeric and text facts, and
 * the warnings met while reading. One reader serves inline XBRL (`ix:nonFraction`, `ix:nonNumeric`
 * in an HTML document) and XBRL instance documents alike, in one SAX pass (htmlparser2 callbacks, no
 * DOM). The parser reads its cover facts (the `dei:` facts) with it, `factAt` reading each where it
 * stands without passing over the whole document, and the HTML reader feeds it the events of its
 * own pass (`ParsedDocument.inlineXbrl`), which the extractor's metrics and facts read; `readFacts`
 * reads a document or an instance on its own.
 *
 * @example
 * ```ts
 * import { XbrlFacts } from "@filings/filings-parser"
 *
 * const { numericFacts, contexts } = XbrlFacts.readFacts(html, "inline")
 * numericFacts.find((fact) => fact.concept === "us-gaap:Revenues")?.value // 391035000000
 * ```
 *
 * @module
 */
import { Parser } from "htmlparser2"
import { factReader, type ReaderMode, undecided } from "./internal/xbrl/factReader.js"
import type { FactSet, NumericFact, TextFact } from "./internal/xbrl/factSet.js"

/**
 * The value a text fact's displayed text stands for under its inline XBRL transformation (`format`):
 * an ISO date for `ixt:date-monthname-day-year-en`, `true`/`false` for `ixt-sec:boolballotbox` and the
 * fixed values, an ISO 8601 duration for `ixt-sec:duryear` and `durwordsen`, the dei code for
 * `ixt-sec:exchnameen` and `stateprovnameen`; `undefined` for another format or a text that does not fit.
 *
 * @example
 * ```ts
 * XbrlFacts.applyTextFormat("ixt:date-monthname-day-year-en", "July 1, 2023") // "2023-07-01"
 * ```
 */
export { applyTextFormat } from "./internal/textFormats.js"

export type { FactSet, NumericFact, TextFact, XbrlContext, XbrlUnit } from "./internal/xbrl/factSet.js"
/**
 * Normalises a displayed number by an ixt transform into a plain decimal string (`-` never included:
 * the sign comes from the `sign` attribute), or `undefined` when the transform is unknown or the text
 * does not fit it.
 */
export { applyNumberFormat } from "./internal/xbrl/factReader.js"

/** How the reader finds facts: inline (`ix:nonFraction`, `ix:nonNumeric`) or instance (any element with a contextRef). */
export type { ReaderMode } from "./internal/xbrl/factReader.js"

/** Whether an HTML document holds inline XBRL (an `ix:header` or a tagged fact). */
export { holdsInlineXbrl } from "./internal/xbrl/factReader.js"

/** How `readFacts` reads text facts. */
export interface ReadOptions {
  /**
   * Whether a text fact's `ix:continuation`s are appended to its text (the default). A reader of
   * the cover's short facts alone (the metrics) leaves them out: a 10-K's notes continue over
   * pages, and their whole text triples what is read.
   */
  readonly continuations?: boolean | undefined
}

/** Reads contexts, units and facts from an inline XBRL document or an XBRL instance in one pass. */
export const readFacts = (source: string, mode: ReaderMode, options: ReadOptions = {}): FactSet =>
  readFast(source, mode, false, options.continuations ?? true)

const inlineFactTag = /^<ix:non(?:Fraction|Numeric)\b/i

/**
 * The inline fact (`ix:nonFraction` or `ix:nonNumeric`) whose opening tag starts at `start` in
 * `html`, read from there to its end and no further; `undefined` when no fact starts there or it
 * never ends.
 *
 * @example
 * ```ts
 * const start = html.search(/<ix:nonNumeric[^>]*name="dei:DocumentType"/)
 * XbrlFacts.factAt(html, start) // { concept: "dei:DocumentType", contextRef: "c-1", text: "10-K" }
 * ```
 */
export const factAt = (html: string, start: number): NumericFact | TextFact | undefined => {
  if (!inlineFactTag.test(html.slice(start, start + 20))) return undefined
  const { numericFacts, textFacts } = readFast(html.slice(start), "inline", true, false)
  return numericFacts[0] ?? textFacts[0]
}

const readFast = (source: string, mode: ReaderMode, firstFactOnly: boolean, continuations: boolean): FactSet => {
  if (mode === "inline") {
    // Decoding entities in htmlparser2 costs half its time on a 10-K: decode only the text and attributes
    // read, and read again the usual way when one of them is uncertain.
    try {
      return readFactsIn(source, mode, { decodeEntities: false, firstFactOnly, continuations })
    } catch (error) {
      if (error !== undecided) throw error
    }
  }
  return readFactsIn(source, mode, { decodeEntities: true, firstFactOnly, continuations })
}

const readFactsIn = (
  source: string,
  mode: ReaderMode,
  options: { readonly decodeEntities: boolean; readonly firstFactOnly: boolean; readonly continuations: boolean }
): FactSet => {
  // Reading one fact, the parser is paused once it ends (not thrown out of: an exception through
  // htmlparser2's loop costs every later parse).
  const reader = factReader(mode, options, () => parser.pause())
  const parser = new Parser(
    reader.handler,
    mode === "inline"
      ? {
        xmlMode: false,
        lowerCaseTags: false,
        lowerCaseAttributeNames: false,
        recognizeSelfClosing: true,
        decodeEntities: options.decodeEntities
      }
      : { xmlMode: true }
  )
  parser.end(source)
  return reader.finish()
}
