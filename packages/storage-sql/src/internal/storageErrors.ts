// How every port operation runs on SQL: to its end once started, and failing as the port's
// StorageError named after the operation. The reason keeps the database's own words for the log;
// the HTTP edge never shows it to clients. A write the database refuses for its data (SQLSTATE
// class 22: a NUL character, a value too long) fails the same way every time: it is an
// UnstorableValue naming what was written, not an outage worth retrying. A row that does not read
// as the port's shape is a StorageError too, its reason the schema's account of the mismatch.
import type { SqlError } from "@effect/sql"
import { StorageError } from "@filings/storage"
import type { ParseResult } from "effect"
import { Effect } from "effect"

const reasonOf = (error: SqlError.SqlError | ParseResult.ParseError): string =>
  error.cause instanceof Error && error.cause.message !== ""
    ? `${error.message}: ${error.cause.message}`
    : error.message

/** The SQLSTATE of a failed statement (postgres.js and PGlite both give it as `code`). */
const sqlStateOf = (error: SqlError.SqlError): string | undefined => {
  const cause: unknown = error.cause
  if (typeof cause !== "object" || cause === null || !("code" in cause)) return undefined
  return typeof cause.code === "string" && /^[0-9A-Z]{5}$/.test(cause.code) ? cause.code : undefined
}

/** What a data exception says about the value, in words for the caller rather than the database's. */
const dataExceptionReason = (sqlState: string): string => {
  switch (sqlState) {
    // invalid byte sequence "0x00" in text; "\u0000 cannot be converted to text" in JSON.
    case "22021":
    case "22P05":
      return StorageError.nulReason
    case "22001":
      return "a value is longer than the database allows"
    default:
      return `the database refuses a value as invalid data (SQLSTATE ${sqlState})`
  }
}

/**
 * Runs a port operation uninterruptibly and names its failures. An interrupted statement is
 * cancelled on PostgreSQL by `pg_cancel_backend`, which cancels whatever the session runs when it
 * arrives: if the statement has just finished and its connection gone back to the pool, that is
 * another caller's statement, which fails "canceling statement due to user request". Statements
 * here take milliseconds, so a caller that is interrupted (a client that hung up, a worker being
 * stopped) waits for its operation to end rather than risk failing someone else's.
 */
export const failsAs = (operation: string) =>
<A, R>(
  effect: Effect.Effect<A, SqlError.SqlError | ParseResult.ParseError, R>
) =>
  Effect.mapError(effect, (error) => new StorageError.StorageError({ operation, reason: reasonOf(error) })).pipe(
    Effect.uninterruptible
  )

/** `failsAs` for a write of `subject` (`document 0000320193-19-000010`): data the database refuses is unstorable. */
export const writeFailsAs =
  (operation: string, subject: string) =>
  <A, R>(effect: Effect.Effect<A, SqlError.SqlError | ParseResult.ParseError, R>) =>
    Effect.mapError(effect, (error): StorageError.StorageError | StorageError.UnstorableValue => {
      const sqlState = error._tag === "SqlError" ? sqlStateOf(error) : undefined
      return sqlState?.startsWith("22") === true
        ? new StorageError.UnstorableValue({ operation, subject, reason: dataExceptionReason(sqlState) })
        : new StorageError.StorageError({ operation, reason: reasonOf(error) })
    }).pipe(Effect.uninterruptible)
