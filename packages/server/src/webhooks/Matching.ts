/**
 * Which subscriptions an event goes to: those that subscribed to its type, whose filters it passes
 * (its ticker, or another ticker of its company, among the tickers; its document type among the
 * types), and that existed before it
 * (a subscription receives the events recorded after its creation). Each (event, subscription)
 * pair is one delivery, whose id is derived from the pair, so every dispatcher, retry and
 * restart names it the same and receivers can drop duplicates by it.
 */
import type { EventStore, WebhookStore } from "@filings/storage"
import { createHash } from "node:crypto"

/** The ticker and document type an event is about, read from its payload's data. */
export const subjectOf = (event: EventStore.StoredEvent): { readonly ticker?: string; readonly docType?: string } => {
  const data = (event.payload as { readonly data?: Record<string, unknown> } | null)?.data ?? {}
  const ticker = typeof data.ticker === "string" ? data.ticker : undefined
  // Press releases and upcoming calls carry no doc_type; their kind of document is implied.
  const docType = typeof data.doc_type === "string"
    ? data.doc_type
    : event.type === "press_release.new"
    ? "PRESS_RELEASE"
    : event.type === "earnings_call.upcoming"
    ? "EARNINGS_CALL"
    : undefined
  return { ...(ticker === undefined ? {} : { ticker }), ...(docType === undefined ? {} : { docType }) }
}

/** What a listener asks for: event types and, as filters, tickers and document types (absent or empty: all). */
export interface EventFilter {
  readonly events: ReadonlyArray<string>
  readonly tickers?: ReadonlyArray<string> | undefined
  readonly docTypes?: ReadonlyArray<string> | undefined
}

const passes = (
  events: ReadonlyArray<string>,
  tickers: ReadonlyArray<string> | undefined,
  docTypes: ReadonlyArray<string> | undefined,
  event: EventStore.StoredEvent,
  companyTickers: ReadonlyArray<string> | undefined
): boolean => {
  if (!events.includes(event.type)) return false
  const { docType, ticker } = subjectOf(event)
  if (
    tickers !== undefined && tickers.length > 0 &&
    (ticker === undefined || !(companyTickers ?? [ticker]).some((alias) => tickers.includes(alias)))
  ) return false
  if (docTypes !== undefined && docTypes.length > 0 && (docType === undefined || !docTypes.includes(docType))) {
    return false
  }
  return true
}

/** Whether the event is of a type the filter names and passes its ticker and document type filters. */
export const matches = (filter: EventFilter, event: EventStore.StoredEvent): boolean =>
  passes(filter.events, filter.tickers, filter.docTypes, event, undefined)

/**
 * Whether the subscription wants the event (whatever its status: paused ones record skipped
 * deliveries). Asked for every subscription of every event, so it builds no filter object.
 * `companyTickers`: every ticker of the event's company (`CompanyStore.aliasesOf`), so that a
 * filter naming another class of its shares matches; the event's own ticker alone when absent.
 */
export const wants = (
  subscription: WebhookStore.Subscription,
  event: EventStore.StoredEvent,
  companyTickers?: ReadonlyArray<string>
): boolean =>
  event.sequence > subscription.startSequence &&
  passes(subscription.events, subscription.filters.tickers, subscription.filters.docTypes, event, companyTickers)

/** `dlv_` and 24 hex digits of a hash of the pair: the `X-Service-Delivery-Id` of every attempt. */
export const deliveryIdOf = (subscriptionId: string, eventId: string): string =>
  `dlv_${createHash("sha256").update(`${subscriptionId}\u0000${eventId}`).digest("hex").slice(0, 24)}`
