/**
 * The size limit of request bodies, checked before a request reaches its route. A body whose
 * `Content-Length` is over the limit is refused at once, before a byte of it is read; a body sent
 * without a length (chunked) is read up to the limit and refused as soon as it passes it. The
 * refusal is `413 payload_too_large` with `Connection: close`, so Node closes the connection once
 * the answer is sent instead of reading the rest: a client cannot make the server hold, or even
 * receive, much more than the limit. The operator's upload routes have a limit of their own.
 *
 * A request with a `Content-Length` within the limit costs one comparison: Node's parser never
 * delivers more body than the length declared.
 */
import { HttpApiBuilder, HttpServerError, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { HttpApp } from "@effect/platform"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import * as NodeStream from "@effect/platform-node/NodeStream"
import { ApiError } from "@filings/domain"
import { Effect, type Layer, Option, Schema, Stream } from "effect"
import { type BodyLimits, ServerConfig } from "../ServerConfig.js"

/** The routes whose bodies are the operator's uploads: a filing, and the regulator's list of companies. */
const uploadPaths: ReadonlySet<string> = new Set(["/admin/ingest", "/admin/companies/listing"])

const pathOf = (url: string): string => url.split("?", 1)[0] ?? url

/** The limit of the route a request is for. */
const limitOf = (limits: BodyLimits, url: string): number =>
  uploadPaths.has(pathOf(url)) ? limits.maxUploadBytes : limits.maxBodyBytes

/**
 * The 413 answer, in the API's envelope. `Connection: close` makes Node close the connection once
 * the answer is written, instead of reading and discarding the rest of the body to keep it open.
 */
export const payloadTooLarge = (message: string): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.unsafeJson(
    Schema.encodeSync(ApiError.PayloadTooLargeResponse)(new ApiError.PayloadTooLarge({ message })),
    { status: 413, headers: { connection: "close" } }
  )

const unreadableBody = HttpServerResponse.unsafeJson(
  Schema.encodeSync(ApiError.InvalidRequestResponse)(
    new ApiError.InvalidRequest({ message: "the request body could not be read" })
  ),
  { status: 400, headers: { connection: "close" } }
)

const refusal = (request: HttpServerRequest.HttpServerRequest, limit: number, size: string) =>
  Effect.succeed(
    payloadTooLarge(
      `${request.method} ${pathOf(request.url)} takes a body of at most ${limit} bytes; this one is ${size}`
    )
  )

/**
 * The body of a request that did not declare its length, read up to `limit` bytes: none when it is
 * longer. The reading stops at the limit without destroying the request, which would close the
 * connection before the 413 is written.
 */
const readAtMost = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number
): Effect.Effect<Option.Option<Uint8Array>, HttpServerError.RequestError> =>
  Effect.suspend(() => {
    const chunks: Array<Uint8Array> = []
    let received = 0
    return NodeStream.fromReadable<HttpServerError.RequestError, Uint8Array>(
      () => NodeHttpServerRequest.toIncomingMessage(request),
      (cause) => new HttpServerError.RequestError({ request, reason: "Decode", cause }),
      { closeOnDone: false }
    ).pipe(
      Stream.runForEachWhile((chunk) =>
        Effect.sync(() => {
          received += chunk.length
          if (received > limit) return false
          chunks.push(chunk)
          return true
        })
      ),
      Effect.map(() => (received > limit ? Option.none() : Option.some(Buffer.concat(chunks))))
    )
  })

/**
 * The request again, its body the bytes already read: the routes read it as they read any body.
 * (The platform's own limit, `HttpIncomingMessage.MaxBodySize`, destroys the request when it is
 * passed, and with it the connection, so the client would never see the 413.)
 */
const withBody = (request: HttpServerRequest.HttpServerRequest, body: Uint8Array) => {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (name !== "transfer-encoding") headers.set(name, value)
  }
  headers.set("content-length", String(body.byteLength))
  const web = new Request(new URL(request.url, "http://localhost"), { method: request.method, headers, body })
  const rebuilt = HttpServerRequest.fromWeb(web)
  return Option.match(request.remoteAddress, {
    onNone: () => rebuilt,
    onSome: (remoteAddress) => rebuilt.modify({ remoteAddress })
  })
}

/** Serves `app` to requests whose bodies are within their route's limit, and answers 413 to the others. */
export const limited = (limits: BodyLimits) => <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> => {
  const { maxBodyBytes } = limits
  const chunked = (request: HttpServerRequest.HttpServerRequest) => {
    const limit = limitOf(limits, request.url)
    return Effect.matchEffect(readAtMost(request, limit), {
      // The client went away, or broke the chunked encoding: no one may be left to read this.
      onFailure: () => Effect.succeed(unreadableBody),
      onSuccess: Option.match({
        onNone: () => refusal(request, limit, "longer"),
        onSome: (body) => Effect.provideService(app, HttpServerRequest.HttpServerRequest, withBody(request, body))
      })
    })
  }
  return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const declared = request.headers["content-length"]
    if (declared !== undefined) {
      const length = Number(declared)
      if (length <= maxBodyBytes) return app
      const limit = limitOf(limits, request.url)
      return length <= limit ? app : refusal(request, limit, `${length} bytes`)
    }
    // Without a length, a body comes chunked; a request with neither has none.
    return request.headers["transfer-encoding"] === undefined ? app : chunked(request)
  })
}

/**
 * The limits as a middleware of the API: around its routes, so that a route reads the body already
 * read, and inside the server's writing of the answer, which must see the request Node gave it.
 */
export const layer: Layer.Layer<never, never, ServerConfig> = HttpApiBuilder.middleware(
  Effect.map(ServerConfig, ({ bodyLimits }) => limited(bodyLimits))
)
