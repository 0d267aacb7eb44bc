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
import { type FilingInput, type ParseFilingOptions, toParseInput } from "@filings/filings-parser"
import * as EffectPromise from "@filings/filings-parser/EffectPromise"
import * as Extractor from "./Extractor.js"
import * as Facts from "./Facts.js"

/** What `extractFiling` takes besides the filing: `parseFiling`'s options, and what `Extractor.extract` wants. */
export interface ExtractFilingOptions
  extends ParseFilingOptions, Pick<Extractor.ParseAndExtractInput, "parsed" | "publicationId" | "filing">
{}

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
  const { filing, parsed, publicationId, ...parseOptions } = options
  return EffectPromise.run(
    Extractor.parseAndExtract({ ...toParseInput(input, parseOptions), parsed, publicationId, filing }),
    options
  )
}

/**
 * Every fact a filing tags, as `Facts.facts` reads them: concept, the company's label, value, unit,
 * precision, period and dimensions. A filing without XBRL resolves with no facts and a warning.
 *
 * @example
 * ```ts
 * import { readFile } from "node:fs/promises"
 * import { extractFacts } from "@filings/extractor"
 *
 * const { facts } = await extractFacts(await readFile("aapl-20240928.htm"))
 * facts.filter((fact) => fact.concept === "us-gaap:EarningsPerShareDiluted")
 * ```
 */
export const extractFacts = (
  input: FilingInput,
  options: { readonly signal?: AbortSignal | undefined } = {}
): Promise<Facts.FactsOutput> => EffectPromise.run(Facts.facts({ bytes: toParseInput(input).bytes }), options)
