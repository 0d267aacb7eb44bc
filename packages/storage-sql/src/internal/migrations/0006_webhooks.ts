/**
 * Migration 6: webhook subscriptions and their deliveries. A subscription belongs to the API key
 * that created it; a delivery is one event for one subscription (unique per pair, so dispatchers
 * racing on an event create it once) and goes when its subscription goes. Times are milliseconds
 * as callers give them, like the job queue's.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const script = `
CREATE TABLE webhooks (
  id text PRIMARY KEY,
  owner_key_id text NOT NULL,
  url text NOT NULL,
  events jsonb NOT NULL,
  filters jsonb NOT NULL,
  secret text NOT NULL,
  status text NOT NULL CHECK (status IN ('active', 'paused', 'failed')),
  created_at_ms bigint NOT NULL,
  last_triggered_at_ms bigint,
  start_sequence bigint NOT NULL
);
CREATE INDEX webhooks_owner_key_id ON webhooks (owner_key_id);
COMMENT ON TABLE webhooks IS 'Webhook subscriptions, each visible only to the API key that created it';
COMMENT ON COLUMN webhooks.secret IS 'The signing secret: needed to sign every delivery, so it cannot be hashed';

CREATE TABLE deliveries (
  id text PRIMARY KEY,
  subscription_id text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event_id text NOT NULL,
  event_sequence bigint NOT NULL,
  event_type text NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed', 'skipped')),
  attempts integer NOT NULL DEFAULT 0,
  created_at_ms bigint NOT NULL,
  last_attempt_at_ms bigint,
  last_status integer,
  last_error text,
  next_attempt_at_ms bigint,
  delivered_at_ms bigint,
  UNIQUE (subscription_id, event_id)
);
CREATE INDEX deliveries_subscription_sequence ON deliveries (subscription_id, event_sequence DESC);
CREATE INDEX deliveries_subscription_state_created ON deliveries (subscription_id, state, created_at_ms);
COMMENT ON TABLE deliveries IS 'One event for one subscription: its state and its last attempt';
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
