/**
 * The operator's environment: the table of variables is the README's, every variable in it is read
 * and none is read outside it; each `FILINGS_*` variable reaches the settings it configures, with
 * the documented defaults; a value the operator must fix fails naming the variable.
 */
import { SqlError } from "@effect/sql"
import { assert, describe, it } from "@effect/vitest"
import { Ids } from "@filings/domain"
import { EdgarConfig, EdgarError } from "@filings/edgar"
import { Database } from "@filings/storage-sql"
import {
  Config,
  ConfigError,
  ConfigProvider,
  ConfigProviderPathPatch,
  Duration,
  Effect,
  Exit,
  HashSet,
  Layer,
  Option,
  Redacted
} from "effect"
import { readFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Environment from "../src/Environment.js"
import * as PipelineConfig from "../src/pipeline/PipelineConfig.js"

const withEnvironment = (env: Record<string, string>) =>
  Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

const edgarSettings = (env: Record<string, string>) =>
  Effect.exit(
    Effect.provide(EdgarConfig.EdgarConfig, EdgarConfig.layerConfig(Environment.edgar)).pipe(withEnvironment(env))
  )

const userAgent = "Acme Research ops@acme.example"

describe("EDGAR from FILINGS_* variables", () => {
  it.effect("defaults: www.sec.gov, data.sec.gov, no agent, 2 s polling, 10 requests per second", () =>
    Effect.gen(function*() {
      const settings = yield* Effect.flatten(edgarSettings({}))
      assert.strictEqual(settings.baseUrl, "https://www.sec.gov")
      assert.strictEqual(settings.dataBaseUrl, "https://data.sec.gov")
      assert.isTrue(Option.isNone(settings.userAgent))
      assert.isTrue(Duration.equals(settings.pollInterval, Duration.seconds(2)))
      assert.strictEqual(settings.maxRequestsPerSecond, 10)
    }))

  it.effect("reads every variable", () =>
    Effect.gen(function*() {
      const settings = yield* Effect.flatten(edgarSettings({
        FILINGS_EDGAR_BASE_URL: "http://127.0.0.1:9",
        FILINGS_EDGAR_DATA_BASE_URL: "http://127.0.0.1:10",
        FILINGS_SEC_USER_AGENT: userAgent,
        FILINGS_EDGAR_POLL_INTERVAL: "0.5",
        FILINGS_EDGAR_MAX_RPS: "4"
      }))
      assert.strictEqual(settings.baseUrl, "http://127.0.0.1:9")
      assert.strictEqual(settings.dataBaseUrl, "http://127.0.0.1:10")
      assert.deepStrictEqual(settings.userAgent, Option.some(userAgent))
      assert.isTrue(Duration.equals(settings.pollInterval, Duration.millis(500)))
      assert.strictEqual(settings.maxRequestsPerSecond, 4)
    }))

  it.effect("FILINGS_EDGAR_MAX_RPS above 10 (or below 1, or not whole) is a configuration error naming it", () =>
    Effect.gen(function*() {
      for (const rate of ["11", "0", "2.5"]) {
        const exit = yield* edgarSettings({ FILINGS_EDGAR_MAX_RPS: rate })
        assert.isTrue(Exit.isFailure(exit), rate)
        assert.include(String(exit), "FILINGS_EDGAR_MAX_RPS", rate)
      }
      const zero = yield* edgarSettings({ FILINGS_EDGAR_POLL_INTERVAL: "0" })
      assert.include(String(zero), "FILINGS_EDGAR_POLL_INTERVAL")
      assert.include(String(zero), EdgarConfig.pollIntervalRule)
    }))

  it.effect("the client's patience, in seconds", () =>
    Effect.gen(function*() {
      const defaults = yield* Config.all(Environment.edgarClient).pipe(withEnvironment({}))
      assert.deepStrictEqual(defaults, {
        backoffBase: Duration.seconds(1),
        rateThresholdPause: Duration.seconds(600),
        headersTimeout: Duration.seconds(15),
        bodyTimeout: Duration.seconds(60)
      })
      const given = yield* Config.all(Environment.edgarClient).pipe(withEnvironment({
        FILINGS_EDGAR_BACKOFF_BASE: "0.05",
        FILINGS_EDGAR_RATE_LIMIT_PAUSE: "0.5",
        FILINGS_EDGAR_REQUEST_TIMEOUT: "2"
      }))
      assert.deepStrictEqual(given, {
        backoffBase: Duration.millis(50),
        rateThresholdPause: Duration.millis(500),
        // A request timeout below the headers' 15 s bounds the wait for them too.
        headersTimeout: Duration.seconds(2),
        bodyTimeout: Duration.seconds(2)
      })
    }))

  it("an EDGAR failure the operator fixes names the variable; others keep their message", () => {
    assert.strictEqual(
      Environment.edgarMessage(new EdgarError.MissingUserAgent({ problem: "unset" })),
      "FILINGS_SEC_USER_AGENT must name you and a contact e-mail, e.g. FILINGS_SEC_USER_AGENT=\"Acme Research ops@acme.example\" (the SEC's fair-access policy)"
    )
    const url = "https://www.sec.gov/Archives/edgar/data/320193/"
    assert.include(
      Environment.edgarMessage(new EdgarError.EdgarRefused({ url, reason: "undeclared automated tool" })),
      "set FILINGS_SEC_USER_AGENT to your organisation and a contact e-mail"
    )
    assert.include(Environment.edgarMessage(new EdgarError.EdgarRateLimited({ url })), "lower FILINGS_EDGAR_MAX_RPS")
    const forbidden = new EdgarError.EdgarRefused({ url, reason: "forbidden" })
    assert.strictEqual(Environment.edgarMessage(forbidden), forbidden.message)
    const notFound = new EdgarError.EdgarNotFound({ url })
    assert.strictEqual(Environment.edgarMessage(notFound), notFound.message)
  })
})

describe("the database from FILINGS_* variables", () => {
  it.effect("unset: PGlite under ./.filings; an empty FILINGS_DATABASE_URL counts as unset", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* Environment.databaseSettings.pipe(withEnvironment({})), {
        url: undefined,
        dataDir: "./.filings"
      })
      assert.deepStrictEqual(
        yield* Environment.databaseSettings.pipe(
          withEnvironment({ FILINGS_DATABASE_URL: "  ", FILINGS_DATA_DIR: "/srv/filings" })
        ),
        { url: undefined, dataDir: "/srv/filings" }
      )
    }))

  it.effect("FILINGS_DATABASE_URL set: the URL, kept Redacted", () =>
    Effect.gen(function*() {
      const { url } = yield* Environment.databaseSettings.pipe(
        withEnvironment({ FILINGS_DATABASE_URL: "postgres://app:secret@db.internal/filings" })
      )
      assert.isTrue(url !== undefined && Redacted.isRedacted(url))
      assert.strictEqual(
        url === undefined ? undefined : Redacted.value(url),
        "postgres://app:secret@db.internal/filings"
      )
      assert.notInclude(String(url), "secret")
    }))
})

describe("a database another process holds", () => {
  it.scopedLive(
    "the operator is told which variable shares a database; other failures pass unchanged",
    () =>
      Effect.gen(function*() {
        const dataDir = yield* Effect.acquireRelease(
          Effect.promise(() => mkdtemp(join(tmpdir(), "filings-environment-"))),
          (directory) => Effect.promise(() => rm(directory, { recursive: true, force: true }))
        )
        yield* Layer.build(Database.layer({ dataDir }))
        const second = yield* Effect.flip(Layer.build(Database.layer({ dataDir })))
        assert.notInclude(second.message, "FILINGS_")
        const told = Environment.databaseError(second)
        assert.include(told.message, second.message)
        assert.include(told.message, "Set FILINGS_DATABASE_URL (PostgreSQL) to share a database")
        const other = new SqlError.SqlError({ message: "connection refused" })
        assert.strictEqual(Environment.databaseError(other), other)
      }),
    60_000
  )
})

describe("the summary model from FILINGS_* variables", () => {
  it.effect("an endpoint only when FILINGS_SUMMARY_MODEL_URL is set and not empty", () =>
    Effect.gen(function*() {
      assert.isTrue(Option.isNone(yield* Environment.summaryModelUrl.pipe(withEnvironment({}))))
      assert.isTrue(
        Option.isNone(yield* Environment.summaryModelUrl.pipe(withEnvironment({ FILINGS_SUMMARY_MODEL_URL: " " })))
      )
      assert.deepStrictEqual(
        yield* Environment.summaryModelUrl.pipe(
          withEnvironment({ FILINGS_SUMMARY_MODEL_URL: "http://localhost:11434/v1" })
        ),
        Option.some("http://localhost:11434/v1")
      )
    }))

  it.effect("the model and its key; an empty FILINGS_SUMMARY_MODEL_KEY counts as unset", () =>
    Effect.gen(function*() {
      const base = { FILINGS_SUMMARY_MODEL_URL: "http://localhost:11434/v1", FILINGS_SUMMARY_MODEL: "llama3.1:8b" }
      const keyed = yield* Config.all(Environment.summaryModel).pipe(
        withEnvironment({ ...base, FILINGS_SUMMARY_MODEL_KEY: "sk-test" })
      )
      assert.strictEqual(keyed.baseUrl, "http://localhost:11434/v1")
      assert.strictEqual(keyed.model, "llama3.1:8b")
      assert.strictEqual(keyed.apiKey === undefined ? undefined : Redacted.value(keyed.apiKey), "sk-test")
      const emptyKey = yield* Config.all(Environment.summaryModel).pipe(
        withEnvironment({ ...base, FILINGS_SUMMARY_MODEL_KEY: "" })
      )
      assert.isUndefined(emptyKey.apiKey)
    }))
})

describe("the chat model from FILINGS_* variables", () => {
  const summary = { FILINGS_SUMMARY_MODEL_URL: "http://localhost:11434/v1", FILINGS_SUMMARY_MODEL: "llama3.1:8b" }

  it.effect("none without either URL: the extractive model answers", () =>
    Effect.gen(function*() {
      assert.isTrue(Option.isNone(yield* Environment.chatModelChoice.pipe(withEnvironment({}))))
      assert.isTrue(
        Option.isNone(yield* Environment.chatModelChoice.pipe(withEnvironment({ FILINGS_CHAT_MODEL_URL: " " })))
      )
    }))

  it.effect("the summary model's endpoint, model and key when the chat model has no URL of its own", () =>
    Effect.gen(function*() {
      const chosen = yield* Environment.chatModelChoice.pipe(
        withEnvironment({ ...summary, FILINGS_SUMMARY_MODEL_KEY: "sk-summary", FILINGS_CHAT_MODEL: "ignored" })
      )
      assert.isTrue(Option.isSome(chosen))
      const settings = Option.getOrThrow(chosen)
      assert.strictEqual(settings.baseUrl, "http://localhost:11434/v1")
      assert.strictEqual(settings.model, "llama3.1:8b")
      assert.strictEqual(settings.apiKey === undefined ? undefined : Redacted.value(settings.apiKey), "sk-summary")
      assert.strictEqual(Duration.toSeconds(settings.timeout), 20)
    }))

  it.effect("its own URL, model, key and time limit over the summary model's", () =>
    Effect.gen(function*() {
      const settings = Option.getOrThrow(
        yield* Environment.chatModelChoice.pipe(withEnvironment({
          ...summary,
          FILINGS_CHAT_MODEL_URL: " https://api.openai.com/v1 ",
          FILINGS_CHAT_MODEL: "gpt-4o-mini",
          FILINGS_CHAT_MODEL_KEY: "sk-chat",
          FILINGS_CHAT_MODEL_TIMEOUT: "2.5"
        }))
      )
      assert.strictEqual(settings.baseUrl, "https://api.openai.com/v1")
      assert.strictEqual(settings.model, "gpt-4o-mini")
      assert.strictEqual(settings.apiKey === undefined ? undefined : Redacted.value(settings.apiKey), "sk-chat")
      assert.strictEqual(Duration.toMillis(settings.timeout), 2_500)
    }))

  it.effect("a URL without its model, or a time limit that is not above 0, fails naming the variable", () =>
    Effect.gen(function*() {
      const noModel = yield* Effect.flip(
        Environment.chatModelChoice.pipe(withEnvironment({ FILINGS_CHAT_MODEL_URL: "http://localhost:8000/v1" }))
      )
      assert.include(String(noModel), "FILINGS_CHAT_MODEL")
      const badTimeout = yield* Effect.flip(
        Environment.chatModelChoice.pipe(withEnvironment({ FILINGS_CHAT_MODEL_TIMEOUT: "0" }))
      )
      assert.include(String(badTimeout), "FILINGS_CHAT_MODEL_TIMEOUT must be a number of seconds above 0")
    }))
})

const repository = new URL("../../../", import.meta.url)

/** The rows of the README's configuration table: name, default and meaning, as written. */
const documentedRows = (): Array<readonly [string, string, string]> => {
  const readme = readFileSync(new URL("README.md", repository), "utf8")
  const section = readme.slice(readme.indexOf("\n## Configuration\n"))
  const rows: Array<readonly [string, string, string]> = []
  for (const line of section.slice(0, section.indexOf("\n## ", 1)).split("\n")) {
    const row = /^\| `((?:FILINGS|OTEL)_[A-Z_]+)` \| (.+?) \| (.+) \|$/.exec(line)
    if (row !== null) rows.push([row[1]!, row[2]!, row[3]!])
  }
  return rows
}

/** Every setting `Environment` describes, read at once. */
const everySetting = Effect.all([
  Environment.logLevel,
  Environment.logFormat,
  Environment.remoteServer,
  Environment.databaseSettings,
  Environment.dataDirGiven,
  Environment.server,
  Config.all(Environment.edgar),
  Config.all(Environment.edgarClient),
  Environment.pipeline,
  Environment.transcriptFolder,
  Environment.webhookDelivery,
  Environment.webhookListenerSecret,
  Environment.marketData,
  Environment.stockChangeRefresh,
  Environment.news,
  Config.all(Environment.summaryModel),
  Config.all(Environment.chatModel),
  Environment.summaryJobs,
  Environment.retention,
  Environment.shutdownGrace,
  Environment.tracing
], { mode: "either" })

describe("the table of variables", () => {
  it("is the README's configuration table, row by row", () => {
    const table = Object.entries(Environment.variables).map(([name, { default: fallback, meaning }]) =>
      [name, fallback, meaning] as const
    )
    assert.isAbove(table.length, 30)
    assert.deepStrictEqual(documentedRows(), table)
  })

  it("names every variable the documentation speaks of, save the tests' and the examples' own", () => {
    const notTheServers = new Set([
      "FILINGS_TEST_DATABASE_URL",
      "FILINGS_TEST_CORPUS_DIR",
      "FILINGS_KEY",
      "FILINGS_WEBHOOK_SECRET"
    ])
    const documents = ["README.md", "docs/operations.md", "docs/architecture.md", "packages/server/README.md"]
    for (const document of documents) {
      const text = readFileSync(new URL(document, repository), "utf8")
      for (const [name] of text.matchAll(/FILINGS_[A-Z_]*[A-Z]/g)) {
        assert.isTrue(name in Environment.variables || notTheServers.has(name), `${document}: ${name}`)
      }
    }
  })

  it.effect("holds every variable the settings read, and each of them is read", () =>
    Effect.gen(function*() {
      const asked = new Set<string>()
      // Answers that nothing is set, and notes what was asked.
      const recording = ConfigProvider.fromFlat(ConfigProvider.makeFlat({
        load: (path) => {
          asked.add(path.join("."))
          return Effect.fail(ConfigError.MissingData([...path], "unset"))
        },
        enumerateChildren: () => Effect.succeed(HashSet.empty()),
        patch: ConfigProviderPathPatch.empty
      }))
      yield* everySetting.pipe(Effect.withConfigProvider(recording))
      assert.deepStrictEqual([...asked].sort(), Object.keys(Environment.variables).sort())
    }))
})

/** The failure of reading `config` in `env`, as the operator reads it. */
const failureIn = <A>(config: Effect.Effect<A, ConfigError.ConfigError>, env: Record<string, string>) =>
  Effect.map(Effect.flip(config.pipe(withEnvironment(env))), String)

describe("the server's settings from FILINGS_* variables", () => {
  it.effect("defaults: this machine only, port 8080, no admin token, the store of the database, no host opened", () =>
    Effect.gen(function*() {
      const settings = yield* Environment.server.pipe(withEnvironment({}))
      assert.strictEqual(settings.host, "127.0.0.1")
      assert.strictEqual(settings.port, 8080)
      assert.isTrue(Option.isNone(settings.adminToken))
      assert.isTrue(Option.isNone(settings.rateLimitStore))
      assert.strictEqual(settings.webhookAllowList.hosts.size, 0)
    }))

  it.effect("reads every variable; the admin token stays Redacted", () =>
    Effect.gen(function*() {
      const settings = yield* Environment.server.pipe(withEnvironment({
        FILINGS_HOST: "0.0.0.0",
        FILINGS_PORT: "8081",
        FILINGS_ADMIN_TOKEN: "admin-secret",
        FILINGS_RATE_LIMIT_STORE: "database",
        FILINGS_WEBHOOK_ALLOW_HOSTS: "localhost,10.0.0.0/8"
      }))
      assert.strictEqual(settings.host, "0.0.0.0")
      assert.strictEqual(settings.port, 8081)
      assert.strictEqual(Option.getOrUndefined(Option.map(settings.adminToken, Redacted.value)), "admin-secret")
      assert.notInclude(String(settings.adminToken), "admin-secret")
      assert.deepStrictEqual(settings.rateLimitStore, Option.some("database"))
      assert.deepStrictEqual([...settings.webhookAllowList.hosts], ["localhost"])
      assert.isTrue(settings.webhookAllowList.ranges.check("10.1.1.1", "ipv4"))
    }))

  it.effect("a bad value fails naming its variable", () =>
    Effect.gen(function*() {
      const allowList = yield* failureIn(Environment.server, { FILINGS_WEBHOOK_ALLOW_HOSTS: "localhost,not a host!" })
      assert.include(allowList, "FILINGS_WEBHOOK_ALLOW_HOSTS")
      assert.include(allowList, "\"not a host!\"")
      assert.include(yield* failureIn(Environment.server, { FILINGS_PORT: "70000" }), "FILINGS_PORT")
      assert.include(
        yield* failureIn(Environment.server, { FILINGS_RATE_LIMIT_STORE: "redis" }),
        "FILINGS_RATE_LIMIT_STORE"
      )
    }))
})

describe("what the server takes from a client, from FILINGS_* variables", () => {
  it.effect("defaults: 256 KiB bodies, 64 MiB uploads, 30 s for headers, 120 s for a request, 5 s idle, 60 s stall", () =>
    Effect.gen(function*() {
      const settings = yield* Environment.server.pipe(withEnvironment({}))
      assert.deepStrictEqual(settings.bodyLimits, { maxBodyBytes: 262_144, maxUploadBytes: 67_108_864 })
      assert.isTrue(Duration.equals(settings.connectionTimeouts.headers, Duration.seconds(30)))
      assert.isTrue(Duration.equals(settings.connectionTimeouts.request, Duration.seconds(120)))
      assert.isTrue(Duration.equals(settings.connectionTimeouts.keepAlive, Duration.seconds(5)))
      assert.isTrue(Duration.equals(settings.streamStallTimeout, Duration.seconds(60)))
    }))

  it.effect("reads each of them", () =>
    Effect.gen(function*() {
      const settings = yield* Environment.server.pipe(withEnvironment({
        FILINGS_MAX_BODY_BYTES: "4096",
        FILINGS_MAX_UPLOAD_BYTES: "1048576",
        FILINGS_HEADERS_TIMEOUT: "2",
        FILINGS_REQUEST_TIMEOUT: "3.5",
        FILINGS_KEEP_ALIVE_TIMEOUT: "65",
        FILINGS_STREAM_HEARTBEAT: "1",
        FILINGS_STREAM_STALL_TIMEOUT: "2"
      }))
      assert.deepStrictEqual(settings.bodyLimits, { maxBodyBytes: 4096, maxUploadBytes: 1_048_576 })
      assert.isTrue(Duration.equals(settings.connectionTimeouts.headers, Duration.seconds(2)))
      assert.isTrue(Duration.equals(settings.connectionTimeouts.request, Duration.millis(3_500)))
      assert.isTrue(Duration.equals(settings.connectionTimeouts.keepAlive, Duration.seconds(65)))
      assert.isTrue(Duration.equals(settings.streamStallTimeout, Duration.seconds(2)))
    }))

  it.effect("a bad value, or two that contradict each other, fails naming the variable", () =>
    Effect.gen(function*() {
      assert.include(yield* failureIn(Environment.server, { FILINGS_MAX_BODY_BYTES: "100" }), "FILINGS_MAX_BODY_BYTES")
      assert.include(
        yield* failureIn(Environment.server, { FILINGS_MAX_UPLOAD_BYTES: "big" }),
        "FILINGS_MAX_UPLOAD_BYTES"
      )
      assert.include(yield* failureIn(Environment.server, { FILINGS_HEADERS_TIMEOUT: "0" }), "FILINGS_HEADERS_TIMEOUT")
      assert.include(
        yield* failureIn(Environment.server, { FILINGS_HEADERS_TIMEOUT: "60", FILINGS_REQUEST_TIMEOUT: "30" }),
        "FILINGS_REQUEST_TIMEOUT must be at least FILINGS_HEADERS_TIMEOUT"
      )
      assert.include(
        yield* failureIn(Environment.server, { FILINGS_STREAM_STALL_TIMEOUT: "10" }),
        "FILINGS_STREAM_STALL_TIMEOUT must be longer than FILINGS_STREAM_HEARTBEAT"
      )
    }))
})

describe("the pipeline from FILINGS_* variables", () => {
  it.effect("defaults: not following without an agent, the specification's forms, every company, 4 workers, 30 s", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* Environment.pipeline.pipe(withEnvironment({})), {
        follow: false,
        forms: PipelineConfig.DefaultForms,
        tickers: [],
        workers: 4,
        lease: Duration.seconds(30),
        followLease: Duration.seconds(30)
      })
      const declared = yield* Environment.pipeline.pipe(withEnvironment({ FILINGS_SEC_USER_AGENT: userAgent }))
      assert.isTrue(declared.follow)
      const blank = yield* Environment.pipeline.pipe(withEnvironment({ FILINGS_SEC_USER_AGENT: " " }))
      assert.isFalse(blank.follow)
      const off = yield* Environment.pipeline.pipe(
        withEnvironment({ FILINGS_SEC_USER_AGENT: userAgent, FILINGS_EDGAR_FOLLOW: "false" })
      )
      assert.isFalse(off.follow)
    }))

  it.effect("reads the forms, the watch list, the workers and the leases", () =>
    Effect.gen(function*() {
      const settings = yield* Environment.pipeline.pipe(withEnvironment({
        FILINGS_FORMS: "10-k, 8-K/A",
        FILINGS_TICKERS: "AAPL, MSFT",
        FILINGS_PIPELINE_WORKERS: "2",
        FILINGS_PIPELINE_LEASE: "5",
        FILINGS_EDGAR_FOLLOW_LEASE: "3"
      }))
      assert.deepStrictEqual(settings.forms, ["10-K", "8-K/A"])
      assert.deepStrictEqual(settings.tickers, [Ids.Ticker.make("AAPL"), Ids.Ticker.make("MSFT")])
      assert.strictEqual(settings.workers, 2)
      assert.isTrue(Duration.equals(settings.lease, Duration.seconds(5)))
      assert.isTrue(Duration.equals(settings.followLease, Duration.seconds(3)))
    }))

  it.effect("a bad value fails naming its variable", () =>
    Effect.gen(function*() {
      const form = yield* failureIn(Environment.pipeline, { FILINGS_FORMS: "10-K,11-K" })
      assert.include(form, "FILINGS_FORMS")
      assert.include(form, "unknown form 11-K")
      assert.include(
        yield* failureIn(Environment.pipeline, { FILINGS_TICKERS: "AAPL,not a ticker!" }),
        "FILINGS_TICKERS"
      )
      assert.include(
        yield* failureIn(Environment.pipeline, { FILINGS_PIPELINE_WORKERS: "65" }),
        "FILINGS_PIPELINE_WORKERS must be from 1 to 64"
      )
      assert.include(
        yield* failureIn(Environment.pipeline, { FILINGS_PIPELINE_LEASE: "0.5" }),
        "FILINGS_PIPELINE_LEASE must be at least 1 second"
      )
      assert.include(
        yield* failureIn(Environment.pipeline, { FILINGS_EDGAR_FOLLOW_LEASE: "0" }),
        "FILINGS_EDGAR_FOLLOW_LEASE must be at least 1 second"
      )
    }))
})

describe("retention from FILINGS_* variables", () => {
  it.effect("defaults: completed jobs for 7 days, delivered deliveries for 30; days may be fractions", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* Environment.retention.pipe(withEnvironment({})), {
        jobRetention: Duration.days(7),
        deliveryRetention: Duration.days(30)
      })
      const set = yield* Environment.retention.pipe(
        withEnvironment({ FILINGS_JOB_RETENTION: "0.5", FILINGS_DELIVERY_RETENTION: "90" })
      )
      assert.deepStrictEqual(set, { jobRetention: Duration.hours(12), deliveryRetention: Duration.days(90) })
      assert.include(
        yield* failureIn(Environment.retention, { FILINGS_DELIVERY_RETENTION: "0" }),
        "FILINGS_DELIVERY_RETENTION must be a number of days above 0"
      )
      assert.include(
        yield* failureIn(Environment.retention, { FILINGS_JOB_RETENTION: "a week" }),
        "FILINGS_JOB_RETENTION"
      )
    }))

  it.effect("the log format: text by default, or json; anything else names the variable", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* Environment.logFormat.pipe(withEnvironment({})), "text")
      assert.strictEqual(yield* Environment.logFormat.pipe(withEnvironment({ FILINGS_LOG_FORMAT: "json" })), "json")
      assert.include(yield* failureIn(Environment.logFormat, { FILINGS_LOG_FORMAT: "xml" }), "FILINGS_LOG_FORMAT")
    }))

  it.effect("the shutdown grace: 30 s by default, 0 allowed, never negative", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* Environment.shutdownGrace.pipe(withEnvironment({})), Duration.seconds(30))
      assert.deepStrictEqual(
        yield* Environment.shutdownGrace.pipe(withEnvironment({ FILINGS_SHUTDOWN_GRACE: "0" })),
        Duration.zero
      )
      assert.include(
        yield* failureIn(Environment.shutdownGrace, { FILINGS_SHUTDOWN_GRACE: "-1" }),
        "FILINGS_SHUTDOWN_GRACE must be a number of seconds, 0 or more"
      )
    }))
})

describe("the workers of a server from FILINGS_* variables", () => {
  it.effect("defaults: 8 delivery attempts, 120 s, 2 summaries, a refresh every hour, no news feed every 300 s", () =>
    Effect.gen(function*() {
      const none = withEnvironment({})
      assert.deepStrictEqual(yield* Environment.webhookDelivery.pipe(none), {
        workers: 8,
        lease: Duration.seconds(120)
      })
      assert.deepStrictEqual(yield* Environment.summaryJobs.pipe(none), { workers: 2 })
      assert.deepStrictEqual(yield* Environment.stockChangeRefresh.pipe(none), { interval: Duration.seconds(3600) })
      assert.deepStrictEqual(yield* Environment.news.pipe(none), { sources: [], interval: Duration.seconds(300) })
      assert.isTrue(Option.isNone(yield* Environment.transcriptFolder.pipe(none)))
      assert.isFalse(yield* Environment.marketDataConfigured.pipe(none))
      assert.deepStrictEqual(yield* Environment.marketData.pipe(none), { _tag: "None" })
    }))

  it.effect("reads every variable", () =>
    Effect.gen(function*() {
      const env = withEnvironment({
        FILINGS_WEBHOOK_WORKERS: "16",
        FILINGS_WEBHOOK_LEASE: "30",
        FILINGS_SUMMARY_WORKERS: "4",
        FILINGS_MARKET_DATA_REFRESH: "60",
        FILINGS_MARKET_DATA_CSV: " closes.csv ",
        FILINGS_NEWS_FEEDS: "AAPL=https://news.example/aapl.rss https://wire.example/all.xml",
        FILINGS_NEWS_POLL: "5",
        FILINGS_TRANSCRIPT_DIR: "/srv/transcripts"
      })
      assert.deepStrictEqual(yield* Environment.webhookDelivery.pipe(env), { workers: 16, lease: Duration.seconds(30) })
      assert.deepStrictEqual(yield* Environment.summaryJobs.pipe(env), { workers: 4 })
      assert.deepStrictEqual(yield* Environment.stockChangeRefresh.pipe(env), { interval: Duration.seconds(60) })
      assert.deepStrictEqual(yield* Environment.news.pipe(env), {
        sources: [{ url: "https://news.example/aapl.rss", ticker: Ids.Ticker.make("AAPL") }, {
          url: "https://wire.example/all.xml"
        }],
        interval: Duration.seconds(5)
      })
      assert.deepStrictEqual(yield* Environment.transcriptFolder.pipe(env), Option.some("/srv/transcripts"))
      assert.deepStrictEqual(yield* Environment.marketData.pipe(env), { _tag: "Csv", path: "closes.csv" })
      const http = yield* Environment.marketData.pipe(withEnvironment({
        FILINGS_MARKET_DATA_URL: "https://quotes.example/{ticker}?from={from}&to={to}",
        FILINGS_MARKET_DATA_KEY: "mk-secret"
      }))
      assert.strictEqual(http._tag, "Http")
      if (http._tag === "Http") {
        assert.strictEqual(http.options.urlTemplate, "https://quotes.example/{ticker}?from={from}&to={to}")
        assert.strictEqual(
          http.options.apiKey === undefined ? undefined : Redacted.value(http.options.apiKey),
          "mk-secret"
        )
      }
    }))

  it.effect("a bad value fails naming its variable", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [Effect.Effect<unknown, ConfigError.ConfigError>, string, string, string]> = [
        [
          Environment.webhookDelivery,
          "FILINGS_WEBHOOK_WORKERS",
          "257",
          "FILINGS_WEBHOOK_WORKERS must be from 1 to 256"
        ],
        [Environment.webhookDelivery, "FILINGS_WEBHOOK_LEASE", "0", "FILINGS_WEBHOOK_LEASE must be at least 1 second"],
        [Environment.summaryJobs, "FILINGS_SUMMARY_WORKERS", "0", "FILINGS_SUMMARY_WORKERS must be from 1 to 64"],
        [
          Environment.stockChangeRefresh,
          "FILINGS_MARKET_DATA_REFRESH",
          "59",
          "FILINGS_MARKET_DATA_REFRESH must be at least 60 seconds"
        ],
        [Environment.news, "FILINGS_NEWS_POLL", "4", "FILINGS_NEWS_POLL must be at least 5 seconds"],
        [Environment.news, "FILINGS_NEWS_FEEDS", "ftp://news.example", "is not a URL (https://...) nor TICKER=URL"],
        [Environment.marketData, "FILINGS_MARKET_DATA_URL", "https://quotes.example/daily", "placeholder {ticker}"]
      ]
      for (const [config, name, value, message] of cases) {
        const failure = yield* failureIn(config, { [name]: value })
        assert.include(failure, name, `${name}=${value}`)
        assert.include(failure, message, `${name}=${value}`)
      }
    }))
})

describe("traces from the OpenTelemetry variables", () => {
  it.effect("none without an endpoint; with one, protobuf to <endpoint>/v1/traces as filings by default", () =>
    Effect.gen(function*() {
      assert.isTrue(Option.isNone(yield* Environment.tracing.pipe(withEnvironment({}))))
      assert.isTrue(
        Option.isNone(yield* Environment.tracing.pipe(withEnvironment({ OTEL_EXPORTER_OTLP_ENDPOINT: " " })))
      )
      const settings = Option.getOrThrow(
        yield* Environment.tracing.pipe(withEnvironment({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }))
      )
      assert.strictEqual(settings.url.href, "http://collector:4318/v1/traces")
      assert.strictEqual(settings.protocol, "http/protobuf")
      assert.strictEqual(settings.serviceName, "filings")
      assert.deepStrictEqual(Redacted.value(settings.headers), {})
    }))

  it.effect("reads the protocol, the service name and URL-encoded headers, which stay redacted", () =>
    Effect.gen(function*() {
      const settings = Option.getOrThrow(
        yield* Environment.tracing.pipe(withEnvironment({
          OTEL_EXPORTER_OTLP_ENDPOINT: "https://otlp.example.com/base",
          OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
          OTEL_EXPORTER_OTLP_HEADERS: "X-Api-Key=s3cr%3Dt, tenant = acme",
          OTEL_SERVICE_NAME: "filings-eu"
        }))
      )
      assert.strictEqual(settings.url.href, "https://otlp.example.com/base/v1/traces")
      assert.strictEqual(settings.protocol, "http/json")
      assert.strictEqual(settings.serviceName, "filings-eu")
      assert.deepStrictEqual(Redacted.value(settings.headers), { "x-api-key": "s3cr=t", tenant: "acme" })
      assert.notInclude(String(settings.headers), "s3cr")
    }))

  it.effect("the traces-only variables override the general ones; their endpoint is used as given", () =>
    Effect.gen(function*() {
      const general = {
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_HEADERS: "x-general=1"
      }
      const overridden = Option.getOrThrow(
        yield* Environment.tracing.pipe(withEnvironment({
          ...general,
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example.com/ingest/spans",
          OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf",
          OTEL_EXPORTER_OTLP_TRACES_HEADERS: "x-traces=2"
        }))
      )
      assert.strictEqual(overridden.url.href, "https://traces.example.com/ingest/spans")
      assert.strictEqual(overridden.protocol, "http/protobuf")
      assert.deepStrictEqual(Redacted.value(overridden.headers), { "x-traces": "2" })

      // On its own, the traces endpoint turns tracing on; a blank one leaves the general one in charge.
      const alone = Option.getOrThrow(
        yield* Environment.tracing.pipe(
          withEnvironment({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c:4318/v1/traces" })
        )
      )
      assert.strictEqual(alone.url.href, "http://c:4318/v1/traces")
      assert.strictEqual(alone.protocol, "http/protobuf")
      const blank = Option.getOrThrow(
        yield* Environment.tracing.pipe(withEnvironment({ ...general, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: " " }))
      )
      assert.strictEqual(blank.url.href, "http://collector:4318/v1/traces")
      assert.strictEqual(blank.protocol, "http/json")
      assert.deepStrictEqual(Redacted.value(blank.headers), { "x-general": "1" })

      assert.include(
        yield* failureIn(Environment.tracing, { ...general, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "collector:4318" }),
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http:// or https:// URL"
      )
      assert.include(
        yield* failureIn(Environment.tracing, { ...general, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "grpc" }),
        "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
      )
      assert.include(
        yield* failureIn(Environment.tracing, { ...general, OTEL_EXPORTER_OTLP_TRACES_HEADERS: "no-equals-sign" }),
        "OTEL_EXPORTER_OTLP_TRACES_HEADERS must be name=value pairs"
      )
    }))

  it.effect("a bad endpoint, protocol or header list is an error naming its variable", () =>
    Effect.gen(function*() {
      const endpoint = "http://127.0.0.1:4318"
      assert.include(
        yield* failureIn(Environment.tracing, { OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" }),
        "OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL"
      )
      assert.include(
        yield* failureIn(Environment.tracing, { OTEL_EXPORTER_OTLP_ENDPOINT: "ftp://collector" }),
        "OTEL_EXPORTER_OTLP_ENDPOINT"
      )
      assert.include(
        yield* failureIn(Environment.tracing, {
          OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
          OTEL_EXPORTER_OTLP_PROTOCOL: "grpc"
        }),
        "OTEL_EXPORTER_OTLP_PROTOCOL"
      )
      for (const headers of ["no-equals-sign", "bad name=1", "x=%E0%A4%A"]) {
        assert.include(
          yield* failureIn(Environment.tracing, {
            OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
            OTEL_EXPORTER_OTLP_HEADERS: headers
          }),
          "OTEL_EXPORTER_OTLP_HEADERS must be name=value pairs",
          headers
        )
      }
    }))
})
