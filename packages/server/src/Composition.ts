/**
 * The composition root: which storage, which rate-limit store and which services the server and
 * the CLI run on, all chosen from configuration (`FILINGS_*`).
 *
 * - `FILINGS_DATABASE_URL` set: PostgreSQL, shared by any number of server instances; the rate
 *   limit is kept in the database so every instance enforces one limit per key.
 * - Unset: embedded PGlite under `FILINGS_DATA_DIR` (default `./.filings`), one process, with the
 *   rate limit kept in memory.
 */
import { MemoryStorage } from "@filings/storage"
import { Database, SqlStorage } from "@filings/storage-sql"
import { Effect, Layer, Option } from "effect"
import * as AdminAccess from "./AdminAccess.js"
import * as ApiKeys from "./ApiKeys.js"
import * as SummaryModels from "./feed/SummaryModels.js"
import * as Ingest from "./ingest/Ingest.js"
import * as MarketDataLayer from "./market/MarketDataLayer.js"
import { ServerConfig } from "./ServerConfig.js"

const rateLimitStore = Layer.unwrapEffect(
  Effect.gen(function*() {
    const engine = yield* Database.DatabaseEngine
    const { rateLimitStore } = yield* ServerConfig
    const choice = Option.getOrElse(rateLimitStore, () => (engine.kind === "postgres" ? "database" : "memory"))
    yield* Effect.logDebug(`rate limits are kept in ${choice}`)
    return choice === "database" ? SqlStorage.rateLimitStore : MemoryStorage.rateLimitStore
  })
)

/** Every storage port on the configured database, plus the database engine itself. */
export const storageLayer = Layer.mergeAll(
  SqlStorage.documentStore,
  SqlStorage.extractionStore,
  SqlStorage.companyStore,
  SqlStorage.apiKeyStore,
  SqlStorage.jobQueue,
  SqlStorage.eventStore,
  SqlStorage.cursorStore,
  SqlStorage.webhookStore,
  SqlStorage.deliveryStore,
  SqlStorage.feedStore,
  rateLimitStore
).pipe(Layer.provideMerge(Database.layerConfig))

/**
 * The services on top of storage that the HTTP handlers and the CLI share, with the summary model
 * and the market data they use.
 */
export const servicesLayer = Layer.mergeAll(ApiKeys.layer, AdminAccess.layer, Ingest.layer).pipe(
  Layer.provideMerge(Layer.merge(SummaryModels.layer, MarketDataLayer.layer))
)
