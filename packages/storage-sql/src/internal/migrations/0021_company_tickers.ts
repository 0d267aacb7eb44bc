/**
 * Migration 21: every ticker of a company. A filing's cover lists one ticker per listed class of
 * shares (GOOGL, then GOOG); `tickers` keeps them all, in the cover's order, the primary one
 * (`ticker`) first, written with the ticker by the same upsert (so the newest filing's stand). A
 * GIN index finds the company of any of them (`tickers @> ARRAY['GOOG']`) on PGlite and PostgreSQL
 * alike. NULL: no filing listed more than the ticker. Tickers the regulator's list gives a company
 * stay in `company_listings`.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const script = `
ALTER TABLE companies ADD COLUMN tickers text[];
-- Without a pending list, as for the name prefixes (migration 12): lookups stay one index read.
CREATE INDEX companies_tickers ON companies USING gin (tickers) WITH (fastupdate = off);
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
