/**
 * One filing through the pipeline: fetch its complete submission from the archive and ingest it
 * (parse, extract, store, then its press releases and events; see `Ingestion`). Every step is
 * idempotent on the filing's accession number (saves replace, events carry keys), so a job
 * that died halfway and runs again leaves exactly what one run would have.
 *
 * The whole submission (`<accession>.txt`) is one request holding the header, every document and
 * the XBRL: fewer requests against the regulator's limit than the index and each file.
 */
import { ApiError, Ids } from "@filings/domain"
import { EdgarClient, type EdgarError, FilingIndex } from "@filings/edgar"
import type { JobQueue } from "@filings/storage"
import { Clock, Duration, Effect, Option, Schema } from "effect"
import { recordUpcomingCall, UpcomingCallJob } from "../ingest/Announcements.js"
import { Ingestion } from "../ingest/Ingestion.js"
import { JobFailure } from "../jobs/QueueWorkers.js"
import { recordEdgarLag } from "../observability/ServerMetrics.js"
import { CompanyUniverse } from "./CompanyUniverse.js"
import { FilingJob } from "./FilingJob.js"
import { docTypeOfForm } from "./PipelineConfig.js"

const transient = (reason: string) => new JobFailure({ reason, permanent: false })
const permanent = (reason: string) => new JobFailure({ reason, permanent: true })

/**
 * How long after its discovery a filing is waited for through the regulator's outages without
 * counting them as the job's failures: an outage of hours must skip nothing, but a file the
 * regulator keeps failing for a day is not an outage any more, and its job may be given up.
 */
const outagePatience = Duration.days(1)

/** The regulator failed the request as a whole (errors, no answer, rate limits): an outage, not the filing's fault. */
const isOutage = (error: EdgarError.EdgarError) =>
  error._tag === "EdgarUnavailable" || error._tag === "EdgarRateLimited"

export const processFiling = (job: JobQueue.Job) =>
  Effect.gen(function*() {
    const client = yield* EdgarClient.EdgarClient
    const ingestion = yield* Ingestion
    const universe = yield* CompanyUniverse

    const filing = yield* Schema.decodeUnknown(FilingJob)(job.payload).pipe(
      Effect.mapError(() => permanent("the job's payload is not a filing"))
    )
    const accession = FilingIndex.parseAccessionNumber(filing.accessionNumber)
    const cik = Ids.normalizeCik(filing.cik)
    const docType = docTypeOfForm(filing.form)
    if (Option.isNone(accession) || cik === undefined || docType === undefined) {
      return yield* permanent(`not a filing the service keeps: ${filing.form} ${filing.accessionNumber}`)
    }
    const ticker = yield* Schema.decodeUnknown(Ids.Ticker)(filing.ticker).pipe(
      Effect.mapError(() => permanent(`not a ticker: ${filing.ticker}`))
    )
    yield* universe.remember({ cik, ticker, name: filing.companyName }).pipe(
      Effect.mapError(() => transient("the company store is unavailable"))
    )

    const response = yield* client.get({ path: FilingIndex.submissionTextPath(cik, accession.value) }).pipe(
      Effect.catchAll((error) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          if (error._tag === "MissingUserAgent") return Effect.fail(permanent(error.message))
          const outage = isOutage(error) &&
            now - filing.discoveredAtMillis < Duration.toMillis(outagePatience)
          return Effect.fail(new JobFailure({ reason: error.message, permanent: false, outage }))
        })
      )
    )
    const ingested = yield* ingestion.ingest({
      fileName: `${filing.accessionNumber}.txt`,
      bytes: response.body,
      acceptedAt: filing.acceptedAt,
      // An amendment is stored under its form's type (the header says `10-K/A`).
      overrides: docType === filing.form ? {} : { form: docType }
    }).pipe(
      Effect.mapError((error) =>
        error instanceof ApiError.UnreadableFiling ? permanent(error.message) : transient(error.message)
      )
    )
    const storedAt = yield* Clock.currentTimeMillis
    const latency = storedAt - filing.discoveredAtMillis
    yield* recordEdgarLag(filing.acceptedAt, storedAt)
    yield* Effect.logInfo(
      `${ingested.publication_id} ${ingested.ticker} ${ingested.doc_type} ${ingested.status} ${latency} ms after discovery`
    )
  }).pipe(Effect.withSpan("FilingProcessor.processFiling"))

/** Records an `earnings_call.upcoming` event whose time has come. */
export const recordDueCall = (job: JobQueue.Job) =>
  Effect.gen(function*() {
    const call = yield* Schema.decodeUnknown(UpcomingCallJob)(job.payload).pipe(
      Effect.mapError(() => permanent("the job's payload is not an upcoming call"))
    )
    yield* recordUpcomingCall(call).pipe(Effect.mapError((error) => transient(error.message)))
  })
