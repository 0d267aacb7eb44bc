/**
 * The workers that ask the configured language model for the summaries the feed first wrote with
 * the extractive model (see `FeedWriter`). A job names a stored document; its worker asks the model
 * (within `FeedSummarizer`'s time limit, its answer checked against the document's chunks) and
 * replaces the item's highlights, categories, sentiment and model, keeping its time and stock move.
 *
 * When the model fails, times out or answers nothing the document supports, the job is tried again
 * later (2 s, 4 s, 8 s ...), and after `maxAttempts` it is given up: the extractive item stays, which
 * was the feed's answer all along. `FILINGS_SUMMARY_WORKERS` (default 2) sets how many documents
 * are asked about at once per process.
 */
import { DocumentStore, FeedStore, type JobQueue } from "@filings/storage"
import { Config, Effect, Layer, Option, Schema } from "effect"
import { JobFailure, startWorkers } from "../pipeline/QueueWorkers.js"
import { feedItemOf, isFeedDocType, summarizeDocument, SummaryJob, SummaryQueue } from "./FeedWriter.js"

const workersConfig = Config.integer("FILINGS_SUMMARY_WORKERS").pipe(
  Config.withDefault(2),
  Config.validate({ message: "FILINGS_SUMMARY_WORKERS must be from 1 to 64", validation: (n) => n >= 1 && n <= 64 })
)

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
    const { items, publicationId } = decoded.right
    const documents = yield* DocumentStore.DocumentStore
    const feed = yield* FeedStore.FeedStore
    const storageFailure = (error: { readonly message: string }) =>
      new JobFailure({ reason: error.message, permanent: false })
    const found = yield* documents.findByPublicationId(publicationId).pipe(Effect.mapError(storageFailure))
    const current = yield* feed.findById(publicationId).pipe(Effect.mapError(storageFailure))
    // A document or item removed since: nothing left to summarise.
    if (Option.isNone(found) || Option.isNone(current)) return
    const document = found.value
    const docType = document.docType
    if (!isFeedDocType(docType)) return
    const outcome = yield* summarizeDocument({ ...document, docType, items })
    if (outcome.fallbackReason !== undefined) {
      return yield* new JobFailure({
        reason: `the summary model gave no usable answer: ${outcome.fallbackReason}`,
        permanent: false
      })
    }
    const { publishedAtMillis, stockChange } = current.value
    yield* feed.save(feedItemOf({ ...document, docType }, outcome.summary, publishedAtMillis, stockChange)).pipe(
      Effect.mapError(storageFailure)
    )
    yield* Effect.logDebug(`feed item of ${publicationId} rewritten by ${outcome.summary.model}`)
  })

export const layer = Layer.scopedDiscard(Effect.gen(function*() {
  yield* startWorkers({
    queue: SummaryQueue,
    concurrency: yield* workersConfig,
    // The model has 60 s; the lease is extended while it thinks.
    lease: "90 seconds",
    pollInterval: "2 seconds",
    maxAttempts,
    handle: handleSummaryJob
  })
}))
