/**
 * The framework floor of the HTTP benchmark: a minimal Effect `HttpApi` on the same
 * `@effect/platform` as the real server, with the same `Authorization: Bearer` check (a SHA-256 of
 * the presented key looked up among in-memory keys) and the same `X-RateLimit-*` headers (a
 * per-key count in a one-minute window, in memory), answering each recorded request target with
 * the bytes the real server gave for it. No storage, no schema encoding of the body: what it costs
 * per request is what the framework and the request's bookkeeping cost, so the real server's
 * distance from it is the cost of reading storage and building the answer.
 *
 * Run as its own process: `node --import tsx bench/support/frameworkFloor.ts ROUTES.json`, with
 * the API key in `BENCH_API_KEY`. It prints `{"event":"listening","url":...}` like
 * `filings serve --json`, and stops on SIGTERM.
 */
import {
  HttpApi,
  HttpApiBuilder,
  HttpApiEndpoint,
  HttpApiError,
  HttpApiGroup,
  HttpApiMiddleware,
  HttpApiSecurity,
  HttpApp,
  HttpServer,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Clock, Context, Effect, Layer, Redacted, Schema } from "effect"
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import { decodeRecordedResponses, type RecordedResponse } from "./recordedResponse.js"

const routesFile = process.argv[2]
const apiKey = process.env.BENCH_API_KEY
if (routesFile === undefined || apiKey === undefined) {
  process.stderr.write("usage: BENCH_API_KEY=<key> frameworkFloor.ts ROUTES.json\n")
  process.exit(2)
}

// --- What it answers --------------------------------------------------------------------------

interface ConstantResponse {
  readonly status: number
  readonly contentType: string
  readonly body: Uint8Array
}

// The rate-limit headers are the floor's own, counted per request like the real server's.
const toConstant = (recorded: RecordedResponse): ConstantResponse => ({
  status: recorded.status,
  contentType: recorded.headers["content-type"] ?? "application/json",
  body: Buffer.from(recorded.bodyBase64, "base64")
})

const routes = new Map(
  decodeRecordedResponses(readFileSync(routesFile, "utf8")).map((recorded) => [recorded.target, toConstant(recorded)])
)

const recordedAnswer = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const route = routes.get(request.url)
  if (route === undefined) return yield* new HttpApiError.NotFound()
  return HttpServerResponse.uint8Array(route.body, { status: route.status, contentType: route.contentType })
})

// --- The API: the real routes' paths, parameters and payload, with plain schemas ----------------

class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", {}, { status: 401 }) {}

class CurrentKey extends Context.Tag("bench/CurrentKey")<CurrentKey, { readonly id: string }>() {}

class Authorization extends HttpApiMiddleware.Tag<Authorization>()("bench/Authorization", {
  failure: Unauthorized,
  provides: CurrentKey,
  security: { apiKey: HttpApiSecurity.bearer }
}) {}

const optionalText = Schema.optional(Schema.String)

class Documents extends HttpApiGroup.make("documents")
  .add(
    HttpApiEndpoint.get("getDocument", "/v1/documents/:publication_id")
      .setPath(Schema.Struct({ publication_id: Schema.String }))
      .setUrlParams(Schema.Struct({ format: optionalText }))
      .addSuccess(Schema.Unknown)
      .addError(HttpApiError.NotFound)
  )
  .add(
    HttpApiEndpoint.get("listDocuments", "/v1/documents")
      .setUrlParams(Schema.Struct({ tickers: optionalText, limit: optionalText }))
      .addSuccess(Schema.Unknown)
      .addError(HttpApiError.NotFound)
  )
  .middleware(Authorization)
{}

class Feed extends HttpApiGroup.make("feed")
  .add(
    HttpApiEndpoint.post("feed", "/v1/feed")
      .setPayload(Schema.Struct({ tickers: Schema.Array(Schema.String), limit: Schema.optional(Schema.Number) }))
      .addSuccess(Schema.Unknown)
      .addError(HttpApiError.NotFound)
  )
  .middleware(Authorization)
{}

class FloorApi extends HttpApi.make("floor").add(Documents).add(Feed) {}

// --- Authorization and rate limit, in memory --------------------------------------------------

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex")
const keys = new Map([[sha256(apiKey), { id: "bench", rateLimit: 1_000_000 }]])
const windowMillis = 60_000
const windows = new Map<string, { start: number; count: number }>()

const authorizationLayer = Layer.succeed(
  Authorization,
  Authorization.of({
    apiKey: (token) =>
      Effect.gen(function*() {
        const key = keys.get(sha256(Redacted.value(token)))
        if (key === undefined) return yield* new Unauthorized()
        const now = yield* Clock.currentTimeMillis
        const start = now - (now % windowMillis)
        const current = windows.get(key.id)
        const count = current !== undefined && current.start === start ? current.count + 1 : 1
        windows.set(key.id, { start, count })
        const headers = {
          "x-ratelimit-limit": String(key.rateLimit),
          "x-ratelimit-remaining": String(Math.max(0, key.rateLimit - count)),
          "x-ratelimit-reset": String(Math.ceil((start + windowMillis) / 1000))
        }
        yield* HttpApp.appendPreResponseHandler((_request, response) =>
          Effect.succeed(HttpServerResponse.setHeaders(response, headers))
        )
        return { id: key.id }
      })
  })
)

const documentsLayer = HttpApiBuilder.group(FloorApi, "documents", (handlers) =>
  handlers
    .handle("getDocument", () => recordedAnswer)
    .handle("listDocuments", () => recordedAnswer))

const feedLayer = HttpApiBuilder.group(FloorApi, "feed", (handlers) => handlers.handle("feed", () => recordedAnswer))

const announceAddress = Effect.gen(function*() {
  const server = yield* HttpServer.HttpServer
  const address = server.address as HttpServer.TcpAddress
  process.stdout.write(`${JSON.stringify({ event: "listening", url: `http://${address.hostname}:${address.port}` })}\n`)
})

const serverLayer = HttpApiBuilder.serve().pipe(
  Layer.provide(
    HttpApiBuilder.api(FloorApi).pipe(Layer.provide([documentsLayer, feedLayer]), Layer.provide(authorizationLayer))
  ),
  Layer.provideMerge(NodeHttpServer.layer(createServer, { host: "127.0.0.1", port: 0 }))
)

NodeRuntime.runMain(Layer.launch(Layer.effectDiscard(announceAddress).pipe(Layer.provideMerge(serverLayer))))
