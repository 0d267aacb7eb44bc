/**
 * Chooses how an operator command reaches the data:
 *
 * 1. `FILINGS_SERVER_URL` and `FILINGS_ADMIN_TOKEN` set: through that server's `/admin` routes.
 * 2. Embedded PGlite with a server running on the same data directory: through that server, with
 *    the token it left in `server.json`.
 * 3. Otherwise: directly on the database, in this process. When that is an embedded database that
 *    does not exist yet (a command run from another folder than the server's, whose default data
 *    directory is `./.filings`), the command says which directory it is creating, on standard error.
 */
import { FileSystem } from "@effect/platform"
import { Database } from "@filings/storage-sql"
import { Console, Effect, Layer, Option, type Redacted } from "effect"
import { resolve } from "node:path"
import { adminHttpClientLayer, chatModelChoice, operatorLayer, operatorSettings } from "../Composition.js"
import * as LocalServer from "../LocalServer.js"
import { CliFailure } from "./CliFailure.js"
import * as Operator from "./Operator.js"

const direct = Operator.layerDirect(chatModelChoice).pipe(Layer.provide(operatorLayer))

/** Through the `/admin` routes of the server at `url`. */
const throughServer = (url: string, adminToken: Redacted.Redacted<string>) =>
  Operator.layerRemote(url, adminToken).pipe(Layer.provide(adminHttpClientLayer))

export const layer = Layer.unwrapEffect(
  Effect.gen(function*() {
    const { dataDirGiven, database, remote } = yield* operatorSettings
    if (Option.isSome(remote.url)) {
      if (Option.isNone(remote.adminToken)) {
        return yield* new CliFailure({ message: "FILINGS_SERVER_URL is set, so FILINGS_ADMIN_TOKEN must be set too" })
      }
      return throughServer(remote.url.value.toString().replace(/\/$/, ""), remote.adminToken.value)
    }
    if (database.url === undefined) {
      const running = yield* LocalServer.find(database.dataDir)
      if (Option.isSome(running)) return throughServer(running.value.url, running.value.adminToken)
      const fs = yield* FileSystem.FileSystem
      const pglite = Database.pgliteDataDir(database.dataDir)
      if (!(yield* fs.exists(pglite).pipe(Effect.orElseSucceed(() => false)))) {
        const setBy = dataDirGiven ? "FILINGS_DATA_DIR" : "the default, ./.filings under this folder"
        yield* Console.error(
          `note: no database in ${resolve(database.dataDir)} (${setBy}) and no server running on it; ` +
            "creating a new, empty one. To use a server's data, run this from the folder it runs in, " +
            "or set FILINGS_DATA_DIR (or FILINGS_SERVER_URL and FILINGS_ADMIN_TOKEN)."
        )
      }
    }
    return direct
  })
)
