/**
 * The entries of a company's timeline and their order. A document is an entry dated by its filing
 * date; an announced call (an `earnings_call.upcoming` event) one dated by the New York date of its
 * scheduled time, the calendar the regulator dates filings in. Entries are ordered by date, newest
 * first, then by a sort id, descending by code units: the document's publication id, or the event's
 * key for a call (`earnings_call.upcoming:AAPL:2025-01-30T22:00:00.000Z`, which no publication id
 * can equal). Every entry has its own sort id, so the order is total and a cursor (date, sort id)
 * pages exactly.
 */
import { DocType, Events, Timeline } from "@filings/domain"
import { DocumentStore, type EventStore } from "@filings/storage"
import { Option, Schema } from "effect"
import { newYorkTimeOf } from "../market/MarketData.js"

/** An entry before its highlight is read: where it sorts, and what it says. */
export interface KeyedEntry {
  /** Its place in the order: the date, and the sort id in `publicationId`. */
  readonly key: DocumentStore.DocumentKey
  /** The document whose feed item gives the highlight; none for an announced call. */
  readonly document: Option.Option<string>
  readonly entry: Omit<Timeline.TimelineEntry, "highlight">
}

/** The entry of a stored document. */
export const ofDocument = (document: DocumentStore.DocumentMetadata): KeyedEntry => ({
  key: { filingDate: document.filingDate, publicationId: document.publicationId },
  document: Option.some(document.publicationId),
  entry: {
    date: document.filingDate,
    type: Timeline.entryTypeOf(document.docType),
    title: document.title,
    publicationId: document.publicationId,
    docType: document.docType,
    items: document.items
  }
})

const UpcomingCallPayload = Schema.Struct({ data: Events.UpcomingEarningsCallData })
const readUpcomingCall = Schema.decodeUnknownOption(UpcomingCallPayload)

/** The entry of an `earnings_call.upcoming` event; none when its payload is not that event's. */
export const ofUpcomingCall = (event: EventStore.StoredEvent): Option.Option<KeyedEntry> =>
  Option.flatMap(readUpcomingCall(event.payload), ({ data }) => {
    const scheduledAt = Date.parse(data.scheduled_at)
    if (Number.isNaN(scheduledAt)) return Option.none()
    const date = newYorkTimeOf(scheduledAt).date
    return Option.some({
      key: { filingDate: date, publicationId: event.key },
      document: Option.none(),
      entry: {
        date,
        type: "upcoming_call",
        title: data.title,
        publicationId: data.source_publication_id,
        docType: null,
        items: []
      }
    })
  })

/**
 * The document types whose entries are among `types`: undefined when every type is wanted (no
 * filter), an empty list when none is.
 */
export const docTypesOf = (
  types: ReadonlyArray<Timeline.EntryType> | undefined
): ReadonlyArray<DocType.DocType> | undefined =>
  types === undefined
    ? undefined
    : DocType.DocumentTypes.filter((docType) => types.includes(Timeline.entryTypeOf(docType)))

/** Whether an entry's date lies in the inclusive range of the request. */
export const isWithin =
  (range: { readonly startDate?: string | undefined; readonly endDate?: string | undefined }) =>
  (entry: KeyedEntry): boolean =>
    (range.startDate === undefined || entry.key.filingDate >= range.startDate) &&
    (range.endDate === undefined || entry.key.filingDate <= range.endDate)

/** The timeline's order (see the module comment). */
export const compareNewestFirst = (a: KeyedEntry, b: KeyedEntry): number =>
  DocumentStore.compareNewestFirst(a.key, b.key)
