/**
 * @filings/extractor: the regulator's own numbers from filings.
 */
export * as Extraction from "./Extraction.js"
