/**
 * Migration 7: the chunks of a document, the passages feed highlights cite, so one can be read
 * back by its id. A chunk that is a range of the body (as the parser's always are) is stored as
 * that range, in characters, rather than a second copy of its text; any other keeps its text.
 * Documents stored before have no chunks until they are ingested again.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const script = `
CREATE TABLE document_chunks (
  publication_id text NOT NULL REFERENCES documents (publication_id) ON DELETE CASCADE,
  chunk_id text NOT NULL,
  position integer NOT NULL,
  section text,
  body_start integer,
  body_length integer,
  text text,
  PRIMARY KEY (publication_id, chunk_id),
  CHECK (text IS NOT NULL OR (body_start IS NOT NULL AND body_length IS NOT NULL))
);
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
