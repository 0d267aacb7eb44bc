/**
 * Feed items with a language model configured: the extractive item is written at once and a
 * summary job queued (once per version of the document); the job replaces the item with the
 * model's checked answer, keeping its time and stock move, and leaves it standing while the model
 * fails. The model's summary survives the document being stored again while the document still
 * supports it.
 */
import { assert, describe, it } from "@effect/vitest"
import { Feed } from "@filings/domain"
import { SummaryModel } from "@filings/feed-summarizer"
import { DocumentStore, FeedStore, JobQueue, MemoryStorage } from "@filings/storage"
import { sampleDocument } from "@filings/storage/testing"
import { Effect, Either, Layer, Option, Ref } from "effect"
import { SummaryQueue, versionOf, writeFeedItem } from "../src/feed/FeedWriter.js"
import { handleSummaryJob } from "../src/feed/SummaryJobs.js"
import * as MarketData from "../src/market/MarketData.js"

const release = sampleDocument({
  docType: "PRESS_RELEASE",
  title: "Acme reports third quarter results",
  body: "Revenue rose 18% to $412.5 million in the third quarter.\nThe company raised its outlook.\n",
  chunks: [
    { id: "c0001", text: "Revenue rose 18% to $412.5 million in the third quarter.\n", pageStart: 1, pageEnd: 1 },
    { id: "c0002", text: "The company raised its outlook.\n", pageStart: 1, pageEnd: 1 }
  ]
})

/** A model of the test's own: it fails while `down` is set, else answers a fixed summary; it counts its calls. */
const down = Ref.unsafeMake(true)
const modelCalls = Ref.unsafeMake(0)
const scriptedModel = Layer.succeed(SummaryModel.SummaryModel, {
  name: "scripted",
  summarize: (input) =>
    Effect.flatMap(Ref.getAndUpdate(modelCalls, (n) => n + 1).pipe(Effect.zipRight(Ref.get(down))), (isDown) =>
      isDown
        ? Effect.fail(new SummaryModel.SummaryModelError({ model: "scripted", reason: "HTTP 503" }))
        : Effect.succeed({
          highlights: [
            Feed.Highlight.make({
              text: "Third-quarter revenue grew 18% to $412.5 million.",
              citations: [Feed.Citation.make({ source: input.source, chunkId: "c0001" })]
            })
          ],
          categories: ["Earnings"],
          sentiment: "positive",
          model: "scripted"
        }))
})

const layerWith = (model: Layer.Layer<SummaryModel.SummaryModel>) =>
  Layer.mergeAll(MemoryStorage.layer, model, MarketData.none)

const takeJob = Effect.flatMap(JobQueue.JobQueue, (queue) => queue.take(SummaryQueue, "1 minute"))

describe("summary jobs", () => {
  it.effect("writes the extractive item first, then the model's, keeping the item's time and move", () =>
    Effect.gen(function*() {
      const feed = yield* FeedStore.FeedStore
      const queue = yield* JobQueue.JobQueue
      yield* Ref.set(down, true)
      yield* Effect.flatMap(DocumentStore.DocumentStore, (documents) => documents.save(release))
      assert.isTrue(yield* writeFeedItem(release, "2026-10-28T20:05:00.000Z"))
      const first = Option.getOrThrow(yield* feed.findById(release.publicationId))
      assert.strictEqual(first.model, "extractive")
      assert.strictEqual(first.publishedAtMillis, Date.parse("2026-10-28T20:05:00.000Z"))
      assert.strictEqual(yield* queue.pendingCount(SummaryQueue), 1)

      const job = Option.getOrThrow(yield* takeJob)
      assert.deepStrictEqual(job.payload, {
        publicationId: release.publicationId,
        version: versionOf(release.body),
        items: []
      })
      // A move known since the item was written stays through the rewrite.
      yield* feed.setStockChange(release.publicationId, { percentage: 1.25, direction: "up" })

      const failed = yield* Effect.either(handleSummaryJob(job))
      assert.isTrue(Either.isLeft(failed))
      if (Either.isLeft(failed)) {
        assert.isFalse(failed.left.permanent, "the model may answer later")
        assert.strictEqual(failed.left.reason, "the summary model gave no usable answer: HTTP 503")
      }
      assert.strictEqual(Option.getOrThrow(yield* feed.findById(release.publicationId)).model, "extractive")

      yield* Ref.set(down, false)
      yield* handleSummaryJob(job)
      const rewritten = Option.getOrThrow(yield* feed.findById(release.publicationId))
      assert.deepInclude(rewritten, {
        model: "scripted",
        categories: ["Earnings"],
        sentiment: "positive",
        publishedAtMillis: first.publishedAtMillis,
        stockChange: { percentage: 1.25, direction: "up" }
      })
      assert.deepStrictEqual(rewritten.highlights, [{
        text: "Third-quarter revenue grew 18% to $412.5 million.",
        citations: [{ source: release.publicationId, chunkId: "c0001" }]
      }])

      // Stored again unchanged, the document keeps the model's summary, which it still supports,
      // and its job asks the model nothing.
      yield* writeFeedItem(release, "2026-10-28T20:05:00.000Z")
      assert.strictEqual(Option.getOrThrow(yield* feed.findById(release.publicationId)).model, "scripted")
      const callsBefore = yield* Ref.get(modelCalls)
      yield* handleSummaryJob(Option.getOrThrow(yield* takeJob))
      assert.strictEqual(yield* Ref.get(modelCalls), callsBefore, "no second answer asked for")
      assert.strictEqual(Option.getOrThrow(yield* feed.findById(release.publicationId)).model, "scripted")

      // A new version of the document is summarised again.
      const revisedChunks = [{ id: "c0001", text: "Revenue rose 17% to $410.0 million.\n", pageStart: 1, pageEnd: 1 }]
      const revised = { ...release, body: revisedChunks[0]!.text, chunks: revisedChunks }
      yield* Effect.flatMap(DocumentStore.DocumentStore, (documents) => documents.save(revised))
      yield* writeFeedItem(revised, "2026-10-28T20:05:00.000Z")
      assert.strictEqual(
        Option.getOrThrow(yield* feed.findById(release.publicationId)).model,
        "extractive",
        "the new version no longer states the model's figures"
      )
      assert.isTrue(Option.isSome(yield* takeJob))
    }).pipe(Effect.provide(layerWith(scriptedModel))))

  it.effect("queues nothing when the extractive model is the configured one", () =>
    Effect.gen(function*() {
      const queue = yield* JobQueue.JobQueue
      yield* writeFeedItem(release, "2026-10-28T20:05:00.000Z")
      assert.strictEqual(yield* queue.pendingCount(SummaryQueue), 0)
    }).pipe(Effect.provide(layerWith(SummaryModel.extractiveLayer))))

  it.effect("a job of a version no longer stored, or of a document gone, completes without a model call", () =>
    Effect.gen(function*() {
      const queue = yield* JobQueue.JobQueue
      yield* Ref.set(down, false)
      const document = sampleDocument({ docType: "PRESS_RELEASE" })
      yield* Effect.flatMap(DocumentStore.DocumentStore, (documents) => documents.save(document))
      yield* writeFeedItem(document, "2026-10-28T20:05:00.000Z")
      const stale = Option.getOrThrow(yield* takeJob)
      const calls = yield* Ref.get(modelCalls)
      const newer = { ...document, body: `${document.body}More.\n` }
      yield* Effect.flatMap(DocumentStore.DocumentStore, (documents) => documents.save(newer))
      yield* handleSummaryJob(stale)
      assert.strictEqual(yield* Ref.get(modelCalls), calls, "the newer version's job will ask")

      yield* queue.enqueue(SummaryQueue, { publicationId: "0000999999-26-000001", version: "0", items: [] })
      yield* handleSummaryJob(Option.getOrThrow(yield* takeJob))
      assert.strictEqual(yield* Ref.get(modelCalls), calls)
      const malformed = yield* queue.enqueue(SummaryQueue, { publication: 1 }).pipe(Effect.zipRight(takeJob))
      const refused = yield* Effect.flip(handleSummaryJob(Option.getOrThrow(malformed)))
      assert.isTrue(refused.permanent)
    }).pipe(Effect.provide(layerWith(scriptedModel))))
})
