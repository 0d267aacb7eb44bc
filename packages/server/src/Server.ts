/**
 * The HTTP server: the `/v1` API with its handlers, authentication and error envelope, the
 * OpenAPI document at `/openapi.json` and a docs page at `/docs`, all from the one definition in
 * `@filings/domain`. Storage and the services the handlers use are provided by the caller.
 */
import type { FileSystem, HttpApi, HttpClient } from "@effect/platform"
import { HttpApiBuilder, HttpApiScalar, HttpMiddleware, HttpServer } from "@effect/platform"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import type { ServeError } from "@effect/platform/HttpServerError"
import { Api } from "@filings/domain"
import type {
  CompanyStore,
  DeliveryStore,
  DocumentStore,
  EventStore,
  ExtractionStore,
  FeedStore,
  JobQueue,
  RateLimitStore,
  SearchIndex,
  WebhookStore
} from "@filings/storage"
import { Effect, Layer } from "effect"
import type { AdminAccess } from "./admin/AdminAccess.js"
import * as AdminHandlers from "./admin/AdminHandlers.js"
import type { ApiKeys } from "./ApiKeys.js"
import * as Chat from "./chat/Chat.js"
import * as ChatHandlers from "./chat/ChatHandlers.js"
import * as CompaniesHandlers from "./companies/CompaniesHandlers.js"
import * as DocumentsHandlers from "./documents/DocumentsHandlers.js"
import * as ExtractHandlers from "./extract/ExtractHandlers.js"
import * as FeedHandlers from "./feed/FeedHandlers.js"
import * as Authorization from "./http/Authorization.js"
import * as BodyLimits from "./http/BodyLimits.js"
import * as ConnectionTimeouts from "./http/ConnectionTimeouts.js"
import * as ErrorEnvelope from "./http/ErrorEnvelope.js"
import * as RequestLog from "./http/RequestLog.js"
import * as RouteTable from "./http/RouteTable.js"
import * as SystemHandlers from "./http/SystemHandlers.js"
import type { Ingestion } from "./ingest/Ingestion.js"
import * as PrometheusMetrics from "./observability/PrometheusMetrics.js"
import * as RequestMetrics from "./observability/RequestMetrics.js"
import * as PassageSearch from "./search/Search.js"
import * as SearchHandlers from "./search/SearchHandlers.js"
import * as SectionsHandlers from "./sections/SectionsHandlers.js"
import { ServerConfig } from "./ServerConfig.js"
import * as StreamsHandlers from "./streams/StreamsHandlers.js"
import * as TimelineHandlers from "./timeline/TimelineHandlers.js"
import * as WebhooksHandlers from "./webhooks/WebhooksHandlers.js"

/** What the handlers need from the composition root. */
export type Requirements =
  | DocumentStore.DocumentStore
  | SearchIndex.SearchIndex
  | ExtractionStore.ExtractionStore
  | CompanyStore.CompanyStore
  | RateLimitStore.RateLimitStore
  | EventStore.EventStore
  | FeedStore.FeedStore
  | WebhookStore.WebhookStore
  | DeliveryStore.DeliveryStore
  | JobQueue.JobQueue
  | ApiKeys
  | AdminAccess
  | Ingestion
  | ServerConfig
  | FileSystem.FileSystem
  /** What the chat answerer asks a configured chat model through. */
  | HttpClient.HttpClient

/** The API with every handler, ready to serve or to turn into a web handler for tests. */
export const apiLayer: Layer.Layer<HttpApi.Api, never, Requirements> = Layer.mergeAll(
  HttpApiBuilder.api(Api.FilingsApi).pipe(
    Layer.provide([
      DocumentsHandlers.layer,
      SectionsHandlers.layer,
      SearchHandlers.layer,
      StreamsHandlers.layer,
      ChatHandlers.layer,
      ExtractHandlers.layer,
      WebhooksHandlers.layer,
      FeedHandlers.layer,
      TimelineHandlers.layer,
      CompaniesHandlers.layer,
      CompaniesHandlers.adminLayer,
      AdminHandlers.layer,
      SystemHandlers.layer
    ]),
    Layer.provide([
      Authorization.layer,
      Authorization.streamLayer,
      AdminHandlers.authorizationLayer,
      Chat.layer.pipe(Layer.provideMerge(PassageSearch.layer)),
      StreamsHandlers.servicesLayer,
      PrometheusMetrics.layer
    ])
  ),
  ErrorEnvelope.layer,
  RouteTable.routerConfig
)

/**
 * The docs page's settings: bearer auth (the API key) chosen for every request tried from the page,
 * and no web fonts, so the page asks nothing of any other host; its script is inlined.
 */
const docsPage: HttpApiScalar.ScalarConfig & {
  readonly authentication: { readonly preferredSecurityScheme: string }
} = {
  withDefaultFonts: false,
  favicon: "data:,",
  authentication: { preferredSecurityScheme: "apiKey" }
}

/**
 * Serves the API, the OpenAPI document and the docs page on `host:port` (port 0 picks a free one).
 * The running `HttpServer` is part of the output, so the caller can read the address it got.
 */
export const layer = (options: {
  readonly host: string
  readonly port: number
  /**
   * Completes when the server may answer: a request that comes earlier waits for it (`serve`
   * writes `server.json` first, so whoever saw the server answer finds the file).
   */
  readonly ready?: Effect.Effect<void> | undefined
}): Layer.Layer<HttpServer.HttpServer, ServeError, Exclude<Requirements, FileSystem.FileSystem>> =>
  Layer.unwrapEffect(Effect.map(ServerConfig, ({ connectionTimeouts }) =>
    HttpApiBuilder.serve((app) => {
      const { ready } = options
      return RequestLog.logger(RequestMetrics.measured(ready === undefined ? app : Effect.zipRight(ready, app)))
    }).pipe(
      // A span would keep the URL whole, a query-string key with it.
      HttpMiddleware.withTracerDisabledWhen((request) => RequestLog.carriesQueryKey(request.url)),
      Layer.provide(HttpApiScalar.layer({ path: "/docs", scalar: docsPage })),
      Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
      // Body limits only where Node serves: they read a body without a length from Node's request.
      Layer.provide([apiLayer, BodyLimits.layer]),
      HttpServer.withLogAddress,
      Layer.provideMerge(
        NodeHttpServer.layer(ConnectionTimeouts.nodeServer(connectionTimeouts), {
          host: options.host,
          port: options.port
        })
      )
    )))
