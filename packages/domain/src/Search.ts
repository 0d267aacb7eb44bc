/**
 * Full-text search over every stored passage: `GET /v1/search`. Each result cites one passage
 * (`publication_id`, `chunk_id`) that `GET /v1/documents/{id}/chunks/{chunk_id}` returns, with the
 * physical pages it lies on and a snippet of its best sentences.
 *
 * @module
 */
import { Schema } from "effect"
import { IsoDate } from "./Dates.js"
import { DocType } from "./DocType.js"
import { Chunk, DocumentMetadata, TickerList } from "./Document.js"
import { CommaSeparated, IntegerInRange, NonNegativeInteger, withoutNul } from "./QueryParams.js"

/** The longest `q` read, in characters. */
export const MaxQueryLength = 2_000

/**
 * The query of `GET /v1/search`: `q` (required: words, `"quoted phrases"` a passage must hold,
 * `-excluded` words or phrases, `OR` between two), the filters `tickers`, `doc_types`, `start_date`
 * and `end_date` (inclusive filing dates) and `section` (a name, item or alias, as `/v1/sections`
 * takes it), `limit` (1 to 100, default 10) and `offset` (default 0):
 * `?q=capital%20expenditure%202018&tickers=MMM`.
 */
export const SearchParams = Schema.Struct({
  q: Schema.String.pipe(
    Schema.maxLength(MaxQueryLength, {
      message: (issue) => `must be at most ${MaxQueryLength} characters, got ${String(issue.actual).length}`
    })
  ),
  tickers: Schema.optionalWith(TickerList, { exact: true }),
  doc_types: Schema.optionalWith(CommaSeparated(DocType), { exact: true }),
  start_date: Schema.optionalWith(IsoDate, { exact: true }),
  end_date: Schema.optionalWith(IsoDate, { exact: true }),
  section: Schema.optionalWith(Schema.NonEmptyTrimmedString.pipe(withoutNul), { exact: true }),
  limit: Schema.optionalWith(IntegerInRange(1, 100), { exact: true }),
  offset: Schema.optionalWith(NonNegativeInteger, { exact: true })
})
export type SearchParams = typeof SearchParams.Type

/** One passage found: its document, where it lies, its score and a snippet with the matched words marked. */
export class SearchResult extends Schema.Class<SearchResult>("SearchResult")({
  publicationId: DocumentMetadata.fields.publicationId,
  chunkId: Chunk.fields.id.pipe(Schema.propertySignature, Schema.fromKey("chunk_id")),
  ...DocumentMetadata.pick("ticker", "companyName", "docType", "title", "filingDate", "period").fields,
  /** The section the passage starts in; null when the document has no sections. */
  section: Schema.NullOr(Schema.String),
  ...Chunk.pick("pageStart", "pageEnd").fields,
  /** How well the passage answers the query (BM25); only the order of one answer's results means anything. */
  score: Schema.Number,
  /** The passage's best few sentences, as plain text, with the words that matched marked `**like this**`. */
  snippet: Schema.String
}, { identifier: "SearchResult" }) {}

/**
 * A page of `GET /v1/search`: results best first, `total` counting the matching passages, and the
 * page asked for. At most the newest 10,000 matches are ranked, so `total` is at most 10,000.
 */
export class SearchResults extends Schema.Class<SearchResults>("SearchResults")({
  results: Schema.Array(SearchResult),
  total: Schema.Int.annotations({
    description: "How many passages match, counting at most the newest 10,000 (the ones ranked); pages end there"
  }),
  limit: Schema.Int,
  offset: Schema.Int
}, { identifier: "SearchResults" }) {}
