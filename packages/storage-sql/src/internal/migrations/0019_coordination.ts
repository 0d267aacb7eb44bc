/**
 * Migration 19: coordination between the instances on one database. `request_budget_slots` holds
 * one row per request that may start within a window (a start takes the row used longest ago, when
 * that was a window or more ago; a row never used holds the earliest time JavaScript counts exactly); `request_budget_pauses` stops every start of a budget for a while;
 * `leases` names which instance does a job only one should do, and until when.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const script = `
CREATE TABLE request_budget_slots (
  budget text NOT NULL,
  slot integer NOT NULL,
  started_at_ms bigint NOT NULL DEFAULT -9007199254740991,
  PRIMARY KEY (budget, slot)
);

CREATE TABLE request_budget_pauses (
  budget text PRIMARY KEY,
  paused_until_ms bigint NOT NULL
);

CREATE TABLE leases (
  name text PRIMARY KEY,
  holder text NOT NULL,
  expires_at_ms bigint NOT NULL
);
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
