/**
 * The composition entry point of the Filings database: picks the engine from configuration, opens
 * it, runs the migrations and provides `SqlClient.SqlClient` to the stores, plus `DatabaseEngine`
 * so that callers (the CLI) know whether an embedded, single-process database is in use.
 *
 * `FILINGS_DATABASE_URL` set: PostgreSQL through `@effect/sql-pg`, shared by any number of
 * processes. Unset: PGlite in `<FILINGS_DATA_DIR>/pglite` (default `./.filings/pglite`), which
 * only one process may open at a time.
 */
import type { SqlClient, SqlError, Statement } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import type { ConfigError } from "effect"
import { Config, Context, Duration, Effect, Layer, Option, Redacted } from "effect"
import { join } from "node:path"
import { jsonb as jsonbParameter } from "./internal/jsonb.js"
import * as Migrations from "./Migrations.js"
import * as PgliteClient from "./PgliteClient.js"

/** Which database the process runs on. */
export type Engine =
  | {
    readonly kind: "pglite"
    /** Absolute data directory, `undefined` when in memory. Only one process may open it. */
    readonly dataDir: string | undefined
  }
  | {
    readonly kind: "postgres"
    /** The database name from the connection settings; never the URL, which may hold a password. */
    readonly database: string | undefined
  }

export class DatabaseEngine extends Context.Tag("@filings/storage-sql/Database/DatabaseEngine")<
  DatabaseEngine,
  Engine
>() {}

export type DatabaseError = SqlError.SqlError | Migrations.RunError

/** The data directory default, relative to the working directory. */
export const defaultDataDir = "./.filings"

/** Where PGlite keeps its files inside the data directory, which other components share. */
export const pgliteDataDir = (dataDir: string): string => join(dataDir, "pglite")

const migrated = <ROut, E>(
  client: Layer.Layer<ROut | SqlClient.SqlClient, E>
): Layer.Layer<ROut | SqlClient.SqlClient, E | Migrations.RunError> => Layer.provideMerge(Migrations.layer(), client)

/** PGlite, migrated; in memory unless `dataDir` (the database's own directory) is given. */
export const layerPglite = (
  options: { readonly dataDir?: string | undefined } = {}
): Layer.Layer<SqlClient.SqlClient | DatabaseEngine, DatabaseError> => {
  const client = PgliteClient.layer({ dataDir: options.dataDir })
  const engine = Layer.effect(
    DatabaseEngine,
    Effect.map(PgliteClient.PgliteClient, (pglite): Engine => ({ kind: "pglite", dataDir: pglite.dataDir }))
  )
  return migrated(Layer.provideMerge(engine, client))
}

/** PostgreSQL at `url`, migrated. */
/** The longest an operation waits for a PostgreSQL connection before it fails. */
export const connectionWait = Duration.seconds(10)

export const layerPostgres = (options: {
  readonly url: Redacted.Redacted
  readonly maxConnections?: number | undefined
}): Layer.Layer<SqlClient.SqlClient | DatabaseEngine, DatabaseError> => {
  const client = PgClient.layer({
    url: options.url,
    maxConnections: options.maxConnections,
    // How long an operation waits for a connection, new or from a busy pool. Port operations are
    // uninterruptible once started, so without it an unreachable database would hold every caller
    // (and shutdown) until TCP gave up.
    connectTimeout: connectionWait,
    applicationName: "filings"
  })
  const engine = Layer.effect(
    DatabaseEngine,
    Effect.map(PgClient.PgClient, (pg): Engine => ({ kind: "postgres", database: pg.config.database }))
  )
  return migrated(Layer.provideMerge(engine, client))
}

/** The settings `layerConfig` reads. An empty `FILINGS_DATABASE_URL` counts as unset. */
export const config: Config.Config<{
  readonly databaseUrl: Option.Option<Redacted.Redacted>
  readonly dataDir: string
}> = Config.all({
  databaseUrl: Config.option(Config.redacted("FILINGS_DATABASE_URL")).pipe(
    Config.map(Option.filter((url) => Redacted.value(url).trim() !== ""))
  ),
  dataDir: Config.string("FILINGS_DATA_DIR").pipe(Config.withDefault(defaultDataDir))
})

/** The database the configuration asks for (see the module comment), migrated. */
export const layerConfig: Layer.Layer<
  SqlClient.SqlClient | DatabaseEngine,
  DatabaseError | ConfigError.ConfigError
> = Layer.unwrapEffect(
  Effect.map(config, ({ dataDir, databaseUrl }) =>
    Option.match(databaseUrl, {
      onNone: () => layerPglite({ dataDir: pgliteDataDir(dataDir) }),
      onSome: (url) => layerPostgres({ url })
    }))
)

/**
 * A JSON value as a parameter, for `jsonb` (or `json`) columns, that reads back identically on
 * both engines. Works in `sql.insert(...)` records too. Where PostgreSQL cannot infer the type from
 * the context (a select list, a function argument, `sql.update`), write `${Database.jsonb(v)}::jsonb`.
 */
export const jsonb = (value: unknown): Statement.Fragment => jsonbParameter(value)

/**
 * The SQLSTATE of a failed statement ("23505" for a unique violation), the same on both engines,
 * or `undefined` when the failure did not come from the database (connection lost, closed client).
 */
export const sqlState = (error: SqlError.SqlError): string | undefined => {
  const cause: unknown = error.cause
  // Only a server error report has a severity; Node's system errors have a `code` too ("EPIPE").
  if (typeof cause !== "object" || cause === null || !("severity" in cause)) return undefined
  const code: unknown = (cause as { readonly code?: unknown }).code
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined
}
