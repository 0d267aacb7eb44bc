/**
 * One delivery attempt: a POST of the event's JSON to the checked callback address, connected to
 * exactly the address that was checked (the name is not resolved again, so a second answer of
 * the name cannot point the connection elsewhere), with the signature, the event type and the
 * delivery id. It counts as delivered on a 2xx within 30 seconds; a redirect is not followed and
 * counts as failed, like any other status, a time-out, a refused connection or a TLS error.
 */
import { Duration, Effect } from "effect"
import { Agent, request } from "undici"
import { type CheckedCallback, pinnedLookup } from "./CallbackAddress.js"

export const AttemptTimeout = Duration.seconds(30)

export interface DeliveryRequest {
  readonly body: Uint8Array
  readonly signature: string
  readonly eventType: string
  readonly deliveryId: string
}

export interface SendOutcome {
  readonly delivered: boolean
  /** The receiver's status, when it answered. */
  readonly status: number | null
  /** Why it was not delivered, in words fit for the customer's delivery log. */
  readonly error: string | null
}

const describeFailure = (error: unknown): string => {
  const code = (error as { readonly code?: unknown }).code
  if (
    code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT" || (error as Error).name === "TimeoutError"
  ) {
    return `no answer within ${Duration.format(AttemptTimeout)}`
  }
  if (code === "ECONNREFUSED") return "connection refused"
  if (typeof code === "string" && /CERT|SSL|TLS/i.test(code)) return `TLS failure (${code})`
  return typeof code === "string" ? `connection failed (${code})` : "connection failed"
}

/** Sends one attempt; never fails: every outcome is a value. */
export const send = (
  callback: CheckedCallback,
  delivery: DeliveryRequest,
  timeout: Duration.DurationInput = AttemptTimeout
) =>
  Effect.promise(async (): Promise<SendOutcome> => {
    const millis = Duration.toMillis(timeout)
    const dispatcher = new Agent({
      connect: { lookup: pinnedLookup(callback) },
      headersTimeout: millis,
      bodyTimeout: millis
    })
    try {
      const response = await request(callback.url, {
        method: "POST",
        dispatcher,
        signal: AbortSignal.timeout(millis),
        headers: {
          "content-type": "application/json",
          "x-service-signature": delivery.signature,
          "x-service-event": delivery.eventType,
          "x-service-delivery-id": delivery.deliveryId,
          "user-agent": "Filings-Webhooks/1"
        },
        body: delivery.body
      })
      // The answer's body is not read beyond what closing needs: receivers owe us only a status.
      await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined)
      const delivered = response.statusCode >= 200 && response.statusCode < 300
      return {
        delivered,
        status: response.statusCode,
        error: delivered
          ? null
          : response.statusCode >= 300 && response.statusCode < 400
          ? `HTTP ${response.statusCode}: redirects are not followed`
          : `HTTP ${response.statusCode}`
      }
    } catch (error) {
      return { delivered: false, status: null, error: describeFailure(error) }
    } finally {
      await dispatcher.close().catch(() => undefined)
    }
  })
