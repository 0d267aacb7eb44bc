/**
 * The quick start of README.md, run for real so it cannot drift: each block between the markers
 * below must appear verbatim under the README's "Quick start" heading, and is run here on the
 * chunks of a short results release.
 */
import { assert, describe, it } from "@effect/vitest"
import { itShowsQuickStart } from "../../../test/support/quickStart.js"

// README:effect:start
import { FeedSummarizer, SummaryModel } from "@filings/feed-summarizer"
import { Effect } from "effect"

// chunks: a parsed document's chunks (parseFiling(...).chunks), or passages of yours with stable ids
export const summaryOf = (chunks: ReadonlyArray<{ id: string; text: string }>) =>
  FeedSummarizer.summarize({ source: "0000999001-26-000042", docType: "8-K", items: ["2.02"], chunks }).pipe(
    Effect.provide(SummaryModel.extractiveLayer) // offline; or ChatCompletionsModel.layer({ baseUrl, model })
  )
// README:effect:end

// README:promise:start
import { summarize } from "@filings/feed-summarizer"

// The same without Effect; add { model: { baseUrl, model } } to ask a chat-completions endpoint first
export const highlightsOf = async (chunks: ReadonlyArray<{ id: string; text: string }>) => {
  const { summary } = await summarize({ source: "0000999001-26-000042", docType: "8-K", items: ["2.02"], chunks })
  return summary.highlights // [{ text: "Revenue of $412.5 million, up 18% ...", citations: [...] }]
}
// README:promise:end

const releaseChunks = [
  {
    id: "c0001",
    text: "Acme Widgets reported revenue of $412.5 million, up 18% compared with $349.6 million a year ago."
  },
  { id: "c0002", text: "Acme will host a conference call at 5:00 p.m. Eastern Time today." }
]

describe("README quick start", () => {
  itShowsQuickStart(import.meta.url, ["effect", "promise"])

  const revenueHighlight = {
    text: "Acme Widgets reported revenue of $412.5 million, up 18% compared with $349.6 million a year ago.",
    citations: [{ source: "0000999001-26-000042", chunkId: "c0001" }]
  }

  it.effect("Effect: a cited summary of a results release, the call logistics left out", () =>
    Effect.gen(function*() {
      const outcome = yield* summaryOf(releaseChunks)
      assert.deepStrictEqual(outcome, {
        summary: {
          highlights: [revenueHighlight],
          categories: ["Earnings"],
          sentiment: "positive",
          model: "extractive"
        },
        corrections: []
      })
    }))

  it("Promise: the same highlights", async () => {
    assert.deepStrictEqual(await highlightsOf(releaseChunks), [revenueHighlight])
  })
})
