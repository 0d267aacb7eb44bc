/**
 * Migration 15: passages read newest first, and their terms kept in the row.
 *
 * - A search ranks at most the newest `SearchIndex.rankedAtMost` passages that match it. Each chunk
 *   gains its document's filing date, and an index walks the chunks newest first, so a query of
 *   common words reads only the newest matches rather than every passage that holds them. A
 *   document's filing date changes only when it is saved again, which rewrites its chunks with it.
 * - A passage's term vector (a few kilobytes) was kept out of the row, in the TOAST table, where
 *   each read of it (the match, and the rank of each query term) fetched it again: ten times the
 *   cost of the ranking itself. `STORAGE MAIN` keeps it in the row unless the row would not fit in
 *   a page. The rows stored before are rewritten here (`|| ''` makes a new vector, which the new
 *   rule places), and the GIN index is built again after them: keeping it up to date row by row
 *   takes several times as long on a large index.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const script = `
ALTER TABLE document_chunks ADD COLUMN filing_date date;
ALTER TABLE document_chunks ALTER COLUMN terms SET STORAGE MAIN;

DROP INDEX document_chunks_terms;

UPDATE document_chunks c SET filing_date = d.filing_date, terms = c.terms || ''::tsvector
FROM documents d WHERE d.publication_id = c.publication_id;

ALTER TABLE document_chunks ALTER COLUMN filing_date SET NOT NULL;

CREATE INDEX document_chunks_terms ON document_chunks USING gin (terms);
CREATE INDEX document_chunks_newest ON document_chunks (filing_date DESC, publication_id COLLATE "C" DESC, position);
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
