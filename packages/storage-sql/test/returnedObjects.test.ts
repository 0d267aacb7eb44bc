/**
 * What the ports promise of the objects they return (`DocumentStore.list`, `FeedStore.query`): an
 * object a store has returned is never changed afterwards, and a changed row comes back as a new
 * object with its new values. Callers keep what they derive from a returned object beside it (the
 * server's kept encodings), which this makes safe. Checked on every store: in memory, on PGlite
 * and on PostgreSQL.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Ids } from "@filings/domain"
import { DocumentStore, FeedStore, MemoryStorage, type Stores } from "@filings/storage"
import { sampleDocument, sampleFeedItem } from "@filings/storage/testing"
import { Effect, Layer, Redacted } from "effect"
import { adminUrl, adminUrlVariable } from "../../../test/support/adminUrl.js"
import { SqlStorage, TestDatabase } from "../src/index.js"

let counter = 0
const unique = () => `${Date.now() % 100000}${++counter}`.padStart(6, "0").slice(-6)

const suite = (name: string, stores: Layer.Layer<Stores.Stores, unknown>) =>
  describe(`objects returned by ${name}`, () => {
    layer(stores)((it) => {
      it.effect("a listed document saved again is a new object; the one returned before is unchanged", () =>
        Effect.gen(function*() {
          const documents = yield* DocumentStore.DocumentStore
          const ticker = Ids.Ticker.make(`O${unique().slice(-3)}`)
          const document = sampleDocument({
            publicationId: Ids.PublicationId.make(`0000999997-24-${unique()}`),
            ticker
          })
          yield* documents.save(document)
          const query = { tickers: [ticker], limit: 10, offset: 0, order: "desc" } as const
          const [before] = (yield* documents.list(query)).documents
          assert.strictEqual(before?.title, document.title)
          const asReturned = JSON.stringify(before)

          yield* documents.save({ ...document, title: "Restated" })
          const [after] = (yield* documents.list(query)).documents
          assert.strictEqual(after?.title, "Restated")
          assert.notStrictEqual(after, before)
          assert.strictEqual(JSON.stringify(before), asReturned)
        }))

      it.effect("a feed item changed by a stock move or saved again is a new object; earlier ones are unchanged", () =>
        Effect.gen(function*() {
          const feed = yield* FeedStore.FeedStore
          const ticker = Ids.Ticker.make(`P${unique().slice(-3)}`)
          const item = sampleFeedItem({ id: `returned-${unique()}`, ticker, stockChange: null })
          yield* feed.save(item)
          const query = { tickers: [ticker], limit: 5 }
          const [first] = yield* feed.query(query)
          assert.strictEqual(first?.stockChange, null)
          const firstAsReturned = JSON.stringify(first)

          assert.isTrue(yield* feed.setStockChange(item.id, { percentage: 2.5, direction: "up" }))
          const [moved] = yield* feed.query(query)
          assert.deepStrictEqual(moved?.stockChange, { percentage: 2.5, direction: "up" })
          assert.notStrictEqual(moved, first)
          assert.strictEqual(JSON.stringify(first), firstAsReturned)
          const movedAsReturned = JSON.stringify(moved)

          yield* feed.save({ ...item, title: "Updated title" })
          const [saved] = yield* feed.query(query)
          assert.strictEqual(saved?.title, "Updated title")
          assert.notStrictEqual(saved, moved)
          assert.strictEqual(JSON.stringify(moved), movedAsReturned)
        }))
    })
  })

suite("the memory stores", MemoryStorage.layer)
suite("the SQL stores on PGlite", SqlStorage.layer.pipe(Layer.provide(TestDatabase.layerPglite())))

if (adminUrl === undefined) {
  describe.skip(`objects returned by the SQL stores on PostgreSQL (set ${adminUrlVariable} to run it)`, () => {})
} else {
  suite(
    "the SQL stores on PostgreSQL",
    SqlStorage.layer.pipe(Layer.provide(TestDatabase.layerPostgres(Redacted.make(adminUrl))))
  )
}
