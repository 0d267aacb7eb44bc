/**
 * @filings/filings-parser: EDGAR documents and full submissions to clean Markdown.
 */
export * as Blocks from "./Blocks.js"
export * as FiscalPeriod from "./FiscalPeriod.js"
export * as ParsedDocument from "./ParsedDocument.js"
export * as Parser from "./Parser.js"
export { type FilingInput, parseFiling, type ParseFilingOptions, toParseInput } from "./promise.js"
export * as SectionQuery from "./SectionQuery.js"
export * as SgmlSubmission from "./SgmlSubmission.js"
export * as XbrlFacts from "./XbrlFacts.js"
export * as XbrlLinkbases from "./XbrlLinkbases.js"
