/**
 * Sections of filings: the labeled parts (`Item 1A. Risk Factors`, `Item 2.02 ...`) of one document,
 * and the same section across many documents.
 *
 * @module
 */
import { Schema } from "effect"
import { IsoDate } from "./Dates.js"
import { DocType } from "./DocType.js"
import { DocumentMetadata, LabeledSection, TickerList } from "./Document.js"
import { CommaSeparated, IntegerInRange, NonNegativeInteger, withoutNul } from "./QueryParams.js"

/** A section of one document; `name` carries the item number, `Item <n>. <name>`. */
export class Section extends Schema.Class<Section>("Section")({
  name: LabeledSection.fields.title,
  ...LabeledSection.pick("content", "wordCount", "pageStart", "pageEnd").fields
}, { identifier: "Section" }) {}

/**
 * The answer of `GET /v1/documents/{id}/sections`: the document's id, ticker, type and filing date,
 * and its sections in body order (only the one asked for when `section` is given).
 */
export class DocumentSections extends Schema.Class<DocumentSections>("DocumentSections")({
  ...DocumentMetadata.pick("publicationId", "ticker", "docType", "filingDate").fields,
  sections: Schema.Array(Section)
}, { identifier: "DocumentSections" }) {}

/**
 * The query of `GET /v1/documents/{id}/sections`: `section` picks one section by name
 * (`Risk Factors`) or item (`Item 1A`); absent, every section is returned.
 */
export const DocumentSectionsParams = Schema.Struct({
  section: Schema.optionalWith(Schema.NonEmptyTrimmedString.pipe(withoutNul), { exact: true })
})

/** One document's text of the requested section, in a cross-document search. */
export class SectionResult extends Schema.Class<SectionResult>("SectionResult")({
  ...DocumentMetadata.pick("publicationId", "ticker", "companyName", "docType", "filingDate", "period").fields,
  ...LabeledSection.pick("content", "wordCount").fields
}, { identifier: "SectionResult" }) {}

/**
 * A page of `GET /v1/sections`: `section` as asked, one result per document that has it, `total`
 * counting every match, and the `limit` and `offset` of this page.
 */
export class SectionResults extends Schema.Class<SectionResults>("SectionResults")({
  section: Schema.String,
  results: Schema.Array(SectionResult),
  total: Schema.Int,
  limit: Schema.Int,
  offset: Schema.Int
}) {}

/**
 * The query of `GET /v1/sections`: `tickers` and `section` (by name or item, both required),
 * `doc_types` (default `10-K,10-Q`), an inclusive filing-date range, `limit` (1 to 100, default 20)
 * and `offset` (default 0, an addition to the specification):
 * `?tickers=AAPL,MSFT&section=Risk%20Factors&start_date=2024-01-01`.
 */
export const SectionSearchParams = Schema.Struct({
  tickers: TickerList,
  section: Schema.NonEmptyTrimmedString.pipe(withoutNul),
  doc_types: Schema.optionalWith(CommaSeparated(DocType), { exact: true }),
  start_date: Schema.optionalWith(IsoDate, { exact: true }),
  end_date: Schema.optionalWith(IsoDate, { exact: true }),
  limit: Schema.optionalWith(IntegerInRange(1, 100), { exact: true }),
  offset: Schema.optionalWith(NonNegativeInteger, { exact: true })
})
