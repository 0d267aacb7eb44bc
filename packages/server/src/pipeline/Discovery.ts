/**
 * Discovery: reads the regulator's latest-filings feed at the poll interval and enqueues one fetch
 * job per new filing of a kept form by a followed company. The job's unique key is the accession
 * number, so a filing seen twice (two polls, two entries, a restart) is enqueued once. A cursor
 * (the accession numbers seen lately) survives restarts: after a pause, discovery reads further
 * pages until it reaches what it had seen, up to a limit.
 *
 * The feed is one strategy; the job it enqueues is all the rest of the pipeline needs, so a faster
 * source (a push feed, the daily index for catch-up) can enqueue the same jobs.
 */
import { EdgarClient, LatestFilings } from "@filings/edgar"
import { CursorStore, JobQueue } from "@filings/storage"
import { Clock, Effect, Option, Schema } from "effect"
import { CompanyUniverse } from "./CompanyUniverse.js"
import { FilingJob, FilingQueue } from "./FilingJob.js"
import { PipelineConfig } from "./PipelineConfig.js"

export const CursorName = "edgar.latest-filings"

/**
 * The accession numbers seen lately, newest first. The feed's times are acceptance times, and a
 * filing can reach the feed after others accepted later than it; so what is new is what has not
 * been seen, not what is newer than a time.
 */
const Cursor = Schema.parseJson(Schema.Struct({ seen: Schema.Array(Schema.String) }))

/** Entries per page (the feed's largest), pages read at most in one poll, accession numbers kept. */
const PageSize = 100
const MaxPages = 10
const SeenKept = 5_000

export interface PollOutcome {
  readonly read: number
  readonly enqueued: number
}

/** One poll: read the feed back to the cursor, enqueue what is new and kept, move the cursor. */
export const pollOnce = Effect.gen(function*() {
  const client = yield* EdgarClient.EdgarClient
  const cursors = yield* CursorStore.CursorStore
  const queue = yield* JobQueue.JobQueue
  const universe = yield* CompanyUniverse
  const { forms } = yield* PipelineConfig

  const stored = yield* cursors.get(CursorName)
  const cursor = Option.getOrUndefined(Option.flatMap(stored, Schema.decodeOption(Cursor)))
  const seen = new Set(cursor?.seen ?? [])
  const isNew = (entry: LatestFilings.FeedEntry) => !seen.has(entry.accessionNumber)
  const entries: Array<LatestFilings.FeedEntry> = []
  // On the first run only the first page: the feed is where following starts, not a backfill.
  const pages = cursor === undefined ? 1 : MaxPages
  for (let page = 0; page < pages; page++) {
    const text = yield* client.getText({
      path: LatestFilings.latestFilingsPath({ start: page * PageSize, count: PageSize })
    })
    const feed = yield* LatestFilings.readLatestFilings(text)
    for (const warning of feed.warnings) yield* Effect.logDebug(`latest filings: ${warning}`)
    entries.push(...feed.entries)
    // A page holding anything already seen reaches back to the last poll.
    if (feed.entries.length < PageSize || !feed.entries.every(isNew)) break
    if (page === pages - 1) {
      yield* Effect.logWarning(`more than ${pages * PageSize} new feed entries: the oldest were not read`)
    }
  }

  const fresh = LatestFilings.filingsOf(entries).filter(isNew)
  const now = yield* Clock.currentTimeMillis
  let enqueued = 0
  // Oldest first, so the queue hands filings out in the order the regulator published them.
  for (const entry of [...fresh].reverse()) {
    if (!forms.includes(entry.form.toUpperCase())) continue
    const company = yield* universe.find(entry.cik)
    if (Option.isNone(company)) continue
    const job: FilingJob = {
      accessionNumber: entry.accessionNumber,
      cik: entry.cik,
      form: entry.form,
      ticker: company.value.ticker,
      companyName: company.value.name,
      acceptedAt: entry.updated,
      discoveredAtMillis: now
    }
    yield* queue.enqueue(FilingQueue, Schema.encodeSync(FilingJob)(job), { uniqueKey: entry.accessionNumber })
    enqueued++
  }

  if (fresh.length > 0 || cursor === undefined) {
    const kept = [...fresh.map((entry) => entry.accessionNumber), ...(cursor?.seen ?? [])].slice(0, SeenKept)
    yield* cursors.set(CursorName, Schema.encodeSync(Cursor)({ seen: kept }))
  }
  return { read: entries.length, enqueued } satisfies PollOutcome
}).pipe(Effect.withSpan("Discovery.pollOnce"))
