/**
 * Migration 4: what the extractor finds in each document. Metrics and tables get tables of their
 * own, so series across companies and years, and tables by type, are indexed queries; exhibit
 * references, signatures and warnings stay with the document as JSON.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const script = `
CREATE TABLE document_extractions (
  publication_id text PRIMARY KEY REFERENCES documents (publication_id) ON DELETE CASCADE,
  exhibits jsonb NOT NULL,
  signatures jsonb,
  warnings jsonb NOT NULL
);

CREATE TABLE document_metrics (
  publication_id text NOT NULL REFERENCES documents (publication_id) ON DELETE CASCADE,
  position integer NOT NULL,
  metric text NOT NULL,
  value double precision NOT NULL,
  unit text NOT NULL,
  period text NOT NULL,
  yoy_change double precision,
  source text NOT NULL,
  PRIMARY KEY (publication_id, position)
);
CREATE INDEX document_metrics_metric ON document_metrics (metric, publication_id);

CREATE TABLE document_tables (
  publication_id text NOT NULL REFERENCES documents (publication_id) ON DELETE CASCADE,
  position integer NOT NULL,
  table_id text NOT NULL,
  title text NOT NULL,
  section text NOT NULL,
  table_type text NOT NULL,
  headers jsonb NOT NULL,
  rows jsonb NOT NULL,
  unit text NOT NULL,
  format text,
  PRIMARY KEY (publication_id, position)
);
CREATE INDEX document_tables_type ON document_tables (table_type, publication_id);
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
