/**
 * The fiscal period of documents stored before it was read from the documents themselves.
 *
 * Earnings calls, press releases and 8-Ks reporting results (Item 2.02) were once given the
 * calendar quarter of their date: NVIDIA's call about the second quarter of fiscal 2025, held in
 * August 2024, was stored as `Q3 2024`. The `period` is a value the service derives, not one a user
 * gave, so it is corrected in place: once per database, at the start of `filings serve`, each such
 * document's period is read again from its stored Markdown (as ingestion now reads it), and its
 * title with it where the title is the one made from the period (`<company> Q3 2024 earnings
 * call`, `<company> 8-K Q3 2024`); a release's headline stays. A document whose text states no
 * period keeps the one it has. Events already recorded keep what they said when they were sent,
 * and feed items already written their title: both are records of what was published then.
 */
import type { Dates } from "@filings/domain"
import { FiscalPeriod } from "@filings/filings-parser"
import { CursorStore, DocumentStore } from "@filings/storage"
import { Effect, Layer, Option } from "effect"
import { discussesResults } from "../ingest/Ingest.js"

/**
 * The cursor that records the correction as done for this database: bumped when the reading of
 * periods changes enough to be run again over stored documents.
 */
export const CorrectionCursor = "maintenance.discussed-period"
export const CorrectionVersion = "1"

const pageSize = 100

/** What a stored document's period and title become: none when they stay as they are. */
export const correctedPeriod = (
  document: DocumentStore.StoredDocument
): { readonly period: Dates.Period; readonly title: string } | undefined => {
  if (!discussesResults(document.docType, document.items)) return undefined
  const call = document.docType === "EARNINGS_CALL"
  // The body's blocks, as its chunks keep them; the Markdown of a document stored before they were.
  const blocks = document.chunks.length > 0 && document.chunks.every((chunk) => chunk.blocks !== undefined)
    ? document.chunks.flatMap((chunk) => chunk.blocks ?? [])
    : undefined
  const stated = (blocks === undefined
    ? FiscalPeriod.fromText(document.body, { reportsResults: !call })
    : FiscalPeriod.fromBlocks(blocks, { reportsResults: !call })) ??
    (document.docType === "8-K"
      ? document.exhibits.filter((exhibit) => /^99(?:\.|$)/.test(exhibit.exhibitNumber))
        .map((exhibit) => FiscalPeriod.fromText(exhibit.content, { reportsResults: true }))
        .find((period) => period !== undefined)
      : undefined)
  const period = FiscalPeriod.periodOf(stated, document.filingDate)
  if (period === undefined || period === document.period) return undefined
  const madeTitle = call
    ? (p: string) => `${document.companyName} ${p} earnings call`
    : (p: string) => `${document.companyName} ${document.docType} ${p}`
  return { period, title: document.title === madeTitle(document.period) ? madeTitle(period) : document.title }
}

/**
 * Reads the period of every stored call, release and 8-K again and saves those that change;
 * answers how many did. Safe to run twice (a second run finds nothing to change).
 */
export const correctStoredPeriods = Effect.fn("PeriodCorrection.correctStoredPeriods")(function*() {
  const documents = yield* DocumentStore.DocumentStore
  let corrected = 0
  // Saving changes neither a document's date nor its id, so the pages stay where they were.
  for (let offset = 0;; offset += pageSize) {
    const page = yield* documents.list({
      docTypes: ["EARNINGS_CALL", "PRESS_RELEASE", "8-K"],
      order: "asc",
      limit: pageSize,
      offset
    })
    for (const metadata of page.documents) {
      if (!discussesResults(metadata.docType, metadata.items)) continue
      const stored = yield* documents.findByPublicationId(metadata.publicationId)
      if (Option.isNone(stored)) continue
      const correction = correctedPeriod(stored.value)
      if (correction === undefined) continue
      yield* documents.save({ ...stored.value, ...correction }).pipe(
        Effect.catchTag(
          "UnstorableValue",
          (refused) =>
            Effect.logWarning(`period correction: ${metadata.publicationId} left as it was: ${refused.message}`)
        )
      )
      yield* Effect.logInfo(
        `period correction: ${metadata.publicationId} ${stored.value.period} -> ${correction.period}`
      )
      corrected++
    }
    if (page.documents.length < pageSize) return corrected
  }
})

/** Runs the correction unless this database has had it: answers how many documents changed. */
export const correctOnce = Effect.fn("PeriodCorrection.correctOnce")(function*() {
  const cursors = yield* CursorStore.CursorStore
  const done = yield* cursors.get(CorrectionCursor)
  if (Option.contains(done, CorrectionVersion)) return 0
  const corrected = yield* correctStoredPeriods()
  yield* cursors.set(CorrectionCursor, CorrectionVersion)
  if (corrected > 0) yield* Effect.logInfo(`period correction: ${corrected} documents corrected`)
  return corrected
})

/**
 * The correction in the background of a running server: instances that start together may both
 * run it, which changes nothing twice. A failure is logged and retried at the next start.
 */
export const layer = Layer.scopedDiscard(
  Effect.forkScoped(
    correctOnce().pipe(
      Effect.catchAll((error) =>
        Effect.logWarning(`period correction: not done, tried again at the next start: ${error.message}`)
      )
    )
  )
)
