/**
 * Migration 9: the feed items still waiting for their stock move (stored before the session that
 * met them closed), found by publication time without reading the rest of the feed. A `null` move
 * is now SQL NULL rather than JSON `null`, so the index can say which items those are.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const script = `
UPDATE feed_items SET stock_change = NULL WHERE stock_change = 'null'::jsonb;
CREATE INDEX feed_items_without_stock_change ON feed_items (published_at_ms) WHERE stock_change IS NULL;
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
