/**
 * Migration 11: the search index. Each chunk gains its pages and its terms (a `tsvector` built by
 * `SearchText`, with a GIN index), and two tables keep what BM25 needs: how many passages hold each
 * term, and how many passages and terms there are in all. Chunks stored before are indexed here,
 * a few documents at a time; their pages, which were not kept, are taken to be those of the
 * section they start in (the whole document's first page when they have none).
 */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { indexChunks } from "../sqlSearchWrites.js"

const script = `
ALTER TABLE document_chunks
  ADD COLUMN page_start integer,
  ADD COLUMN page_end integer,
  ADD COLUMN terms tsvector,
  ADD COLUMN term_count integer;

UPDATE document_chunks c SET
  page_start = COALESCE((SELECT min(s.page_start) FROM document_sections s
    WHERE s.publication_id = c.publication_id AND s.name = c.section), 1),
  page_end = COALESCE((SELECT max(s.page_end) FROM document_sections s
    WHERE s.publication_id = c.publication_id AND s.name = c.section), 1);

ALTER TABLE document_chunks
  ALTER COLUMN page_start SET NOT NULL,
  ALTER COLUMN page_end SET NOT NULL;

CREATE INDEX document_chunks_terms ON document_chunks USING gin (terms);

CREATE TABLE search_terms (
  term text PRIMARY KEY,
  passages integer NOT NULL
);

CREATE TABLE search_totals (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  passages bigint NOT NULL,
  terms bigint NOT NULL
);
INSERT INTO search_totals (singleton, passages, terms) VALUES (true, 0, 0);
`

const StoredChunkText = Schema.Struct({
  publication_id: Schema.String,
  ticker: Schema.String,
  company_name: Schema.String,
  doc_type: Schema.String,
  chunk_id: Schema.String,
  section: Schema.NullOr(Schema.String),
  text: Schema.String
})
const decodeChunks = Schema.decodeUnknown(Schema.Array(StoredChunkText))

/** Documents indexed per round: their chunks' text is read into memory together. */
const documentsPerRound = 20

const indexStored = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  let after = ""
  for (;;) {
    const ids = yield* sql<{ readonly publication_id: string }>`
      SELECT publication_id FROM documents WHERE publication_id > ${after}
      ORDER BY publication_id LIMIT ${documentsPerRound}`
    if (ids.length === 0) return
    after = ids[ids.length - 1]!.publication_id
    const rows = yield* sql`
      SELECT c.publication_id, d.ticker, d.company_name, d.doc_type, c.chunk_id, c.section,
        COALESCE(c.text, substr(b.body, c.body_start + 1, c.body_length)) AS text
      FROM document_chunks c JOIN documents d USING (publication_id) JOIN document_bodies b USING (publication_id)
      WHERE c.publication_id IN ${sql.in(ids.map((row) => row.publication_id))}
      ORDER BY c.publication_id, c.position`.pipe(Effect.flatMap(decodeChunks))
    yield* indexChunks(
      sql,
      rows.map((row) => ({
        publicationId: row.publication_id,
        chunkId: row.chunk_id,
        context: {
          ticker: row.ticker,
          companyName: row.company_name,
          docType: row.doc_type,
          section: row.section ?? undefined
        },
        text: row.text
      }))
    )
  }
})

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(
  Effect.zipRight(indexStored),
  Effect.asVoid
)
