/**
 * The extractor for code that does not use Effect: `extractFiling` takes a filing's bytes (or its
 * text), parses it with `Parser.parse` unless given the parsed document, and resolves with what
 * `Extractor.extract` finds: metrics, classified tables, exhibit references, signatures and
 * warnings. It rejects with the parser's typed errors (`UnreadableDocument`, `MalformedSubmission`)
 * as the error instances themselves; extraction itself leaves out what it cannot read, with a warning.
 *
 * @example
 * ```ts
 * import { readFile } from "node:fs/promises"
 * import { extractFiling } from "@filings/extractor"
 *
 * const { metrics, warnings } = await extractFiling(await readFile("aapl-20240928.htm"))
 * console.log(metrics.revenue) // { value: 391035000000, unit: "USD", period: "FY 2024", source: "us-gaap:..." }
 * ```
 */
import { EffectPromise } from "@filings/domain"
import {
  type FilingInput,
  type ParsedDocument,
  type ParseFilingOptions,
  Parser,
  SgmlSubmission,
  toParseInput
} from "@filings/filings-parser"
import { Effect } from "effect"
import * as Extractor from "./Extractor.js"

/** What `extractFiling` takes besides the filing: `parseFiling`'s options, and what `Extractor.extract` wants. */
export interface ExtractFilingOptions extends ParseFilingOptions {
  /** What `Parser.parse` (or `parseFiling`) made of the same bytes: given, it is not parsed again. */
  readonly parsed?: ParsedDocument.ParsedDocument | undefined
  /**
   * The id the filing is published under, for exhibit URLs; the submission header's accession
   * number when absent. Without either, every exhibit's `url` is `null`.
   */
  readonly publicationId?: string | undefined
  /** What the filing says of itself when the bytes are one of its documents alone (see `Extractor.ExtractInput`). */
  readonly filing?: Extractor.ExtractInput["filing"]
}

/**
 * Extracts a filing's metrics, tables, exhibit references and signatures, as `Extractor.extract`
 * does. Rejects with `Parser.UnreadableDocument` or `SgmlSubmission.MalformedSubmission`
 * when the filing cannot be parsed.
 *
 * @example
 * ```ts
 * import { extractFiling } from "@filings/extractor"
 * import { parseFiling } from "@filings/filings-parser"
 *
 * const parsed = await parseFiling(bytes)
 * const { metrics, tables } = await extractFiling(bytes, { parsed }) // parsed once, used twice
 * ```
 */
export const extractFiling = (
  input: FilingInput,
  options: ExtractFilingOptions = {}
): Promise<Extractor.ExtractionOutput> => {
  const { filing, parsed: given, publicationId, ...parseOptions } = options
  const parseInput = toParseInput(input, parseOptions)
  return EffectPromise.run(
    Effect.gen(function*() {
      // A full submission is split once, for the parser and the extractor both.
      const submission = parseInput.submission ??
        (SgmlSubmission.looksLikeSubmission(parseInput.bytes)
          ? yield* SgmlSubmission.parseBytes(parseInput.bytes)
          : undefined)
      const parsed = given ?? (yield* Parser.parse({ ...parseInput, submission }))
      return yield* Extractor.extract({
        bytes: parseInput.bytes,
        parsed,
        publicationId: publicationId ?? submission?.header.accessionNumber ?? parsed.header?.accessionNumber,
        ...(submission === undefined ? {} : { submission }),
        ...(filing === undefined ? {} : { filing })
      })
    }),
    options
  )
}
