/**
 * The parser for code that does not use Effect: `parseFiling` is `Parser.parse` behind a Promise.
 * It rejects with the same typed errors the Effect API fails with (`UnreadableDocument`,
 * `MalformedSubmission`), as the error instances themselves, so `instanceof` and `_tag` work.
 *
 * @example
 * ```ts
 * import { parseFiling, Parser } from "@filings/filings-parser"
 *
 * try {
 *   const parsed = await parseFiling(bytes, { fileName: "aapl-20240928.htm" })
 *   console.log(parsed.form, parsed.sections.map((section) => section.title))
 * } catch (error) {
 *   if (error instanceof Parser.UnreadableDocument) console.error(error.reason, error.detail)
 *   else throw error
 * }
 * ```
 */
import * as EffectPromise from "./EffectPromise.js"
import type { ParsedDocument } from "./ParsedDocument.js"
import * as Parser from "./Parser.js"

/** A document as bytes (any charset, a PDF, a full submission) or as text already decoded. */
export type FilingInput = Uint8Array | string

/** What `parseFiling` takes besides the document: `Parser.ParseInput` without its bytes. */
export interface ParseFilingOptions extends Omit<Parser.ParseInput, "bytes"> {
  /** Stops the parse; the promise then rejects with the signal's reason. */
  readonly signal?: AbortSignal | undefined
}

const charsetParameter = /;\s*charset\s*=\s*["']?[\w.:-]+["']?/i

/**
 * The content type of text handed over as a string: whatever charset the document declares inside
 * (`<meta charset="windows-1252">`), its characters are decoded already and are passed on as UTF-8.
 */
const utf8ContentType = (text: string, contentType: string | undefined): string => {
  if (contentType === undefined) return /^\s*</.test(text) ? "text/html; charset=utf-8" : "text/plain; charset=utf-8"
  return charsetParameter.test(contentType)
    ? contentType.replace(charsetParameter, "; charset=utf-8")
    : `${contentType}; charset=utf-8`
}

/**
 * The `Parser.ParseInput` for a document given as bytes or as a string, with the options of
 * `parseFiling`: a string is encoded as UTF-8 and its content type says so.
 *
 * @example
 * ```ts
 * const input = toParseInput("<p>Item 2.02 Results of Operations</p>", { form: "8-K" })
 * // input.bytes: the UTF-8 bytes; input.contentType: "text/html; charset=utf-8"
 * ```
 */
export const toParseInput = (input: FilingInput, options: ParseFilingOptions = {}): Parser.ParseInput => {
  const { signal: _signal, ...parseOptions } = options
  if (typeof input !== "string") return { ...parseOptions, bytes: input }
  return {
    ...parseOptions,
    bytes: new TextEncoder().encode(input),
    contentType: utf8ContentType(input, options.contentType)
  }
}

/**
 * Parses a document into a `ParsedDocument`: Markdown, sections, chunks, exhibits, header and cover
 * facts, as `Parser.parse` does. Rejects with `Parser.UnreadableDocument` (empty, binary,
 * unsupported, too complex) or `SgmlSubmission.MalformedSubmission`.
 *
 * @example
 * ```ts
 * import { readFile } from "node:fs/promises"
 * import { parseFiling } from "@filings/filings-parser"
 *
 * const parsed = await parseFiling(await readFile("0000320193-24-000123.txt"))
 * const riskFactors = parsed.sections.find((section) => section.item === "1A")
 * ```
 */
export const parseFiling = (input: FilingInput, options: ParseFilingOptions = {}): Promise<ParsedDocument> =>
  EffectPromise.run(Parser.parse(toParseInput(input, options)), options)
