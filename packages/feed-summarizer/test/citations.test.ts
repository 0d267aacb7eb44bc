import { assert, describe, it } from "@effect/vitest"
import { Feed } from "@filings/domain"
import { Citations, type Summary } from "@filings/feed-summarizer"
import { resultsRelease } from "./fixtures.js"

const highlight = (text: string, ...chunks: ReadonlyArray<string>) =>
  Feed.Highlight.make({
    text,
    citations: chunks.map((chunkId) => Feed.Citation.make({ source: resultsRelease.source, chunkId }))
  })

const answer = (...highlights: ReadonlyArray<Feed.Highlight>): Summary => ({
  highlights,
  categories: ["Earnings"],
  sentiment: "positive",
  model: "test-model"
})

describe("Citations.checkCitations", () => {
  it("keeps a highlight whose figures its cited chunk states", () => {
    const checked = Citations.checkCitations(
      answer(highlight("Diluted EPS was $1.42, against $0.97 a year ago.", "c0001")),
      resultsRelease
    )
    assert.deepStrictEqual(checked.corrections, [])
    assert.strictEqual(checked.summary.highlights[0]!.citations[0]!.chunkId, "c0001")
  })

  it("repairs an invented chunk id to the chunk that states the highlight", () => {
    const checked = Citations.checkCitations(
      answer(highlight("Full-year diluted earnings per share guidance is $5.10 to $5.20.", "c0099")),
      resultsRelease
    )
    assert.deepStrictEqual(checked.summary.highlights.map((h) => h.citations.map((c) => c.chunkId)), [["c0002"]])
    assert.deepStrictEqual(checked.corrections, [
      `highlight 1: citation ${resultsRelease.source}/c0099 names no chunk of this document`,
      "highlight 1: cited c0002 instead, the passage that states it"
    ])
  })

  it("repairs a real chunk that does not support the highlight", () => {
    const checked = Citations.checkCitations(
      answer(highlight("Revenue was $412.5 million, up 18%.", "c0003")),
      resultsRelease
    )
    assert.strictEqual(checked.summary.highlights[0]!.citations[0]!.chunkId, "c0001")
  })

  it("drops a highlight with a figure the document never states", () => {
    const checked = Citations.checkCitations(
      answer(highlight("Revenue was $415.2 million, up 18%.", "c0001"), highlight("Diluted EPS was $1.42.", "c0001")),
      resultsRelease
    )
    assert.deepStrictEqual(checked.summary.highlights.map((h) => h.text), ["Diluted EPS was $1.42."])
    assert.deepStrictEqual(checked.corrections, ["highlight 1 dropped: the document does not state 415.2"])
  })

  it("drops a citation to another document, and a highlight no passage supports", () => {
    const foreign = Feed.Highlight.make({
      text: "The board approved a merger with Globex Corporation.",
      citations: [Feed.Citation.make({ source: "0000000000-00-000000", chunkId: "c0001" })]
    })
    const checked = Citations.checkCitations(answer(foreign), resultsRelease)
    assert.deepStrictEqual(checked.summary.highlights, [])
    assert.deepStrictEqual(checked.corrections, [
      "highlight 1: citation 0000000000-00-000000/c0001 names no chunk of this document",
      "highlight 1 dropped: no passage of the document supports it"
    ])
  })
})
