/**
 * Migration 12: the company directory. The regulator's list gives each company its exchange and
 * place in the list (`list_position`, the largest first) and every ticker of it
 * (`company_listings`); its submissions record gives the details (industry, state of
 * incorporation, fiscal year end, former names), `details_at` saying when they were read (NULL: not
 * yet). The search of `GET /v1/companies` matches tickers by their beginning as a range of bytes
 * (`ticker COLLATE "C"` indexes: a range, unlike `LIKE $1`, is planned on the index whatever the
 * database's collation and also with a parameter) and names by the beginnings of their words: `name_prefixes`
 * holds every beginning of every word of the name (runs of ASCII letters and digits, lower case),
 * computed by the database from the name, so `name_prefixes @> ARRAY['micro', 'corp']` is one GIN
 * lookup on PGlite and PostgreSQL alike, with no extension. A company's documents are counted by
 * its key, hence the index on `documents (cik, doc_type)`.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const script = `
CREATE FUNCTION company_name_prefixes(name text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT left(word, n)), '{}')
  FROM regexp_split_to_table(lower(name), '[^a-z0-9]+') AS word, generate_series(1, length(word)) AS n
  WHERE word <> ''
$$;

ALTER TABLE companies
  ADD COLUMN exchange text,
  ADD COLUMN list_position integer,
  ADD COLUMN sic text,
  ADD COLUMN sic_description text,
  ADD COLUMN state_of_incorporation text,
  ADD COLUMN fiscal_year_end text,
  ADD COLUMN former_names jsonb,
  ADD COLUMN details_at timestamptz,
  ADD COLUMN name_prefixes text[] GENERATED ALWAYS AS (company_name_prefixes(name)) STORED;

CREATE INDEX companies_ticker_bytes ON companies (ticker COLLATE "C", cik);
CREATE INDEX companies_exchange ON companies (lower(exchange));
-- Without a pending list: a search would read that list through, entry by entry, after every bulk
-- write of the listing until a vacuum merged it (18 ms for one word over 10,000 fresh companies).
CREATE INDEX companies_name_prefixes ON companies USING gin (name_prefixes) WITH (fastupdate = off);

CREATE TABLE company_listings (
  ticker text PRIMARY KEY,
  cik text NOT NULL,
  exchange text,
  position integer NOT NULL
);
CREATE INDEX company_listings_cik ON company_listings (cik, position);
CREATE INDEX company_listings_ticker_bytes ON company_listings (ticker COLLATE "C");

CREATE INDEX documents_cik_doc_type ON documents (cik, doc_type, filing_date, publication_id);
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
