/**
 * The feed item of a stored document: its summary (by the configured model, which falls back to
 * the extractive one and never fails) with the company, title, type and publication time, saved to
 * the feed store. Written whenever a document is stored, whichever way it came, so `POST /v1/feed`
 * only reads. Documents of a type the feed does not carry (S-1, 20-F, ...) get none.
 */
import { DocType } from "@filings/domain"
import { FeedSummarizer } from "@filings/feed-summarizer"
import { type DocumentStore, FeedStore } from "@filings/storage"
import { Effect, Schema } from "effect"

const isFeedDocType = Schema.is(DocType.FeedDocType)

/** `Item 2.02` as the summarizer wants it: `2.02`. */
const itemNumber = (item: string): string => item.replace(/^item\s+/i, "").trim()

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
  const outcome = yield* FeedSummarizer.summarize({
    source: document.publicationId,
    docType,
    title: document.title,
    companyName: document.companyName,
    items: items.map(itemNumber),
    chunks: document.chunks
  })
  if (outcome.fallbackReason !== undefined) {
    yield* Effect.logInfo(`feed item of ${document.publicationId} by the extractive model: ${outcome.fallbackReason}`)
  }
  const { summary } = outcome
  yield* feed.save({
    id: document.publicationId,
    ticker: document.ticker,
    companyName: document.companyName,
    title: document.title,
    docType,
    publishedAtMillis: Date.parse(publishedAt),
    categories: summary.categories,
    sentiment: summary.sentiment,
    // Filled once a market-data source is configured.
    stockChange: null,
    highlights: summary.highlights.map((highlight) => ({
      text: highlight.text,
      citations: highlight.citations.map((citation) => ({ source: citation.source, chunkId: citation.chunk_id }))
    })),
    model: summary.model
  })
  return true
})
