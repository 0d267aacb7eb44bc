/**
 * The kinds of document the service holds. Filings keep the regulator's form names; transcripts,
 * news and press releases have names of our own.
 *
 * @module
 */
import { Schema } from "effect"
import { mustBeOneOf } from "./QueryParams.js"

/**
 * Document types of stored documents and of the document list filter: the filings, transcripts,
 * the press releases and investor presentations taken from 8-K exhibits, and news items from the
 * feeds the operator follows.
 */
export const DocumentTypes = [
  "10-K",
  "10-Q",
  "8-K",
  "S-1",
  "6-K",
  "20-F",
  "DEF 14A",
  "EARNINGS_CALL",
  "PRESS_RELEASE",
  "PRESENTATION",
  "NEWS"
] as const

/**
 * A document type, one of {@link DocumentTypes}: the form name for a filing (`10-K`, `DEF 14A`),
 * `EARNINGS_CALL` for a transcript, `PRESS_RELEASE` and `PRESENTATION` for 8-K exhibits stored as
 * documents, `NEWS` for a news item. Anything else is refused with a message listing the types.
 */
export const DocType = Schema.Literal(...DocumentTypes).annotations({
  identifier: "DocType",
  description: "Document type",
  message: mustBeOneOf(DocumentTypes)
})
export type DocType = typeof DocType.Type

/** Document types the feed accepts: the filings it summarises plus news, press releases and presentations. */
export const FeedDocumentTypes = [
  "10-K",
  "10-Q",
  "8-K",
  "EARNINGS_CALL",
  "NEWS",
  "PRESS_RELEASE",
  "PRESENTATION"
] as const

/**
 * A document type the feed filters by and writes on its items, one of {@link FeedDocumentTypes}:
 * S-1, 6-K, 20-F and DEF 14A have no feed items.
 */
export const FeedDocType = Schema.Literal(...FeedDocumentTypes).annotations({
  identifier: "FeedDocType",
  description: "Document type of a feed item",
  message: mustBeOneOf(FeedDocumentTypes)
})
export type FeedDocType = typeof FeedDocType.Type

/** Forms whose period is a fiscal year (`FY 2024`). */
export const isAnnualReport = (docType: DocType): boolean => docType === "10-K" || docType === "20-F"
