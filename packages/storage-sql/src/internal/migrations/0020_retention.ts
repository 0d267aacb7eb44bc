/**
 * Migration 20: what retention needs. A job records when it was completed, and a completed job
 * forgotten after the retention period becomes `pruned`: its payload gone, its unique key kept so
 * the key still refuses a duplicate. Both prunings find their rows by index: completed jobs by
 * completion time (a job completed before this migration counts from when it was due), delivered
 * webhook deliveries by delivery time.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const script = `
ALTER TABLE jobs ADD COLUMN completed_at_ms bigint;
ALTER TABLE jobs DROP CONSTRAINT jobs_state_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_state_check CHECK (state IN ('pending', 'done', 'dead', 'pruned'));
CREATE INDEX jobs_completed ON jobs ((COALESCE(completed_at_ms, run_at_ms))) WHERE state = 'done';
CREATE INDEX deliveries_delivered ON deliveries (delivered_at_ms) WHERE state = 'delivered';
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
