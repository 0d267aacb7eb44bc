/**
 * One delivery attempt: a POST of the event's JSON to the checked callback address, connected to
 * exactly the address that was checked (the name is not resolved again, so a second answer of
 * the name cannot point the connection elsewhere), with the signature, the event type and the
 * delivery id. It counts as delivered on a 2xx within 30 seconds; a redirect is not followed and
 * counts as failed, like any other status, a time-out, a refused connection or a TLS error.
 *
 * The 30 seconds are an Effect time-out, so they run on the Effect `Clock`: the whole exchange,
 * connection, TLS, request and answer, must end within them, and tests can drive them with
 * `TestClock`.
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

export interface SenderOptions {
  /** The limit of one attempt; the specification's 30 seconds unless a test says otherwise. */
  readonly timeout?: Duration.DurationInput | undefined
  /**
   * Certificate authorities to trust instead of Node's own. A server trusts a private authority
   * through `NODE_EXTRA_CA_CERTS`; this is for code that embeds the sender in a running process.
   */
  readonly certificateAuthorities?: string | undefined
}

const describeFailure = (error: unknown): string => {
  const code = (error as { readonly code?: unknown } | null)?.code
  if (code === "ECONNREFUSED") return "connection refused"
  if (typeof code === "string" && /CERT|SSL|TLS/i.test(code)) return `TLS failure (${code})`
  return typeof code === "string" ? `connection failed (${code})` : "connection failed"
}

const post = async (
  callback: CheckedCallback,
  delivery: DeliveryRequest,
  dispatcher: Agent,
  signal: AbortSignal
): Promise<SendOutcome> => {
  const response = await request(callback.url, {
    method: "POST",
    dispatcher,
    signal,
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
  await response.body.dump({ limit: 64 * 1024, signal }).catch(() => undefined)
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
}

/** Sends one attempt; never fails: every outcome is a value. */
export const send = (callback: CheckedCallback, delivery: DeliveryRequest, options: SenderOptions = {}) => {
  const timeout = Duration.decode(options.timeout ?? AttemptTimeout)
  return Effect.acquireUseRelease(
    Effect.sync(() =>
      new Agent({
        connect: {
          lookup: pinnedLookup(callback),
          ...(options.certificateAuthorities === undefined ? {} : { ca: options.certificateAuthorities })
        },
        // The Effect time-out below is the limit; these only keep undici from giving up first.
        headersTimeout: 0,
        bodyTimeout: 0
      })
    ),
    (dispatcher) =>
      Effect.tryPromise({
        try: (signal) => post(callback, delivery, dispatcher, signal),
        catch: describeFailure
      }).pipe(
        Effect.timeoutFail({ duration: timeout, onTimeout: () => `no answer within ${Duration.format(timeout)}` }),
        Effect.catchAll((error): Effect.Effect<SendOutcome> =>
          Effect.succeed({ delivered: false, status: null, error })
        )
      ),
    (dispatcher) => Effect.promise(() => dispatcher.destroy().catch(() => undefined))
  ).pipe(Effect.withSpan("DeliverySender.send"))
}
