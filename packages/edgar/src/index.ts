/**
 * @filings/edgar: the regulator's EDGAR system, read within its fair-access rules: a declared
 * User-Agent, at most 10 requests a second across the process, backoff when told to slow down.
 */
export * as CompanyTickers from "./CompanyTickers.js"
export * as EdgarClient from "./EdgarClient.js"
export * as EdgarConfig from "./EdgarConfig.js"
export * as EdgarError from "./EdgarError.js"
export * as EdgarMetrics from "./EdgarMetrics.js"
export * as EdgarResponseError from "./EdgarResponseError.js"
export * as FairAccess from "./FairAccess.js"
export * as FilingIndex from "./FilingIndex.js"
export * as LatestFilings from "./LatestFilings.js"
export * as Submissions from "./Submissions.js"
