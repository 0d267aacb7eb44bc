/**
 * The composition root: the one place that reads the operator's environment (`FILINGS_*`, named in
 * `Environment`) and builds from it what `filings serve`, the operator commands and
 * `filings edgar backfill` run on: which storage, which rate-limit store, which services, which
 * EDGAR client and which background workers. Every module below takes its settings as options.
 *
 * - `FILINGS_DATABASE_URL` set: PostgreSQL, shared by any number of server instances; the rate
 *   limit is kept in the database so every instance enforces one limit per key.
 * - Unset: embedded PGlite under `FILINGS_DATA_DIR` (default `./.filings`), one process, with the
 *   rate limit kept in memory.
 * - On PostgreSQL the instances also share the regulator's request budget and the leases that give
 *   one instance the work only one should do (`Coordination`); on PGlite both stay in the process.
 */
import { FetchHttpClient } from "@effect/platform"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { EdgarClient, EdgarConfig, FairAccess } from "@filings/edgar"
import { MemoryStorage } from "@filings/storage"
import { Database, SqlStorage } from "@filings/storage-sql"
import { type ConfigError, Effect, Layer, Logger, Option } from "effect"
import * as AdminAccess from "./admin/AdminAccess.js"
import * as ApiKeys from "./ApiKeys.js"
import * as DocumentCache from "./caches/DocumentCache.js"
import * as SharedRegulatorBudget from "./coordination/SharedRegulatorBudget.js"
import * as Environment from "./Environment.js"
import * as StockChangeRefresh from "./feed/StockChangeRefresh.js"
import * as SummaryJobs from "./feed/SummaryJobs.js"
import * as SummaryModels from "./feed/SummaryModels.js"
import * as Ingest from "./ingest/Ingest.js"
import * as QueueWorkers from "./jobs/QueueWorkers.js"
import * as PeriodCorrection from "./maintenance/PeriodCorrection.js"
import * as Retention from "./maintenance/Retention.js"
import * as MarketDataLayer from "./market/MarketDataLayer.js"
import * as NewsFeeds from "./news/NewsFeeds.js"
import * as Tracing from "./observability/Tracing.js"
import * as EdgarFailureWording from "./pipeline/EdgarFailureWording.js"
import * as Pipeline from "./pipeline/Pipeline.js"
import * as PipelineConfig from "./pipeline/PipelineConfig.js"
import * as TranscriptFolder from "./pipeline/TranscriptFolder.js"
import * as ServerConfig from "./ServerConfig.js"
import * as WebhookDelivery from "./webhooks/WebhookDelivery.js"

/** A layer made from settings read from the environment. */
const fromEnvironment = <A, E, ROut, E2, RIn>(
  settings: Effect.Effect<A, E>,
  layer: (settings: A) => Layer.Layer<ROut, E2, RIn>
): Layer.Layer<ROut, E | E2, RIn> => Layer.unwrapEffect(Effect.map(settings, layer))

// ---------------------------------------------------------------------------------------------------
// Settings the commands look at themselves
// ---------------------------------------------------------------------------------------------------

/** Runs `program` logging at the operator's level (`FILINGS_LOG_LEVEL`). */
export const withConfiguredLogLevel = <A, E, R>(
  program: Effect.Effect<A, E, R>
): Effect.Effect<A, E | ConfigError.ConfigError, R> =>
  Effect.flatMap(Environment.logLevel, (level) => Logger.withMinimumLogLevel(program, level))

/** The server's settings: where `serve` listens by default, and what the HTTP API is given. */
export const serverSettings: Effect.Effect<ServerConfig.Settings, ConfigError.ConfigError> = Effect.map(
  Effect.all({ settings: Environment.server, chatModel: Environment.chatModelChoice }),
  ({ chatModel, settings }) => ({ ...settings, chatModel })
)

/**
 * The chat model `filings ask` answers with (`FILINGS_CHAT_MODEL_*`, else the summary model's),
 * read when asked, so a bad setting fails that command alone.
 */
export const chatModelChoice = Environment.chatModelChoice

/** The secret `filings webhooks listen` checks deliveries' signatures with (`FILINGS_WEBHOOK_SECRET`). */
export const webhookListenerSecret = Environment.webhookListenerSecret

/** Where the database is, for the commands that look before opening it. */
export const databaseSettings = Environment.databaseSettings

/** What an operator command needs to choose between a remote server, a local one and the database. */
export const operatorSettings = Effect.all({
  remote: Environment.remoteServer,
  database: Environment.databaseSettings,
  dataDirGiven: Environment.dataDirGiven
})

// ---------------------------------------------------------------------------------------------------
// Layers
// ---------------------------------------------------------------------------------------------------

/**
 * The HTTP client of requests to third parties (the regulator, the chat model): undici, one
 * connection pool for the layer's lifetime.
 */
export const outboundHttpClientLayer = NodeHttpClient.layerUndici

/** Traces to the operator's OpenTelemetry collector, when `OTEL_EXPORTER_OTLP_ENDPOINT` names one. */
export const tracingLayer = fromEnvironment(Environment.tracing, Tracing.layer)

/** The server's settings as a service. */
export const serverConfigLayer = fromEnvironment(serverSettings, ServerConfig.layer)

const rateLimitStore = Layer.unwrapEffect(
  Effect.gen(function*() {
    const engine = yield* Database.DatabaseEngine
    const { rateLimitStore } = yield* ServerConfig.ServerConfig
    const choice = Option.getOrElse(rateLimitStore, () => (engine.kind === "postgres" ? "database" : "memory"))
    yield* Effect.logDebug(`rate limits are kept in ${choice}`)
    return choice === "database" ? SqlStorage.rateLimitStore : MemoryStorage.rateLimitStore
  })
)

/** Budgets and leases: in the database on PostgreSQL, shared by every instance; in memory on PGlite, one process. */
const coordination = Layer.unwrapEffect(
  Effect.map(
    Database.DatabaseEngine,
    (engine) => (engine.kind === "postgres" ? SqlStorage.coordination : MemoryStorage.coordination)
  )
)

/**
 * The document store, with the cache of `GET /v1/documents/{id}` answers beside it: every save in
 * this process forgets the saved document's answers (see `DocumentCache`).
 */
const documentStore = DocumentCache.invalidatingStore.pipe(
  Layer.provide(SqlStorage.documentStore),
  Layer.provideMerge(DocumentCache.layer)
)

/** Every storage port on the configured database, plus the database engine itself. */
export const storageLayer = Layer.mergeAll(
  documentStore,
  SqlStorage.searchIndex,
  SqlStorage.extractionStore,
  SqlStorage.companyStore,
  SqlStorage.apiKeyStore,
  SqlStorage.jobQueue,
  SqlStorage.eventStore,
  SqlStorage.cursorStore,
  SqlStorage.webhookStore,
  SqlStorage.deliveryStore,
  SqlStorage.feedStore,
  rateLimitStore,
  coordination
).pipe(Layer.provideMerge(Database.layerConfig(Environment.database).pipe(Layer.mapError(Environment.databaseError))))

/** The configured summary model: `filings summarize` uses the one the server would. */
export const summaryModelLayer = fromEnvironment(Environment.summaryModelChoice, SummaryModels.layer)

/** The configured source of daily closes; a CSV file that cannot be used names its variable. */
export const marketDataLayer = fromEnvironment(
  Environment.marketData,
  (source) => MarketDataLayer.layer(source).pipe(Layer.mapError(Environment.marketDataError))
)

/**
 * The services on top of storage that the HTTP handlers and the CLI share, with the summary model
 * and the market data they use, and the outbound HTTP client the chat answerer asks its model with.
 */
export const servicesLayer = Layer.mergeAll(ApiKeys.layer, AdminAccess.layer, Ingest.layer).pipe(
  Layer.provideMerge(
    Layer.mergeAll(summaryModelLayer, marketDataLayer, outboundHttpClientLayer)
  )
)

/** The regulator's client with the given fair-access gate. */
const edgarClientLayer = <E, R>(fairAccess: Layer.Layer<FairAccess.FairAccess, E, R | EdgarConfig.EdgarConfig>) =>
  EdgarClient.layerConfig(Environment.edgarClient).pipe(
    Layer.provideMerge(fairAccess),
    Layer.provideMerge(EdgarConfig.layerConfig(Environment.edgar)),
    Layer.provide(outboundHttpClientLayer)
  )

/**
 * The regulator's client of a one-off command (`edgar backfill`, `companies sync`): with a
 * PostgreSQL database named (`FILINGS_DATABASE_URL`) it takes every start from the budget the
 * servers on that database share, so it can run while they follow EDGAR and all of them together
 * stay within `FILINGS_EDGAR_MAX_RPS`; on an embedded database, this process's own count.
 */
const commandEdgarLayer = edgarClientLayer(Layer.unwrapEffect(Effect.map(
  Environment.databaseSettings,
  (database) =>
    database.url === undefined
      ? FairAccess.layer
      : SharedRegulatorBudget.fairAccessLayer.pipe(
        Layer.provide(SqlStorage.coordination),
        Layer.provide(Database.layerConfig(Environment.database).pipe(Layer.mapError(Environment.databaseError)))
      )
)))

/**
 * The regulator's client of a server: on PostgreSQL every instance takes each request from one
 * budget in the database, so N instances together stay within `FILINGS_EDGAR_MAX_RPS`; on PGlite,
 * one process, its own count.
 */
const followingEdgarLayer = edgarClientLayer(Layer.unwrapEffect(Effect.map(
  Database.DatabaseEngine,
  (engine) => (engine.kind === "postgres" ? SharedRegulatorBudget.fairAccessLayer : FairAccess.layer)
)))

/** What the pipeline follows, and how; EDGAR's failures worded to name the variable that fixes them. */
const pipelineConfigLayer = Layer.merge(
  fromEnvironment(Environment.pipeline, PipelineConfig.layer),
  EdgarFailureWording.layer(Environment.edgarMessage)
)

/**
 * The EDGAR client, the forms kept and the wording of EDGAR's failures: what `filings edgar backfill`
 * and `filings companies sync` run on.
 */
export const backfillLayer = commandEdgarLayer.pipe(Layer.provideMerge(pipelineConfigLayer))

/** The transcript folder's watch, when the operator names a folder. */
const transcriptFolderLayer = fromEnvironment(
  Environment.transcriptFolder,
  Option.match({ onNone: () => Layer.empty, onSome: TranscriptFolder.layer })
)

/** The stock moves looked at again, only while a source of market data is configured. */
const stockChangeRefreshLayer = Layer.unwrapEffect(
  Effect.gen(function*() {
    if (!(yield* Environment.marketDataConfigured)) return Layer.empty
    return StockChangeRefresh.layer(yield* Environment.stockChangeRefresh)
  })
)

/**
 * What `filings serve` runs beside the HTTP API: the EDGAR pipeline and the transcript folder,
 * webhook delivery, the feed's refreshers and summary jobs, the news feeds, retention, and the
 * one-off correction of periods stored before they were read from the documents.
 */
export const workersLayer = Layer.mergeAll(
  Pipeline.layer,
  transcriptFolderLayer,
  fromEnvironment(Environment.webhookDelivery, WebhookDelivery.layer),
  stockChangeRefreshLayer,
  fromEnvironment(Environment.summaryJobs, SummaryJobs.layer),
  fromEnvironment(Environment.news, NewsFeeds.layer),
  fromEnvironment(Environment.retention, Retention.layer),
  PeriodCorrection.layer
).pipe(
  Layer.provideMerge(followingEdgarLayer),
  Layer.provide(pipelineConfigLayer),
  Layer.provide(fromEnvironment(Environment.shutdownGrace, (grace) => Layer.succeed(QueueWorkers.ShutdownGrace, grace)))
)

/** The services, on their storage, with the server's settings: what the operator commands work on directly. */
export const operatorLayer = servicesLayer.pipe(
  Layer.provideMerge(storageLayer),
  Layer.provideMerge(serverConfigLayer)
)

/** The HTTP client the operator commands reach a running server's `/admin` routes with. */
export const adminHttpClientLayer = FetchHttpClient.layer
