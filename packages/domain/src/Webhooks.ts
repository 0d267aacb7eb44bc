/**
 * Webhook subscriptions: where a customer wants events delivered, which events, and the state of
 * the subscription (active, paused, failed).
 *
 * @module
 */
import { Schema } from "effect"
import { Timestamp } from "./Dates.js"
import { DocType } from "./DocType.js"
import { MaxTickersPerRequest } from "./Document.js"
import { Ticker } from "./Ids.js"
import { IntegerInRange, mustBeOneOf, nonEmptyListMessage, OneOf, PositiveInteger, Text } from "./QueryParams.js"

/** The event types a subscription can ask for; `Events.EventPayload` gives the payload of each. */
export const EventTypes = [
  "filing.new",
  "filing.8k_material",
  "earnings_call.new",
  "earnings_call.upcoming",
  "press_release.new"
] as const
/** One of {@link EventTypes}; anything else is refused with a message that lists them. */
export const EventType = Schema.Literal(...EventTypes).annotations({ message: mustBeOneOf(EventTypes) })
export type EventType = typeof EventType.Type

/**
 * The state of a subscription. `active` receives deliveries. `paused` (set by the customer) and
 * `failed` (set when one delivery failed its 6th attempt) do not: their events are recorded as
 * `skipped` deliveries, which a recovery sends later. Only a reactivation makes a failed
 * subscription active again.
 */
export const WebhookStatus = Schema.Literal("active", "paused", "failed")
export type WebhookStatus = typeof WebhookStatus.Type

/** Callback addresses must be HTTPS. */
export const CallbackUrl = Text.pipe(
  Schema.filter((value) => {
    try {
      return new URL(value).protocol === "https:"
    } catch {
      return false
    }
  }, { message: (issue) => `must be an https:// URL, got ${JSON.stringify(issue.actual)}` })
)

/** The events a subscription asks for: at least one. */
const SubscribedEvents = Schema.NonEmptyArray(EventType).annotations({
  message: nonEmptyListMessage(`must name at least one of: ${EventTypes.join(", ")}; got none`)
})

/** At most this many subscriptions per API key (decisions.md); creating one more is refused with 400. */
export const MaxSubscriptionsPerKey = 100

/** The filters a request gives: either list may be left out (or empty) to match everything. */
export class WebhookFilters extends Schema.Class<WebhookFilters>("WebhookFilters")({
  tickers: Schema.optionalWith(
    Schema.Array(Ticker).pipe(
      Schema.maxItems(MaxTickersPerRequest, { message: () => `must name at most ${MaxTickersPerRequest} tickers` })
    ),
    { exact: true }
  ),
  doc_types: Schema.optionalWith(Schema.Array(DocType), { exact: true })
}) {}

/** The filters of a subscription as the API shows them: both lists, each empty when it matches everything. */
export class SubscriptionFilters extends Schema.Class<SubscriptionFilters>("SubscriptionFilters")({
  tickers: Schema.Array(Ticker),
  doc_types: Schema.Array(DocType)
}) {}

/** A signing secret a customer chooses: 16 characters or more. The message never repeats it. */
export const WebhookSecret = Schema.String.pipe(
  Schema.minLength(16, { message: () => "must be a string of at least 16 characters" })
).annotations({ message: () => "must be a string of at least 16 characters" })

const subscriptionFields = {
  id: Schema.String,
  url: Schema.String,
  events: Schema.Array(EventType),
  filters: SubscriptionFilters,
  status: WebhookStatus,
  created_at: Timestamp
}

/** A subscription as created: the only time its secret is shown. */
export class CreatedWebhook extends Schema.Class<CreatedWebhook>("CreatedWebhook")({
  ...subscriptionFields,
  secret: Schema.String
}) {}

/** A subscription as listed: never with its secret. */
export class Webhook extends Schema.Class<Webhook>("Webhook")({
  ...subscriptionFields,
  last_triggered_at: Schema.NullOr(Timestamp)
}) {}

/** The answer of `GET /v1/webhooks`: the calling key's subscriptions, without their secrets. */
export class WebhookList extends Schema.Class<WebhookList>("WebhookList")({
  webhooks: Schema.Array(Webhook)
}) {}

/**
 * The body of `POST /v1/webhooks`: the HTTPS `url` to deliver to, the `events` (at least one),
 * optional `filters` (absent: every ticker and document type), and an optional `secret` to sign
 * with (absent: the server generates one, `whsec_...`). A new subscription receives only events
 * recorded after it was created.
 *
 * @example
 * import { Webhooks } from "@filings/domain"
 * import { Schema } from "effect"
 *
 * Schema.decodeUnknownSync(Webhooks.CreateWebhookRequest)({
 *   url: "https://example.com/hooks/filings",
 *   events: ["filing.8k_material"],
 *   filters: { tickers: ["AAPL"] }
 * })
 */
export class CreateWebhookRequest extends Schema.Class<CreateWebhookRequest>("CreateWebhookRequest")({
  url: CallbackUrl,
  events: SubscribedEvents,
  filters: Schema.optionalWith(WebhookFilters, { exact: true }),
  secret: Schema.optionalWith(WebhookSecret, { exact: true })
}) {}

/**
 * The body of `PATCH /v1/webhooks/{id}`: each field given replaces the subscription's, the others
 * stay. `status` pauses (`paused`) or resumes (`active`) a subscription; a failed one is refused
 * and needs `POST /v1/webhooks/{id}/reactivate`.
 */
export class UpdateWebhookRequest extends Schema.Class<UpdateWebhookRequest>("UpdateWebhookRequest")({
  status: Schema.optionalWith(OneOf("active", "paused"), { exact: true }),
  url: Schema.optionalWith(CallbackUrl, { exact: true }),
  events: Schema.optionalWith(SubscribedEvents, { exact: true }),
  filters: Schema.optionalWith(WebhookFilters, { exact: true }),
  /** Rotates the signing secret: deliveries from now on are signed with this one. */
  secret: Schema.optionalWith(WebhookSecret, { exact: true })
}) {}

/**
 * The body of `POST /v1/webhooks/{id}/recover`: `since`, a timestamp. The subscription's deliveries
 * created since then that were skipped or failed are sent again.
 */
export class RecoverWebhookRequest extends Schema.Class<RecoverWebhookRequest>("RecoverWebhookRequest")({
  since: Timestamp
}) {}

/** What a recovery did: `requeued`, the number of deliveries queued to be sent again. */
export class RecoverWebhookResult extends Schema.Class<RecoverWebhookResult>("RecoverWebhookResult")({
  requeued: Schema.Number
}) {}

/**
 * Where a delivery stands: `pending` to be attempted (again), `delivered` once the receiver answered
 * 2xx, `failed` when every attempt failed, `skipped` when the subscription was paused or failed as
 * the event came (a recovery sends it).
 */
export const DeliveryState = Schema.Literal("pending", "delivered", "failed", "skipped")

/** One delivery of one event to a subscription, with the outcome of its attempts. */
export class WebhookDelivery extends Schema.Class<WebhookDelivery>("WebhookDelivery")({
  /** The `X-Service-Delivery-Id` of every attempt. */
  id: Schema.String,
  event_id: Schema.String,
  event_type: Schema.String,
  state: DeliveryState,
  attempts: Schema.Number,
  created_at: Timestamp,
  last_attempt_at: Schema.NullOr(Timestamp),
  /** The receiver's HTTP status at the last attempt, when it answered. */
  last_status: Schema.NullOr(Schema.Number),
  last_error: Schema.NullOr(Schema.String),
  next_attempt_at: Schema.NullOr(Timestamp),
  delivered_at: Schema.NullOr(Timestamp)
}) {}

/** A page of a subscription's deliveries, newest first; `next_before` continues it. */
export class WebhookDeliveryList extends Schema.Class<WebhookDeliveryList>("WebhookDeliveryList")({
  deliveries: Schema.Array(WebhookDelivery),
  next_before: Schema.NullOr(Schema.Number)
}) {}

/** The query of `GET /v1/webhooks/{id}/deliveries`: `limit` (1 to 100, default 50) and `before` to page on. */
export const DeliveryListParams = Schema.Struct({
  limit: Schema.optionalWith(IntegerInRange(1, 100), { exact: true }),
  /** A `next_before` of an earlier page. */
  before: Schema.optionalWith(PositiveInteger, { exact: true })
})
