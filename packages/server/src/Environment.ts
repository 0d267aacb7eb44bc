/**
 * The operator's environment: every `FILINGS_*` variable the server and its commands read, in one
 * table with its default and its meaning (the README's "Configuration" table is this table, which
 * a test checks), and the Effect `Config` that reads each group of them into the typed options of
 * what it configures. Nothing else names a variable in a `Config`: the libraries take
 * `layer(options)` or `layerConfig(...)`, the server's modules take their settings as options, and
 * `Composition` builds the layers from what is read here. A failure the operator fixes in the
 * environment names the variable to fix.
 */
import { SqlError } from "@effect/sql"
import { Ids } from "@filings/domain"
import { EdgarClient, EdgarConfig, EdgarError } from "@filings/edgar"
import type { ChatCompletionsModel } from "@filings/feed-summarizer"
import { type Database, PgliteClient } from "@filings/storage-sql"
import { Config, ConfigError, Duration, Effect, Either, LogLevel, Option, Redacted, Schema } from "effect"
import type * as StockChangeRefresh from "./feed/StockChangeRefresh.js"
import type * as SummaryJobs from "./feed/SummaryJobs.js"
import type * as Retention from "./maintenance/Retention.js"
import * as HttpMarketData from "./market/HttpMarketData.js"
import type * as MarketDataLayer from "./market/MarketDataLayer.js"
import * as NewsSources from "./news/NewsSources.js"
import type * as Tracing from "./observability/Tracing.js"
import * as PipelineConfig from "./pipeline/PipelineConfig.js"
import * as ServerConfig from "./ServerConfig.js"
import { type AllowList, parseAllowList } from "./webhooks/CallbackAddress.js"
import type * as WebhookDelivery from "./webhooks/WebhookDelivery.js"

// ---------------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------------

/** What the operator is told of a variable: its default and its meaning, in Markdown. */
export interface Variable {
  readonly default: string
  readonly meaning: string
}

/** Every variable the operator sets, in the README's order. */
export const variables = {
  FILINGS_DATA_DIR: {
    default: "`./.filings`",
    meaning: "where the embedded database lives"
  },
  FILINGS_DATABASE_URL: {
    default: "unset",
    meaning: "a PostgreSQL URL; when set, it is used instead of the embedded database"
  },
  FILINGS_HOST: {
    default: "`127.0.0.1`",
    meaning: "address to listen on (`0.0.0.0` for all interfaces)"
  },
  FILINGS_PORT: {
    default: "`8080`",
    meaning: "port to listen on"
  },
  FILINGS_ADMIN_TOKEN: {
    default: "unset",
    meaning:
      "opens the `/admin` routes to remote operators holding this token, and closes `/metrics` to anyone without it"
  },
  FILINGS_RATE_LIMIT_STORE: {
    default: "`database` on PostgreSQL, `memory` on the embedded database",
    meaning: "where request counts live; `database` shares one limit per key across instances"
  },
  FILINGS_STREAMS_PER_KEY: {
    default: "`5`",
    meaning: "`GET /v1/stream` connections one API key may hold open on one server; one more answers 429"
  },
  FILINGS_STREAM_HEARTBEAT: {
    default: "`15`",
    meaning: "seconds between two heartbeat comments on an idle `GET /v1/stream`"
  },
  FILINGS_STREAM_STALL_TIMEOUT: {
    default: "`60`",
    meaning:
      "seconds a `GET /v1/stream` connection may go without its client taking a byte before it is closed (longer than the heartbeat); the client reconnects and resumes"
  },
  FILINGS_MAX_BODY_BYTES: {
    default: "`262144` (256 KiB)",
    meaning:
      "the largest request body taken; a larger one answers 413 `payload_too_large` and the connection is closed without reading the rest"
  },
  FILINGS_MAX_UPLOAD_BYTES: {
    default: "`67108864` (64 MiB)",
    meaning:
      "the largest body of the operator's uploads (`/admin/ingest`, a filing; `/admin/companies/listing`, the regulator's list), in place of `FILINGS_MAX_BODY_BYTES`"
  },
  FILINGS_HEADERS_TIMEOUT: {
    default: "`30`",
    meaning: "seconds a client has to send a request's headers; then it is answered 408 and the connection closed"
  },
  FILINGS_REQUEST_TIMEOUT: {
    default: "`120`",
    meaning:
      "seconds a client has to send a whole request, body included (at least `FILINGS_HEADERS_TIMEOUT`); then it is answered 408 and the connection closed"
  },
  FILINGS_KEEP_ALIVE_TIMEOUT: {
    default: "`5`",
    meaning:
      "seconds an idle connection is kept open for the client's next request; behind a load balancer, set it above the balancer's idle timeout"
  },
  FILINGS_LOG_LEVEL: {
    default: "`INFO`",
    meaning: "`TRACE`, `DEBUG`, `INFO`, `WARN`, `ERROR`, `FATAL` or `OFF`"
  },
  FILINGS_LOG_FORMAT: {
    default: "`text`",
    meaning:
      "`text` (readable lines; plain when not to a terminal) or `json` (one JSON object per line, for a log collector); logs go to standard error either way"
  },
  FILINGS_SERVER_URL: {
    default: "unset",
    meaning:
      "for the operator commands (`keys`, `ingest`, `edgar backfill`, `companies sync`): the server to send the work to"
  },
  FILINGS_SEC_USER_AGENT: {
    default: "unset",
    meaning: "your name and contact e-mail, declared to the regulator; required to follow EDGAR"
  },
  FILINGS_EDGAR_FOLLOW: {
    default: "`true` when `FILINGS_SEC_USER_AGENT` is set",
    meaning: "follow EDGAR in real time"
  },
  FILINGS_FORMS: {
    default: "`10-K,10-Q,8-K,S-1,6-K,20-F,DEF 14A`",
    meaning: "forms kept; an amendment (`10-K/A`) is kept when listed, stored under its form's type"
  },
  FILINGS_TICKERS: {
    default: "unset",
    meaning: "a watch list of tickers; unset, every company the regulator lists with a ticker"
  },
  FILINGS_EDGAR_POLL_INTERVAL: {
    default: "`2`",
    meaning: "seconds between reads of the latest-filings feed"
  },
  FILINGS_EDGAR_MAX_RPS: {
    default: "`10`",
    meaning: "requests a second to the regulator, 1 to 10"
  },
  FILINGS_EDGAR_BASE_URL: {
    default: "`https://www.sec.gov`",
    meaning: "where EDGAR is (a replay server in tests)"
  },
  FILINGS_EDGAR_DATA_BASE_URL: {
    default: "`https://data.sec.gov`",
    meaning: "where EDGAR's data API is (a replay server in tests)"
  },
  FILINGS_EDGAR_BACKOFF_BASE: {
    default: "`1`",
    meaning: "seconds before the first retry of a failed request, doubled per retry up to 60"
  },
  FILINGS_EDGAR_RATE_LIMIT_PAUSE: {
    default: "`600`",
    meaning: "seconds every request stops after the regulator's rate-threshold page"
  },
  FILINGS_EDGAR_REQUEST_TIMEOUT: {
    default: "`60`",
    meaning: "seconds to read a whole response; the wait for its headers is at most 15 of them"
  },
  FILINGS_PIPELINE_WORKERS: {
    default: "`4`",
    meaning: "filings processed at once by one process"
  },
  FILINGS_PIPELINE_LEASE: {
    default: "`30`",
    meaning: "seconds a worker holds a filing before another may take it, should the worker die"
  },
  FILINGS_EDGAR_FOLLOW_LEASE: {
    default: "`30`",
    meaning:
      "seconds the instance reading the latest-filings feed keeps that work without renewing it; should it die, another instance takes over within this plus one poll interval"
  },
  FILINGS_TRANSCRIPT_DIR: {
    default: "unset",
    meaning: "a folder the server watches for earnings call transcripts (`<TICKER>_<YYYY-MM-DD>.<ext>`)"
  },
  FILINGS_WEBHOOK_ALLOW_HOSTS: {
    default: "unset",
    meaning:
      "hosts or CIDR ranges webhook deliveries may reach although they resolve to loopback, private or link-local addresses (`localhost,10.0.0.0/8`)"
  },
  FILINGS_WEBHOOK_WORKERS: {
    default: "`8`",
    meaning: "delivery attempts in flight per process (at most 2 per subscription)"
  },
  FILINGS_WEBHOOK_LEASE: {
    default: "`120`",
    meaning:
      "seconds a delivery attempt stays claimed by its instance, should the instance die, before another makes it"
  },
  FILINGS_WEBHOOK_SECRET: {
    default: "unset",
    meaning:
      "for `filings webhooks listen` (a receiver on the developer's machine), not the server: the subscription's signing secret it verifies deliveries with; unset, it prints deliveries unchecked"
  },
  FILINGS_SHUTDOWN_GRACE: {
    default: "`30`",
    meaning:
      "seconds a stopping server (SIGTERM, Ctrl-C) lets the jobs under way finish; a job still running then is given back to the queue for another instance"
  },
  FILINGS_JOB_RETENTION: {
    default: "`7`",
    meaning:
      "days a completed job is kept whole; then it is removed, or keeps only its unique key so the same work is never done twice. Dead jobs are kept"
  },
  FILINGS_DELIVERY_RETENTION: {
    default: "`30`",
    meaning:
      "days a delivered webhook delivery stays in its subscription's delivery log; pending, paused and failed ones are kept until delivered or removed with their subscription"
  },
  FILINGS_MARKET_DATA_CSV: {
    default: "unset",
    meaning:
      "a CSV file of daily closes (`ticker,date,close`, columns in any order and case; other columns ignored) that gives feed items their `stock_change`; read once at start-up, bad rows skipped with a warning"
  },
  FILINGS_MARKET_DATA_URL: {
    default: "unset",
    meaning:
      "an HTTP quote provider as a URL template with `{ticker}`, `{from}` and `{to}` (`https://quotes.example/v1/daily?symbol={ticker}&from={from}&to={to}`) answering `[{\"date\": \"2025-01-30\", \"close\": 237.59}]` or `{\"closes\": [...]}`; not together with `FILINGS_MARKET_DATA_CSV`. Neither set: `stock_change` is `null`"
  },
  FILINGS_MARKET_DATA_KEY: {
    default: "unset",
    meaning: "the quote provider's key, sent as `Authorization: Bearer`; never logged"
  },
  FILINGS_MARKET_DATA_REFRESH: {
    default: "`3600`",
    meaning:
      "seconds between looks at the last week's feed items still without a stock move (an item is usually stored before the session that meets it has closed); only with a market-data source"
  },
  FILINGS_NEWS_FEEDS: {
    default: "unset",
    meaning:
      "news feeds to follow, separated by commas or spaces: `TICKER=URL` (one company's feed) or `URL` (a newswire; entries go to the companies they name as `(NASDAQ: AAPL)`); RSS 2.0, RSS 1.0 or Atom"
  },
  FILINGS_NEWS_POLL: {
    default: "`300`",
    meaning: "seconds between two readings of each news feed (at least 5)"
  },
  FILINGS_SUMMARY_MODEL_URL: {
    default: "unset",
    meaning:
      "an OpenAI-compatible chat-completions endpoint (`https://api.openai.com/v1`, `http://localhost:11434/v1`) that writes feed summaries; unset, the offline extractive model does. Its answers are checked, and the extractive model stands in when it fails"
  },
  FILINGS_SUMMARY_MODEL: {
    default: "unset",
    meaning: "the model the endpoint serves (`gpt-4o-mini`); required with the URL"
  },
  FILINGS_SUMMARY_MODEL_KEY: {
    default: "unset",
    meaning: "the endpoint's API key, when it wants one"
  },
  FILINGS_CHAT_MODEL_URL: {
    default: "`FILINGS_SUMMARY_MODEL_URL`",
    meaning:
      "an OpenAI-compatible chat-completions endpoint that writes `POST /v1/chat` answers from the passages found; unset (and no summary model), the offline extractive model answers. Every sentence it writes is checked against the passages it cites"
  },
  FILINGS_CHAT_MODEL: {
    default: "`FILINGS_SUMMARY_MODEL`",
    meaning: "the model the chat endpoint serves; required with its URL"
  },
  FILINGS_CHAT_MODEL_KEY: {
    default: "`FILINGS_SUMMARY_MODEL_KEY`",
    meaning: "the chat endpoint's API key, when it wants one"
  },
  FILINGS_CHAT_MODEL_TIMEOUT: {
    default: "`20`",
    meaning: "seconds a chat answer waits for the model before the extractive model answers instead"
  },
  FILINGS_SUMMARY_WORKERS: {
    default: "`2`",
    meaning: "documents a server asks the summary model about at once"
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    default: "unset",
    meaning:
      "an OpenTelemetry collector's OTLP/HTTP address (`http://collector:4318`); when set, `serve` sends traces (HTTP requests, SQL, requests to EDGAR, receivers and models, jobs) to its `/v1/traces`"
  },
  OTEL_EXPORTER_OTLP_PROTOCOL: {
    default: "`http/protobuf`",
    meaning: "`http/protobuf` or `http/json`: how spans are encoded for the collector"
  },
  OTEL_EXPORTER_OTLP_HEADERS: {
    default: "unset",
    meaning: "headers sent with every export, `name=value` pairs separated by commas, values URL-encoded"
  },
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: {
    default: "unset",
    meaning:
      "the full URL spans are sent to (`http://collector:4318/v1/traces`), used as given; overrides `OTEL_EXPORTER_OTLP_ENDPOINT` for traces, and sends them on its own"
  },
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: {
    default: "`OTEL_EXPORTER_OTLP_PROTOCOL`",
    meaning: "the protocol for traces, overriding `OTEL_EXPORTER_OTLP_PROTOCOL`"
  },
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: {
    default: "`OTEL_EXPORTER_OTLP_HEADERS`",
    meaning: "the headers of trace exports, in place of `OTEL_EXPORTER_OTLP_HEADERS`"
  },
  OTEL_SERVICE_NAME: {
    default: "`filings`",
    meaning: "the `service.name` of every span"
  }
} as const satisfies Record<`FILINGS_${string}` | `OTEL_${string}`, Variable>

/** The name of a variable in the table. */
export type VariableName = keyof typeof variables

/** A variable's name, checked against the table: a variable read must be a variable documented. */
const named = (name: VariableName): string => name

const isBlank = (text: string): boolean => text.trim() === ""

/** A variable that is set to something other than blanks. */
const isSet = (name: VariableName): Config.Config<boolean> =>
  Config.option(Config.string(named(name))).pipe(Config.map(Option.exists((value) => !isBlank(value))))

/** A secret variable that counts as unset when empty, as `undefined` for a library option. */
const optionalSecret = (name: VariableName): Config.Config<Redacted.Redacted | undefined> =>
  Config.option(Config.redacted(named(name))).pipe(
    Config.map((value) => Option.getOrUndefined(Option.filter(value, (secret) => !isBlank(Redacted.value(secret)))))
  )

/** A list separated by commas, its items trimmed; unset or empty, no item. */
const list = (name: VariableName): Config.Config<ReadonlyArray<string>> =>
  Config.string(named(name)).pipe(
    Config.withDefault(""),
    Config.map((text) => text.split(",").map((item) => item.trim()).filter((item) => item !== ""))
  )

/** A number of seconds above 0, as a duration; the message names the variable. */
const seconds = (name: VariableName, fallback: number) =>
  Config.number(named(name)).pipe(
    Config.validate({ message: `${name} must be a number of seconds above 0`, validation: (value) => value > 0 }),
    Config.withDefault(fallback),
    Config.map(Duration.seconds)
  )

/** A whole number within bounds; the message names the variable and the bounds. */
const count = (name: VariableName, fallback: number, most: number): Config.Config<number> =>
  Config.integer(named(name)).pipe(
    Config.withDefault(fallback),
    Config.validate({ message: `${name} must be from 1 to ${most}`, validation: (n) => n >= 1 && n <= most })
  )

// ---------------------------------------------------------------------------------------------------
// The process: logging, and the server an operator command is sent to
// ---------------------------------------------------------------------------------------------------

/** How much is logged, on standard error. */
export const logLevel: Config.Config<LogLevel.LogLevel> = Config.logLevel(named("FILINGS_LOG_LEVEL")).pipe(
  Config.withDefault(LogLevel.Info)
)

/** How log lines are written: readable text, or one JSON object per line. */
export const logFormat: Config.Config<"text" | "json"> = Config.literal("text", "json")(named("FILINGS_LOG_FORMAT"))
  .pipe(
    Config.withDefault("text" as const)
  )

/** A value and the variable it came from, for messages that name it. */
interface Named<A> {
  readonly value: A
  readonly variable: VariableName
}

/** An OTLP variable and its traces-only override, which wins when set. */
const withTracesOverride = <A>(
  general: VariableName,
  tracesOnly: VariableName,
  read: (variable: VariableName) => Config.Config<A>,
  isSet: (value: A) => boolean = () => true
): Config.Config<Option.Option<Named<A>>> =>
  Config.all({ general: Config.option(read(general)), traces: Config.option(read(tracesOnly)) }).pipe(
    Config.map(({ general: generalValue, traces }) =>
      Option.match(Option.filter(traces, isSet), {
        onSome: (value) => Option.some({ value, variable: tracesOnly }),
        onNone: () => Option.map(generalValue, (value) => ({ value, variable: general }))
      })
    )
  )

/** Where spans go for a base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`): the signal's path under it, as OTLP/HTTP names it. */
export const tracesUrl = (base: URL): URL => new URL(`${base.href.replace(/\/+$/, "")}/v1/traces`)

const httpUrl = (text: string): URL | undefined => {
  const url = URL.canParse(text.trim()) ? new URL(text.trim()) : undefined
  return url !== undefined && (url.protocol === "http:" || url.protocol === "https:") ? url : undefined
}

/**
 * Where traces go, if anywhere: the OpenTelemetry variables every OTLP exporter reads. As the
 * OpenTelemetry specification has it, the general endpoint is a base URL that gets `/v1/traces`,
 * and the traces-only endpoint is used as given; each traces-only variable overrides its general one.
 */
export const tracing: Config.Config<Option.Option<Tracing.Options>> = Config.all({
  endpoint: withTracesOverride(
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    (variable) => Config.string(named(variable)),
    (text) => !isBlank(text)
  ),
  protocol: withTracesOverride(
    "OTEL_EXPORTER_OTLP_PROTOCOL",
    "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
    (variable) => Config.literal("http/protobuf", "http/json")(named(variable))
  ),
  headers: withTracesOverride(
    "OTEL_EXPORTER_OTLP_HEADERS",
    "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
    (variable) => Config.redacted(named(variable))
  ),
  serviceName: Config.string(named("OTEL_SERVICE_NAME")).pipe(
    Config.withDefault("filings"),
    Config.validate({ message: "OTEL_SERVICE_NAME must not be empty", validation: (name) => !isBlank(name) })
  )
}).pipe(
  Config.mapOrFail(({ endpoint, headers, protocol, serviceName }) => {
    const given = Option.filter(endpoint, ({ value }) => !isBlank(value))
    if (Option.isNone(given)) return Either.right(Option.none())
    const { value, variable } = given.value
    const url = httpUrl(value)
    if (url === undefined) {
      return Either.left(ConfigError.InvalidData(
        [],
        `${variable} must be an http:// or https:// URL, such as http://127.0.0.1:4318`
      ))
    }
    const parsed = Option.match(headers, {
      onNone: () => ({}),
      onSome: ({ value }) => parseOtlpHeaders(Redacted.value(value))
    })
    if (parsed === undefined) {
      const headersVariable = Option.match(headers, {
        onNone: () => "OTEL_EXPORTER_OTLP_HEADERS",
        onSome: ({ variable }) => variable
      })
      return Either.left(ConfigError.InvalidData([], `${headersVariable} must be name=value pairs separated by commas`))
    }
    return Either.right(Option.some({
      url: variable === "OTEL_EXPORTER_OTLP_ENDPOINT" ? tracesUrl(url) : url,
      headers: Redacted.make(parsed),
      protocol: Option.match(protocol, { onNone: () => "http/protobuf" as const, onSome: ({ value }) => value }),
      serviceName
    }))
  })
)

/** `name=value,name2=value2`, values URL-encoded, as OpenTelemetry writes headers; undefined when malformed. */
const parseOtlpHeaders = (text: string): Record<string, string> | undefined => {
  const headers: Record<string, string> = {}
  for (const pair of text.split(",")) {
    if (isBlank(pair)) continue
    const equals = pair.indexOf("=")
    const name = pair.slice(0, equals).trim()
    if (equals < 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) return undefined
    try {
      headers[name.toLowerCase()] = decodeURIComponent(pair.slice(equals + 1).trim())
    } catch {
      return undefined
    }
  }
  return headers
}

/** The admin token: what `/admin` requires, and what an operator command presents to a remote server. */
const adminToken = Config.option(Config.redacted(named("FILINGS_ADMIN_TOKEN")))

/** The server an operator command sends its work to, and the admin token it presents there. */
export const remoteServer: Config.Config<{
  readonly url: Option.Option<URL>
  readonly adminToken: Option.Option<Redacted.Redacted>
}> = Config.all({
  url: Config.option(Config.url(named("FILINGS_SERVER_URL"))),
  adminToken
})

// ---------------------------------------------------------------------------------------------------
// The database
// ---------------------------------------------------------------------------------------------------

/** The data directory when `FILINGS_DATA_DIR` is unset, relative to the working directory. */
export const defaultDataDir = "./.filings"

/** Where the database is: a PostgreSQL URL (`FILINGS_DATABASE_URL`), else PGlite under `FILINGS_DATA_DIR`. */
export const database = {
  url: optionalSecret("FILINGS_DATABASE_URL"),
  dataDir: Config.string(named("FILINGS_DATA_DIR")).pipe(Config.withDefault(defaultDataDir))
} satisfies Config.Config.Wrap<Database.Options>

/** The database settings read at once, for the commands that look at them before opening it. */
export const databaseSettings: Config.Config<{
  readonly url: Redacted.Redacted | undefined
  readonly dataDir: string
}> = Config.all(database)

/** Whether the operator named the data directory, or it is the default one. */
export const dataDirGiven: Config.Config<boolean> = Config.option(Config.string(named("FILINGS_DATA_DIR"))).pipe(
  Config.map(Option.isSome)
)

// ---------------------------------------------------------------------------------------------------
// The HTTP server
// ---------------------------------------------------------------------------------------------------

/** The allow-list of webhook addresses; unset or empty opens nothing. */
const webhookAllowList: Config.Config<AllowList> = Config.string(named("FILINGS_WEBHOOK_ALLOW_HOSTS")).pipe(
  Config.withDefault(""),
  // mapOrFail does not add the variable's name to the error's path, so it is given here.
  Config.mapOrFail((text) =>
    Either.mapLeft(
      parseAllowList(text),
      (reason) => ConfigError.InvalidData([named("FILINGS_WEBHOOK_ALLOW_HOSTS")], reason)
    )
  )
)

/** A number of bytes, at least 1 KiB (a smaller limit would refuse ordinary requests); the message names the variable. */
const bytes = (name: VariableName, fallback: number): Config.Config<number> =>
  Config.integer(named(name)).pipe(
    Config.withDefault(fallback),
    Config.validate({ message: `${name} must be a whole number of bytes, at least 1024`, validation: (n) => n >= 1024 })
  )

/** A default duration of the settings, as the seconds a variable's default is given in. */
const secondsOf = (duration: Duration.Duration): number => Duration.toSeconds(duration)

/** How big a request body may be: the API's, and the operator's uploads'. */
const bodyLimits: Config.Config<ServerConfig.BodyLimits> = Config.all({
  maxBodyBytes: bytes("FILINGS_MAX_BODY_BYTES", ServerConfig.defaults.bodyLimits.maxBodyBytes),
  maxUploadBytes: bytes("FILINGS_MAX_UPLOAD_BYTES", ServerConfig.defaults.bodyLimits.maxUploadBytes)
})

/** How long a client may take to send a request, and how long an idle connection is kept. */
const connectionTimeouts: Config.Config<ServerConfig.ConnectionTimeouts> = Config.all({
  headers: seconds("FILINGS_HEADERS_TIMEOUT", secondsOf(ServerConfig.defaults.connectionTimeouts.headers)),
  request: seconds("FILINGS_REQUEST_TIMEOUT", secondsOf(ServerConfig.defaults.connectionTimeouts.request)),
  keepAlive: seconds("FILINGS_KEEP_ALIVE_TIMEOUT", secondsOf(ServerConfig.defaults.connectionTimeouts.keepAlive))
}).pipe(
  // Node refuses a headers timeout longer than the whole request's.
  Config.mapOrFail((timeouts) =>
    Duration.greaterThan(timeouts.headers, timeouts.request)
      ? Either.left(ConfigError.InvalidData(
        [named("FILINGS_REQUEST_TIMEOUT")],
        "FILINGS_REQUEST_TIMEOUT must be at least FILINGS_HEADERS_TIMEOUT: the headers are part of the request"
      ))
      : Either.right(timeouts)
  )
)

/** How often an idle stream gets a heartbeat, and how long a stream whose client takes nothing is kept. */
const streamTiming = Config.all({
  streamHeartbeat: seconds("FILINGS_STREAM_HEARTBEAT", secondsOf(ServerConfig.defaults.streamHeartbeat)),
  streamStallTimeout: seconds("FILINGS_STREAM_STALL_TIMEOUT", secondsOf(ServerConfig.defaults.streamStallTimeout))
}).pipe(
  // An idle stream writes only its heartbeats: a shorter stall timeout would close healthy idle streams.
  Config.mapOrFail((timing) =>
    Duration.greaterThan(timing.streamStallTimeout, timing.streamHeartbeat)
      ? Either.right(timing)
      : Either.left(ConfigError.InvalidData(
        [named("FILINGS_STREAM_STALL_TIMEOUT")],
        "FILINGS_STREAM_STALL_TIMEOUT must be longer than FILINGS_STREAM_HEARTBEAT: an idle stream writes only its heartbeats"
      ))
  )
)

/**
 * Where the server listens, who may use `/admin`, where rate limits are counted, which webhook hosts
 * are open, how many streams a key holds and how they are kept, and what the server takes from a client.
 */
export const server: Config.Config<Omit<ServerConfig.Settings, "chatModel">> = Config.all({
  host: Config.string(named("FILINGS_HOST")).pipe(Config.withDefault(ServerConfig.defaults.host)),
  port: Config.port(named("FILINGS_PORT")).pipe(Config.withDefault(ServerConfig.defaults.port)),
  adminToken,
  rateLimitStore: Config.option(Config.literal("memory", "database")(named("FILINGS_RATE_LIMIT_STORE"))),
  webhookAllowList,
  streamsPerKey: count("FILINGS_STREAMS_PER_KEY", ServerConfig.defaults.streamsPerKey, 10_000),
  streamTiming,
  bodyLimits,
  connectionTimeouts
}).pipe(Config.map(({ streamTiming: timing, ...settings }) => ({ ...settings, ...timing })))

// ---------------------------------------------------------------------------------------------------
// EDGAR and the pipeline
// ---------------------------------------------------------------------------------------------------

/** Where EDGAR is and how politely to use it. */
export const edgar = {
  baseUrl: Config.string(named("FILINGS_EDGAR_BASE_URL")).pipe(Config.withDefault(EdgarConfig.defaults.baseUrl)),
  dataBaseUrl: Config.string(named("FILINGS_EDGAR_DATA_BASE_URL")).pipe(
    Config.withDefault(EdgarConfig.defaults.dataBaseUrl)
  ),
  userAgent: Config.option(Config.string(named("FILINGS_SEC_USER_AGENT"))),
  pollInterval: Config.number(named("FILINGS_EDGAR_POLL_INTERVAL")).pipe(
    // Checked before it becomes a duration, so that the error names the variable.
    Config.validate({
      message: EdgarConfig.pollIntervalRule,
      validation: (seconds) => EdgarConfig.isAllowedPollInterval(Duration.seconds(seconds))
    }),
    Config.map(Duration.seconds),
    Config.withDefault(EdgarConfig.defaults.pollInterval)
  ),
  maxRequestsPerSecond: Config.integer(named("FILINGS_EDGAR_MAX_RPS")).pipe(
    Config.validate({
      message: EdgarConfig.maxRequestsPerSecondRule,
      validation: EdgarConfig.isAllowedRequestRate
    }),
    Config.withDefault(EdgarConfig.defaults.maxRequestsPerSecond)
  )
} satisfies Config.Config.Wrap<Partial<EdgarConfig.Settings>>

const requestTimeout = seconds("FILINGS_EDGAR_REQUEST_TIMEOUT", 60)

/**
 * How patiently the EDGAR client waits: backoff base (doubled per retry), rate-threshold pause, and
 * the request timeout, which bounds the whole response and so the wait for its headers too. A
 * regulator that accepts connections and never answers holds each request that long: a shorter
 * timeout is what lets following resume soon after such an outage ends.
 */
export const edgarClient = {
  backoffBase: seconds("FILINGS_EDGAR_BACKOFF_BASE", 1),
  rateThresholdPause: seconds("FILINGS_EDGAR_RATE_LIMIT_PAUSE", 600),
  headersTimeout: Config.map(requestTimeout, Duration.min(EdgarClient.defaultOptions.headersTimeout)),
  bodyTimeout: requestTimeout
} satisfies Config.Config.Wrap<EdgarClient.Options>

const forms = list("FILINGS_FORMS").pipe(
  Config.mapOrFail((items) => {
    if (items.length === 0) return Either.right(PipelineConfig.DefaultForms)
    const unknown = items.filter((form) => PipelineConfig.docTypeOfForm(form) === undefined)
    return unknown.length === 0
      ? Either.right(items.map((form) => form.toUpperCase()))
      : Either.left(
        ConfigError.InvalidData(
          ["FILINGS_FORMS"],
          `unknown form ${unknown.join(", ")}; the forms are ${
            PipelineConfig.DefaultForms.join(", ")
          }, each also with /A`
        )
      )
  })
)

const tickers = list("FILINGS_TICKERS").pipe(
  Config.mapOrFail((items) => {
    const decoded = items.map((item) => Schema.decodeEither(Ids.Ticker)(item))
    const bad = items.filter((_, index) => Either.isLeft(decoded[index]!))
    return bad.length === 0
      ? Either.right(decoded.flatMap((result) => Either.isRight(result) ? [result.right] : []))
      : Either.left(ConfigError.InvalidData([named("FILINGS_TICKERS")], `not a ticker: ${bad.join(", ")}`))
  })
)

/**
 * What the EDGAR pipeline follows and how many filings it works on at once. Following is on by
 * default when a user agent is declared (the regulator requires one), off otherwise.
 */
export const pipeline: Config.Config<PipelineConfig.Settings> = Config.all({
  follow: Config.option(Config.boolean(named("FILINGS_EDGAR_FOLLOW"))),
  userAgent: Config.option(Config.string(named("FILINGS_SEC_USER_AGENT"))),
  forms,
  tickers,
  workers: count("FILINGS_PIPELINE_WORKERS", 4, 64),
  lease: Config.number(named("FILINGS_PIPELINE_LEASE")).pipe(
    Config.validate({ message: "FILINGS_PIPELINE_LEASE must be at least 1 second", validation: (n) => n >= 1 }),
    Config.withDefault(30),
    Config.map(Duration.seconds)
  ),
  followLease: Config.number(named("FILINGS_EDGAR_FOLLOW_LEASE")).pipe(
    Config.validate({ message: "FILINGS_EDGAR_FOLLOW_LEASE must be at least 1 second", validation: (n) => n >= 1 }),
    Config.withDefault(30),
    Config.map(Duration.seconds)
  )
}).pipe(
  Config.map(({ follow, userAgent, ...rest }) => ({
    ...rest,
    follow: Option.getOrElse(follow, () => Option.isSome(userAgent) && !isBlank(userAgent.value))
  }))
)

/** The folder watched for earnings call transcripts, when there is one. */
export const transcriptFolder: Config.Config<Option.Option<string>> = Config.option(
  Config.string(named("FILINGS_TRANSCRIPT_DIR"))
)

// ---------------------------------------------------------------------------------------------------
// Webhooks
// ---------------------------------------------------------------------------------------------------

/** Delivery attempts in flight per process, and how long a dead instance's attempts stay claimed. */
export const webhookDelivery: Config.Config<WebhookDelivery.Options> = Config.all({
  workers: count("FILINGS_WEBHOOK_WORKERS", 8, 256),
  // Seconds, like FILINGS_PIPELINE_LEASE.
  lease: Config.number(named("FILINGS_WEBHOOK_LEASE")).pipe(
    Config.withDefault(120),
    Config.validate({ message: "FILINGS_WEBHOOK_LEASE must be at least 1 second", validation: (n) => n >= 1 }),
    Config.map(Duration.seconds)
  )
})

/**
 * The signing secret `filings webhooks listen` verifies deliveries with: the `secret` the server
 * answered when the subscription was made. Redacted, so it is never printed.
 */
export const webhookListenerSecret: Config.Config<Option.Option<Redacted.Redacted>> = Config.option(
  Config.redacted(named("FILINGS_WEBHOOK_SECRET"))
).pipe(Config.map(Option.filter((secret) => Redacted.value(secret) !== "")))

// ---------------------------------------------------------------------------------------------------
// Retention
// ---------------------------------------------------------------------------------------------------

/** Days, fractions allowed, above 0. */
const days = (name: VariableName, fallback: number): Config.Config<Duration.Duration> =>
  Config.number(named(name)).pipe(
    Config.withDefault(fallback),
    Config.validate({ message: `${name} must be a number of days above 0`, validation: (n) => n > 0 }),
    Config.map((n) => Duration.millis(Math.round(n * 86_400_000)))
  )

/** How long a stopping server lets the jobs under way finish; seconds, 0 allowed (cut them off at once). */
export const shutdownGrace: Config.Config<Duration.Duration> = Config.number(named("FILINGS_SHUTDOWN_GRACE")).pipe(
  Config.withDefault(30),
  Config.validate({
    message: "FILINGS_SHUTDOWN_GRACE must be a number of seconds, 0 or more",
    validation: (n) => n >= 0
  }),
  Config.map(Duration.seconds)
)

/** How long completed jobs and delivered webhook deliveries are kept. */
export const retention: Config.Config<Retention.Options> = Config.all({
  jobRetention: days("FILINGS_JOB_RETENTION", 7),
  deliveryRetention: days("FILINGS_DELIVERY_RETENTION", 30)
})

// ---------------------------------------------------------------------------------------------------
// The feed: market data, news, summaries
// ---------------------------------------------------------------------------------------------------

/** Whether a source of daily closes is configured, without reading it. */
export const marketDataConfigured: Config.Config<boolean> = Config.all([
  isSet("FILINGS_MARKET_DATA_CSV"),
  isSet("FILINGS_MARKET_DATA_URL")
]).pipe(Config.map(([csv, url]) => csv || url))

/** The HTTP quote provider: its URL template (checked) and its key; an empty key counts as none. */
const httpMarketData: Config.Config<HttpMarketData.Options> = Config.all({
  urlTemplate: Config.nonEmptyString(named("FILINGS_MARKET_DATA_URL")).pipe(
    Config.map((text) => text.trim()),
    Config.mapOrFail((text) => {
      const problem = HttpMarketData.templateProblem(text)
      return problem === undefined
        ? Either.right(text)
        : Either.left(ConfigError.InvalidData([named("FILINGS_MARKET_DATA_URL")], problem))
    })
  ),
  apiKey: optionalSecret("FILINGS_MARKET_DATA_KEY")
})

/**
 * Which source of daily closes the operator configured. Both at once is a configuration error
 * rather than a silent preference: the operator must say which prices the feed reports.
 */
export const marketData: Effect.Effect<MarketDataLayer.Source, ConfigError.ConfigError> = Effect.gen(function*() {
  const csv = yield* isSet("FILINGS_MARKET_DATA_CSV")
  const url = yield* isSet("FILINGS_MARKET_DATA_URL")
  if (csv && url) {
    return yield* Effect.fail(ConfigError.InvalidData(
      [named("FILINGS_MARKET_DATA_URL")],
      "FILINGS_MARKET_DATA_CSV and FILINGS_MARKET_DATA_URL are both set: choose one source of market data"
    ))
  }
  if (!url && (yield* isSet("FILINGS_MARKET_DATA_KEY"))) {
    yield* Effect.logWarning("FILINGS_MARKET_DATA_KEY is set without FILINGS_MARKET_DATA_URL: the key is unused")
  }
  if (csv) {
    const path = yield* Config.nonEmptyString(named("FILINGS_MARKET_DATA_CSV")).pipe(Config.map((text) => text.trim()))
    return { _tag: "Csv", path } as const
  }
  if (url) return { _tag: "Http", options: yield* httpMarketData } as const
  return { _tag: "None" } as const
})

/** A market-data file that cannot be used, as a failure naming the variable that gave it. */
export const marketDataError = (error: ConfigError.ConfigError): ConfigError.ConfigError =>
  ConfigError.prefixed(error, [named("FILINGS_MARKET_DATA_CSV")])

/** How often the feed's items still without a stock move are looked at again. */
export const stockChangeRefresh: Config.Config<StockChangeRefresh.Options> = Config.all({
  interval: Config.number(named("FILINGS_MARKET_DATA_REFRESH")).pipe(
    Config.withDefault(3_600),
    Config.validate({ message: "FILINGS_MARKET_DATA_REFRESH must be at least 60 seconds", validation: (n) => n >= 60 }),
    Config.map(Duration.seconds)
  )
})

/** The news feeds followed, and the time between two readings of each. */
export const news: Config.Config<NewsSources.NewsSettings> = Config.all({
  sources: Config.string(named("FILINGS_NEWS_FEEDS")).pipe(
    Config.withDefault(""),
    Config.mapOrFail((text) =>
      Either.mapLeft(
        NewsSources.sourcesOf(text),
        (problem) => ConfigError.InvalidData([named("FILINGS_NEWS_FEEDS")], problem)
      )
    )
  ),
  interval: Config.number(named("FILINGS_NEWS_POLL")).pipe(
    Config.withDefault(300),
    Config.validate({ message: "FILINGS_NEWS_POLL must be at least 5 seconds", validation: (seconds) => seconds >= 5 }),
    Config.map(Duration.seconds)
  )
})

/** The chat-completions endpoint, when one is configured; unset or empty, the extractive model writes summaries. */
export const summaryModelUrl: Config.Config<Option.Option<string>> = Config.option(
  Config.string(named("FILINGS_SUMMARY_MODEL_URL"))
).pipe(Config.map(Option.filter((url) => !isBlank(url))), Config.map(Option.map((url) => url.trim())))

/** The chat-completions model's settings, read once an endpoint is configured. */
export const summaryModel = {
  baseUrl: Config.string(named("FILINGS_SUMMARY_MODEL_URL")),
  model: Config.string(named("FILINGS_SUMMARY_MODEL")),
  apiKey: optionalSecret("FILINGS_SUMMARY_MODEL_KEY")
} satisfies Config.Config.Wrap<ChatCompletionsModel.Options>

/** The chat-completions model that writes the feed's summaries, when an endpoint is configured. */
export const summaryModelChoice: Effect.Effect<Option.Option<ChatCompletionsModel.Options>, ConfigError.ConfigError> =
  Effect.gen(function*() {
    const url = yield* summaryModelUrl
    if (Option.isNone(url)) return Option.none()
    const { apiKey, model } = yield* Config.all({ model: summaryModel.model, apiKey: summaryModel.apiKey })
    return Option.some({ baseUrl: url.value, model, apiKey })
  })

/** The chat model's own settings; each falls back to the summary model's when the URL is unset. */
export const chatModel = {
  baseUrl: Config.option(Config.string(named("FILINGS_CHAT_MODEL_URL"))).pipe(
    Config.map(Option.filter((url) => !isBlank(url))),
    Config.map(Option.map((url) => url.trim()))
  ),
  model: Config.string(named("FILINGS_CHAT_MODEL")),
  apiKey: optionalSecret("FILINGS_CHAT_MODEL_KEY"),
  timeout: seconds("FILINGS_CHAT_MODEL_TIMEOUT", 20)
}

/**
 * The chat-completions model that answers `POST /v1/chat`: its own endpoint when
 * `FILINGS_CHAT_MODEL_URL` is set (with `FILINGS_CHAT_MODEL` and its key), else the summary
 * model's; none, the extractive model answers.
 */
export const chatModelChoice: Effect.Effect<Option.Option<ServerConfig.ChatModelSettings>, ConfigError.ConfigError> =
  Effect.gen(function*() {
    const timeout = yield* chatModel.timeout
    const url = yield* chatModel.baseUrl
    if (Option.isSome(url)) {
      const { apiKey, model } = yield* Config.all({ model: chatModel.model, apiKey: chatModel.apiKey })
      return Option.some({ baseUrl: url.value, model, apiKey, timeout })
    }
    return Option.map(yield* summaryModelChoice, (summary) => ({ ...summary, timeout }))
  })

/** Documents a server asks the summary model about at once. */
export const summaryJobs: Config.Config<SummaryJobs.Options> = Config.all({
  workers: count("FILINGS_SUMMARY_WORKERS", 2, 64)
})

// ---------------------------------------------------------------------------------------------------
// What the operator is told
// ---------------------------------------------------------------------------------------------------

/**
 * An EDGAR failure as the operator reads it: where the fix is a variable, the message names it
 * (the library's own message speaks of its options). Other failures keep their message.
 */
export const edgarMessage = (error: { readonly message: string }): string => {
  if (error instanceof EdgarError.MissingUserAgent) {
    return "FILINGS_SEC_USER_AGENT must name you and a contact e-mail, e.g. " +
      "FILINGS_SEC_USER_AGENT=\"Acme Research ops@acme.example\" (the SEC's fair-access policy)"
  }
  if (error instanceof EdgarError.EdgarRefused && error.reason === "undeclared automated tool") {
    return `EDGAR refused ${error.url} as coming from an undeclared automated tool; not retried: set ` +
      "FILINGS_SEC_USER_AGENT to your organisation and a contact e-mail, e.g. \"Acme Research ops@acme.example\""
  }
  if (error instanceof EdgarError.EdgarRateLimited) {
    return `EDGAR still reports the request rate threshold as exceeded for ${error.url} after retrying; lower ` +
      "FILINGS_EDGAR_MAX_RPS or check for other clients sharing this IP address"
  }
  return error.message
}

/**
 * A failure to open the database as the operator reads it: an embedded database another process
 * holds says which variable shares one instead. Other failures pass unchanged.
 */
export const databaseError = <E>(error: E): E | SqlError.SqlError =>
  error instanceof SqlError.SqlError && PgliteClient.isDataDirInUse(error)
    ? new SqlError.SqlError({
      cause: error.cause,
      message: `${error.message} Set FILINGS_DATABASE_URL (PostgreSQL) to share a database between processes.`
    })
    : error
