/**
 * The schema migrations of the Filings database, run with `@effect/sql`'s generic `Migrator` on
 * either engine. Safe when several processes start at once against one PostgreSQL: a run holds a
 * transaction-scoped advisory lock, so the others wait, then find nothing left to do.
 *
 * @module
 */
import { Migrator, SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import { migrations } from "./internal/migrations/index.js"

/** The table recording applied migrations (`migration_id`, `name`, `created_at`). */
export const table = "filings_migrations"

/**
 * The `pg_advisory_xact_lock` key that serialises migration runs: the ASCII bytes of "filing".
 * Fixed forever, so that old and new versions of the server exclude each other too.
 */
export const lockKey = 0x66696c696e67

/** The migrations shipped with this version. */
export const loader: Migrator.Loader = Migrator.fromRecord(migrations)

/** Why the migrations could not run: a migration failed, or the database did. */
export type RunError = Migrator.MigrationError | SqlError.SqlError

/** Which migrations to run, and the table that records those already run. */
export interface RunOptions {
  /** Defaults to the shipped migrations; tests pass their own. */
  readonly loader?: Migrator.Loader | undefined
  /** Defaults to `filings_migrations`. */
  readonly table?: string | undefined
}

const migrate = Migrator.make({})

/**
 * Applies the migrations not applied yet and returns them (`[]` when the schema is current).
 * Everything runs in one transaction, so a failed migration leaves no trace.
 */
export const run = Effect.fn("Migrations.run")(function*(options: RunOptions = {}) {
  const sql = yield* SqlClient.SqlClient
  const migrationsTable = options.table ?? table
  const applied = yield* sql.withTransaction(Effect.gen(function*() {
    // Released by the server when the transaction ends, even if this process dies meanwhile.
    yield* sql`SELECT pg_advisory_xact_lock(${lockKey})`
    // The Migrator would create its table on its own, but it probes with a failing statement,
    // which aborts an enclosing PostgreSQL transaction; creating it here, under the lock, is also
    // what makes a first start of two processes race-free.
    yield* sql`CREATE TABLE IF NOT EXISTS ${sql(migrationsTable)} (
      migration_id integer PRIMARY KEY,
      created_at timestamptz NOT NULL DEFAULT now(),
      name text NOT NULL
    )`
    return yield* migrate({ loader: options.loader ?? loader, table: migrationsTable })
  })).pipe(
    // The Migrator turns a failing migration into a defect; keep it a typed failure.
    Effect.catchSomeDefect((defect) =>
      defect instanceof Migrator.MigrationError ? Option.some(Effect.fail(defect)) : Option.none()
    )
  )
  if (applied.length > 0) {
    yield* Effect.logInfo("Applied database migrations").pipe(
      Effect.annotateLogs("migrations", applied.map(([id, name]) => `${id}_${name}`).join(", "))
    )
  }
  return applied
})

/** Runs the migrations when the layer is built; provide it with the database's `SqlClient`. */
export const layer = (options: RunOptions = {}): Layer.Layer<never, RunError, SqlClient.SqlClient> =>
  Layer.effectDiscard(run(options))
