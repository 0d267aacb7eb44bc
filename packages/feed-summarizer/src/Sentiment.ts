/**
 * The tone of a document's news: positive, negative or neutral. Words are scored with AFINN-165 as
 * adapted to financial market news (`afinn-165-financialmarketnews`, MIT), with two corrections a
 * plain word list lacks: a negation ("not", "no", "never", "without", "n't") turns the sign of the
 * next words, and the direction words of financial reporting are read against what they move
 * (lower costs and a narrower loss are good news; lower revenue is not).
 *
 * @module
 */
import type { Feed } from "@filings/domain"
import { afinn165FinancialMarketNews } from "afinn-165-financialmarketnews"
import { wordsOf } from "./internal/sentences.js"

const negations = new Set(["not", "no", "never", "without", "neither", "nor", "cannot", "none", "nothing"])
/** How many words after a negation it reaches. */
const negationReach = 3

const rising = new Set([
  "increase",
  "increased",
  "increases",
  "grew",
  "growth",
  "rose",
  "higher",
  "up",
  "improved",
  "expanded",
  "raised",
  "record"
])
const falling = new Set([
  "decrease",
  "decreased",
  "decreases",
  "declined",
  "decline",
  "fell",
  "lower",
  "down",
  "reduced",
  "narrowed",
  "contracted",
  "cut",
  "lowered"
])
/** Measures where less is better. */
const costs = new Set([
  "cost",
  "costs",
  "expense",
  "expenses",
  "loss",
  "losses",
  "debt",
  "leverage",
  "churn",
  "impairment",
  "impairments",
  "charges"
])
/** Measures where more is better. */
const gains = new Set([
  "revenue",
  "revenues",
  "sales",
  "income",
  "earnings",
  "eps",
  "margin",
  "margins",
  "profit",
  "ebitda",
  "bookings",
  "backlog",
  "guidance",
  "outlook",
  "dividend",
  "cash"
])

/** How far around a direction word its measure is looked for. */
const measureWindow = 4

/** The summed score of `text`, and how many words it has. */
export const scoreText = (text: string): { readonly score: number; readonly words: number } => {
  const words = wordsOf(text).flatMap((word) => (word.endsWith("n't") ? [word.slice(0, -3), "not"] : [word]))
  let score = 0
  let negatedUntil = -1
  words.forEach((word, index) => {
    if (negations.has(word)) {
      negatedUntil = index + negationReach
      return
    }
    const sign = index <= negatedUntil ? -1 : 1
    const direction = rising.has(word) ? 1 : falling.has(word) ? -1 : 0
    if (direction !== 0) {
      const near = words.slice(Math.max(0, index - measureWindow), index + measureWindow + 1)
      if (near.some((other) => costs.has(other))) {
        score += sign * -direction * 2
        return
      }
      if (near.some((other) => gains.has(other))) {
        score += sign * direction * 2
        return
      }
    }
    const value = afinn165FinancialMarketNews[word]
    if (value !== undefined) score += sign * value
  })
  return { score, words: words.length }
}

/** A summed score this far from zero per ten words tips the tone. */
const threshold = 0.5

/** The tone of the given passages (a summary's highlights, or a whole document). */
export const sentimentOf = (passages: ReadonlyArray<string>): Feed.Sentiment => {
  let score = 0
  let words = 0
  for (const passage of passages) {
    const scored = scoreText(passage)
    score += scored.score
    words += scored.words
  }
  if (words === 0) return "neutral"
  const perTenWords = (score / words) * 10
  return perTenWords >= threshold ? "positive" : perTenWords <= -threshold ? "negative" : "neutral"
}
