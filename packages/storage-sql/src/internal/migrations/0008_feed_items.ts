/**
 * Migration 8: the feed. One item per summarised document, news item or press release, read by
 * ticker newest first: the index serves each ticker's newest items straight from its order. A stock
 * move not known yet is NULL, and a second index finds those items (stored before the session that
 * met them closed) by publication time.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const script = `
CREATE TABLE feed_items (
  id text PRIMARY KEY,
  ticker text NOT NULL,
  company_name text NOT NULL,
  title text NOT NULL,
  doc_type text NOT NULL,
  published_at_ms bigint NOT NULL,
  categories jsonb NOT NULL,
  sentiment text NOT NULL CHECK (sentiment IN ('positive', 'negative', 'neutral')),
  stock_change jsonb,
  highlights jsonb NOT NULL,
  model text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feed_items_by_ticker ON feed_items (ticker, published_at_ms DESC, id DESC);
CREATE INDEX feed_items_without_stock_change ON feed_items (published_at_ms) WHERE stock_change IS NULL;
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
