import { SqlClient } from "@effect/sql"
import { assert, describe, it, layer } from "@effect/vitest"
import { Document } from "@filings/domain"
import {
  ApiKeyStore,
  DocumentStore,
  EventStore,
  ExtractionStore,
  FeedStore,
  JobQueue,
  StorageError,
  WebhookStore
} from "@filings/storage"
import { sampleDocument, sampleFeedItem } from "@filings/storage/testing"
import { Effect, Layer, Schema } from "effect"
import { SqlStorage, TestDatabase } from "../src/index.js"
import { fromRow } from "../src/internal/sqlRows.js"

describe("fromRow", () => {
  it("reads a NULL column as an absent optional field, and keeps the nulls inside a JSON column", () => {
    const section = Schema.decodeUnknownSync(fromRow(Document.LabeledSection))({
      title: "Item 1. Business",
      item: null,
      content: "text",
      word_count: 1,
      page_start: 1,
      page_end: 2
    })
    assert.notProperty(section, "item")
    const Row = fromRow(Schema.Struct({ exhibits: Schema.Array(ExtractionStore.StoredExhibitReference) }))
    const row = Schema.decodeUnknownSync(Row)({ exhibits: [{ number: "104", description: "Cover", url: null }] })
    assert.deepStrictEqual(row.exhibits, [{ number: "104", description: "Cover", url: null }])
  })
})

layer(SqlStorage.layer.pipe(Layer.provideMerge(TestDatabase.layerPglite())), { timeout: "60 seconds" })(
  "rows that do not read as their shape",
  (it) => {
    it.effect("fail as the port's StorageError, naming the operation and the mismatch", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const documents = yield* DocumentStore.DocumentStore
        const extractions = yield* ExtractionStore.ExtractionStore
        const document = sampleDocument()
        yield* documents.save(document)
        // Written around the store: signatures without a date, which the stored form does not take.
        yield* sql`INSERT INTO document_extractions (publication_id, exhibits, signatures, warnings)
          VALUES (${document.publicationId}, '[]'::jsonb, '{"signedDate":"","signers":[]}'::jsonb, '[]'::jsonb)`
        const failure = yield* Effect.flip(extractions.find(document.publicationId))
        assert.instanceOf(failure, StorageError.StorageError)
        assert.strictEqual(failure.operation, "ExtractionStore.find")
        assert.include(failure.reason, "signedDate")
      }))
  }
)

layer(SqlStorage.layer.pipe(Layer.provideMerge(TestDatabase.layerPglite())), { timeout: "60 seconds" })(
  "rows of the feed, access, event, webhook and job tables that do not read as their shape",
  (it) => {
    /** The failure of `operation`, which must be the port's StorageError naming the operation. */
    const storageErrorOf = <A, E, R>(operation: string, effect: Effect.Effect<A, E, R>) =>
      Effect.gen(function*() {
        const failure = yield* Effect.flip(effect)
        assert.instanceOf(failure, StorageError.StorageError)
        assert.strictEqual((failure as StorageError.StorageError).operation, operation)
        return (failure as StorageError.StorageError).reason
      })

    it.effect("a feed item whose highlight cites no chunk", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const feed = yield* FeedStore.FeedStore
        const item = sampleFeedItem({ id: "feed-corrupt" })
        yield* feed.save(item)
        // Highlights are kept in their values' form (`chunkId`), not the API's (`chunk_id`).
        const [stored] = yield* sql<{ readonly highlights: unknown }>`
          SELECT highlights FROM feed_items WHERE id = ${item.id}`
        assert.deepStrictEqual(stored?.highlights, item.highlights)
        yield* sql`UPDATE feed_items SET highlights = '[{"text":"Revenue grew.","citations":[{"source":"s"}]}]'::jsonb
          WHERE id = ${item.id}`
        const reason = yield* storageErrorOf("FeedStore.findById", feed.findById(item.id))
        assert.include(reason, "chunkId")
      }))

    it.effect("an API key of a plan the port does not know", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO api_keys (id, name, plan, rate_limit, key_hash, key_prefix, created_at)
          VALUES ('key_gold', 'gold', 'gold', 100, 'hash', 'prefix', now())`
        const reason = yield* storageErrorOf("ApiKeyStore.list", (yield* ApiKeyStore.ApiKeyStore).list)
        assert.include(reason, "gold")
      }))

    it.effect("an event recorded at no finite time", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO events (id, type, key, payload, recorded_at)
          VALUES ('evt_timeless', 'filing.new', 'timeless', '{}'::jsonb, 'infinity')`
        const reason = yield* storageErrorOf(
          "EventStore.findByKey",
          (yield* EventStore.EventStore).findByKey("timeless")
        )
        assert.include(reason, "recorded_at_ms")
        assert.include(reason, "Expected a finite number, actual Infinity")
      }))

    it.effect("a subscription whose ticker filter is not a list", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO webhooks (id, owner_key_id, url, events, filters, secret, status, created_at_ms,
            start_sequence)
          VALUES ('wh_1', 'key_1', 'https://example.com/hook', '["filing.new"]'::jsonb,
            '{"tickers":"AAPL"}'::jsonb, 'secret', 'active', 0, 0)`
        const reason = yield* storageErrorOf(
          "WebhookStore.findById",
          (yield* WebhookStore.WebhookStore).findById("wh_1")
        )
        assert.include(reason, "tickers")
      }))

    it.effect("a job taken a fractional number of times", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const queue = yield* JobQueue.JobQueue
        yield* queue.enqueue("extract", { publicationId: "0000320193-19-000010" })
        yield* sql`ALTER TABLE jobs ALTER COLUMN attempts TYPE real`
        yield* sql`UPDATE jobs SET attempts = 0.5`
        const reason = yield* storageErrorOf("JobQueue.take", queue.take("extract", "1 minute"))
        assert.include(reason, "attempts")
      }))
  }
)
