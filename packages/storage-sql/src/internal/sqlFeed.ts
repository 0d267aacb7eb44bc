// FeedStore on SQL. A query reads each asked ticker's newest keys through the (ticker, time, id)
// index, at most `limit` per ticker, keeps the newest `limit` of those, and only then reads those
// rows whole: the cost follows the tickers asked and the page, not the size of the feed.
import { SqlClient } from "@effect/sql"
import { FeedStore } from "@filings/storage"
import { Effect, Option, Schema } from "effect"
import { jsonb } from "./jsonb.js"
import { rowsAs } from "./sqlRows.js"
import { failsAs } from "./storageErrors.js"
import { makeVersionedRows } from "./versionedRows.js"

/** What `withoutStockChange` reads of an item. */
const PendingRow = FeedStore.StoredFeedItem.pick("id", "ticker", "publishedAtMillis")

const readItems = rowsAs(FeedStore.StoredFeedItem)
const readVersionedItems = rowsAs(Schema.Struct({ ...FeedStore.StoredFeedItem.fields, version: Schema.String }))
const readPageKeys = rowsAs(Schema.Struct({ key: Schema.String, version: Schema.String }))
const readPending = rowsAs(PendingRow)

export const makeFeedStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.literal(`id, ticker, company_name, title, doc_type, published_at_ms::float8 AS published_at_ms,
    categories, sentiment, stock_change, highlights, model`)

  // The items of pages, decoded once per row version.
  const pagedItems = makeVersionedRows<FeedStore.StoredFeedItem>()
  const readItemsOf = (ids: ReadonlyArray<string>) =>
    sql`SELECT ${columns}, xmin::text AS version FROM feed_items WHERE ${sql.in("id", ids)}`.pipe(
      readVersionedItems,
      Effect.map((rows) => rows.map(({ version, ...row }) => ({ key: row.id, version, row })))
    )

  const service: FeedStore.Service = {
    save: (item) =>
      sql<{ readonly inserted: boolean }>`
        INSERT INTO feed_items (id, ticker, company_name, title, doc_type, published_at_ms, categories, sentiment,
          stock_change, highlights, model)
        VALUES (${item.id}, ${item.ticker}, ${item.companyName}, ${item.title}, ${item.docType},
          ${item.publishedAtMillis}, ${jsonb(item.categories)}::jsonb, ${item.sentiment},
          ${item.stockChange === null ? null : jsonb(item.stockChange)}::jsonb, ${jsonb(item.highlights)}::jsonb,
          ${item.model})
        ON CONFLICT (id) DO UPDATE SET
          ticker = excluded.ticker, company_name = excluded.company_name, title = excluded.title,
          doc_type = excluded.doc_type, published_at_ms = excluded.published_at_ms,
          categories = excluded.categories, sentiment = excluded.sentiment, stock_change = excluded.stock_change,
          highlights = excluded.highlights, model = excluded.model, updated_at = now()
        RETURNING (xmax = 0) AS inserted`.pipe(
        // xmax is 0 only on a row version this statement inserted.
        Effect.map(([row]) => (row?.inserted === true ? "created" as const : "updated" as const)),
        failsAs("FeedStore.save")
      ),

    findById: (id) =>
      sql`SELECT ${columns} FROM feed_items WHERE id = ${id}`.pipe(
        readItems,
        Effect.map((items) => Option.fromNullable(items[0])),
        failsAs("FeedStore.findById")
      ),

    findByIds: (ids) =>
      ids.length === 0
        ? Effect.succeed([])
        : sql`SELECT ${columns} FROM feed_items WHERE ${sql.in("id", [...new Set(ids)])}`.pipe(
          readItems,
          failsAs("FeedStore.findByIds")
        ),

    withoutStockChange: ({ limit, publishedFromMillis }) =>
      sql`
        SELECT id, ticker, published_at_ms::float8 AS published_at_ms FROM feed_items
        WHERE stock_change IS NULL AND published_at_ms >= ${publishedFromMillis}
        ORDER BY feed_items.published_at_ms DESC, id DESC
        LIMIT ${limit}`.pipe(
        readPending,
        failsAs("FeedStore.withoutStockChange")
      ),

    setStockChange: (id, stockChange) =>
      sql`UPDATE feed_items SET stock_change = ${jsonb(stockChange)}::jsonb, updated_at = now() WHERE id = ${id}
        RETURNING id`.pipe(
        Effect.map((rows) => rows.length === 1),
        failsAs("FeedStore.setStockChange")
      ),

    query: (query) => {
      if (query.tickers.length === 0) return Effect.succeed([])
      const filters = [
        sql`f.ticker = wanted.wanted_ticker`,
        ...(query.docTypes === undefined ? [] : [sql.in("f.doc_type", query.docTypes)]),
        ...(query.fromMillis === undefined ? [] : [sql`f.published_at_ms >= ${query.fromMillis}`]),
        ...(query.beforeMillis === undefined ? [] : [sql`f.published_at_ms < ${query.beforeMillis}`]),
        // A row comparison, the index's own order: the scan starts at the key instead of reading up to it.
        ...(query.after === undefined ? [] : [
          sql`(f.published_at_ms, f.id) < (${query.after.publishedAtMillis}::int8, ${query.after.id}::text)`
        ])
      ]
      const wanted = sql.join(", ", false)(query.tickers.map((ticker) => sql`(${ticker})`))
      // The page's keys first, from the index alone; only the page's rows are then read whole, and
      // only those not kept at their current version.
      return sql`
        SELECT id AS key, xmin::text AS version FROM feed_items WHERE id IN (
          SELECT newest.id FROM (VALUES ${wanted}) AS wanted (wanted_ticker)
          CROSS JOIN LATERAL (
            SELECT f.id, f.published_at_ms FROM feed_items f WHERE ${sql.and(filters)}
            ORDER BY f.published_at_ms DESC, f.id DESC
            LIMIT ${query.limit}
          ) AS newest
          ORDER BY newest.published_at_ms DESC, newest.id DESC
          LIMIT ${query.limit}
        )
        ORDER BY feed_items.published_at_ms DESC, feed_items.id DESC`.pipe(
        readPageKeys,
        Effect.flatMap((page) => pagedItems.rowsOf(page, readItemsOf)),
        failsAs("FeedStore.query")
      )
    }
  }
  return service
})
