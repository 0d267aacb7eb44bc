/**
 * Migration 2: the tables behind the storage ports: companies, documents (metadata apart from the
 * body, so list queries never read bodies), API keys, rate-limit windows and the job queue.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const script = `
CREATE TABLE companies (
  cik text PRIMARY KEY,
  ticker text NOT NULL,
  name text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX companies_ticker ON companies (ticker);

CREATE TABLE documents (
  publication_id text PRIMARY KEY,
  ticker text NOT NULL,
  company_name text NOT NULL,
  cik text NOT NULL,
  doc_type text NOT NULL,
  title text NOT NULL,
  filing_date date NOT NULL,
  period text NOT NULL,
  sec_url text NOT NULL,
  word_count integer NOT NULL,
  items jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX documents_ticker_filing_date ON documents (ticker, filing_date, publication_id);
CREATE INDEX documents_doc_type_filing_date ON documents (doc_type, filing_date, publication_id);
CREATE INDEX documents_filing_date ON documents (filing_date, publication_id);

CREATE TABLE document_bodies (
  publication_id text PRIMARY KEY REFERENCES documents (publication_id) ON DELETE CASCADE,
  body text NOT NULL,
  sections jsonb NOT NULL,
  exhibits jsonb NOT NULL
);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  name text NOT NULL,
  plan text NOT NULL,
  rate_limit integer NOT NULL,
  key_hash text NOT NULL UNIQUE,
  key_prefix text NOT NULL,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);

CREATE TABLE rate_limit_windows (
  key text NOT NULL,
  window_start_ms bigint NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (key, window_start_ms)
);

CREATE TABLE jobs (
  id text PRIMARY KEY,
  queue text NOT NULL,
  payload jsonb NOT NULL,
  unique_key text,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'dead')),
  run_at_ms bigint NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  lease_token text,
  lease_expires_at_ms bigint NOT NULL DEFAULT 0,
  sequence bigserial NOT NULL,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (queue, unique_key)
);
CREATE INDEX jobs_due ON jobs (queue, run_at_ms, sequence) WHERE state = 'pending';
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
