/**
 * The `@effect/sql` connection over one PGlite instance, and the mapping of PGlite failures to
 * `SqlError`.
 */
import type { SqlConnection } from "@effect/sql"
import { SqlError } from "@effect/sql"
import type { PGlite, Results } from "@electric-sql/pglite"
import { Effect, Stream } from "effect"

type Row = Record<string, unknown>
type TransformRows = (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined

/** The diagnostic fields of a PostgreSQL error (the ErrorResponse message), as both engines report them. */
const diagnosticFields = [
  "severity",
  "code",
  "message",
  "detail",
  "hint",
  "position",
  "where",
  "schema",
  "table",
  "column",
  "dataType",
  "constraint",
  "routine"
] as const

const isDatabaseError = (cause: unknown): cause is Error & { readonly code: string } =>
  cause instanceof Error && typeof (cause as { readonly code?: unknown }).code === "string" && "severity" in cause

/**
 * PGlite attaches the query, its parameters and options to its errors. Parameters can be secrets
 * (API key hashes, webhook secrets) and a SqlError ends up in logs, so the cause keeps only the
 * diagnostic fields, which is what pg's DatabaseError carries on PostgreSQL too.
 */
const scrubDatabaseError = (error: Error): Readonly<Record<string, unknown>> => {
  const fields: Record<string, unknown> = { name: "DatabaseError" }
  for (const field of diagnosticFields) {
    const value = (error as unknown as Readonly<Record<string, unknown>>)[field]
    if (value !== undefined) fields[field] = value
  }
  return Object.freeze(fields)
}

/** Turns anything PGlite rejects with into a `SqlError`. */
export const toSqlError = (cause: unknown, context: string): SqlError.SqlError =>
  isDatabaseError(cause)
    ? new SqlError.SqlError({
      cause: scrubDatabaseError(cause),
      message: `${context}: ${cause.message} (SQLSTATE ${cause.code})`
    })
    : new SqlError.SqlError({
      cause,
      message: `${context}: ${cause instanceof Error ? cause.message : String(cause)}`
    })

/**
 * Runs one PGlite call. Uninterruptible because PGlite cannot cancel a statement: waiting for it
 * keeps "this connection is busy" true for exactly as long as PGlite works on it.
 */
const attempt = <A>(evaluate: () => Promise<A>): Effect.Effect<A, SqlError.SqlError> =>
  Effect.uninterruptible(Effect.tryPromise({
    try: evaluate,
    catch: (cause) => toSqlError(cause, "Failed to execute statement")
  }))

const applyTransform = (rows: ReadonlyArray<Row>, transformRows: TransformRows): ReadonlyArray<Row> =>
  transformRows === undefined ? rows : transformRows(rows)

/**
 * The raw connection: no locking. Transactions use it directly (they already hold the one
 * connection); plain queries go through `lockedConnection`.
 */
export const makeConnection = (db: PGlite): SqlConnection.Connection => {
  const execute = (sql: string, params: ReadonlyArray<unknown>, transformRows: TransformRows) =>
    attempt(() => db.query<Row>(sql, [...params], { rowMode: "object" })).pipe(
      Effect.map((result) => applyTransform(result.rows, transformRows))
    )
  return {
    execute,
    executeRaw: (sql, params) => attempt((): Promise<Results<Row>> => db.query<Row>(sql, [...params])),
    executeValues: (sql, params) =>
      attempt(() => db.query<Array<unknown>>(sql, [...params], { rowMode: "array" })).pipe(
        Effect.map((result) => result.rows)
      ),
    executeUnprepared: (sql, params, transformRows) =>
      params.length > 0
        ? execute(sql, params, transformRows)
        // The simple query protocol runs several statements at once (migrations rely on it). Like
        // pg, one statement yields its rows and several yield one row array per statement.
        : attempt(() => db.exec(sql, { rowMode: "object" })).pipe(
          Effect.map((results) =>
            results.length === 1
              ? applyTransform((results[0]?.rows ?? []) as ReadonlyArray<Row>, transformRows)
              : results.map((result) => result.rows)
          )
        ),
    // PGlite has no cursors: the whole result is fetched, then streamed. Fine for the result sizes
    // an embedded, single-process deployment reads; PostgreSQL streams with a real cursor.
    executeStream: (sql, params, transformRows) => Stream.fromIterableEffect(execute(sql, params, transformRows))
  }
}

/**
 * The connection plain queries use: every call waits for the single permit, so it never runs in
 * the middle of an open transaction (which would make it part of that transaction), yet holds the
 * permit only for its own statement, so a stream whose consumer runs queries cannot deadlock.
 */
export const lockedConnection = (
  connection: SqlConnection.Connection,
  semaphore: Effect.Semaphore
): SqlConnection.Connection => {
  const locked = semaphore.withPermits(1)
  return {
    execute: (sql, params, transformRows) => locked(connection.execute(sql, params, transformRows)),
    executeRaw: (sql, params) => locked(connection.executeRaw(sql, params)),
    executeValues: (sql, params) => locked(connection.executeValues(sql, params)),
    executeUnprepared: (sql, params, transformRows) => locked(connection.executeUnprepared(sql, params, transformRows)),
    executeStream: (sql, params, transformRows) =>
      Stream.fromIterableEffect(locked(connection.execute(sql, params, transformRows)))
  }
}
