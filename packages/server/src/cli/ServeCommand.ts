/**
 * `filings serve`: starts the HTTP API on the configured storage and runs until stopped (Ctrl-C or
 * SIGTERM). On embedded PGlite it leaves `server.json` in the data directory so that other CLI
 * commands hand their work to it.
 */
import { Command, Options } from "@effect/cli"
import { HttpServer } from "@effect/platform"
import { Database } from "@filings/storage-sql"
import { Effect, Layer, Option } from "effect"
import { AdminAccess } from "../AdminAccess.js"
import { servicesLayer, storageLayer } from "../Composition.js"
import * as StockChangeRefresh from "../feed/StockChangeRefresh.js"
import * as SummaryJobs from "../feed/SummaryJobs.js"
import * as LocalServer from "../LocalServer.js"
import * as NewsFeeds from "../news/NewsFeeds.js"
import * as Pipeline from "../pipeline/Pipeline.js"
import * as PipelineConfig from "../pipeline/PipelineConfig.js"
import * as Server from "../Server.js"
import * as ServerConfig from "../ServerConfig.js"
import * as WebhookDelivery from "../webhooks/WebhookDelivery.js"
import * as Output from "./Output.js"
import { jsonOption } from "./SharedOptions.js"

const portOption = Options.integer("port").pipe(
  Options.withDescription("port to listen on (default FILINGS_PORT or 8080; 0 picks a free port)"),
  Options.optional
)
const hostOption = Options.text("host").pipe(
  Options.withDescription("address to listen on (default FILINGS_HOST or 127.0.0.1)"),
  Options.optional
)

const urlOf = (address: HttpServer.Address): string =>
  address._tag === "TcpAddress"
    ? `http://${address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname}:${address.port}`
    : `unix:${address.path}`

const announceAndWait = (asJson: boolean) =>
  Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const url = urlOf(server.address)
    const engine = yield* Database.DatabaseEngine
    if (engine.kind === "pglite") {
      const { dataDir } = yield* Database.config
      const { localToken } = yield* AdminAccess
      yield* LocalServer.announce(dataDir, { pid: process.pid, url, adminToken: localToken })
    }
    yield* asJson
      ? Output.jsonLine({ event: "listening", url, database: engine.kind })
      : Output.lines(`Filings API listening on ${url} (database: ${engine.kind}); docs at ${url}/docs`)
    return yield* Effect.never
  })

export const serveCommand = Command.make(
  "serve",
  { port: portOption, host: hostOption, json: jsonOption },
  ({ host, json, port }) =>
    Effect.gen(function*() {
      const settings = yield* ServerConfig.ServerConfig
      const listen = {
        host: Option.getOrElse(host, () => settings.host),
        port: Option.getOrElse(port, () => settings.port)
      }
      return yield* announceAndWait(json).pipe(
        Effect.provide(
          Layer.mergeAll(
            Server.layer(listen),
            Pipeline.layer,
            WebhookDelivery.layer,
            StockChangeRefresh.layer,
            SummaryJobs.layer,
            NewsFeeds.layer
          ).pipe(
            Layer.provide(PipelineConfig.layer()),
            Layer.provideMerge(servicesLayer),
            Layer.provideMerge(storageLayer)
          )
        ),
        Effect.provideService(ServerConfig.ServerConfig, settings),
        Effect.scoped
      )
    }).pipe(Effect.provide(ServerConfig.layer()))
).pipe(Command.withDescription("Start the HTTP API"))
