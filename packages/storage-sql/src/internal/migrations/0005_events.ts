/**
 * Migration 5: the event log and the named cursors of pollers. An event's `sequence` is its place
 * in the log; its `key` names it, so recording it again adds nothing. Times come from the Effect
 * Clock of the instance that wrote them, like every time the stores keep.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const script = `
CREATE TABLE events (
  sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id text NOT NULL UNIQUE,
  type text NOT NULL,
  key text NOT NULL UNIQUE,
  payload jsonb NOT NULL,
  recorded_at timestamptz NOT NULL
);
COMMENT ON TABLE events IS 'What happened, each event once (by key), in the order recorded (by sequence)';

CREATE TABLE cursors (
  name text PRIMARY KEY,
  value text NOT NULL,
  updated_at timestamptz NOT NULL
);
COMMENT ON TABLE cursors IS 'How far each poller has read its source, kept across restarts';
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
