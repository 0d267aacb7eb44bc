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
import { CommaSeparated, IntegerInRange, NonNegativeInteger } from "./QueryParams.js"

/** A section of one document; `name` carries the item number, `Item <n>. <name>`. */
export class Section extends Schema.Class<Section>("Section")({
  name: LabeledSection.fields.title,
  ...LabeledSection.pick("content", "wordCount", "pageStart", "pageEnd").fields
}, { identifier: "Section" }) {}

export class DocumentSections extends Schema.Class<DocumentSections>("DocumentSections")({
  ...DocumentMetadata.pick("publicationId", "ticker", "docType", "filingDate").fields,
  sections: Schema.Array(Section)
}, { identifier: "DocumentSections" }) {}

export const DocumentSectionsParams = Schema.Struct({
  section: Schema.optionalWith(Schema.NonEmptyTrimmedString, { exact: true })
})

/** One document's text of the requested section, in a cross-document search. */
export class SectionResult extends Schema.Class<SectionResult>("SectionResult")({
  ...DocumentMetadata.pick("publicationId", "ticker", "companyName", "docType", "filingDate", "period").fields,
  ...LabeledSection.pick("content", "wordCount").fields
}, { identifier: "SectionResult" }) {}

export class SectionResults extends Schema.Class<SectionResults>("SectionResults")({
  section: Schema.String,
  results: Schema.Array(SectionResult),
  total: Schema.Int,
  limit: Schema.Int,
  offset: Schema.Int
}) {}

export const SectionSearchParams = Schema.Struct({
  tickers: TickerList,
  section: Schema.NonEmptyTrimmedString,
  doc_types: Schema.optionalWith(CommaSeparated(DocType), { exact: true }),
  start_date: Schema.optionalWith(IsoDate, { exact: true }),
  end_date: Schema.optionalWith(IsoDate, { exact: true }),
  limit: Schema.optionalWith(IntegerInRange(1, 100), { exact: true }),
  offset: Schema.optionalWith(NonNegativeInteger, { exact: true })
})
