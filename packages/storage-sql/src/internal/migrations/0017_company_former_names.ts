/**
 * Migration 17: companies found by the names they had. `former_name_prefixes` holds every beginning
 * of every word of the company's former names (from its details, `former_names`), computed by the
 * database as `name_prefixes` is for the name (migration 12), with its own GIN index: a search
 * matches the current name first, and a former name after it.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

const script = `
CREATE FUNCTION company_former_name_prefixes(former jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT company_name_prefixes(coalesce(string_agg(f ->> 'name', ' '), ''))
  FROM jsonb_array_elements(CASE WHEN jsonb_typeof(former) = 'array' THEN former ELSE '[]'::jsonb END) AS f
$$;

ALTER TABLE companies
  ADD COLUMN former_name_prefixes text[] GENERATED ALWAYS AS (company_former_name_prefixes(former_names)) STORED;

CREATE INDEX companies_former_name_prefixes ON companies USING gin (former_name_prefixes) WITH (fastupdate = off);
`

export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(script).unprepared).pipe(Effect.asVoid)
