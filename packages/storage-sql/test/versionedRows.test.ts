/**
 * List pages read keys and row versions, and decode a row again only when its version changed: the
 * same object for an unchanged row, the new row as soon as any instance on the database writes it.
 * Two stores made on one `SqlClient` stand for two server instances.
 */
import type { SqlClient } from "@effect/sql"
import { assert, describe, layer } from "@effect/vitest"
import { Ids } from "@filings/domain"
import { sampleDocument, sampleFeedItem } from "@filings/storage/testing"
import { Effect, type Layer, Redacted } from "effect"
import { adminUrl, adminUrlVariable } from "../../../test/support/adminUrl.js"
import { TestDatabase } from "../src/index.js"
import { makeDocumentStore } from "../src/internal/sqlDocuments.js"
import { makeFeedStore } from "../src/internal/sqlFeed.js"
import { makeVersionedRows } from "../src/internal/versionedRows.js"

let counter = 0
const unique = () => `${Date.now() % 100000}${++counter}`.padStart(6, "0").slice(-6)

const suite = (database: Layer.Layer<SqlClient.SqlClient, unknown>) =>
  layer(database)((it) => {
    it.effect("a document list keeps unchanged rows and reads a row again once another instance rewrote it", () =>
      Effect.gen(function*() {
        const reader = yield* makeDocumentStore
        const writer = yield* makeDocumentStore
        const ticker = Ids.Ticker.make(`V${unique().slice(-3)}`)
        const id = Ids.PublicationId.make(`0000999998-24-${unique()}`)
        const document = sampleDocument({ publicationId: id, ticker })
        yield* writer.save(document)
        const query = { tickers: [ticker], limit: 10, offset: 0, order: "desc" } as const
        const first = yield* reader.list(query)
        const again = yield* reader.list(query)
        assert.strictEqual(again.documents[0], first.documents[0], "the kept object for an unchanged row")
        yield* writer.save({ ...document, title: "Restated" })
        const after = yield* reader.list(query)
        assert.strictEqual(after.documents[0]?.title, "Restated")
        assert.strictEqual(after.total, 1)
      }))

    it.effect("a feed page keeps unchanged items and reads an item again once it changed", () =>
      Effect.gen(function*() {
        const reader = yield* makeFeedStore
        const writer = yield* makeFeedStore
        const ticker = Ids.Ticker.make(`F${unique().slice(-3)}`)
        const item = sampleFeedItem({ id: `feed-${unique()}`, ticker })
        yield* writer.save(item)
        const query = { tickers: [ticker], limit: 5 }
        const [first] = yield* reader.query(query)
        const [again] = yield* reader.query(query)
        assert.strictEqual(again, first)
        yield* writer.save({ ...item, title: "Updated title" })
        const [after] = yield* reader.query(query)
        assert.strictEqual(after?.title, "Updated title")
      }))
  })

describe("versioned rows", () => {
  layer(TestDatabase.layerPglite())((it) => {
    it.effect("keeps at most its capacity and still answers every row of a page", () =>
      Effect.gen(function*() {
        const rows = makeVersionedRows<string>(2)
        let reads = 0
        const read = (keys: ReadonlyArray<string>) =>
          Effect.sync(() => (reads++, keys.map((key) => ({ key, version: "1", row: `row ${key}` }))))
        const page = ["a", "b", "c"].map((key) => ({ key, version: "1" }))
        assert.deepStrictEqual(yield* rows.rowsOf(page, read), ["row a", "row b", "row c"])
        assert.deepStrictEqual(yield* rows.rowsOf(page.slice(1), read), ["row b", "row c"])
        assert.strictEqual(reads, 1)
      }))
  })
})

describe("versioned rows on PGlite", () => {
  suite(TestDatabase.layerPglite())
})

const postgresAdmin = adminUrl
if (postgresAdmin === undefined) {
  describe.skip(`versioned rows on PostgreSQL (set ${adminUrlVariable} to run it)`, () => {})
} else {
  describe("versioned rows on PostgreSQL", () => {
    suite(TestDatabase.layerPostgres(Redacted.make(postgresAdmin)))
  })
}
