/**
 * Migration 18: events by the time they were recorded, so that a stream asked to start at a time
 * (`GET /v1/stream?since=`) finds its first event without reading the whole log.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const script = `
CREATE INDEX events_by_recorded_at ON events (recorded_at);
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
