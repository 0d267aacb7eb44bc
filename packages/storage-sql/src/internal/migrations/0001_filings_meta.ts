/**
 * Migration 1: `filings_meta`, a key/value table for facts about the installation itself. Written
 * as one multi-statement script to keep the unprepared (simple protocol) path exercised.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const script = `
CREATE TABLE filings_meta (
  key text PRIMARY KEY,
  value text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE filings_meta IS 'Facts about this Filings installation, one row per key';
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
