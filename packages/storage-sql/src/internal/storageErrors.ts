// SQL failures as the ports' StorageError, named after the port operation that failed. The reason
// keeps the database's own words for the log; the HTTP edge never shows it to clients.
import type { SqlError } from "@effect/sql"
import { StorageError } from "@filings/storage"
import { Effect } from "effect"

const reasonOf = (error: SqlError.SqlError): string =>
  error.cause instanceof Error && error.cause.message !== ""
    ? `${error.message}: ${error.cause.message}`
    : error.message

export const failsAs = (operation: string) => <A, R>(effect: Effect.Effect<A, SqlError.SqlError, R>) =>
  Effect.mapError(effect, (error) => new StorageError.StorageError({ operation, reason: reasonOf(error) }))
