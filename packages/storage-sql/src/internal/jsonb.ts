/**
 * A JSON value as a statement parameter that reads back identically on PGlite and PostgreSQL.
 */
import { Statement } from "@effect/sql"
import type { PgClient } from "@effect/sql-pg"

/**
 * The custom kind that `PgClient.makeCompiler` (used by both engines' clients) turns into a plain
 * parameter. The value is serialised here rather than by the driver: pg would send a top-level
 * array as a PostgreSQL array literal and a string unquoted, both invalid JSON.
 */
const PgJson = Statement.custom<PgClient.PgCustom>("PgJson")

export const jsonb = (value: unknown): Statement.Fragment => PgJson(JSON.stringify(value))
