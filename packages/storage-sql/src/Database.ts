/**
 * The composition entry point of the Filings database: picks the engine from the options the
 * caller gives (in code with `layer`, or through `Config` with `layerConfig`), opens it, runs the
 * migrations and provides `SqlClient.SqlClient` to the stores, plus `DatabaseEngine` so that callers
 * (the CLI) know whether an embedded, single-process database is in use.
 *
 * A connection URL: PostgreSQL through `@effect/sql-pg`, shared by any number of processes. No URL:
 * PGlite in `<dataDir>/pglite`, which only one process may open at a time, or in memory without a
 * data directory.
 *
 * @module
 */
import type { SqlClient, SqlError, Statement } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import type { ConfigError, Redacted } from "effect"
import { Config, Context, Duration, Effect, Layer } from "effect"
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

/** Which engine `layer` opened: an embedded PGlite (one process at a time) or a shared PostgreSQL. */
export class DatabaseEngine extends Context.Tag("@filings/storage-sql/Database/DatabaseEngine")<
  DatabaseEngine,
  Engine
>() {}

/** Why the database could not be opened or migrated. */
export type DatabaseError = SqlError.SqlError | Migrations.RunError

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

/** The longest an operation waits for a PostgreSQL connection before it fails. */
export const connectionWait = Duration.seconds(10)

/** PostgreSQL at `url`, migrated. */
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

/** Which database `layer` and `layerConfig` open. */
export interface Options {
  /** A PostgreSQL connection URL (it may hold a password, so it stays `Redacted`); PGlite when absent. */
  readonly url?: Redacted.Redacted | undefined
  /** The directory PGlite keeps its files under (in `<dataDir>/pglite`); in memory when absent. Unused with `url`. */
  readonly dataDir?: string | undefined
  /** The most PostgreSQL connections the pool opens; `@effect/sql-pg`'s default when absent. */
  readonly maxConnections?: number | undefined
}

/**
 * The database `options` ask for (see the module comment), migrated.
 *
 * @example
 * Database.layer({ dataDir: "./data" }) // PGlite in ./data/pglite
 * Database.layer({ url: Redacted.make("postgres://app@db.internal/app") })
 */
export const layer = (options: Options): Layer.Layer<SqlClient.SqlClient | DatabaseEngine, DatabaseError> =>
  options.url === undefined
    ? layerPglite({ dataDir: options.dataDir === undefined ? undefined : pgliteDataDir(options.dataDir) })
    : layerPostgres({ url: options.url, maxConnections: options.maxConnections })

/**
 * `layer`, with the options read through `Config` where the caller says: each field a `Config`
 * (`Config.succeed` for a fixed value), as `@effect/sql-pg`'s `PgClient.layerConfig` takes them. The library names no
 * environment variable; the application chooses them.
 *
 * @example
 * Database.layerConfig({
 *   url: Config.option(Config.redacted("DATABASE_URL")).pipe(Config.map(Option.getOrUndefined)),
 *   dataDir: Config.string("DATA_DIR").pipe(Config.withDefault("./data"))
 * })
 */
export const layerConfig = (
  config: Config.Config.Wrap<Options>
): Layer.Layer<SqlClient.SqlClient | DatabaseEngine, DatabaseError | ConfigError.ConfigError> =>
  Layer.unwrapEffect(Effect.map(
    // `Config.unwrap` cannot read an empty structure; nothing given means PGlite in memory.
    Config.isConfig(config) || Object.keys(config).length > 0 ? Config.unwrap(config) : Config.succeed({}),
    layer
  ))

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
