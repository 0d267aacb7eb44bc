/**
 * Discovery: reads the regulator's latest-filings feed at the poll interval and enqueues one fetch
 * job per new filing of a kept form by a followed company. The job's unique key is the accession
 * number, so a filing seen twice (two polls, two entries, a restart) is enqueued once. A cursor
 * (the newest entry's time and the accession numbers seen at that time) survives restarts: after a
 * pause, discovery reads further pages until it reaches what it had seen, up to a limit.
 *
 * The feed is one strategy; the job it enqueues is all the rest of the pipeline needs, so a faster
 * source (a push feed, the daily index for catch-up) can enqueue the same jobs.
 */
import type { Ids } from "@filings/domain"
import { EdgarClient, LatestFilings } from "@filings/edgar"
import { CursorStore, JobQueue } from "@filings/storage"
import { Clock, Effect, Option, Schema } from "effect"
import { CompanyUniverse } from "./CompanyUniverse.js"
import { FilingJob, FilingQueue } from "./FilingJob.js"
import { PipelineConfig } from "./PipelineConfig.js"

export const CursorName = "edgar.latest-filings"

const Cursor = Schema.parseJson(Schema.Struct({ updatedMillis: Schema.Number, seen: Schema.Array(Schema.String) }))
type Cursor = typeof Cursor.Type

/** Entries per page (the feed's largest) and pages read at most in one poll (a long pause). */
const PageSize = 100
const MaxPages = 10

const updatedMillisOf = (entry: LatestFilings.FeedEntry): number => {
  const millis = Date.parse(entry.updated)
  return Number.isNaN(millis) ? 0 : millis
}

const isNew = (cursor: Cursor | undefined) => (entry: LatestFilings.FeedEntry): boolean => {
  if (cursor === undefined) return true
  const updated = updatedMillisOf(entry)
  return updated > cursor.updatedMillis ||
    (updated === cursor.updatedMillis && !cursor.seen.includes(entry.accessionNumber))
}

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
    const oldest = feed.entries[feed.entries.length - 1]
    if (feed.entries.length < PageSize || oldest === undefined || !isNew(cursor)(oldest)) break
    if (page === pages - 1) {
      yield* Effect.logWarning(`more than ${pages * PageSize} new feed entries: the oldest were not read`)
    }
  }

  const fresh = LatestFilings.filingsOf(entries).filter(isNew(cursor))
  const now = yield* Clock.currentTimeMillis
  let enqueued = 0
  // Oldest first, so the queue hands filings out in the order the regulator published them.
  for (const entry of [...fresh].reverse()) {
    if (!forms.includes(entry.form.toUpperCase())) continue
    const company = yield* universe.find(entry.cik as Ids.Cik)
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

  const newest = Math.max(cursor?.updatedMillis ?? 0, ...entries.map(updatedMillisOf))
  const seen = [
    ...(newest === cursor?.updatedMillis ? cursor.seen : []),
    ...entries.filter((entry) => updatedMillisOf(entry) === newest).map((entry) => entry.accessionNumber)
  ]
  yield* cursors.set(CursorName, Schema.encodeSync(Cursor)({ updatedMillis: newest, seen: [...new Set(seen)] }))
  return { read: entries.length, enqueued } satisfies PollOutcome
}).pipe(Effect.withSpan("Discovery.pollOnce"))
