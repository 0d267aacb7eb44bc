/**
 * The composition root: which storage, which rate-limit store, which services and which EDGAR
 * client `filings serve` and the operator commands run on, all chosen from configuration
 * (`FILINGS_*`, named in `Environment` for the libraries and in `ServerConfig` for the server).
 *
 * - `FILINGS_DATABASE_URL` set: PostgreSQL, shared by any number of server instances; the rate
 *   limit is kept in the database so every instance enforces one limit per key.
 * - Unset: embedded PGlite under `FILINGS_DATA_DIR` (default `./.filings`), one process, with the
 *   rate limit kept in memory.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { EdgarClient, EdgarConfig, FairAccess } from "@filings/edgar"
import { MemoryStorage } from "@filings/storage"
import { Database, SqlStorage } from "@filings/storage-sql"
import { Effect, Layer, Option } from "effect"
import * as AdminAccess from "./AdminAccess.js"
import * as ApiKeys from "./ApiKeys.js"
import * as Environment from "./Environment.js"
import * as StockChangeRefresh from "./feed/StockChangeRefresh.js"
import * as SummaryJobs from "./feed/SummaryJobs.js"
import * as SummaryModels from "./feed/SummaryModels.js"
import * as Ingest from "./ingest/Ingest.js"
import * as MarketDataLayer from "./market/MarketDataLayer.js"
import * as NewsFeeds from "./news/NewsFeeds.js"
import * as Pipeline from "./pipeline/Pipeline.js"
import * as PipelineConfig from "./pipeline/PipelineConfig.js"
import * as ServerConfig from "./ServerConfig.js"
import * as WebhookDelivery from "./webhooks/WebhookDelivery.js"

const rateLimitStore = Layer.unwrapEffect(
  Effect.gen(function*() {
    const engine = yield* Database.DatabaseEngine
    const { rateLimitStore } = yield* ServerConfig.ServerConfig
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
).pipe(Layer.provideMerge(Database.layerConfig(Environment.database).pipe(Layer.mapError(Environment.databaseError))))

/**
 * The services on top of storage that the HTTP handlers and the CLI share, with the summary model
 * and the market data they use.
 */
export const servicesLayer = Layer.mergeAll(ApiKeys.layer, AdminAccess.layer, Ingest.layer).pipe(
  Layer.provideMerge(Layer.merge(SummaryModels.layer, MarketDataLayer.layer))
)

/** The regulator's client, one fair-access limit per process. */
export const edgarLayer = EdgarClient.layerConfig(Environment.edgarClient).pipe(
  Layer.provideMerge(FairAccess.layer),
  Layer.provideMerge(EdgarConfig.layerConfig(Environment.edgar)),
  Layer.provide(NodeHttpClient.layerUndici)
)

/**
 * What `filings serve` runs beside the HTTP API: the EDGAR pipeline, webhook delivery, the feed's
 * refreshers and summary jobs, the news feeds.
 */
export const workersLayer = Layer.mergeAll(
  Pipeline.layer,
  WebhookDelivery.layer,
  StockChangeRefresh.layer,
  SummaryJobs.layer,
  NewsFeeds.layer
).pipe(Layer.provideMerge(edgarLayer), Layer.provide(PipelineConfig.layer()))

/** The services, on their storage, with the server's settings: what the operator commands work on directly. */
export const operatorLayer = servicesLayer.pipe(
  Layer.provideMerge(storageLayer),
  Layer.provideMerge(ServerConfig.layer())
)
