// Writing the search index: each chunk's terms as a tsvector built by SearchText (not by
// PostgreSQL's own parser, so that every adapter finds a passage by the same words), and the
// counts BM25 reads (passages per term, passages and terms in all), changed in the transaction that
// changes the chunks.
import type { SqlClient } from "@effect/sql"
import { SearchText } from "@filings/storage"
import { Effect, Schema } from "effect"
import { jsonb } from "./jsonb.js"
import { rowsAs } from "./sqlRows.js"

/** A chunk's terms in PostgreSQL's `tsvector` input form, and how many terms it is indexed by. */
export interface AnalyzedPassage {
  readonly vector: string
  readonly termCount: number
  readonly terms: ReadonlyArray<string>
}

/** A lexeme quoted for `tsvector` and `tsquery` input: quotes doubled, backslashes escaped. */
export const quoteLexeme = (term: string): string => `'${term.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`

/** The terms a passage is found by, as the index stores them. */
export const analyzePassage = (context: SearchText.PassageContext, text: string): AnalyzedPassage => {
  const found = SearchText.passageTokens(context, text)
  const positions = SearchText.termPositions(found)
  // tsvector positions are 1-based.
  const vector = Array.from(positions, ([term, at]) => `${quoteLexeme(term)}:${at.map((p) => p + 1).join(",")}`)
    .join(" ")
  return { vector, termCount: found.length, terms: [...positions.keys()] }
}

/** Changes in the counts BM25 reads: passages per term, and passages and terms in all. */
export class FrequencyChanges {
  readonly byTerm = new Map<string, number>()
  passages = 0
  terms = 0

  /** Counts a passage in (`sign` 1) or out (`sign` -1). */
  add(passage: Pick<AnalyzedPassage, "terms" | "termCount">, sign: 1 | -1): void {
    this.passages += sign
    this.terms += sign * passage.termCount
    for (const term of passage.terms) this.byTerm.set(term, (this.byTerm.get(term) ?? 0) + sign)
  }

  /** Counts out a document's stored passages, as `storedFrequencies` read them. */
  remove(stored: StoredFrequencies): void {
    this.passages -= stored.passages
    this.terms -= stored.terms
    for (const { passages, term } of stored.byTerm) this.byTerm.set(term, (this.byTerm.get(term) ?? 0) - passages)
  }
}

const TermCount = Schema.Struct({ term: Schema.String, passages: Schema.Number })
const Totals = Schema.Struct({ passages: Schema.Number, terms: Schema.Number })
const readTermCounts = rowsAs(TermCount)
const readTotals = rowsAs(Totals)

/** What a document's indexed passages count for, to take it out when they are replaced. */
export interface StoredFrequencies {
  readonly byTerm: ReadonlyArray<typeof TermCount.Type>
  readonly passages: number
  readonly terms: number
}

/** The counts a document's indexed passages contribute, read from their vectors. */
export const storedFrequencies = (sql: SqlClient.SqlClient, publicationId: string) =>
  Effect.gen(function*() {
    const byTerm = yield* sql`
      SELECT u.lexeme AS term, count(*)::int AS passages
      FROM document_chunks c CROSS JOIN LATERAL unnest(c.terms) u
      WHERE c.publication_id = ${publicationId} AND c.terms IS NOT NULL
      GROUP BY u.lexeme`.pipe(readTermCounts)
    const [totals] = yield* sql`
      SELECT count(*)::int AS passages, COALESCE(sum(term_count), 0)::int AS terms
      FROM document_chunks WHERE publication_id = ${publicationId} AND terms IS NOT NULL`.pipe(readTotals)
    return { byTerm, passages: totals?.passages ?? 0, terms: totals?.terms ?? 0 }
  })

/**
 * Applies the changes. Terms are written in sorted order, so two transactions changing the same
 * terms take their row locks in the same order and never deadlock.
 */
export const applyFrequencyChanges = (sql: SqlClient.SqlClient, changes: FrequencyChanges) =>
  Effect.gen(function*() {
    const rows = [...changes.byTerm]
      .filter(([, change]) => change !== 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([term, passages]) => ({ term, passages }))
    if (rows.length > 0) {
      yield* sql`
        INSERT INTO search_terms (term, passages)
        SELECT term, passages FROM jsonb_to_recordset(${jsonb(rows)}::jsonb) AS r(term text, passages int)
        ORDER BY term COLLATE "C"
        ON CONFLICT (term) DO UPDATE SET passages = search_terms.passages + excluded.passages`
    }
    if (changes.passages !== 0 || changes.terms !== 0) {
      yield* sql`
        UPDATE search_totals SET passages = passages + ${changes.passages}, terms = terms + ${changes.terms}`
    }
  })

/** A stored chunk to index: its key, what it is found by besides its words, and its text. */
export interface ChunkToIndex {
  readonly publicationId: string
  readonly chunkId: string
  readonly context: SearchText.PassageContext
  readonly text: string
}

/** Indexes chunks that are stored but not indexed yet (as a migration finds them), counts included. */
export const indexChunks = (sql: SqlClient.SqlClient, chunks: ReadonlyArray<ChunkToIndex>) =>
  Effect.gen(function*() {
    if (chunks.length === 0) return
    const changes = new FrequencyChanges()
    const rows = chunks.map((chunk) => {
      const analyzed = analyzePassage(chunk.context, chunk.text)
      changes.add(analyzed, 1)
      return {
        publication_id: chunk.publicationId,
        chunk_id: chunk.chunkId,
        terms: analyzed.vector,
        term_count: analyzed.termCount
      }
    })
    yield* sql`
      UPDATE document_chunks c SET terms = r.terms::tsvector, term_count = r.term_count
      FROM jsonb_to_recordset(${
      jsonb(rows)
    }::jsonb) AS r(publication_id text, chunk_id text, terms text, term_count int)
      WHERE c.publication_id = r.publication_id AND c.chunk_id = r.chunk_id AND c.terms IS NULL`
    yield* applyFrequencyChanges(sql, changes)
  })
