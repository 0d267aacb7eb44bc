/**
 * The EDGAR pipeline of a running server: the company universe (read at start, then daily), the
 * discovery loop on the latest-filings feed, the workers that fetch, ingest and announce each
 * filing, the workers that send `earnings_call.upcoming` when its day comes, and the company
 * directory (the regulator's list stored at start and daily, each company's details read in the
 * background). Everything runs
 * in the server's scope and stops with it; a job interrupted by a stop or a crash is taken again
 * when its lease runs out.
 *
 * It runs only when following is on (`FILINGS_EDGAR_FOLLOW`, by default whenever
 * `FILINGS_SEC_USER_AGENT` is set); the HTTP API serves what is stored either way.
 *
 * Any number of instances may follow on one PostgreSQL database: every one works the queues, and
 * the work only one should do (reading the feed, keeping the company directory) goes to the holder
 * of a lease in the database (`Leadership`), another instance taking over when the holder dies.
 */
import { EdgarConfig } from "@filings/edgar"
import { Duration, Effect, Layer, Schedule, Schema } from "effect"
import * as CompanyDirectory from "../companies/CompanyDirectory.js"
import * as Leadership from "../coordination/Leadership.js"
import { UpcomingCallQueue } from "../ingest/Announcements.js"
import { startWorkers } from "../jobs/QueueWorkers.js"
import * as CompanyUniverse from "./CompanyUniverse.js"
import { pollOnce } from "./Discovery.js"
import { EdgarFailureWording } from "./EdgarFailureWording.js"
import { FilingQueue } from "./FilingJob.js"
import { processFiling, recordDueCall } from "./FilingProcessor.js"
import { PipelineConfig } from "./PipelineConfig.js"

/** Following EDGAR is on, but the settings it needs are not usable; the message names the variable to fix. */
export class EdgarMisconfigured extends Schema.TaggedError<EdgarMisconfigured>()("EdgarMisconfigured", {
  message: Schema.String
}) {}

const universeRefresh = Duration.hours(24)

/** The leases of the work one instance does: reading the latest-filings feed, keeping the company directory. */
export const DiscoveryLease = "edgar.latest-filings"
export const DirectoryLease = "edgar.company-directory"

const run = Effect.gen(function*() {
  const settings = yield* PipelineConfig
  if (!settings.follow) {
    yield* Effect.logInfo("not following EDGAR (set FILINGS_SEC_USER_AGENT to follow it)")
    return
  }
  const wording = yield* EdgarFailureWording
  const userAgent = yield* EdgarConfig.requireUserAgent.pipe(
    Effect.mapError((error) => new EdgarMisconfigured({ message: wording(error) }))
  )
  const { pollInterval } = yield* EdgarConfig.EdgarConfig
  const universe = yield* CompanyUniverse.CompanyUniverse

  const filings = yield* startWorkers({
    queue: FilingQueue,
    concurrency: settings.workers,
    lease: settings.lease,
    pollInterval: "1 second",
    maxAttempts: 8,
    handle: processFiling
  })
  yield* startWorkers({
    queue: UpcomingCallQueue,
    concurrency: 1,
    lease: "1 minute",
    pollInterval: "30 seconds",
    maxAttempts: 8,
    handle: recordDueCall
  })

  // Filings are followed once the universe is known; until then the feed is not read.
  const loadUniverse = universe.refresh.pipe(
    Effect.tapError((error) => Effect.logWarning(`the company list could not be read, retrying: ${String(error)}`)),
    Effect.retry(Schedule.exponential("2 seconds").pipe(Schedule.union(Schedule.spaced("5 minutes"))))
  )
  // The directory: the list stored whole, then the details filled in behind it, most-followed first.
  const directory = Effect.all([
    CompanyDirectory.syncListing.pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("the company list could not be stored", cause)),
      Effect.repeat(Schedule.spaced(universeRefresh))
    ),
    CompanyDirectory.fillDetailsForever(settings.tickers)
  ], { concurrency: "unbounded", discard: true })
  // Only the holder of each lease does its work; the others ask for the lease every poll interval.
  const holder = Leadership.instanceName()
  const leading = (name: string) => <E, R>(work: Effect.Effect<void, E, R>) =>
    Leadership.whileLeading({ name, holder, lease: settings.followLease, retryEvery: pollInterval }, work)
  const discover = pollOnce.pipe(
    Effect.tap(({ enqueued }) => (enqueued > 0 ? filings.wake.pipe(Effect.repeatN(enqueued - 1)) : Effect.void)),
    Effect.catchAllCause((cause) => Effect.logWarning("a poll of the latest filings failed", cause)),
    Effect.repeat(Schedule.spaced(pollInterval))
  )
  yield* Effect.forkScoped(
    loadUniverse.pipe(
      Effect.zipRight(Effect.logInfo(`following EDGAR every ${Duration.format(pollInterval)} as "${userAgent}"`)),
      Effect.zipRight(Effect.all([
        leading(DiscoveryLease)(discover),
        leading(DirectoryLease)(directory),
        universe.refresh.pipe(
          Effect.ignore,
          Effect.repeat(Schedule.spaced(universeRefresh)),
          Effect.delay(universeRefresh)
        )
      ], { concurrency: "unbounded", discard: true }))
    )
  )
})

/**
 * Starts the pipeline in the layer's scope when following is on. Its settings (`PipelineConfig`),
 * the EDGAR client and the wording of EDGAR failures come from the composition root.
 */
export const layer = Layer.scopedDiscard(run).pipe(
  Layer.provide(CompanyUniverse.layer)
)
