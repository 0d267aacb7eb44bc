import { assert, describe, it } from "@effect/vitest"
import { Sentiment } from "@filings/feed-summarizer"

describe("Sentiment", () => {
  it("reads the tone of results", () => {
    assert.strictEqual(
      Sentiment.sentimentOf(["Revenue increased 18% to a record $412 million and margins improved."]),
      "positive"
    )
    assert.strictEqual(Sentiment.sentimentOf(["Revenue declined 12% and the company lowered its outlook."]), "negative")
    assert.strictEqual(Sentiment.sentimentOf(["The annual meeting will be held on May 4 in Springfield."]), "neutral")
  })

  it("reads falling costs and a narrower loss as good news", () => {
    assert.strictEqual(
      Sentiment.sentimentOf(["Operating expenses decreased 9% and the net loss narrowed."]),
      "positive"
    )
    assert.strictEqual(Sentiment.sentimentOf(["Costs increased sharply and losses grew."]), "negative")
  })

  it("turns the sign after a negation", () => {
    const plain = Sentiment.scoreText("results were strong")
    const negated = Sentiment.scoreText("results were not strong")
    assert.isAbove(plain.score, 0)
    assert.strictEqual(negated.score, -plain.score)
    assert.strictEqual(Sentiment.scoreText("results weren't strong").score, negated.score)
  })
})
