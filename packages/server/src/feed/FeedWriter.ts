/**
 * The feed item of a stored document: its summary (by the configured model, which falls back to
 * the extractive one and never fails) with the company, title, type, publication time and the
 * stock's move that day (when a market-data source is configured), saved to the feed store. Written whenever a document is stored, whichever way it came, so `POST /v1/feed`
 * only reads. Documents of a type the feed does not carry (S-1, 20-F, ...) get none.
 */
import { DocType } from "@filings/domain"
import { FeedSummarizer } from "@filings/feed-summarizer"
import { type DocumentStore, FeedStore } from "@filings/storage"
import { Effect, Schema } from "effect"
import * as MarketData from "../market/MarketData.js"

/** `Item 2.02` as the summarizer wants it: `2.02`. */
const itemNumber = (item: string): string => item.replace(/^item\s+/i, "").trim()

/** What a summary is made from: the document's identity, its 8-K items (`Item 2.02`) and its chunks. */
export interface SummarySource {
  readonly publicationId: string
  readonly docType: DocType.FeedDocType
  readonly title: string
  readonly companyName: string
  readonly items: ReadonlyArray<string>
  readonly chunks: ReadonlyArray<DocumentStore.StoredChunk>
}

/** Summarises a document with the configured model; never fails. */
export const summarizeDocument = (source: SummarySource) =>
  FeedSummarizer.summarize({
    source: source.publicationId,
    docType: source.docType,
    title: source.title,
    companyName: source.companyName,
    items: source.items.map(itemNumber),
    chunks: source.chunks
  })

/** Whether the feed carries documents of this type. */
export const isFeedDocType = Schema.is(DocType.FeedDocType)

/**
 * Summarises `document` into its feed item and saves it; answers whether it has one. A press
 * release gives the items of the 8-K it came with (`items`): they say what the release is about.
 */
export const writeFeedItem = Effect.fn("FeedWriter.writeFeedItem")(function*(
  document: DocumentStore.StoredDocument,
  publishedAt: string,
  items: ReadonlyArray<string> = document.items
) {
  const docType = document.docType
  if (!isFeedDocType(docType)) return false
  const feed = yield* FeedStore.FeedStore
  const outcome = yield* summarizeDocument({ ...document, docType, items })
  if (outcome.fallbackReason !== undefined) {
    yield* Effect.logInfo(`feed item of ${document.publicationId} by the extractive model: ${outcome.fallbackReason}`)
  }
  const { summary } = outcome
  const publishedAtMillis = Date.parse(publishedAt)
  const stockChange = yield* MarketData.stockChangeFor(document.ticker, publishedAtMillis)
  yield* feed.save({
    id: document.publicationId,
    ticker: document.ticker,
    companyName: document.companyName,
    title: document.title,
    docType,
    publishedAtMillis,
    categories: summary.categories,
    sentiment: summary.sentiment,
    stockChange,
    highlights: summary.highlights.map((highlight) => ({
      text: highlight.text,
      citations: highlight.citations.map((citation) => ({ source: citation.source, chunkId: citation.chunk_id }))
    })),
    model: summary.model
  })
  return true
})
