/**
 * What a webhook delivery carries besides its signature: the header names and the JSON envelope.
 * A delivery is one HTTP POST per (event, subscription); every retry of it repeats the same
 * `X-Service-Delivery-Id`, which is what a receiver deduplicates on.
 *
 * @module
 */

/** `sha256=<64 lowercase hex>`: the HMAC-SHA256 of the raw body; see `WebhookSignature.verify`. */
export const signatureHeader = "X-Service-Signature"

/** The event type, also in the body's `event` field (`filing.new`, `press_release.new`, ...). */
export const eventHeader = "X-Service-Event"

/** One id per (event, subscription), identical on every retry: store it and drop repeats. */
export const deliveryIdHeader = "X-Service-Delivery-Id"

/**
 * The body's JSON envelope. Parse it only after the signature has been verified on the raw bytes.
 * `data` is left `unknown`: its shape depends on `event` and is documented with the API.
 */
export interface Payload {
  /** The event type, as in `X-Service-Event`. */
  readonly event: string
  /** When the event happened, ISO 8601 in UTC (`2024-11-05T21:05:00.000Z`). */
  readonly timestamp: string
  readonly data: unknown
}
