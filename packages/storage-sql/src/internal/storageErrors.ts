// How every port operation runs on SQL: to its end once started, and failing as the port's
// StorageError named after the operation. The reason keeps the database's own words for the log;
// the HTTP edge never shows it to clients.
import type { SqlError } from "@effect/sql"
import { StorageError } from "@filings/storage"
import { Effect } from "effect"

const reasonOf = (error: SqlError.SqlError): string =>
  error.cause instanceof Error && error.cause.message !== ""
    ? `${error.message}: ${error.cause.message}`
    : error.message

/**
 * Runs a port operation uninterruptibly and names its failures. An interrupted statement is
 * cancelled on PostgreSQL by `pg_cancel_backend`, which cancels whatever the session runs when it
 * arrives: if the statement has just finished and its connection gone back to the pool, that is
 * another caller's statement, which fails "canceling statement due to user request". Statements
 * here take milliseconds, so a caller that is interrupted (a client that hung up, a worker being
 * stopped) waits for its operation to end rather than risk failing someone else's.
 */
export const failsAs = (operation: string) => <A, R>(effect: Effect.Effect<A, SqlError.SqlError, R>) =>
  Effect.mapError(effect, (error) => new StorageError.StorageError({ operation, reason: reasonOf(error) })).pipe(
    Effect.uninterruptible
  )
