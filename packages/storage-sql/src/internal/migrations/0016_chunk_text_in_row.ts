/**
 * Migration 16: every passage keeps its own text.
 *
 * A passage cut from its document's body was stored as a range of the body, and read with
 * `substr` of the whole body: the body is compressed, so every search result and every read of
 * one passage decompressed its body up to the passage (milliseconds for a passage deep in a long
 * filing, several per page of results). Each passage now stores its text (compressed in its own
 * right, kept out of the row when the row is full), which costs about one more compressed copy of
 * the text on disk, and the range columns go.
 *
 * The stored ranges are copied one document at a time, each body decompressed once (`|| ''`
 * makes a plain in-memory copy). The rows are rewritten, so the GIN index is dropped first and
 * built again after them, as migration 15 does.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const script = `
DROP INDEX document_chunks_terms;

DO $$
DECLARE
  cut record;
BEGIN
  FOR cut IN
    SELECT b.publication_id, b.body || '' AS body FROM document_bodies b
    WHERE EXISTS (SELECT 1 FROM document_chunks c WHERE c.publication_id = b.publication_id AND c.text IS NULL)
  LOOP
    UPDATE document_chunks SET text = substr(cut.body, body_start + 1, body_length)
    WHERE publication_id = cut.publication_id AND text IS NULL;
  END LOOP;
END
$$;

ALTER TABLE document_chunks ALTER COLUMN text SET NOT NULL;
ALTER TABLE document_chunks DROP COLUMN body_start, DROP COLUMN body_length;

CREATE INDEX document_chunks_terms ON document_chunks USING gin (terms);
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
