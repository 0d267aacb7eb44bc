/**
 * The cues the extractive model's cross-validated settings weigh, each on a few synthetic
 * sentences: earnings per share as the headline, a range of figures as an outlook, asides that
 * detail the results, and the settings a caller passes in.
 */
import { assert, describe, it } from "@effect/vitest"
import { ExtractiveModel } from "@filings/feed-summarizer"

const call = (lines: ReadonlyArray<string>) => ({
  source: "call",
  docType: "EARNINGS_CALL" as const,
  chunks: [{ id: "c0001", text: lines.join("\n\n") }]
})

const highlightsOf = (lines: ReadonlyArray<string>, options: ExtractiveModel.ExtractiveOptions = {}) =>
  ExtractiveModel.summarize(call(lines), options).highlights.map((highlight) => highlight.text)

const scoreOf = (text: string) => {
  const sentences = ExtractiveModel.sentencesOf([{ id: "c0001", text }])
  return ExtractiveModel.rankSentences(sentences)[0]?.score ?? 0
}

describe("the extractive model's scoring", () => {
  it("puts earnings per share before another amount per share", () => {
    const lines = [
      "The board declared a quarterly dividend of $0.42 per share, up 5% from last year.",
      "Adjusted earnings were $1.37 per diluted share, up 12% from last year."
    ]
    assert.deepStrictEqual(highlightsOf(lines, { maxHighlights: 1 }), [
      "Adjusted earnings were $1.37 per diluted share, up 12% from last year."
    ])
  })

  it("reads a range of figures as an outlook, and a move from one figure to another as no range", () => {
    const outlook = scoreOf("For the full year, revenue should reach $4.10 billion to $4.30 billion.")
    const move = scoreOf("For the full year, revenue went from $4.10 billion to $4.30 billion.")
    assert.isAbove(outlook, move)
    assert.isAbove(
      scoreOf("We now see net sales growing between 3% and 5% this year."),
      scoreOf("We now see net sales growing by 3% and more this year.")
    )
  })

  it("weighs an aside (a cost, a margin, an opinion) below the results it details", () => {
    const result = scoreOf("Net sales rose 8% to $2.40 billion in the quarter.")
    const cost = scoreOf("Net costs rose 8% to $2.40 billion in the quarter.")
    assert.isBelow(cost, result)
    assert.isBelow(scoreOf("I think net sales rose 8% to $2.40 billion in the quarter."), result)
  })

  it("takes settings from the caller, the others keeping their defaults", () => {
    const lines = [
      "Adjusted earnings were $1.37 per diluted share, up 12% from last year.",
      "Net sales were $2.4 billion, up 8%, and gross margin was 41.2%, up 90 basis points, on 6% more units."
    ]
    assert.deepStrictEqual(highlightsOf(lines, { maxHighlights: 1 }), [lines[0]])
    // Without the headline's weight and with more weight per figure, the sentence of figures wins.
    assert.deepStrictEqual(
      highlightsOf(lines, { maxHighlights: 1, scoring: { headlineWeight: 0, figureWeight: 4, maxFigures: 5 } }),
      [lines[1]]
    )
    assert.strictEqual(ExtractiveModel.DefaultScoring.headlineWeight, 10)
  })

  it("leaves out a sentence that mostly repeats one already chosen", () => {
    const lines = [
      "Adjusted earnings were $1.37 per diluted share, up 12% from last year.",
      "So adjusted earnings were $1.37 per diluted share, up 12% from last year, as said.",
      "Net sales rose 8% to $2.40 billion in the quarter."
    ]
    assert.deepStrictEqual(highlightsOf(lines, { maxHighlights: 2 }), [lines[0], lines[2]])
  })
})
