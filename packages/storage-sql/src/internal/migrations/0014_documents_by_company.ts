/**
 * Migration 14: a company's documents by its central index key, newest first. The timeline reads a
 * company's documents under every ticker they were stored under (a second share class, a ticker it
 * had before) by its key, a page after a (filing date, publication id) key; this index gives them in
 * that order, ids in the "C" collation as the query compares them, so a page reads `limit + 1` rows
 * whatever the database's collation. The tickers of a company's documents are read through it too.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const script = `
CREATE INDEX documents_cik_filing_date ON documents (cik, filing_date, publication_id COLLATE "C");
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
