/**
 * The feed item of a stored document: its summary with the company, title, type, publication time
 * and the stock's move that day (when a market-data source is configured), saved to the feed store.
 * Written whenever a document is stored, whichever way it came, so `POST /v1/feed` only reads.
 * Documents of a type the feed does not carry (S-1, 20-F, ...) get none.
 *
 * The item is written at once by the offline extractive model, which takes milliseconds. When a
 * language model is configured, a job of the `summaries` queue then asks it (`SummaryJobs`) and
 * replaces the item with its answer, so a slow or unavailable model never holds up ingestion.
 */
import { DocType, Ids } from "@filings/domain"
import { Citations, ExtractiveModel, FeedSummarizer, SummaryModel } from "@filings/feed-summarizer"
import { type DocumentStore, FeedStore, JobQueue } from "@filings/storage"
import { Effect, Option, Schema } from "effect"
import { createHash } from "node:crypto"
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

/** The queue of the jobs that ask the configured language model for a document's summary. */
export const SummaryQueue = "summaries"

/**
 * What a summary job names: the document, the version of it that was stored (a hash of its body),
 * and the 8-K items its summary reads it by.
 */
export const SummaryJob = Schema.Struct({
  publicationId: Ids.PublicationId,
  version: Schema.String,
  items: Schema.Array(Schema.String)
})

/** A document's version: 16 hex digits of a hash of its body. */
export const versionOf = (body: string): string => createHash("sha256").update(body).digest("hex").slice(0, 16)

/** The feed store's item of `document` with `summary`, published at `publishedAtMillis`. */
export const feedItemOf = (
  document: DocumentStore.DocumentMetadata & { readonly docType: DocType.FeedDocType },
  summary: FeedSummarizer.SummaryOutcome["summary"],
  publishedAtMillis: number,
  stockChange: FeedStore.StoredFeedItem["stockChange"]
): FeedStore.StoredFeedItem => ({
  id: document.publicationId,
  ticker: document.ticker,
  companyName: document.companyName,
  title: document.title,
  docType: document.docType,
  publishedAtMillis,
  categories: summary.categories,
  sentiment: summary.sentiment,
  stockChange,
  highlights: summary.highlights,
  model: summary.model
})

/**
 * The summary a stored item holds, when the configured model wrote it and `source` still supports
 * it: every citation names a chunk there that states the highlight's figures. Such a summary
 * stands when its document is stored again unchanged, rather than going back to the extractive one.
 */
export const standingModelSummary = (
  stored: Option.Option<FeedStore.StoredFeedItem>,
  modelName: string,
  source: SummarySource
): FeedSummarizer.SummaryOutcome["summary"] | undefined => {
  if (Option.isNone(stored) || stored.value.model !== modelName) return undefined
  const summary = {
    highlights: stored.value.highlights,
    categories: stored.value.categories,
    sentiment: stored.value.sentiment,
    model: stored.value.model
  }
  const checked = Citations.checkCitations(summary, {
    source: source.publicationId,
    docType: source.docType,
    chunks: source.chunks
  })
  return checked.corrections.length === 0 ? summary : undefined
}

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
  const model = yield* SummaryModel.SummaryModel
  const source: SummarySource = { ...document, docType, items }
  const byModel = model.name === ExtractiveModel.ModelName
    ? undefined
    : standingModelSummary(yield* feed.findById(document.publicationId), model.name, source)
  const summary = byModel ?? (yield* summarizeDocument(source).pipe(
    Effect.provideService(SummaryModel.SummaryModel, SummaryModel.extractive)
  )).summary
  const publishedAtMillis = Date.parse(publishedAt)
  const stockChange = yield* MarketData.stockChangeFor(document.ticker, publishedAtMillis)
  yield* feed.save(feedItemOf({ ...document, docType }, summary, publishedAtMillis, stockChange))
  if (model.name !== ExtractiveModel.ModelName) {
    // Every time: the job itself asks the model nothing when the item is already the model's and
    // the document still supports it, so a retried ingestion costs no second answer, while a
    // document stored again after its job gave up, or after the model changed, gets one.
    const queue = yield* JobQueue.JobQueue
    yield* queue.enqueue(
      SummaryQueue,
      SummaryJob.make({ publicationId: document.publicationId, version: versionOf(document.body), items: [...items] })
    )
  }
  return true
})
