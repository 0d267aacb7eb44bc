/**
 * The Promise door of the feed summarizer: the extractive model by default, a chat-completions
 * model when given one (its key as a plain string), the extractive model standing in when that
 * model fails, and an exception in the summariser rejecting as itself.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { FeedSummarizer, summarize, type SummaryInput, SummaryModel } from "../src/index.js"
import { resultsRelease } from "./fixtures.js"
import { startChatCompletionsStub } from "./support/chatCompletionsStub.js"

const apiKey = "sk-test-0123456789"

const goodAnswer = {
  kind: "content",
  content: JSON.stringify({
    highlights: [{
      text: "Revenue of $412.5 million, up 18% compared with $349.6 million in the prior-year quarter.",
      chunk_ids: ["c0001"]
    }],
    categories: ["Earnings"],
    sentiment: "positive"
  })
} as const

describe("summarize", () => {
  it("summarises offline with the extractive model when given no model", async () => {
    const outcome = await summarize(resultsRelease)
    const viaEffect = await Effect.runPromise(
      FeedSummarizer.summarize(resultsRelease).pipe(Effect.provide(SummaryModel.extractiveLayer))
    )
    assert.deepStrictEqual(outcome, viaEffect)
    assert.strictEqual(outcome.summary.model, "extractive")
    assert.isUndefined(outcome.fallbackReason)
    assert.include(outcome.summary.categories, "Earnings")
    assert.isAbove(outcome.summary.highlights.length, 0)
  })

  it.scoped("asks the chat-completions model it is given, with the key given as a plain string", () =>
    Effect.gen(function*() {
      const stub = yield* startChatCompletionsStub
      stub.answerWith(goodAnswer)
      const outcome = yield* Effect.promise(() =>
        summarize(resultsRelease, { model: { baseUrl: stub.baseUrl, model: "stub-model", apiKey } })
      )
      assert.strictEqual(outcome.summary.model, "chat-completions:stub-model")
      assert.deepStrictEqual(outcome.summary.categories, ["Earnings"])
      assert.deepStrictEqual(outcome.summary.highlights.map((highlight) => highlight.citations[0]?.chunkId), [
        "c0001"
      ])
      assert.lengthOf(stub.requests, 1)
      assert.strictEqual(stub.requests[0]?.headers.authorization, `Bearer ${apiKey}`)
    }))

  it.scoped("resolves with the extractive model's summary when the model fails, saying why", () =>
    Effect.gen(function*() {
      const stub = yield* startChatCompletionsStub
      stub.answerWith({ kind: "status", status: 500, message: "upstream exploded" })
      const outcome = yield* Effect.promise(() =>
        summarize(resultsRelease, { model: { baseUrl: stub.baseUrl, model: "stub-model" } })
      )
      assert.strictEqual(outcome.summary.model, "extractive")
      assert.match(outcome.fallbackReason ?? "", /HTTP 500/)
      assert.isUndefined(stub.requests[0]?.headers.authorization)
    }))

  it("rejects with the original exception, not a wrapper, when the summariser itself throws", async () => {
    const broken = { source: "x", docType: "NEWS", chunks: null } as unknown as SummaryInput
    const error = await summarize(broken).then(() => assert.fail("expected a rejection"), (error: unknown) => error)
    assert.instanceOf(error, TypeError)
  })
})
