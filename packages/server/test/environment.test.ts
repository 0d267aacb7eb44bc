/**
 * The server's names for the libraries' settings: each `FILINGS_*` variable reaches the library
 * layer it configures, with the documented defaults, and an EDGAR failure the operator fixes in the
 * environment names the variable to set.
 */
import { SqlError } from "@effect/sql"
import { assert, describe, it } from "@effect/vitest"
import { EdgarConfig, EdgarError } from "@filings/edgar"
import { Database } from "@filings/storage-sql"
import { Config, ConfigProvider, Duration, Effect, Exit, Layer, Option, Redacted } from "effect"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Environment from "../src/Environment.js"

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
