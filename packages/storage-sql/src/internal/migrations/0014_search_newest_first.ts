/**
 * Migration 14: passages in filing order. A search ranks at most the newest
 * `SearchIndex.rankedAtMost` passages that match it; each chunk gains its document's filing date,
 * and an index walks the chunks newest first, so a query of common words reads only the newest
 * matches rather than every passage that holds them. A document's filing date changes only when
 * it is saved again, which rewrites its chunks with it.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

// The GIN index is built again after the rows are rewritten: keeping it up to date row by row
// takes several times as long on a large index.
const script = `
ALTER TABLE document_chunks ADD COLUMN filing_date date;

DROP INDEX document_chunks_terms;

UPDATE document_chunks c SET filing_date = d.filing_date
FROM documents d WHERE d.publication_id = c.publication_id;

CREATE INDEX document_chunks_terms ON document_chunks USING gin (terms);

ALTER TABLE document_chunks ALTER COLUMN filing_date SET NOT NULL;

CREATE INDEX document_chunks_newest ON document_chunks (filing_date DESC, publication_id COLLATE "C" DESC, position);
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
