/**
 * Fresh, migrated databases for tests, on either engine, so every test file (or conformance suite
 * run) starts from an empty schema and leaves nothing behind.
 *
 * PostgreSQL tests give the admin connection URL (any database on the server, typically
 * `postgres://postgres@127.0.0.1:5432/postgres`; where it comes from is the test suite's choice);
 * the role must be allowed to create databases. A fresh PGlite costs about 2 s to start, so share one per test file with
 * `layer(...)` from `@effect/vitest`.
 *
 * @module
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlError } from "@effect/sql"
import type { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import type { Scope } from "effect"
import { Effect, Layer, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import * as Database from "./Database.js"

const toRedacted = (url: Redacted.Redacted | string): Redacted.Redacted =>
  typeof url === "string" ? Redacted.make(url) : url

/** The same server and settings as `adminUrl`, another database. */
const withDatabase = (
  adminUrl: Redacted.Redacted,
  database: string
): Effect.Effect<Redacted.Redacted, SqlError.SqlError> =>
  Effect.try({
    try: () => {
      const url = new URL(Redacted.value(adminUrl))
      url.pathname = `/${database}`
      return Redacted.make(url.toString())
    },
    // The cause would echo the URL, password included.
    catch: () => new SqlError.SqlError({ message: "TestDatabase: the admin URL is not a valid URL" })
  })

/**
 * Creates an empty database named `filings_test_<random hex>` on the server of `adminUrl`,
 * returns its URL, and drops it (`WITH (FORCE)`, closing leftover connections) when the scope
 * closes. Nothing is migrated: use it to test migrations themselves.
 */
export const createPostgresDatabase = (
  adminUrl: Redacted.Redacted | string
): Effect.Effect<Redacted.Redacted, SqlError.SqlError, Scope.Scope> =>
  Effect.gen(function*() {
    const admin = yield* PgClient.make({
      url: toRedacted(adminUrl),
      maxConnections: 1,
      applicationName: "filings-test-admin"
    }).pipe(Effect.provideServiceEffect(Reactivity.Reactivity, Reactivity.make))
    const name = `filings_test_${randomBytes(8).toString("hex")}`
    const url = yield* withDatabase(toRedacted(adminUrl), name)
    yield* Effect.acquireRelease(
      admin`CREATE DATABASE ${admin(name)}`,
      () =>
        admin`DROP DATABASE IF EXISTS ${admin(name)} WITH (FORCE)`.pipe(
          Effect.catchAll((error) => Effect.logWarning(`TestDatabase: could not drop ${name}`, error))
        )
    )
    return url
  })

/**
 * A fresh PostgreSQL database, migrated, provided as `SqlClient`; dropped when the layer is
 * released (its own connections close first).
 */
export const layerPostgres = (
  adminUrl: Redacted.Redacted | string
): Layer.Layer<SqlClient.SqlClient | Database.DatabaseEngine, Database.DatabaseError> =>
  Layer.unwrapScoped(Effect.map(createPostgresDatabase(adminUrl), (url) => Database.layerPostgres({ url })))

/** A fresh in-memory PGlite, migrated. */
export const layerPglite = (): Layer.Layer<SqlClient.SqlClient | Database.DatabaseEngine, Database.DatabaseError> =>
  Database.layerPglite()
