/**
 * The API in process, through its web handler: for tests of what the handlers make of their stores'
 * answers, filled or faulted directly, without a socket or ingestion.
 */
import { FetchHttpClient, HttpApiBuilder, HttpServer } from "@effect/platform"
import { NodeContext } from "@effect/platform-node"
import { ApiError } from "@filings/domain"
import { type Context, Effect, Layer } from "effect"
import * as AdminAccess from "../../src/admin/AdminAccess.js"
import * as ApiKeys from "../../src/ApiKeys.js"
import { Ingestion } from "../../src/ingest/Ingestion.js"
import * as Server from "../../src/Server.js"
import * as ServerConfig from "../../src/ServerConfig.js"

/** Ingestion that fails: these tests store their documents themselves. */
const ingestionUnused = Layer.succeed(Ingestion, {
  ingest: () => Effect.fail(new ApiError.UnreadableFiling({ message: "not in this test" }))
})

/** What the API needs over the given stores: keys, admin access, the default configuration, the platform. */
export const dependencies = <Stores, E, R>(stores: Layer.Layer<Stores, E, R>) =>
  Layer.mergeAll(ApiKeys.layer, AdminAccess.layer, ingestionUnused).pipe(
    Layer.provideMerge(stores),
    Layer.provideMerge(ServerConfig.layer()),
    Layer.provideMerge(Layer.merge(NodeContext.layer, FetchHttpClient.layer))
  )

/** The API's web handler over the services of `context` (a runtime's); dispose of it after the tests. */
export const webHandler = (context: Context.Context<Server.Requirements>) =>
  HttpApiBuilder.toWebHandler(
    Layer.mergeAll(Server.apiLayer, HttpServer.layerContext).pipe(Layer.provide(Layer.succeedContext(context)))
  )
