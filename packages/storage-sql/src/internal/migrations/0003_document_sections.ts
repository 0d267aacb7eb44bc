/**
 * Migration 3: sections get a table of their own, so that one kind of section (Risk Factors, MD&A)
 * can be searched across documents by item key or name. Existing sections move over from the
 * `document_bodies.sections` column, which goes away.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const script = `
CREATE TABLE document_sections (
  publication_id text NOT NULL REFERENCES documents (publication_id) ON DELETE CASCADE,
  position integer NOT NULL,
  name text NOT NULL,
  item text,
  content text NOT NULL,
  word_count integer NOT NULL,
  page_start integer NOT NULL,
  page_end integer NOT NULL,
  PRIMARY KEY (publication_id, position)
);
CREATE INDEX document_sections_item ON document_sections (item);
CREATE INDEX document_sections_name ON document_sections (lower(name));

INSERT INTO document_sections (publication_id, position, name, item, content, word_count, page_start, page_end)
SELECT b.publication_id, s.ordinality - 1, s.value->>'title', s.value->>'item', s.value->>'content',
  COALESCE((s.value->>'wordCount')::int, 0), COALESCE((s.value->>'pageStart')::int, 1),
  COALESCE((s.value->>'pageEnd')::int, 1)
FROM document_bodies b, jsonb_array_elements(b.sections) WITH ORDINALITY AS s(value, ordinality);

ALTER TABLE document_bodies DROP COLUMN sections;
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
