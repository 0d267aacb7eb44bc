import { Migrator, SqlClient } from "@effect/sql"
import { assert, describe, it } from "@effect/vitest"
import { type Blocks, Document, Ids } from "@filings/domain"
import { SearchText } from "@filings/storage"
import { Effect, Either, Layer, Option } from "effect"
import { Migrations, PgliteClient } from "../src/index.js"
import { migrations } from "../src/internal/migrations/index.js"
import { makeDocumentStore } from "../src/internal/sqlDocuments.js"
import { makeExtractionStore } from "../src/internal/sqlExtractions.js"
import { makeSearchIndex } from "../src/internal/sqlSearch.js"
import { analyzePassage } from "../src/internal/sqlSearchWrites.js"

/** The migrations up to and including `last`: the schema an earlier version of the server left. */
const upTo = (last: string) =>
  Migrator.fromRecord(Object.fromEntries(Object.entries(migrations).filter(([name]) => name <= last)))

/**
 * Stores Acme's 10-K for FY 2024 under `id` as any schema since 0002 holds a document's row: the
 * document that the rows of each migration's older tables belong to.
 */
const insertDocument = (sql: SqlClient.SqlClient, id: string) =>
  sql`INSERT INTO documents (publication_id, ticker, company_name, cik, doc_type, title, filing_date, period, sec_url,
    word_count) VALUES (${id}, 'ACME', 'Acme Anvils', '0000000001', '10-K', 'Acme 10-K FY 2024', '2024-11-01',
    'FY 2024', 'https://www.sec.gov/x', 7)`

// Later migrations must carry the data of a database that earlier versions wrote.
describe("migrations carry data forward", () => {
  it.scopedLive("0003 moves the sections of existing documents into document_sections", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* Migrations.run({ loader: upTo("0002_storage") })
      yield* insertDocument(sql, "0000000001-24-000001")
      yield* sql`INSERT INTO document_bodies (publication_id, body, sections, exhibits) VALUES
        ('0000000001-24-000001', 'body', ${
        JSON.stringify([
          { title: "Cover", content: "cover", pageStart: 1, pageEnd: 1 },
          { title: "Item 1. Business", content: "anvils", pageStart: 2, pageEnd: 3 }
        ])
      }::jsonb, '[]'::jsonb)`

      yield* Migrations.run()
      const rows = yield* sql`SELECT position, name, item, content, word_count, page_start, page_end
        FROM document_sections ORDER BY position`
      assert.deepStrictEqual(rows, [
        { position: 0, name: "Cover", item: null, content: "cover", word_count: 0, page_start: 1, page_end: 1 },
        {
          position: 1,
          name: "Item 1. Business",
          item: null,
          content: "anvils",
          word_count: 0,
          page_start: 2,
          page_end: 3
        }
      ])
      const columns = yield* sql<{ readonly column_name: string }>`
        SELECT column_name FROM information_schema.columns WHERE table_name = 'document_bodies' ORDER BY column_name`
      assert.deepStrictEqual(columns.map((column) => column.column_name), ["body", "exhibits", "publication_id"])
    }).pipe(Effect.provide(PgliteClient.layer().pipe(Layer.orDie))))

  it.scopedLive("0010 adds as_of and leaves the metrics stored before as they were written", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* Migrations.run({ loader: upTo("0008_feed_items") })
      yield* insertDocument(sql, "0000000001-24-000001")
      yield* sql`INSERT INTO document_extractions (publication_id, exhibits, signatures, warnings)
        VALUES ('0000000001-24-000001', '[]'::jsonb, NULL, '[]'::jsonb)`
      yield* sql`INSERT INTO document_metrics (publication_id, position, metric, value, unit, period, yoy_change, source)
        VALUES ('0000000001-24-000001', 0, 'total_assets', 364980000000, 'USD', '2024-09-28', NULL, 'us-gaap:Assets')`

      yield* Migrations.run()
      const store = yield* makeExtractionStore
      const [point] = yield* store.metricSeries({
        tickers: [Ids.Ticker.make("ACME")],
        metrics: ["total_assets"],
        docTypes: ["10-K"]
      })
      // The date stays in period and no as_of is made up: the API serves it with the document's period.
      assert.deepStrictEqual(point?.metric, {
        name: "total_assets",
        value: 364_980_000_000,
        unit: "USD",
        period: "2024-09-28",
        source: "us-gaap:Assets"
      })
      assert.strictEqual(point?.documentPeriod, "FY 2024")
    }).pipe(Effect.provide(PgliteClient.layer().pipe(Layer.orDie))))

  it.scopedLive("0011 indexes the chunks stored before, with their sections' pages, so search finds them", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* Migrations.run({ loader: upTo("0010_metric_as_of") })
      yield* insertDocument(sql, "0000000001-24-000001")
      const body = "Cover page.\nWe acquired Roadrunner Traps in 2024."
      yield* sql`INSERT INTO document_bodies (publication_id, body, exhibits)
        VALUES ('0000000001-24-000001', ${body}, '[]'::jsonb)`
      yield* sql`INSERT INTO document_sections (publication_id, position, name, item, content, word_count,
        page_start, page_end) VALUES ('0000000001-24-000001', 0, 'Item 7. MD&A', '7', 'x', 1, 4, 6)`
      yield* sql`INSERT INTO document_chunks (publication_id, chunk_id, position, section, body_start, body_length)
        VALUES ('0000000001-24-000001', 'c0001', 0, NULL, 0, 11),
          ('0000000001-24-000001', 'c0002', 1, 'Item 7. MD&A', 12, 37)`

      yield* Migrations.run()
      const index = yield* makeSearchIndex
      const query = Either.getOrThrow(SearchText.parseQuery("acquisition"))
      const page = yield* index.search({ query, limit: 10, offset: 0 })
      assert.strictEqual(page.total, 1)
      assert.deepStrictEqual(page.hits[0]?.chunk, {
        id: "c0002",
        text: "We acquired Roadrunner Traps in 2024.",
        section: "Item 7. MD&A",
        pageStart: 4,
        pageEnd: 6
      })
      const chunks = yield* sql<{ readonly chunk_id: string; readonly page_start: number; readonly page_end: number }>`
        SELECT chunk_id, page_start, page_end FROM document_chunks ORDER BY position`
      assert.deepStrictEqual(chunks, [
        { chunk_id: "c0001", page_start: 1, page_end: 1 },
        { chunk_id: "c0002", page_start: 4, page_end: 6 }
      ])
      const [totals] = yield* sql<{ readonly passages: number }>`SELECT passages::int AS passages FROM search_totals`
      assert.strictEqual(totals?.passages, 2)
    }).pipe(Effect.provide(PgliteClient.layer().pipe(Layer.orDie))))

  it.scopedLive("0015 dates the chunks stored before by their documents and moves their terms into the row", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* Migrations.run({ loader: upTo("0014_documents_by_company") })
      const id = "0000000001-24-000002"
      yield* insertDocument(sql, id)
      // Long enough (a few hundred distinct words) that its vector went to the TOAST table, short
      // enough to fit in a page.
      const text = Array.from({ length: 250 }, (_, index) => `anvil${index}x`).join(" ")
      const analyzed = analyzePassage({ ticker: "ACME", companyName: "Acme Anvils", docType: "10-K" }, text)
      yield* sql`INSERT INTO document_bodies (publication_id, body, exhibits) VALUES (${id}, ${text}, '[]'::jsonb)`
      yield* sql`INSERT INTO document_chunks (publication_id, chunk_id, position, body_start, body_length, page_start,
        page_end, terms, term_count) VALUES (${id}, 'c0001', 0, 0, ${text.length}, 1, 1, ${analyzed.vector}::tsvector,
        ${analyzed.termCount})`
      const [toast] = yield* sql<{ readonly name: string }>`
        SELECT t.relname AS name FROM pg_class c JOIN pg_class t ON t.oid = c.reltoastrelid
        WHERE c.relname = 'document_chunks'`
      assert.match(toast?.name ?? "", /^pg_toast_\d+$/)
      const toastRows = Effect.map(
        sql.unsafe<{ readonly rows: number }>(`SELECT count(*)::int AS rows FROM pg_toast.${toast!.name}`),
        (rows) => rows[0]?.rows
      )
      assert.isAbove((yield* toastRows) ?? 0, 0)
      const before = yield* sql<{ readonly terms: string }>`SELECT terms::text AS terms FROM document_chunks`

      yield* Migrations.run({ loader: upTo("0015_search_newest_first") })
      yield* sql`VACUUM document_chunks`
      assert.strictEqual(yield* toastRows, 0)
      const after = yield* sql<{ readonly terms: string; readonly filing_date: string }>`
        SELECT terms::text AS terms, filing_date::text AS filing_date FROM document_chunks`
      assert.deepStrictEqual(after, [{ terms: before[0]!.terms, filing_date: "2024-11-01" }])
      yield* Migrations.run()
      const index = yield* makeSearchIndex
      const page = yield* index.search({
        query: Either.getOrThrow(SearchText.parseQuery("anvil249x")),
        limit: 10,
        offset: 0
      })
      assert.deepStrictEqual(page.hits.map((hit) => hit.chunk.id), ["c0001"])
    }).pipe(Effect.provide(PgliteClient.layer().pipe(Layer.orDie))))

  it.scopedLive("0016 copies each passage's range of its body into the passage, by characters, and keeps own texts", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* Migrations.run({ loader: upTo("0015_search_newest_first") })
      // Characters of two, three and four bytes before a range: ranges count characters, not bytes.
      const passages = ["Café société: 10 €.", "Revenue 🚀 rose 12%.", "Net income was $4,210 million."]
      yield* insertDocument(sql, "0000000001-24-000003")
      yield* sql`INSERT INTO document_bodies (publication_id, body, exhibits)
        VALUES ('0000000001-24-000003', ${passages.join("\n")}, '[]'::jsonb)`
      let start = 0
      for (const [position, text] of passages.entries()) {
        const length = Array.from(text).length
        yield* sql`INSERT INTO document_chunks (publication_id, chunk_id, position, body_start, body_length, page_start,
          page_end, filing_date) VALUES ('0000000001-24-000003', ${`c000${position + 1}`}, ${position}, ${start},
          ${length}, 1, 1, '2024-11-01')`
        start += length + 1
      }
      // A passage that is not a cut of its body keeps the text it has.
      yield* insertDocument(sql, "0000000001-24-000004")
      yield* sql`INSERT INTO document_bodies (publication_id, body, exhibits)
        VALUES ('0000000001-24-000004', 'A table, flattened differently.', '[]'::jsonb)`
      yield* sql`INSERT INTO document_chunks (publication_id, chunk_id, position, text, page_start, page_end,
        filing_date) VALUES ('0000000001-24-000004', 'c0001', 0, 'Segment | Revenue', 2, 2, '2024-11-01')`

      yield* Migrations.run()
      const chunks = yield* sql<{ readonly publication_id: string; readonly text: string }>`
        SELECT publication_id, text FROM document_chunks ORDER BY publication_id, position`
      assert.deepStrictEqual(chunks, [
        ...passages.map((text) => ({ publication_id: "0000000001-24-000003", text })),
        { publication_id: "0000000001-24-000004", text: "Segment | Revenue" }
      ])
      const columns = yield* sql<{ readonly name: string }>`
        SELECT column_name AS name FROM information_schema.columns
        WHERE table_name = 'document_chunks' AND column_name IN ('body_start', 'body_length')`
      assert.deepStrictEqual(columns, [])
      const [index] = yield* sql<{ readonly name: string }>`
        SELECT indexname AS name FROM pg_indexes WHERE indexname = 'document_chunks_terms'`
      assert.strictEqual(index?.name, "document_chunks_terms")
    }).pipe(Effect.provide(PgliteClient.layer().pipe(Layer.orDie))))

  it.scopedLive("0022 reads documents stored before blocks were kept without them, and a new save keeps them", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* Migrations.run({ loader: upTo("0021_company_tickers") })
      const id = Ids.PublicationId.make("0000000001-24-000005")
      yield* insertDocument(sql, id)
      yield* sql`INSERT INTO document_bodies (publication_id, body, exhibits)
        VALUES (${id}, '| | 2024 |', '[]'::jsonb)`
      yield* sql`INSERT INTO document_sections (publication_id, position, name, item, content, word_count,
        page_start, page_end) VALUES (${id}, 0, 'Item 8. Financial Statements', '8', '| | 2024 |', 1, 3, 3)`
      yield* sql`INSERT INTO document_chunks (publication_id, chunk_id, position, section, text, page_start, page_end,
        filing_date) VALUES (${id}, 'c0001', 0, 'Item 8. Financial Statements', '| | 2024 |', 3, 3, '2024-11-01')`

      yield* Migrations.run()
      const store = yield* makeDocumentStore
      const before = Option.getOrThrow(yield* store.findByPublicationId(id))
      assert.deepStrictEqual(before.chunks, [
        { id: "c0001", text: "| | 2024 |", section: "Item 8. Financial Statements", pageStart: 3, pageEnd: 3 }
      ])
      assert.strictEqual(before.sections[0]?.blockRange, undefined)

      // The document's next save (a re-ingest) keeps them.
      const table: Blocks.Block = { kind: "table", page: 3, rows: [["", "2024"], ["Anvils", "7"]], headerRows: 1 }
      yield* store.save({
        ...before,
        sections: before.sections.map((section) => ({ ...section, blockRange: { start: 0, end: 1 } })),
        chunks: before.chunks.map((chunk) => ({ ...chunk, blocks: [table] }))
      })
      const after = Option.getOrThrow(yield* store.findByPublicationId(id))
      assert.deepStrictEqual(Document.sectionBlocks(after.chunks, after.sections[0]!), [table])
    }).pipe(Effect.provide(PgliteClient.layer().pipe(Layer.orDie))))

  it.scopedLive("0009 dates each company by its newest stored filing and takes that filing's name", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* Migrations.run({ loader: upTo("0008_feed_items") })
      // An old filing ingested last renamed the company; a transcript was stamped with that name.
      yield* sql`INSERT INTO companies (cik, ticker, name) VALUES ('0000320193', 'AAPL', 'APPLE COMPUTER INC'),
        ('0000000002', 'LIST', 'Listed Only')`
      const document = (id: string, name: string, docType: string, date: string) =>
        sql`INSERT INTO documents (publication_id, ticker, company_name, cik, doc_type, title, filing_date, period,
          sec_url, word_count) VALUES (${id}, 'AAPL', ${name}, '0000320193', ${docType}, 't', ${date}::date, 'p', '', 1)`
      yield* document("0000912057-00-023442", "APPLE COMPUTER INC", "10-Q", "2000-05-11")
      yield* document("0000320193-24-000123", "Apple Inc.", "10-K", "2024-11-01")
      yield* document("call-aapl-2025-01-30", "APPLE COMPUTER INC", "EARNINGS_CALL", "2025-01-30")

      yield* Migrations.run()
      const companies = yield* sql<{ readonly cik: string; readonly name: string; readonly as_of: string | null }>`
        SELECT cik, name, as_of::text AS as_of FROM companies ORDER BY cik`
      assert.deepStrictEqual(companies.map((company) => [company.cik, company.name, company.as_of]), [
        ["0000000002", "Listed Only", null],
        ["0000320193", "Apple Inc.", "2024-11-01"]
      ])
      const names = yield* sql<{ readonly company_name: string }>`
        SELECT company_name FROM documents ORDER BY filing_date`
      assert.deepStrictEqual(names.map((row) => row.company_name), [
        "APPLE COMPUTER INC",
        "Apple Inc.",
        "APPLE COMPUTER INC"
      ])
    }).pipe(Effect.provide(PgliteClient.layer().pipe(Layer.orDie))))

  it.scopedLive("0012 gives companies stored before the words of their names, for the company search", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* Migrations.run({ loader: upTo("0010_metric_as_of") })
      yield* sql`INSERT INTO companies (cik, ticker, name, as_of) VALUES
        ('0000320193', 'AAPL', 'Apple Inc.', '2024-11-01'), ('0000000003', 'ATT', 'AT&T Inc / Société', NULL)`
      yield* Migrations.run()
      const rows = yield* sql<{ readonly cik: string; readonly name_prefixes: ReadonlyArray<string> }>`
        SELECT cik, name_prefixes FROM companies ORDER BY cik`
      assert.deepStrictEqual(rows.map((row) => [row.cik, [...row.name_prefixes].sort()]), [
        // Only ASCII letters and digits make words: "&", "/" and "é" separate them.
        ["0000000003", ["a", "at", "i", "in", "inc", "s", "so", "soc", "soci", "t"]],
        ["0000320193", ["a", "ap", "app", "appl", "apple", "i", "in", "inc"]]
      ])
      // Renaming recomputes them: they are the database's, from the name.
      yield* sql`UPDATE companies SET name = 'Apple' WHERE cik = '0000320193'`
      const [apple] = yield* sql<{ readonly name_prefixes: ReadonlyArray<string> }>`
        SELECT name_prefixes FROM companies WHERE cik = '0000320193'`
      assert.deepStrictEqual([...apple!.name_prefixes].sort(), ["a", "ap", "app", "appl", "apple"])
    }).pipe(Effect.provide(PgliteClient.layer().pipe(Layer.orDie))))

  it.scopedLive("0017 gives companies stored before the words of their former names", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* Migrations.run({ loader: upTo("0016_chunk_text_in_row") })
      yield* sql`INSERT INTO companies (cik, ticker, name, former_names) VALUES
        ('0001326801', 'META', 'Meta Platforms, Inc.', '[{"name": "FACEBOOK INC", "to": "2021-10-28"}, {"name": "TF"}]'),
        ('0000000004', 'NEW', 'New Co', NULL), ('0000000005', 'NONE', 'None Co', '[]')`
      yield* Migrations.run()
      const rows = yield* sql<{ readonly cik: string; readonly former_name_prefixes: ReadonlyArray<string> }>`
        SELECT cik, former_name_prefixes FROM companies ORDER BY cik`
      assert.deepStrictEqual(rows.map((row) => [row.cik, [...row.former_name_prefixes].sort()]), [
        ["0000000004", []],
        ["0000000005", []],
        ["0001326801", [
          "f",
          "fa",
          "fac",
          "face",
          "faceb",
          "facebo",
          "faceboo",
          "facebook",
          "i",
          "in",
          "inc",
          "t",
          "tf"
        ]]
      ])
    }).pipe(Effect.provide(PgliteClient.layer().pipe(Layer.orDie))))
})
