/**
 * @filings/domain: the schemas, ids and HTTP API definition shared by every Filings package.
 */
export * as Admin from "./Admin.js"
export * as Api from "./Api.js"
export * as ApiError from "./ApiError.js"
export * as Company from "./Company.js"
export * as Dates from "./Dates.js"
export * as DocType from "./DocType.js"
export * as Document from "./Document.js"
export * as EffectPromise from "./EffectPromise.js"
export * as Events from "./Events.js"
export * as Extracted from "./Extracted.js"
export * as Extraction from "./Extraction.js"
export * as Feed from "./Feed.js"
export * as Ids from "./Ids.js"
export * as QueryParams from "./QueryParams.js"
export * as Sections from "./Sections.js"
export * as Webhooks from "./Webhooks.js"
