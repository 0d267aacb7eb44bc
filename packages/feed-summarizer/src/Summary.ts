/**
 * What a summary model reads and writes. The input is a document as its chunks (the parser's stable
 * `c0001`... passages); the output is the part of a feed item that comes from the text: highlights
 * citing those chunks, categories and sentiment, with the name of the model that made it.
 */
import type { DocType, Feed } from "@filings/domain"
import type { Block } from "@filings/filings-parser/Blocks"

/** One passage of the document: what a citation points at. */
export interface SummaryChunk {
  readonly id: string
  /** Markdown. */
  readonly text: string
  /** The section the chunk starts in (`Item 2.02 Results of Operations and Financial Condition`). */
  readonly section?: string | undefined
  /**
   * The chunk's blocks (the parsed document's `blocks` of its `blockRange`, or the blocks a store
   * kept): the sentences are read from its paragraph and list blocks; without them its Markdown is
   * read into blocks by the parser.
   */
  readonly blocks?: ReadonlyArray<Block> | undefined
}

/** A document as a summary model reads it: its id, type, title, company, 8-K items and chunks. */
export interface SummaryInput {
  /** The document's id (publication id, or a news item's id): the `source` of every citation. */
  readonly source: string
  readonly docType: DocType.FeedDocType
  readonly title?: string | undefined
  readonly companyName?: string | undefined
  /** An 8-K's items as the filing lists them: `["2.02", "9.01"]`. */
  readonly items?: ReadonlyArray<string> | undefined
  readonly chunks: ReadonlyArray<SummaryChunk>
}

/** What a model makes of a document: cited highlights, categories, sentiment, and the model's name. */
export interface Summary {
  readonly highlights: ReadonlyArray<Feed.Highlight>
  readonly categories: ReadonlyArray<Feed.Category>
  readonly sentiment: Feed.Sentiment
  /** Which model wrote it: `extractive` (the offline default) or the adapter's name and model. */
  readonly model: string
}
