/**
 * @filings/extractor: the regulator's own numbers from filings.
 */
export * as CallAnnouncements from "./CallAnnouncements.js"
export * as Exhibits from "./Exhibits.js"
export * as Extractor from "./Extractor.js"
export * as Facts from "./Facts.js"
export * as Metrics from "./Metrics.js"
export * as MetricValue from "./MetricValue.js"
export { extractFacts, extractFiling, type ExtractFilingOptions } from "./promise.js"
export * as Signatures from "./Signatures.js"
export * as Tables from "./Tables.js"
