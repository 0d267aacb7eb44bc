/**
 * Migration 13: events found by type and company. Every event of the API names its company in its
 * payload's `data.ticker`; a company's timeline reads its announced calls (`earnings_call.upcoming`)
 * by that, through this index rather than a scan of the whole log.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const script = `
CREATE INDEX events_by_type_and_ticker ON events (type, (payload -> 'data' ->> 'ticker'));
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
