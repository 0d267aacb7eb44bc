/**
 * Migration 10: a company's name and ticker are those of its newest filing. `as_of` is the filing
 * date they come from, so storing an older filing later leaves them alone. Companies stored before
 * take the date and name of their newest stored filing (an older one ingested last may have renamed
 * them); transcripts, releases, decks and news took their name from the company record, so they do
 * not count. Companies without filings stay undated. Tickers and documents are not touched: each
 * document keeps the name it was filed under.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const script = `
ALTER TABLE companies ADD COLUMN as_of date;
UPDATE companies c
SET as_of = newest.filing_date, name = newest.company_name
FROM (
  SELECT DISTINCT ON (cik) cik, filing_date, company_name
  FROM documents
  WHERE doc_type IN ('10-K', '10-Q', '8-K', 'S-1', '6-K', '20-F', 'DEF 14A')
  ORDER BY cik, filing_date DESC, publication_id DESC
) newest
WHERE newest.cik = c.cik;
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
