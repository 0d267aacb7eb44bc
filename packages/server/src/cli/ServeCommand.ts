/**
 * `filings serve`: starts the HTTP API on the configured storage and runs until stopped (Ctrl-C or
 * SIGTERM). On embedded PGlite it leaves `server.json` in the data directory so that other CLI
 * commands hand their work to it; the file is written before the first request is answered, so a
 * script that waits for `/healthz` and then runs `filings keys create` finds it. A port already
 * taken is said so, with the option that picks another.
 */
import { Command, Options } from "@effect/cli"
import { HttpServer } from "@effect/platform"
import type { ServeError } from "@effect/platform/HttpServerError"
import { Database } from "@filings/storage-sql"
import { Deferred, Effect, Layer, Option } from "effect"
import { AdminAccess } from "../admin/AdminAccess.js"
import * as Composition from "../Composition.js"
import * as LocalServer from "../LocalServer.js"
import * as Server from "../Server.js"
import * as ServerConfig from "../ServerConfig.js"
import { CliFailure } from "./CliFailure.js"
import * as Output from "./Output.js"
import { jsonOption } from "./SharedOptions.js"

const portOption = Options.integer("port").pipe(
  Options.withPseudoName("PORT"),
  Options.withDescription(
    "The TCP port to listen on; default FILINGS_PORT, else 8080; 0 picks a free one. Example: --port 8081"
  ),
  Options.optional
)
const hostOption = Options.text("host").pipe(
  Options.withPseudoName("ADDRESS"),
  Options.withDescription(
    "The address to listen on; default FILINGS_HOST, else 127.0.0.1 (this machine only). Example: --host 0.0.0.0"
  ),
  Options.optional
)

/** The code of the system error under a failure to listen (`EADDRINUSE`), when it is one. */
const systemCodeOf = (error: ServeError): string | undefined => {
  const cause: unknown = error.cause
  return typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string"
    ? cause.code
    : undefined
}

/** Why the server could not listen, in words, with what to do about it. */
const listenFailure = (error: ServeError, listen: { readonly host: string; readonly port: number }) => {
  const code = systemCodeOf(error)
  const where = `${listen.host}:${listen.port}`
  if (code === "EADDRINUSE") {
    return new CliFailure({
      message: `port ${listen.port} on ${listen.host} is already in use (another filings serve, or another ` +
        `program); start with another port, e.g. --port ${listen.port + 1}, or --port 0 for any free one`
    })
  }
  if (code === "EACCES") {
    return new CliFailure({ message: `not allowed to listen on ${where}; choose a port above 1023 with --port` })
  }
  if (code === "EADDRNOTAVAIL") {
    return new CliFailure({ message: `${listen.host} is not an address of this machine; choose another with --host` })
  }
  return new CliFailure({ message: `cannot listen on ${where}: ${code ?? String(error.cause)}` })
}

const urlOf = (address: HttpServer.Address): string =>
  address._tag === "TcpAddress"
    ? `http://${address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname}:${address.port}`
    : `unix:${address.path}`

const announceAndWait = (asJson: boolean, announced: Deferred.Deferred<void>) =>
  Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const url = urlOf(server.address)
    const engine = yield* Database.DatabaseEngine
    if (engine.kind === "pglite") {
      const { dataDir } = yield* Composition.databaseSettings
      const { localToken } = yield* AdminAccess
      yield* LocalServer.announce(dataDir, { pid: process.pid, url, adminToken: localToken })
    }
    // Requests that came before the file was written have waited for it; they are answered now.
    yield* Deferred.succeed(announced, undefined)
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
      const settings = yield* Composition.serverSettings
      const listen = {
        host: Option.getOrElse(host, () => settings.host),
        port: Option.getOrElse(port, () => settings.port)
      }
      const announced = yield* Deferred.make<void>()
      return yield* announceAndWait(json, announced).pipe(
        Effect.provide(
          Layer.merge(
            Server.layer({ ...listen, ready: Deferred.await(announced) }).pipe(
              Layer.catchAll((error) => Layer.fail(listenFailure(error, listen)))
            ),
            Composition.workersLayer
          ).pipe(
            Layer.provideMerge(Composition.servicesLayer),
            Layer.provideMerge(Composition.storageLayer)
          )
        ),
        Effect.provideService(ServerConfig.ServerConfig, settings),
        // Outermost, so that building the server and everything it runs is traced.
        Effect.provide(Composition.tracingLayer),
        Effect.scoped
      )
    })
).pipe(Command.withDescription(
  "Start the HTTP API and run until stopped (Ctrl-C). Examples: filings serve; filings serve --port 8081"
))
