/**
 * The workers that ask the configured language model for the summaries the feed first wrote with
 * the extractive model (see `FeedWriter`). A job names a stored document and the version of it that
 * was stored; its worker asks the model (within `FeedSummarizer`'s time limit, its answer checked
 * against the document's chunks) and replaces the item's highlights, categories, sentiment and
 * model, keeping its time and stock move as they are when the answer comes.
 *
 * A job asks nothing when its version is no longer the stored one (the newer version's job will),
 * or when the item is already this model's and the document still supports it. When the model
 * fails, times out or answers nothing the document supports, the job is tried again later (2 s,
 * 4 s, 8 s ...), and after `maxAttempts` it is given up: the extractive item stays, which was the
 * feed's answer all along. The caller sets how many documents are asked about at once per process
 * (`FILINGS_SUMMARY_WORKERS`).
 */
import { SummaryModel } from "@filings/feed-summarizer"
import { DocumentStore, FeedStore, type JobQueue } from "@filings/storage"
import { Effect, Layer, Option, Schema } from "effect"
import { JobFailure, startWorkers } from "../jobs/QueueWorkers.js"
import { countModelAnswer } from "../observability/ServerMetrics.js"
import {
  feedItemOf,
  isFeedDocType,
  standingModelSummary,
  summarizeDocument,
  SummaryJob,
  SummaryQueue,
  type SummarySource,
  versionOf
} from "./FeedWriter.js"

export interface Options {
  /** Documents asked about at once in this process. */
  readonly workers: number
}

/** Tries of one document before the extractive item is left standing. */
export const maxAttempts = 4

const decodeJob = Schema.decodeUnknownEither(SummaryJob)

/** Runs one summary job: the item rewritten by the model, or a failure that says why not. */
export const handleSummaryJob = (job: JobQueue.Job) =>
  Effect.gen(function*() {
    const decoded = decodeJob(job.payload)
    if (decoded._tag === "Left") {
      return yield* new JobFailure({ reason: "the job's payload is not a summary job", permanent: true })
    }
    const { items, publicationId, version } = decoded.right
    const documents = yield* DocumentStore.DocumentStore
    const feed = yield* FeedStore.FeedStore
    const model = yield* SummaryModel.SummaryModel
    const storageFailure = (error: { readonly message: string }) =>
      new JobFailure({ reason: error.message, permanent: false })
    /** The document and its item as they are now, when this job's version is still the stored one. */
    const current = Effect.gen(function*() {
      const found = yield* documents.findByPublicationId(publicationId)
      const item = yield* feed.findById(publicationId)
      if (Option.isNone(found) || Option.isNone(item) || versionOf(found.value.body) !== version) return undefined
      const docType = found.value.docType
      return isFeedDocType(docType) ? { document: { ...found.value, docType }, item: item.value } : undefined
    }).pipe(Effect.mapError(storageFailure))

    // Removed, or stored again since: the newer version's own job summarises it.
    const before = yield* current
    if (before === undefined) return
    const source: SummarySource = { ...before.document, items }
    // Already the model's, and still supported: nothing to ask (a retried ingestion, a repeat job).
    if (standingModelSummary(Option.some(before.item), model.name, source) !== undefined) return
    const outcome = yield* summarizeDocument(source)
    yield* countModelAnswer("summary", outcome.fallbackReason === undefined ? "model" : "fallback")
    if (outcome.fallbackReason !== undefined) {
      return yield* new JobFailure({
        reason: `the summary model gave no usable answer: ${outcome.fallbackReason}`,
        permanent: false
      })
    }
    // Read again after the model's minute: the document may have changed, the stock move been set.
    const after = yield* current
    if (after === undefined) return
    const { publishedAtMillis, stockChange } = after.item
    // The item keeps the company name it was written with: the company's name when it was stored,
    // which an old filing's own may not be.
    const document = { ...after.document, companyName: after.item.companyName }
    yield* feed.save(feedItemOf(document, outcome.summary, publishedAtMillis, stockChange)).pipe(
      Effect.mapError(storageFailure)
    )
    yield* Effect.logDebug(`feed item of ${publicationId} rewritten by ${outcome.summary.model}`)
  })

export const layer = ({ workers }: Options) =>
  Layer.scopedDiscard(startWorkers({
    queue: SummaryQueue,
    concurrency: workers,
    // The model has 60 s; the lease is extended while it thinks.
    lease: "90 seconds",
    pollInterval: "2 seconds",
    maxAttempts,
    handle: handleSummaryJob
  }))
