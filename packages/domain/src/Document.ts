/**
 * Documents as the API serves them: metadata for lists, the full document with its Markdown body,
 * labeled sections and exhibits, and the query parameters of the two document endpoints.
 *
 * @module
 */
import { Schema } from "effect"
import { Block, BlockRange } from "./Blocks.js"
import { IsoDate, Period } from "./Dates.js"
import { DocType } from "./DocType.js"
import { Cik, PublicationId, Ticker } from "./Ids.js"
import { BooleanFlag, CommaSeparated, IntegerInRange, NonNegativeInteger, OneOf } from "./QueryParams.js"

/**
 * A labeled part of a document body, as the parser finds it (its `Section` is this and a block
 * range) and the stores keep it.
 */
export const LabeledSection = Schema.Struct({
  /** The section's name in the API's form: `Item <n>. <Title>` for items, the heading text otherwise. */
  title: Schema.String,
  /**
   * The item key when the section is an item of its form: `1A` (10-K), `2.02` (8-K), `part1item2` and
   * `part2item1a` (10-Q, whose item numbers repeat across parts), `5` (20-F). Not served.
   */
  item: Schema.optional(Schema.String),
  /** The section's Markdown, its own heading line included. */
  content: Schema.String,
  wordCount: Schema.Number.pipe(Schema.propertySignature, Schema.fromKey("word_count")),
  pageStart: Schema.Number.pipe(Schema.propertySignature, Schema.fromKey("page_start")),
  pageEnd: Schema.Number.pipe(Schema.propertySignature, Schema.fromKey("page_end")),
  /**
   * Where the section lies in the document's blocks, which its chunks' `blocks` are, in order (see
   * `sectionBlocks`). Absent on sections stored before blocks were kept. Not served.
   */
  blockRange: Schema.optional(BlockRange).pipe(Schema.fromKey("block_range"))
})
export type LabeledSection = typeof LabeledSection.Type

/** A labeled part of a document body, as `format=sections` returns it. */
export class DocumentSection extends Schema.Class<DocumentSection>("DocumentSection")(
  LabeledSection.pick("title", "content", "pageStart"),
  { identifier: "DocumentSection" }
) {}

/**
 * A passage of a document's body that a feed citation or a search result names: a few hundred words
 * at block boundaries, with ids `c0001`, `c0002`, ... in body order, and the physical pages it lies
 * on. The parser's chunks are this with their word count and block range; the stores keep this.
 */
export const Chunk = Schema.Struct({
  id: Schema.String,
  /** The chunk's Markdown; the chunks of a document joined with "\n" give its body. */
  text: Schema.String,
  /** The `title` of the section the chunk starts in, when the document has sections. */
  section: Schema.optional(Schema.String),
  /**
   * The first physical page the chunk lies on, 1-based: a PDF's page index or the count of an HTML
   * filing's page breaks, not the number printed in a footer.
   */
  pageStart: LabeledSection.fields.pageStart,
  /** The last physical page the chunk lies on, 1-based. */
  pageEnd: LabeledSection.fields.pageEnd,
  /**
   * The chunk's blocks, as the parser read them, `text` being them rendered: what code reads (a
   * table's rows with its header rows, a paragraph's inline nodes) instead of parsing `text`. The
   * chunks of a document, in order, hold its blocks once each. Absent on chunks stored before
   * blocks were kept: the parser's `Blocks.fromMarkdown(text)` reads those back. Not served.
   */
  blocks: Schema.optional(Schema.Array(Block))
})
export type Chunk = typeof Chunk.Type

/**
 * The blocks of `section`, from the document's `chunks` (whose blocks are the document's, in
 * order); undefined when the section's range or a chunk's blocks were not kept (documents stored
 * before blocks were), which callers read from the section's Markdown instead.
 */
export const sectionBlocks = (
  chunks: ReadonlyArray<Chunk>,
  section: LabeledSection
): ReadonlyArray<Block> | undefined => {
  const range = section.blockRange
  if (range === undefined) return undefined
  const blocks: Array<Block> = []
  let first = 0
  for (const chunk of chunks) {
    if (chunk.blocks === undefined) return undefined
    const end = first + chunk.blocks.length
    if (end > range.start && first < range.end) {
      blocks.push(...chunk.blocks.slice(Math.max(0, range.start - first), range.end - first))
    }
    if (end >= range.end) break
    first = end
  }
  return blocks.length === range.end - range.start ? blocks : undefined
}

/**
 * An exhibit filed with a document (press release, contract, certification), with its Markdown, as
 * the parser finds it (its `ParsedExhibit` is this and the exhibit's blocks) and the stores keep it.
 */
export const Exhibit = Schema.Struct({
  /** The number the submission files it under: `99.1`, `10.2`, `31.1`. */
  exhibitNumber: Schema.String.pipe(Schema.propertySignature, Schema.fromKey("exhibit_number")),
  /** The submission's description of the exhibit, or its type. */
  title: Schema.String,
  /** The exhibit's document as Markdown. */
  content: Schema.String
})
export type Exhibit = typeof Exhibit.Type

/** An exhibit as the API serves it inside a document. */
export class DocumentExhibit extends Schema.Class<DocumentExhibit>("DocumentExhibit")(Exhibit, {
  identifier: "DocumentExhibit"
}) {}

/**
 * What is known of a stored document without its body, declared once: the type side is the
 * camelCase value the stores keep, the encoded side the API's snake_case fields (`publication_id`).
 *
 * @example
 * import { Document } from "@filings/domain"
 * import { Schema } from "effect"
 *
 * // A document list item's fields, as the API writes them:
 * Schema.encodeSync(Document.DocumentMetadata.pick("publicationId", "companyName"))({
 *   publicationId: "0000320193-24-000123",
 *   companyName: "Apple Inc."
 * }) // { publication_id: "0000320193-24-000123", company_name: "Apple Inc." }
 */
export const DocumentMetadata = Schema.Struct({
  publicationId: PublicationId.pipe(Schema.propertySignature, Schema.fromKey("publication_id")),
  ticker: Ticker,
  companyName: Schema.String.pipe(Schema.propertySignature, Schema.fromKey("company_name")),
  cik: Cik,
  docType: DocType.pipe(Schema.propertySignature, Schema.fromKey("doc_type")),
  title: Schema.String,
  filingDate: IsoDate.pipe(Schema.propertySignature, Schema.fromKey("filing_date")),
  period: Period,
  secUrl: Schema.String.pipe(Schema.propertySignature, Schema.fromKey("sec_url")),
  wordCount: Schema.Number.pipe(Schema.propertySignature, Schema.fromKey("word_count")),
  /** Items an 8-K reports, `Item 2.02` style; empty for other forms. Not served. */
  items: Schema.Array(Schema.String)
})
export type DocumentMetadata = typeof DocumentMetadata.Type

/** One entry of a document list. */
export class DocumentListItem extends Schema.Class<DocumentListItem>("DocumentListItem")({
  ...DocumentMetadata.omit("wordCount", "items").fields,
  url: Schema.String
}, { identifier: "DocumentListItem" }) {}

/** A single document. `body` is left out for `format=metadata`; `sections` and `exhibits` appear on request. */
export class Document extends Schema.Class<Document>("Document")({
  ...DocumentMetadata.omit("items").fields,
  body: Schema.optionalWith(Schema.String, { exact: true }),
  sections: Schema.optionalWith(Schema.Array(DocumentSection), { exact: true }),
  exhibits: Schema.optionalWith(Schema.Array(DocumentExhibit), { exact: true })
}, { identifier: "Document" }) {}

/** One exhibit of a document, as `GET /v1/documents/{id}?exhibit=<number>` returns it. */
export class ExhibitDocument extends Schema.Class<ExhibitDocument>("ExhibitDocument")({
  publicationId: DocumentMetadata.fields.publicationId,
  ...Exhibit.fields
}, { identifier: "ExhibitDocument" }) {}

/**
 * A page of `GET /v1/documents`: `total` counts every match, `limit` and `offset` are those the
 * page was read with. Page on by adding `limit` to `offset` until `offset + limit >= total`.
 */
export class DocumentList extends Schema.Class<DocumentList>("DocumentList")({
  documents: Schema.Array(DocumentListItem),
  total: Schema.Int,
  limit: Schema.Int,
  offset: Schema.Int
}) {}

/**
 * What `GET /v1/documents/{id}` returns of the document: `markdown` (the default) the whole body,
 * `sections` its labeled sections, `metadata` neither.
 */
export const DocumentFormat = OneOf("markdown", "sections", "metadata")
export type DocumentFormat = typeof DocumentFormat.Type

/**
 * The query of `GET /v1/documents/{id}`: `format` (see {@link DocumentFormat}), `include_exhibits`
 * (`true` adds every exhibit; absent means `false`), and `exhibit`, an exhibit number (`99.1`) to
 * return that exhibit alone instead of the document.
 */
export const GetDocumentParams = Schema.Struct({
  format: Schema.optionalWith(DocumentFormat, { exact: true }),
  include_exhibits: Schema.optionalWith(BooleanFlag, { exact: true }),
  exhibit: Schema.optionalWith(Schema.NonEmptyTrimmedString, { exact: true })
})

/** The order of a document list by filing date: newest first (`filing_date_desc`, the default) or oldest first. */
export const DocumentSort = OneOf("filing_date_desc", "filing_date_asc")
export type DocumentSort = typeof DocumentSort.Type

/** At most this many tickers in one request. */
export const MaxTickersPerRequest = 50

/**
 * Tickers in a query string, comma-separated (`AAPL,MSFT`): each a valid ticker, at most
 * {@link MaxTickersPerRequest} of them.
 */
export const TickerList = CommaSeparated(Ticker).pipe(
  Schema.maxItems(MaxTickersPerRequest, {
    message: () => `must name at most ${MaxTickersPerRequest} tickers`
  })
)

/**
 * The query of `GET /v1/documents`. Every filter is optional, but the server needs at least one of
 * `tickers`, `doc_types`, `start_date` and `end_date`; the dates are inclusive filing dates.
 * `limit` is 1 to 100 (default 50), `offset` the number of documents to skip (default 0).
 */
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
