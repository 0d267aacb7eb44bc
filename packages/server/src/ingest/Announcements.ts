/**
 * What follows the storing of a document, whichever way it came (the EDGAR pipeline, `filings
 * ingest`, an upload): an 8-K's press releases and presentations stored as documents of their own
 * (with their feed items), and the events,
 * recorded once each. `filing.new` (and `filing.8k_material`) for a filing, `press_release.new` for
 * each release, `earnings_call.new` for a transcript, and `earnings_call.upcoming` for a call a
 * release announces: at once when it is less than a day away, else by a job due a day before.
 */
import { Ids } from "@filings/domain"
import { type DocumentStore, EventStore, JobQueue } from "@filings/storage"
import { Clock, Duration, Effect, Option, Schema } from "effect"
import type { Follow } from "./DocumentSink.js"
import {
  earningsCallEvent,
  filingEvents,
  pressReleaseEvent,
  type UpcomingCall,
  upcomingCallEvent
} from "./FilingEvents.js"
import { savePresentations } from "./Presentations.js"
import { publishedAtOf, savePressReleases } from "./PressReleases.js"

/** The queue of `earnings_call.upcoming` events waiting for their time. */
export const UpcomingCallQueue = "events.upcoming-calls"

export const UpcomingCallJob = Schema.Struct({
  ticker: Ids.Ticker,
  companyName: Schema.String,
  scheduledAt: Schema.String,
  period: Schema.String,
  sourcePublicationId: Schema.NullOr(Ids.PublicationId)
})

const noticeBeforeCall = Duration.hours(24)

const scheduleUpcomingCall = (call: UpcomingCall, timestamp: string) =>
  Effect.gen(function*() {
    const queue = yield* JobQueue.JobQueue
    const now = yield* Clock.currentTimeMillis
    const startsAt = Date.parse(call.scheduledAt)
    // A call already held (a late or backfilled release) is announced no more.
    if (startsAt <= now) return []
    const dueIn = startsAt - Duration.toMillis(noticeBeforeCall) - now
    if (dueIn <= 0) return [upcomingCallEvent(call, timestamp)]
    yield* queue.enqueue(UpcomingCallQueue, Schema.encodeSync(UpcomingCallJob)(call), {
      delay: Duration.millis(dueIn),
      uniqueKey: `${call.ticker}:${call.scheduledAt}`
    })
    return []
  })

export interface AnnounceInput extends Follow {
  readonly document: DocumentStore.DocumentMetadata
  /**
   * The company's name now, for the events and feed items: the document keeps the name it was filed
   * under, which an older filing's may no longer be. The document's own when not given.
   */
  readonly currentName?: string | undefined
}

/** Stores an 8-K's press releases and records the document's events; returns how many were new. */
export const announce = Effect.fn("Announcements.announce")(function*(input: AnnounceInput) {
  const events = yield* EventStore.EventStore
  const filed = input.document
  // The events speak of the company as it is named now.
  const document = { ...filed, companyName: input.currentName ?? filed.companyName }
  const timestamp = new Date(yield* Clock.currentTimeMillis).toISOString()
  const newEvents: Array<EventStore.NewEvent> = []
  if (document.docType === "EARNINGS_CALL") newEvents.push(earningsCallEvent(document, timestamp))
  else if (document.docType !== "PRESS_RELEASE") newEvents.push(...filingEvents(document, timestamp))
  // An 8-K read from its full submission holds its releases and decks; one read from its primary
  // document alone does not.
  const submission = document.docType === "8-K" ? input.submission : Option.none()
  if (Option.isSome(submission)) {
    const publishedAt = publishedAtOf(document, input.acceptedAt)
    const read = { submission: submission.value, exhibits: input.exhibits }
    yield* savePresentations(filed, read, publishedAt, document.companyName)
    for (const release of yield* savePressReleases(filed, read, publishedAt, document.companyName)) {
      newEvents.push(
        pressReleaseEvent(
          { ...release.document, companyName: document.companyName },
          publishedAtOf(document, input.acceptedAt),
          document.publicationId,
          timestamp
        )
      )
      if (release.call === undefined) continue
      const call: UpcomingCall = {
        ticker: document.ticker,
        companyName: document.companyName,
        scheduledAt: release.call.scheduledAt,
        // The call discusses what the release reports.
        period: release.document.period,
        sourcePublicationId: release.document.publicationId
      }
      if (input.recordEvents) newEvents.push(...yield* scheduleUpcomingCall(call, timestamp))
    }
  }
  if (!input.recordEvents) return 0
  return (yield* events.record(newEvents)).length
})

/** Records an `earnings_call.upcoming` whose time has come (the job `announce` left). */
export const recordUpcomingCall = Effect.fn("Announcements.recordUpcomingCall")(function*(call: UpcomingCall) {
  const events = yield* EventStore.EventStore
  const timestamp = new Date(yield* Clock.currentTimeMillis).toISOString()
  return (yield* events.record([upcomingCallEvent(call, timestamp)])).length
})
