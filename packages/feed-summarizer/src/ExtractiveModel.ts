/**
 * The default summary model: offline, deterministic, and incapable of inventing anything. Its
 * highlights are the document's own sentences that carry the most news (see `internal/salience`),
 * each citing the chunk it was taken from, with a leading filler word or two removed; near-repeats
 * are left out. A news item's first statement, its lead, is always its first highlight. Categories
 * come from the 8-K items and the most telling passages, sentiment from the highlights. The few
 * weights of the score (`ScoringSettings`) default to values chosen by cross-validation on earnings
 * calls (`bench/quality/summaries/crossValidation.ts`).
 *
 * @module
 */
import { Feed } from "@filings/domain"
import { Effect } from "effect"
import { categorize, focusOf } from "./Categories.js"
import {
  defaultScoring,
  isStatement,
  overlap,
  salience,
  type Scored,
  type ScoringSettings
} from "./internal/salience.js"
import { type Sentence, sentencesOf, wordsOf } from "./internal/sentences.js"
import { sentimentOf } from "./Sentiment.js"
import type { Summary, SummaryInput } from "./Summary.js"

/** A document's sentence, as `rankSentences` reads it. */
export type { Sentence } from "./internal/sentences.js"

/** A sentence with its score, as `rankSentences` ranks it. */
export type { Scored } from "./internal/salience.js"

/** The tunable settings of the score and of the choice of highlights. */
export type { ScoringSettings } from "./internal/salience.js"

/** The settings used when `ExtractiveOptions.scoring` leaves one out, chosen by cross-validation. */
export const DefaultScoring: ScoringSettings = defaultScoring

/**
 * The sentences of chunks as the extractive model reads them, in order: prose only (tables and
 * headings left out), Markdown removed, long sentences offered as their clauses too, each with the
 * chunk it came from.
 */
export { sentencesOf } from "./internal/sentences.js"

/** A chunk as `sentencesOf` reads it. */
export type { ChunkText } from "./internal/sentences.js"

/** The name the extractive model writes in `Summary.model`. */
export const ModelName = "extractive"

/** How the extractive model summarises. */
export interface ExtractiveOptions {
  /** The most highlights an item gets. */
  readonly maxHighlights?: number | undefined
  /** Settings of the score to use instead of `DefaultScoring`; for tuning and benchmarks. */
  readonly scoring?: Partial<ScoringSettings> | undefined
}

/** Highlights an item gets when `maxHighlights` is not given. */
export const DefaultMaxHighlights = 3

/** Passages read for categories: the title and this many of the most telling sentences. */
const categoryPassages = 20

/** Words up to which a document is read whole for its categories. */
const shortDocumentWords = 3_000

// Openings that carry nothing: "So,", "And", "As you can see,", "I'm pleased to report that".
const filler =
  /^(?:(?:so|and|but|now|well|also|again|finally|overall|additionally|importantly|as you (?:can )?see|as (?:i|we) (?:just )?(?:mentioned|said|noted)(?: earlier)?|as (?:previously )?mentioned|as \w+ (?:just )?(?:highlighted|mentioned|said|noted|discussed)|today|(?:i'?m|i am|we'?re|we are) (?:very )?(?:pleased|happy|proud|excited) to (?:report|announce|share) (?:that )?)[,:]?\s+)+/i

// Where the explanation of a figure begins: a reader of the feed wants the figure, the call gives the why.
const explanation =
  /,\s+(?:(?:which|that) (?:was|were|is|are) )?(?:primarily |mainly |largely |partially |partly )?(?:driven|due|reflecting|led|as a result|thanks|offset|attributable|resulting|benefiting|helped)\b/i

/** Drops a trailing explanation that states no figure, when enough of the sentence remains. */
const withoutExplanation = (sentence: string): string => {
  const match = explanation.exec(sentence)
  if (match === null) return sentence
  const kept = sentence.slice(0, match.index)
  const dropped = sentence.slice(match.index)
  if (/\d/.test(dropped) || wordsOf(kept).length < 8) return sentence
  return `${kept}.`
}

/** The sentence as a highlight: fillers removed from its start, its first letter capitalised. */
export const asHighlightText = (sentence: string): string => {
  const trimmed = withoutExplanation(sentence.replace(filler, ""))
  if (trimmed.length < 20) return sentence
  return trimmed.charAt(0).toUpperCase() + trimmed.slice(1)
}

/** The sentences worth a highlight, best first; ties go to the earlier one, so the order is fixed. */
export const rankSentences = (
  sentences: ReadonlyArray<Sentence>,
  focus: ReadonlyArray<RegExp> = [],
  settings: ScoringSettings = DefaultScoring
): ReadonlyArray<Scored> =>
  sentences
    .map((sentence) => ({ sentence, score: salience(sentence, sentences.length, focus, settings) }))
    .filter((scored) => scored.score > 0)
    .sort((a, b) => b.score - a.score || a.sentence.index - b.sentence.index)

/**
 * A news item's ranking with its lead first: news is written lead first, so its first statement
 * says what happened even when it holds no figure ("Acme will open a plant in Ohio").
 */
const leadFirst = (sentences: ReadonlyArray<Sentence>, ranked: ReadonlyArray<Scored>): ReadonlyArray<Scored> => {
  const lead = sentences.find(isStatement)
  if (lead === undefined) return ranked
  const top = ranked[0]?.score ?? 1
  return [{ sentence: lead, score: top + 1 }, ...ranked.filter((scored) => scored.sentence !== lead)]
}

/** The sentences to highlight: the best ranked, none repeating another, in rank order. */
export const selectSentences = (
  ranked: ReadonlyArray<Scored>,
  max: number,
  settings: Pick<ScoringSettings, "repeatOverlap"> = DefaultScoring
): ReadonlyArray<Scored> => {
  const chosen: Array<Scored & { readonly words: ReadonlySet<string> }> = []
  for (const candidate of ranked) {
    if (chosen.length >= max) break
    const words = new Set(wordsOf(candidate.sentence.text))
    if (chosen.some((other) => overlap(other.words, words) > settings.repeatOverlap)) continue
    chosen.push({ ...candidate, words })
  }
  return chosen
}

/** Types whose title is their author's headline; the others' titles are made of the form and period. */
const hasAuthorsHeadline = (docType: SummaryInput["docType"]): boolean =>
  docType === "NEWS" || docType === "PRESS_RELEASE" || docType === "PRESENTATION"

/** Summarises without a model: the same input always gives the same summary. */
export const summarize = (input: SummaryInput, options: ExtractiveOptions = {}): Summary => {
  const sentences = sentencesOf(input.chunks)
  const max = options.maxHighlights ?? DefaultMaxHighlights
  const settings = { ...DefaultScoring, ...options.scoring }
  const byNews = rankSentences(sentences, focusOf(input.items ?? []), settings)
  const ranked = input.docType === "NEWS" ? leadFirst(sentences, byNews) : byNews
  const chosen = selectSentences(ranked, max, settings)
  const highlights = chosen.map(({ sentence }) =>
    Feed.Highlight.make({
      text: asHighlightText(sentence.text),
      citations: [Feed.Citation.make({ source: input.source, chunkId: sentence.chunkId })]
    })
  )
  const telling = selectSentences(ranked, categoryPassages, settings).map(({ sentence }) => sentence.text)
  // A short document is read whole for its categories; a long one (an annual report mentions every
  // kind of news somewhere) by its most telling passages.
  const whole = sentences.reduce((words, sentence) => words + wordsOf(sentence.text).length, 0) <= shortDocumentWords
  return {
    highlights,
    categories: categorize({
      docType: input.docType,
      items: input.items,
      text: [input.title ?? "", ...(whole ? sentences.map((sentence) => sentence.text) : telling)].join("\n"),
      headline: hasAuthorsHeadline(input.docType) ? input.title : undefined
    }),
    sentiment: sentimentOf(highlights.length > 0 ? highlights.map((highlight) => highlight.text) : telling),
    model: ModelName
  }
}

/** `summarize` as an Effect, the shape of every summary model. */
export const summarizeEffect = (input: SummaryInput, options: ExtractiveOptions = {}) =>
  Effect.sync(() => summarize(input, options))
