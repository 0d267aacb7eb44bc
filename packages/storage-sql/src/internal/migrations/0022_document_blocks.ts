/**
 * Migration 22: a document's blocks, kept beside its Markdown. Each chunk keeps its blocks (the
 * compact JSON of `storedBlocks`), so code reads a passage's tables and paragraphs as the parser
 * read them; each section keeps where it lies in those blocks. The column is `json`, kept as
 * written: nothing queries inside it, and a conversion to `jsonb` would cost every save CPU time.
 * NULL: stored before blocks were kept; readers then read the chunk's or the section's Markdown
 * back into blocks, and the document's next save (a re-ingest) fills them in.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const script = `
ALTER TABLE document_chunks ADD COLUMN blocks json;
ALTER TABLE document_sections ADD COLUMN block_start int, ADD COLUMN block_end int;
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
