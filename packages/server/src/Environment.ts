/**
 * The `FILINGS_*` variables the libraries are configured from, as Effect `Config`: the database,
 * EDGAR and the summary model. The libraries name no variable (they take `layer(options)` or
 * `layerConfig(...)` from their caller); this module gives their settings the server's names, and
 * tells a library failure the operator fixes in the environment with the variable to set.
 *
 * - `FILINGS_DATABASE_URL` (empty counts as unset) and `FILINGS_DATA_DIR` (default `./.filings`).
 * - `FILINGS_SEC_USER_AGENT`, `FILINGS_EDGAR_BASE_URL`, `FILINGS_EDGAR_DATA_BASE_URL`,
 *   `FILINGS_EDGAR_POLL_INTERVAL` (seconds), `FILINGS_EDGAR_MAX_RPS` (1 to 10), and the client's
 *   patience in seconds: `FILINGS_EDGAR_BACKOFF_BASE` (1), `FILINGS_EDGAR_RATE_LIMIT_PAUSE` (600),
 *   `FILINGS_EDGAR_REQUEST_TIMEOUT` (60).
 * - `FILINGS_SUMMARY_MODEL_URL`, `FILINGS_SUMMARY_MODEL` and `FILINGS_SUMMARY_MODEL_KEY` (empty
 *   counts as unset).
 */
import { SqlError } from "@effect/sql"
import { type EdgarClient, EdgarConfig, EdgarError } from "@filings/edgar"
import type { ChatCompletionsModel } from "@filings/feed-summarizer"
import { type Database, PgliteClient } from "@filings/storage-sql"
import { Config, Duration, Option, Redacted } from "effect"

const isBlank = (text: string): boolean => text.trim() === ""

/** A secret variable that counts as unset when empty, as `undefined` for a library option. */
const optionalSecret = (name: string): Config.Config<Redacted.Redacted | undefined> =>
  Config.option(Config.redacted(name)).pipe(
    Config.map((value) => Option.getOrUndefined(Option.filter(value, (secret) => !isBlank(Redacted.value(secret)))))
  )

/** The data directory when `FILINGS_DATA_DIR` is unset, relative to the working directory. */
export const defaultDataDir = "./.filings"

/** Where the database is: a PostgreSQL URL (`FILINGS_DATABASE_URL`), else PGlite under `FILINGS_DATA_DIR`. */
export const database = {
  url: optionalSecret("FILINGS_DATABASE_URL"),
  dataDir: Config.string("FILINGS_DATA_DIR").pipe(Config.withDefault(defaultDataDir))
} satisfies Config.Config.Wrap<Database.Options>

/** The database settings read at once, for the commands that look at them before opening it. */
export const databaseSettings: Config.Config<{
  readonly url: Redacted.Redacted | undefined
  readonly dataDir: string
}> = Config.all(database)

/** Where EDGAR is and how politely to use it. */
export const edgar = {
  baseUrl: Config.string("FILINGS_EDGAR_BASE_URL").pipe(Config.withDefault(EdgarConfig.defaults.baseUrl)),
  dataBaseUrl: Config.string("FILINGS_EDGAR_DATA_BASE_URL").pipe(
    Config.withDefault(EdgarConfig.defaults.dataBaseUrl)
  ),
  userAgent: Config.option(Config.string("FILINGS_SEC_USER_AGENT")),
  pollInterval: Config.number("FILINGS_EDGAR_POLL_INTERVAL").pipe(
    // Checked before it becomes a duration, so that the error names the variable.
    Config.validate({
      message: EdgarConfig.pollIntervalRule,
      validation: (seconds) => EdgarConfig.isAllowedPollInterval(Duration.seconds(seconds))
    }),
    Config.map(Duration.seconds),
    Config.withDefault(EdgarConfig.defaults.pollInterval)
  ),
  maxRequestsPerSecond: Config.integer("FILINGS_EDGAR_MAX_RPS").pipe(
    Config.validate({
      message: EdgarConfig.maxRequestsPerSecondRule,
      validation: EdgarConfig.isAllowedRequestRate
    }),
    Config.withDefault(EdgarConfig.defaults.maxRequestsPerSecond)
  )
} satisfies Config.Config.Wrap<Partial<EdgarConfig.Settings>>

const seconds = (name: string, fallback: number) =>
  Config.number(name).pipe(
    Config.validate({ message: `${name} must be a number of seconds above 0`, validation: (value) => value > 0 }),
    Config.withDefault(fallback),
    Config.map(Duration.seconds)
  )

/** How patiently the EDGAR client waits: backoff base (doubled per retry), rate-threshold pause, body timeout. */
export const edgarClient = {
  backoffBase: seconds("FILINGS_EDGAR_BACKOFF_BASE", 1),
  rateThresholdPause: seconds("FILINGS_EDGAR_RATE_LIMIT_PAUSE", 600),
  bodyTimeout: seconds("FILINGS_EDGAR_REQUEST_TIMEOUT", 60)
} satisfies Config.Config.Wrap<EdgarClient.Options>

/** The chat-completions endpoint, when one is configured; unset or empty, the extractive model writes summaries. */
export const summaryModelUrl: Config.Config<Option.Option<string>> = Config.option(
  Config.string("FILINGS_SUMMARY_MODEL_URL")
).pipe(Config.map(Option.filter((url) => !isBlank(url))), Config.map(Option.map((url) => url.trim())))

/** The chat-completions model's settings, read once an endpoint is configured. */
export const summaryModel = {
  baseUrl: Config.string("FILINGS_SUMMARY_MODEL_URL"),
  model: Config.string("FILINGS_SUMMARY_MODEL"),
  apiKey: optionalSecret("FILINGS_SUMMARY_MODEL_KEY")
} satisfies Config.Config.Wrap<ChatCompletionsModel.Options>

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
