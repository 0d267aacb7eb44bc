/**
 * Documents as the API serves them: metadata for lists, the full document with its Markdown body,
 * labeled sections and exhibits, and the query parameters of the two document endpoints.
 */
import { Schema } from "effect"
import { IsoDate, Period } from "./Dates.js"
import { DocType } from "./DocType.js"
import { Cik, PublicationId, Ticker } from "./Ids.js"
import { BooleanFlag, CommaSeparated, IntegerInRange, NonNegativeInteger } from "./QueryParams.js"

/** A labeled part of a document body, as `format=sections` returns it. */
export class DocumentSection extends Schema.Class<DocumentSection>("DocumentSection")({
  title: Schema.String,
  content: Schema.String,
  page_start: Schema.Number
}) {}

/** An exhibit filed with a document (press release, contract, certification), as Markdown. */
export class DocumentExhibit extends Schema.Class<DocumentExhibit>("DocumentExhibit")({
  exhibit_number: Schema.String,
  title: Schema.String,
  content: Schema.String
}) {}

const metadataFields = {
  publication_id: PublicationId,
  ticker: Ticker,
  company_name: Schema.String,
  cik: Cik,
  doc_type: DocType,
  title: Schema.String,
  filing_date: IsoDate,
  period: Period,
  sec_url: Schema.String
}

/** One entry of a document list. */
export class DocumentListItem extends Schema.Class<DocumentListItem>("DocumentListItem")({
  ...metadataFields,
  url: Schema.String
}) {}

/** A single document. `body` is left out for `format=metadata`; `sections` and `exhibits` appear on request. */
export class Document extends Schema.Class<Document>("Document")({
  ...metadataFields,
  word_count: Schema.Number,
  body: Schema.optionalWith(Schema.String, { exact: true }),
  sections: Schema.optionalWith(Schema.Array(DocumentSection), { exact: true }),
  exhibits: Schema.optionalWith(Schema.Array(DocumentExhibit), { exact: true })
}) {}

/** One exhibit of a document, as `GET /v1/documents/{id}?exhibit=<number>` returns it. */
export class ExhibitDocument extends Schema.Class<ExhibitDocument>("ExhibitDocument")({
  publication_id: PublicationId,
  exhibit_number: Schema.String,
  title: Schema.String,
  content: Schema.String
}) {}

export class DocumentList extends Schema.Class<DocumentList>("DocumentList")({
  documents: Schema.Array(DocumentListItem),
  total: Schema.Int,
  limit: Schema.Int,
  offset: Schema.Int
}) {}

export const DocumentFormat = Schema.Literal("markdown", "sections", "metadata").annotations({
  message: (issue) => `must be one of markdown, sections, metadata; got ${JSON.stringify(issue.actual)}`
})
export type DocumentFormat = typeof DocumentFormat.Type

export const GetDocumentParams = Schema.Struct({
  format: Schema.optionalWith(DocumentFormat, { exact: true }),
  include_exhibits: Schema.optionalWith(BooleanFlag, { exact: true }),
  exhibit: Schema.optionalWith(Schema.NonEmptyTrimmedString, { exact: true })
})

export const DocumentSort = Schema.Literal("filing_date_desc", "filing_date_asc").annotations({
  message: (issue) => `must be filing_date_desc or filing_date_asc, got ${JSON.stringify(issue.actual)}`
})
export type DocumentSort = typeof DocumentSort.Type

/** At most this many tickers in one request. */
export const MaxTickersPerRequest = 50

export const TickerList = CommaSeparated(Ticker).pipe(
  Schema.maxItems(MaxTickersPerRequest, {
    message: () => `must name at most ${MaxTickersPerRequest} tickers`
  })
)

export const ListDocumentsParams = Schema.Struct({
  tickers: Schema.optionalWith(TickerList, { exact: true }),
  doc_types: Schema.optionalWith(CommaSeparated(DocType), { exact: true }),
  start_date: Schema.optionalWith(IsoDate, { exact: true }),
  end_date: Schema.optionalWith(IsoDate, { exact: true }),
  limit: Schema.optionalWith(IntegerInRange(1, 100), { exact: true }),
  offset: Schema.optionalWith(NonNegativeInteger, { exact: true }),
  sort: Schema.optionalWith(DocumentSort, { exact: true })
})
export type ListDocumentsParams = typeof ListDocumentsParams.Type

/** The relative API path of a document. */
export const documentPath = (publicationId: PublicationId): string => `/v1/documents/${publicationId}`
