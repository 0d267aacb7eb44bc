import { assert, describe, it } from "@effect/vitest"
import { Citations, ExtractiveModel } from "@filings/feed-summarizer"
import { figuresOf } from "../src/internal/figures.js"
import { plainText, sentencesOf, splitSentences } from "../src/internal/sentences.js"
import { resultsRelease } from "./fixtures.js"

describe("ExtractiveModel", () => {
  it("highlights the results and the outlook, each citing the chunk it comes from", () => {
    const summary = ExtractiveModel.summarize(resultsRelease)
    assert.strictEqual(summary.model, "extractive")
    const cited = summary.highlights.map((highlight) => [highlight.text, highlight.citations.map((c) => c.chunkId)])
    assert.deepStrictEqual(cited, [
      [
        "The company raises its full-year 2026 guidance and now expects revenue of $1.60 billion to $1.62 billion and diluted earnings per share of $5.10 to $5.20.",
        ["c0002"]
      ],
      // Earnings per share is the headline of results, so it comes before revenue.
      ["Diluted earnings per share of $1.42, compared with $0.97 a year ago.", ["c0001"]],
      ["Revenue of $412.5 million, up 18% compared with $349.6 million in the prior-year quarter.", ["c0001"]]
    ])
    for (const highlight of summary.highlights) {
      assert.strictEqual(highlight.citations[0]!.source, resultsRelease.source)
    }
    assert.deepStrictEqual(summary.categories, ["Earnings", "Guidance Update"])
    assert.strictEqual(summary.sentiment, "positive")
  })

  it("never highlights safe-harbour language, the call's logistics or a table", () => {
    const texts = ExtractiveModel.summarize(resultsRelease, { maxHighlights: 10 }).highlights.map((h) => h.text)
    assert.isFalse(texts.some((text) => /forward-looking|conference call|\|/.test(text)), texts.join("\n"))
  })

  it("gives the same summary every time, and passes its own citation check untouched", () => {
    const first = ExtractiveModel.summarize(resultsRelease)
    assert.deepStrictEqual(ExtractiveModel.summarize(resultsRelease), first)
    const checked = Citations.checkCitations(first, resultsRelease)
    assert.deepStrictEqual(checked.corrections, [])
    assert.deepStrictEqual(checked.summary, first)
  })

  it("an empty document gives no highlight, no category from text, neutral sentiment", () => {
    const summary = ExtractiveModel.summarize({ source: "x", docType: "NEWS", chunks: [] })
    assert.deepStrictEqual([summary.highlights, summary.categories, summary.sentiment], [[], [], "neutral"])
  })

  it("puts a news item's lead first, even without a figure, and ranks the rest as usual", () => {
    const news = {
      source: "news-0123456789abcdef",
      docType: "NEWS" as const,
      title: "Acme opens a plant in Ohio",
      chunks: [{
        id: "c0001",
        text: "# Acme opens a plant in Ohio\n\nAcme Corp. will open a plant in Columbus, Ohio, that adds 400 jobs. " +
          "The company did not name a builder. The plant will cost $120 million and start production in 2027."
      }]
    }
    assert.deepStrictEqual(ExtractiveModel.summarize(news).highlights.map((highlight) => highlight.text), [
      "Acme Corp. will open a plant in Columbus, Ohio, that adds 400 jobs.",
      "The plant will cost $120 million and start production in 2027."
    ])
    // The same text as a press release: no lead rule, only the sentence with a figure.
    assert.deepStrictEqual(
      ExtractiveModel.summarize({ ...news, docType: "PRESS_RELEASE" }).highlights.map((highlight) => highlight.text),
      ["The plant will cost $120 million and start production in 2027."]
    )
  })

  it("drops leading fillers from a highlight", () => {
    assert.strictEqual(
      ExtractiveModel.asHighlightText("So, as Mike just highlighted, revenue grew 12% to $3.1 billion."),
      "Revenue grew 12% to $3.1 billion."
    )
    assert.strictEqual(ExtractiveModel.asHighlightText("So, up 5%."), "So, up 5%.")
  })
})

describe("sentences and figures", () => {
  it("splits sentences without cutting decimals or abbreviations", () => {
    assert.deepStrictEqual(splitSentences("Acme Inc. earned $1.5 billion. Revenue rose 3.2% vs. last year. Done."), [
      "Acme Inc. earned $1.5 billion.",
      "Revenue rose 3.2% vs. last year.",
      "Done."
    ])
  })

  it("reads Markdown as prose: markup removed, tables and headings left out, list items apart", () => {
    assert.strictEqual(
      plainText("**Revenue** of [$4 million](https://x.example) and _more_"),
      "Revenue of $4 million and more"
    )
    // Escaped marks are the text as written; an image is no words of the prose.
    assert.strictEqual(plainText("(\\*\\*) Filed herewith. ![Logo](logo.png)"), "(**) Filed herewith.")
    const sentences = sentencesOf([{
      id: "c0001",
      text: "# Title\n\n| a | b |\n|---|---|\n\n- First item here\n- Second item"
    }])
    assert.deepStrictEqual(sentences.map((s) => s.text), ["First item here", "Second item"])
  })

  it("reads figures as written, thousands separators aside", () => {
    assert.deepStrictEqual(figuresOf("$1,234.5 million, up 7% in 2026; (3.20) per share"), [
      "1234.5",
      "7",
      "2026",
      "3.20"
    ])
  })
})
