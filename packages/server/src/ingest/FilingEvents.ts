/**
 * The events a stored document gives rise to, with the payloads of the specification and of
 * `decisions.md`. Each carries a key that names it for good (`filing.new:<publication_id>`), so the
 * event store records it once however often a retried job builds it again.
 */
import { Events, type Ids } from "@filings/domain"
import type { DocumentStore, EventStore } from "@filings/storage"

type Metadata = DocumentStore.DocumentMetadata

/** Where the document is served: the path under the API, like the `url` of document lists. */
export const documentUrl = (publicationId: Ids.PublicationId): string => `/v1/documents/${publicationId}`

const filingData = (document: Metadata) => ({
  publication_id: document.publicationId,
  ticker: document.ticker,
  company_name: document.companyName,
  doc_type: document.docType,
  title: document.title,
  filing_date: document.filingDate,
  items: [...document.items],
  url: documentUrl(document.publicationId),
  sec_url: document.secUrl
})

const event = (type: string, key: string, timestamp: string, data: unknown): EventStore.NewEvent => ({
  type,
  key: `${type}:${key}`,
  payload: { event: type, timestamp, data }
})

/** The material items an 8-K reports (`Item 1.01` ...), in its order. */
export const materialItemsOf = (document: Metadata): ReadonlyArray<string> =>
  document.docType !== "8-K"
    ? []
    : document.items.filter((item) =>
      (Events.MaterialItems as ReadonlyArray<string>).includes(item.replace(/^Item /, ""))
    )

/** `filing.new` for every filing, and `filing.8k_material` for an 8-K reporting a material item. */
export const filingEvents = (document: Metadata, timestamp: string): ReadonlyArray<EventStore.NewEvent> => {
  const data = filingData(document)
  const material = materialItemsOf(document)
  return [
    event("filing.new", document.publicationId, timestamp, data),
    ...(material.length === 0
      ? []
      : [event("filing.8k_material", document.publicationId, timestamp, { ...data, material_items: material })])
  ]
}

/** `press_release.new` for a press release taken from a filing's exhibit. */
export const pressReleaseEvent = (
  release: Metadata,
  publishedAt: string,
  source: Ids.PublicationId,
  timestamp: string
): EventStore.NewEvent =>
  event("press_release.new", release.publicationId, timestamp, {
    publication_id: release.publicationId,
    ticker: release.ticker,
    company_name: release.companyName,
    title: release.title,
    published_at: publishedAt,
    url: documentUrl(release.publicationId),
    source_publication_id: source
  })

/** `earnings_call.new` for a stored transcript. */
export const earningsCallEvent = (transcript: Metadata, timestamp: string): EventStore.NewEvent =>
  event("earnings_call.new", transcript.publicationId, timestamp, {
    publication_id: transcript.publicationId,
    ticker: transcript.ticker,
    company_name: transcript.companyName,
    doc_type: transcript.docType,
    title: transcript.title,
    call_date: transcript.filingDate,
    period: transcript.period,
    url: documentUrl(transcript.publicationId)
  })

export interface UpcomingCall {
  readonly ticker: Ids.Ticker
  readonly companyName: string
  /** ISO instant, UTC. */
  readonly scheduledAt: string
  readonly period: string
  readonly sourcePublicationId: Ids.PublicationId | null
}

/** `earnings_call.upcoming`, one per company and call time. */
export const upcomingCallEvent = (call: UpcomingCall, timestamp: string): EventStore.NewEvent =>
  event("earnings_call.upcoming", `${call.ticker}:${call.scheduledAt}`, timestamp, {
    ticker: call.ticker,
    company_name: call.companyName,
    title: `${call.companyName} ${call.period} earnings call`,
    scheduled_at: call.scheduledAt,
    period: call.period,
    source_publication_id: call.sourcePublicationId
  })
