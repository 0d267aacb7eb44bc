/**
 * Dispatch: reads the event log in order from its cursor and turns each event into one delivery
 * per subscription that wants it: `pending` for an active subscription (and a delivery job on the
 * queue), `skipped` for a paused or failed one (sent later if the customer recovers it). The
 * cursor moves only after the batch's deliveries and jobs are stored, and both are idempotent on
 * the delivery id, so a crash in between, or two dispatchers on one database, deliver each event
 * once per subscription.
 */
import { Ids } from "@filings/domain"
import { CompanyStore, CursorStore, DeliveryStore, EventStore, JobQueue, WebhookStore } from "@filings/storage"
import { Clock, Effect, Option, Schema } from "effect"
import { deliveryIdOf, subjectOf, wants } from "./Matching.js"

export const CursorName = "webhooks.dispatch"

/** The queue of delivery attempts. */
export const DeliveryQueue = "webhooks.deliveries"

export const DeliveryJob = Schema.Struct({ deliveryId: Schema.String })

const BatchSize = 200

const decodeTicker = Schema.decodeOption(Ids.Ticker)

const Position = Schema.NumberFromString.pipe(Schema.int(), Schema.nonNegative())

/** One pass: dispatches up to a batch of events; returns how many events it read. */
export const dispatchOnce = Effect.gen(function*() {
  const events = yield* EventStore.EventStore
  const cursors = yield* CursorStore.CursorStore
  const webhooks = yield* WebhookStore.WebhookStore
  const deliveries = yield* DeliveryStore.DeliveryStore
  const queue = yield* JobQueue.JobQueue

  const after = Option.getOrElse(
    Option.flatMap(yield* cursors.get(CursorName), Schema.decodeOption(Position)),
    () => 0
  )
  const batch = yield* events.after(after, BatchSize)
  if (batch.length === 0) return 0
  const subscriptions = yield* webhooks.listAll
  const now = yield* Clock.currentTimeMillis
  // Every ticker of each event's company, in one read for the batch: a filter naming another class
  // of its shares (GOOG for an event under GOOGL) wants the event too.
  const tickerOf = (event: EventStore.StoredEvent) => Option.getOrUndefined(decodeTicker(subjectOf(event).ticker ?? ""))
  const eventTickers = [...new Set(batch.flatMap((event) => tickerOf(event) ?? []))]
  const hasTickerFilter = subscriptions.some((subscription) => (subscription.filters.tickers?.length ?? 0) > 0)
  const aliases = hasTickerFilter && eventTickers.length > 0
    ? yield* (yield* CompanyStore.CompanyStore).aliasesOf(eventTickers)
    : new Map<Ids.Ticker, ReadonlyArray<Ids.Ticker>>()

  const planned: Array<DeliveryStore.NewDelivery> = []
  for (const event of batch) {
    const companyTickers = aliases.get(tickerOf(event) ?? ("" as Ids.Ticker))
    for (const subscription of subscriptions) {
      if (!wants(subscription, event, companyTickers)) continue
      planned.push({
        id: deliveryIdOf(subscription.id, event.id),
        subscriptionId: subscription.id,
        eventId: event.id,
        eventSequence: event.sequence,
        eventType: event.type,
        state: subscription.status === "active" ? "pending" : "skipped",
        createdAtMillis: now
      })
    }
  }
  yield* deliveries.record(planned)
  // Enqueued whether the delivery is new or not: after a crash the jobs may be what was missing.
  yield* queue.enqueueAll(
    DeliveryQueue,
    planned.flatMap((delivery) =>
      delivery.state === "pending"
        ? [{ payload: Schema.encodeSync(DeliveryJob)({ deliveryId: delivery.id }), uniqueKey: delivery.id }]
        : []
    )
  )
  yield* cursors.set(CursorName, String(batch[batch.length - 1]!.sequence))
  return batch.length
}).pipe(Effect.withSpan("Dispatcher.dispatchOnce"))
