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
import { HttpClient, HttpClientRequest } from "@effect/platform"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Duration, Effect, Stream } from "effect"
import { Agent } from "undici"
import { type CheckedCallback, pinnedLookup } from "./CallbackAddress.js"

export const AttemptTimeout = Duration.seconds(30)

/** The most of a receiver's answer read before the connection is closed: receivers owe us only a status. */
const AnswerReadLimit = 64 * 1024

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

/** The attempt's request: the event's JSON, signed, to the callback URL (whose host TLS verifies). */
const requestOf = (callback: CheckedCallback, delivery: DeliveryRequest) =>
  HttpClientRequest.post(callback.url).pipe(
    HttpClientRequest.setHeaders({
      "x-service-signature": delivery.signature,
      "x-service-event": delivery.eventType,
      "x-service-delivery-id": delivery.deliveryId,
      "user-agent": "Filings-Webhooks/1"
    }),
    HttpClientRequest.bodyUint8Array(delivery.body, "application/json")
  )

/**
 * The HTTP client of one attempt, on its pinned agent. It sends the receiver no trace headers, and
 * makes no span of its own: the request's span would keep the callback URL, which may carry the
 * customer's own token; `DeliverySender.send` is the attempt's span.
 */
const clientOn = (dispatcher: Agent): HttpClient.HttpClient =>
  NodeHttpClient.makeUndici(dispatcher).pipe(
    HttpClient.withTracerPropagation(false),
    HttpClient.withTracerDisabledWhen(() => true)
  )

/** One POST through `client`; a transport failure is told in the customer's words. */
const post = (
  client: HttpClient.HttpClient,
  callback: CheckedCallback,
  delivery: DeliveryRequest
): Effect.Effect<SendOutcome, string> =>
  Effect.gen(function*() {
    const response = yield* client.execute(requestOf(callback, delivery)).pipe(
      Effect.mapError((error) => describeFailure(error._tag === "RequestError" ? error.cause : error))
    )
    // The answer is read only as far as closing needs, at most AnswerReadLimit bytes.
    yield* response.stream.pipe(
      Stream.runFoldWhile(0, (read) => read < AnswerReadLimit, (read, chunk) => read + chunk.length),
      Effect.ignore
    )
    const delivered = response.status >= 200 && response.status < 300
    return {
      delivered,
      status: response.status,
      error: delivered
        ? null
        : response.status >= 300 && response.status < 400
        ? `HTTP ${response.status}: redirects are not followed`
        : `HTTP ${response.status}`
    }
  })

/**
 * Sends one attempt; never fails: every outcome is a value. The attempt has an agent of its own,
 * whose every connection goes to the checked address (`pinnedLookup`), and goes through
 * `@effect/platform`'s HTTP client on that agent (`clientOn`), which follows no redirect.
 */
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
      post(clientOn(dispatcher), callback, delivery).pipe(
        Effect.timeoutFail({ duration: timeout, onTimeout: () => `no answer within ${Duration.format(timeout)}` }),
        Effect.catchAll((error): Effect.Effect<SendOutcome> =>
          Effect.succeed({ delivered: false, status: null, error })
        )
      ),
    (dispatcher) => Effect.promise(() => dispatcher.destroy().catch(() => undefined))
  ).pipe(Effect.withSpan("DeliverySender.send"))
}
