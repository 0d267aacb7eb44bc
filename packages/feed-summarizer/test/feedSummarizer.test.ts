import { assert, describe, it } from "@effect/vitest"
import { Feed } from "@filings/domain"
import { FeedSummarizer, type Summary, SummaryModel } from "@filings/feed-summarizer"
import { Effect, Fiber, Layer, TestClock } from "effect"
import { resultsRelease } from "./fixtures.js"

const withModel = (summarize: SummaryModel.Service["summarize"]) =>
  Layer.succeed(SummaryModel.SummaryModel, { name: "test-model", summarize })

const modelAnswer = (highlights: ReadonlyArray<Feed.Highlight>): Summary => ({
  highlights,
  categories: ["Earnings"],
  sentiment: "positive",
  model: "test-model"
})

/** The results release summarized with a model that answers as `summarize` does. */
const summarizeWith = (summarize: SummaryModel.Service["summarize"]) =>
  FeedSummarizer.summarize(resultsRelease).pipe(Effect.provide(withModel(summarize)))

/** A highlight that cites one chunk of the results release. */
const citing = (chunkId: string, text: string) =>
  Feed.Highlight.make({ text, citations: [Feed.Citation.make({ source: resultsRelease.source, chunkId })] })

describe("FeedSummarizer.summarize", () => {
  it.effect("uses the model's answer when its citations hold", () =>
    Effect.gen(function*() {
      const highlight = citing("c0001", "Diluted EPS rose to $1.42 from $0.97.")
      const outcome = yield* summarizeWith(() => Effect.succeed(modelAnswer([highlight])))
      assert.strictEqual(outcome.summary.model, "test-model")
      assert.isUndefined(outcome.fallbackReason)
      assert.deepStrictEqual(outcome.summary.highlights.map((h) => h.text), ["Diluted EPS rose to $1.42 from $0.97."])
    }))

  it.effect("falls back to the extractive model on an error, saying why", () =>
    Effect.gen(function*() {
      const outcome = yield* summarizeWith(() =>
        new SummaryModel.SummaryModelError({ model: "test-model", reason: "HTTP 503" })
      )
      assert.strictEqual(outcome.summary.model, "extractive")
      assert.strictEqual(outcome.fallbackReason, "HTTP 503")
      assert.lengthOf(outcome.summary.highlights, 3)
    }))

  it.effect("falls back when the model crashes", () =>
    Effect.gen(function*() {
      const outcome = yield* summarizeWith(() => Effect.die(new Error("boom")))
      assert.strictEqual(outcome.summary.model, "extractive")
      assert.strictEqual(outcome.fallbackReason, "the model crashed: Error: boom")
    }))

  it.effect("falls back when the model takes longer than the limit", () =>
    Effect.gen(function*() {
      const fiber = yield* FeedSummarizer.summarize(resultsRelease, { timeout: "10 seconds" }).pipe(
        Effect.provide(withModel(() => Effect.never)),
        Effect.fork
      )
      yield* TestClock.adjust("10 seconds")
      const outcome = yield* Fiber.join(fiber)
      assert.strictEqual(outcome.summary.model, "extractive")
      assert.strictEqual(outcome.fallbackReason, "no answer within 10s")
    }))

  it.effect("falls back when nothing the model said is supported by the document", () =>
    Effect.gen(function*() {
      const invented = citing("c0042", "Revenue reached $9.99 billion.")
      const outcome = yield* summarizeWith(() => Effect.succeed(modelAnswer([invented])))
      assert.strictEqual(outcome.summary.model, "extractive")
      assert.strictEqual(outcome.fallbackReason, "no highlight of the model's answer was supported by the document")
      assert.include(outcome.corrections, "highlight 1 dropped: the document does not state 9.99")
    }))
})
