import { Migrator, SqlClient } from "@effect/sql"
import { assert, describe, it } from "@effect/vitest"
import { Ids } from "@filings/domain"
import { Effect, Layer } from "effect"
import { Migrations, PgliteClient } from "../src/index.js"
import { migrations } from "../src/internal/migrations/index.js"
import { makeExtractionStore } from "../src/internal/sqlExtractions.js"

// Later migrations must carry the data of a database that earlier versions wrote.
describe("migrations carry data forward", () => {
  it.scopedLive("0003 moves the sections of existing documents into document_sections", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const upTo = (last: string) =>
        Migrator.fromRecord(Object.fromEntries(Object.entries(migrations).filter(([name]) => name <= last)))
      yield* Migrations.run({ loader: upTo("0002_storage") })
      yield* sql`INSERT INTO documents (publication_id, ticker, company_name, cik, doc_type, title, filing_date,
        period, sec_url, word_count) VALUES ('0000000001-24-000001', 'ACME', 'Acme', '0000000001', '10-K',
        'Acme 10-K FY 2024', '2024-01-31', 'FY 2024', 'https://www.sec.gov/x', 7)`
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

  it.scopedLive("0012 adds as_of and leaves the metrics stored before as they were written", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const upTo = (last: string) =>
        Migrator.fromRecord(Object.fromEntries(Object.entries(migrations).filter(([name]) => name <= last)))
      yield* Migrations.run({ loader: upTo("0008_feed_items") })
      yield* sql`INSERT INTO documents (publication_id, ticker, company_name, cik, doc_type, title, filing_date,
        period, sec_url, word_count) VALUES ('0000000001-24-000001', 'ACME', 'Acme', '0000000001', '10-K',
        'Acme 10-K FY 2024', '2024-11-01', 'FY 2024', 'https://www.sec.gov/x', 7)`
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
})
