import { assert, describe, it } from "@effect/vitest"
import { Document } from "@filings/domain"
import { DeliveryStore, ExtractionStore, FeedStore, JobQueue, WebhookStore } from "@filings/storage"
import { sampleDocument, sampleFeedItem } from "@filings/storage/testing"
import { Either, Redacted, Schema } from "effect"
import { Counted, rowDecoder } from "../src/internal/sqlRows.js"

// Each shape the stores read rows as, with one valid row in its encoded (column) form. A NULL
// column stands for an absent optional field, as PostgreSQL returns it.
const document = sampleDocument()
const shapes: ReadonlyArray<
  { readonly name: string; readonly shape: Schema.Schema.AnyNoContext; readonly row: object }
> = [
  {
    name: "a document list row",
    shape: Counted(Document.DocumentMetadata.fields),
    row: { ...Schema.encodeSync(Document.DocumentMetadata)(document), total: 3 }
  },
  {
    name: "a feed item",
    shape: FeedStore.StoredFeedItem,
    row: Schema.encodeSync(FeedStore.StoredFeedItem)(sampleFeedItem())
  },
  {
    name: "a feed item without a stock change yet",
    shape: FeedStore.StoredFeedItem,
    row: { ...Schema.encodeSync(FeedStore.StoredFeedItem)(sampleFeedItem()), stock_change: null }
  },
  {
    name: "a metric with its instant",
    shape: ExtractionStore.StoredMetric,
    row: {
      name: "total_assets",
      value: 1.5e9,
      unit: "USD",
      period: "FY 2024",
      as_of: "2024-09-28",
      yoy_change: null,
      source: "us-gaap:Assets"
    }
  },
  {
    name: "a webhook subscription",
    shape: WebhookStore.Subscription,
    row: Schema.encodeSync(WebhookStore.Subscription)({
      id: "wh_1",
      ownerKeyId: "key_1",
      url: "https://receiver.example/hook",
      events: ["filing.new"],
      filters: { tickers: ["ACME"] },
      secret: Redacted.make("0123456789abcdef"),
      status: "active",
      createdAtMillis: 1,
      lastTriggeredAtMillis: null,
      startSequence: 7
    })
  },
  {
    name: "a delivery",
    shape: DeliveryStore.Delivery,
    row: {
      id: "dlv_1",
      subscription_id: "wh_1",
      event_id: "evt_1",
      event_sequence: 3,
      event_type: "filing.new",
      state: "pending",
      attempts: 1,
      created_at_ms: 5,
      last_attempt_at_ms: 6,
      last_status: 500,
      last_error: "status 500",
      next_attempt_at_ms: null,
      delivered_at_ms: null
    }
  },
  {
    name: "a job with a JSON null payload",
    shape: JobQueue.Job,
    row: { id: "job_1", queue: "summaries", payload: null, attempts: 1, lease_token: "t", lease_expires_at_ms: 9 }
  }
]

// What a column can hold that its field may not take.
const replacements: ReadonlyArray<unknown> = [null, undefined, 42, "2024-02-30", "", "aapl", {}, [], [{}], true]

const outcome = (result: Either.Either<unknown, { readonly message: string }>) =>
  Either.isRight(result) ? { decoded: result.right } : { failure: result.left.message }

describe("rowDecoder", () => {
  for (const { name, row, shape } of shapes) {
    const byRow = rowDecoder(shape)
    // What rows were read with before: the shape's own decoder, NULL columns dropped.
    const decodeShape = Schema.decodeUnknownEither(shape, { errors: "first" })
    const bySchema = (row: object) =>
      decodeShape(Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null)))

    it(`reads ${name} as the shape's own decoder does`, () => {
      const read = byRow(row)
      assert.isTrue(Either.isRight(read))
      assert.deepStrictEqual(outcome(read), outcome(bySchema(row)))
    })

    it(`fails on ${name} with a broken column as the shape's own decoder does`, () => {
      let failures = 0
      for (const column of Object.keys(row)) {
        for (const value of replacements) {
          const broken = { ...row, [column]: value }
          const expected = outcome(bySchema(broken))
          assert.deepStrictEqual(outcome(byRow(broken)), expected, `${column} = ${JSON.stringify(value)}`)
          if ("failure" in expected) failures++
        }
      }
      assert.isAbove(failures, Object.keys(row).length)
    })
  }

  it("keeps the key order of the type side, renamed fields in place", () => {
    const read = rowDecoder(Document.DocumentMetadata)(Schema.encodeSync(Document.DocumentMetadata)(document))
    assert.deepStrictEqual(Object.keys(Either.getOrThrow(read)), Object.keys(Document.DocumentMetadata.fields))
  })
})
