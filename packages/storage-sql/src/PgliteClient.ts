/**
 * An `@effect/sql` client on embedded PGlite (PostgreSQL compiled to WASM, running in this
 * process), the default database of a Filings deployment. Store code sees only
 * `SqlClient.SqlClient` and runs the same SQL here and on PostgreSQL (`@effect/sql-pg`).
 *
 * PGlite is one session, so the client has one connection guarded by a semaphore: a transaction
 * (or `sql.reserve`) holds it for its whole scope; a plain query takes it for one statement only,
 * so it never lands inside another fiber's open transaction but waits for that transaction to end
 * (on PostgreSQL it would run at once on another connection). Hence, inside `withTransaction`,
 * never wait for a fiber that queries outside the transaction: it would wait for you, forever.
 * Streams fetch the whole result first (PGlite has no cursors), then emit it.
 *
 * Decoding rule, identical on both engines (tested in `test/`):
 * - Results decode as node-postgres decodes them by default; PGlite is configured to match where it
 *   differs: `int8` (bigint, `count(*)`, `sum(int)`) is a decimal string, `numeric` is a string,
 *   `date` is a `Date` at local midnight, `timestamptz` is a `Date`, `json`/`jsonb` are parsed.
 * - Store code casts in SQL to get numbers: `count(*)::int`, `sum(x)::int` or `::float8`, and
 *   selects `date` columns as `::text` ("2024-01-31") rather than relying on local-midnight Dates.
 *   Do not select `interval` or `numeric[]` uncast: pg and PGlite disagree on those.
 * - JSON parameters go through `Database.jsonb(value)` (or `json` below), never a bare object.
 *
 * @module
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlClient } from "@effect/sql"
import type { SqlError, Statement } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { PGlite } from "@electric-sql/pglite"
import type { Scope } from "effect"
import { Context, Duration, Effect, Layer, Option } from "effect"
import { mkdir } from "node:fs/promises"
import { resolve } from "node:path"
import { isDataDirInUse as dataDirInUse, lockDataDir } from "./internal/dataDirLock.js"
import { jsonb } from "./internal/jsonb.js"
import { lockedConnection, makeConnection, toSqlError } from "./internal/pgliteConnection.js"
import { pgCompatibleParsers } from "./internal/pgTypes.js"

/** Where the embedded database lives, and the attributes its spans carry. */
export interface PgliteClientOptions {
  /**
   * Where the database lives; created (with its parents) if missing, and locked against other
   * processes with `<dataDir>.lock` while open. Unset or `memory://` keeps the database in memory,
   * gone when the scope closes.
   */
  readonly dataDir?: string | undefined
  /** Added to every query span, as `@effect/sql`'s clients do. */
  readonly spanAttributes?: Record<string, unknown> | undefined
}

/** An `@effect/sql` client on PGlite, with its data directory and a JSON parameter helper. */
export interface Service extends SqlClient.SqlClient {
  /** The absolute data directory, or `undefined` for an in-memory database. */
  readonly dataDir: string | undefined
  /** A JSON parameter, the counterpart of `PgClient.json`; the same as `Database.jsonb`. */
  readonly json: (value: unknown) => Statement.Fragment
}

/** The PGlite client as a service (it is also provided as `SqlClient.SqlClient`). */
export class PgliteClient extends Context.Tag("@filings/storage-sql/PgliteClient")<PgliteClient, Service>() {}

/** How long closing waits for an open transaction before it closes PGlite anyway. */
const closeGrace = Duration.seconds(5)

const resolveDataDir = (dataDir: string | undefined): string | undefined =>
  dataDir === undefined || dataDir === "" || dataDir.startsWith("memory://") ? undefined : resolve(dataDir)

const openDatabase = (dataDir: string | undefined) =>
  Effect.tryPromise({
    try: () => PGlite.create({ ...(dataDir === undefined ? {} : { dataDir }), parsers: pgCompatibleParsers }),
    catch: (cause) => toSqlError(cause, `PgliteClient: cannot open the database in ${dataDir ?? "memory"}`)
  })

/** Opens PGlite in `options.dataDir` (or in memory), locked against other processes until the scope closes. */
export const make = (
  options: PgliteClientOptions = {}
): Effect.Effect<Service, SqlError.SqlError, Scope.Scope | Reactivity.Reactivity> =>
  Effect.gen(function*() {
    const dataDir = resolveDataDir(options.dataDir)
    if (dataDir !== undefined) {
      // PGlite creates only the last path segment itself.
      yield* Effect.tryPromise({
        try: () => mkdir(dataDir, { recursive: true }),
        catch: (cause) => toSqlError(cause, `PgliteClient: cannot create the data directory ${dataDir}`)
      })
      // Released after PGlite has closed (finalizers run in reverse order).
      yield* lockDataDir(dataDir)
    }

    const semaphore = yield* Effect.makeSemaphore(1)
    const db = yield* Effect.acquireRelease(openDatabase(dataDir), (db) =>
      Effect.gen(function*() {
        // Let an open transaction finish first, but never hang shutdown on one that does not.
        const permit = yield* Effect.timeoutOption(semaphore.take(1), closeGrace)
        yield* Effect.tryPromise(() => db.close()).pipe(
          Effect.catchAllCause((cause) => Effect.logWarning("PgliteClient: closing the database failed", cause))
        )
        // Late callers then reach the closed PGlite and fail with a SqlError instead of waiting forever.
        if (Option.isSome(permit)) yield* semaphore.release(1)
      }))

    const connection = makeConnection(db)
    const client = yield* SqlClient.make({
      acquirer: Effect.succeed(lockedConnection(connection, semaphore)),
      // Held for the transaction's scope; the finalizer returns the permit however the scope ends.
      transactionAcquirer: Effect.uninterruptibleMask((restore) =>
        restore(semaphore.take(1)).pipe(
          Effect.zipRight(Effect.addFinalizer(() => semaphore.release(1))),
          Effect.as(connection)
        )
      ),
      // Column names are not transformed, as in `Database.layerPostgres`: one SQL text, one result shape.
      compiler: PgClient.makeCompiler(),
      spanAttributes: [
        ...(options.spanAttributes === undefined ? [] : Object.entries(options.spanAttributes)),
        ["db.system.name", "postgresql"],
        ["db.namespace", "postgres"]
      ]
    })

    return Object.assign(client, { dataDir, json: jsonb })
  })

/**
 * Whether opening failed because another process (or another client in this one) holds the data
 * directory: embedded PGlite serves one process at a time, and an application may want to say how
 * its users share a database instead.
 */
export const isDataDirInUse: (error: SqlError.SqlError) => boolean = dataDirInUse

/** Provides the client both as `PgliteClient` and as the engine-neutral `SqlClient.SqlClient`. */
export const layer = (
  options: PgliteClientOptions = {}
): Layer.Layer<PgliteClient | SqlClient.SqlClient, SqlError.SqlError> =>
  Layer.scopedContext(
    Effect.map(make(options), (client) =>
      Context.make(PgliteClient, client).pipe(Context.add(SqlClient.SqlClient, client)))
  ).pipe(Layer.provide(Reactivity.layer))
