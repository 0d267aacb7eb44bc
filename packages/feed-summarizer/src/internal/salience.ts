/**
 * How much a sentence carries the news of a financial document. Analysts read a results release or
 * an earnings call for earnings per share first, then the figures against a prior period, the
 * outlook (often a range of figures), deals, leadership moves, launches and regulatory steps; they
 * skip the safe-harbour language, the call's logistics and the pleasantries, and read the line-item
 * details (costs, margins, cash) and opinions after the results. The score adds up those signals;
 * it is a transparent rule set, so a reader can see why a sentence was chosen, and it runs offline,
 * the same way every time. The patterns are in `cues`.
 */
import { aside, changeCues, earnings, figureRange, measureCues, noise, perShare, unitFigure } from "./cues.js"
import { type Sentence, wordsOf } from "./sentences.js"

/**
 * Weight of a sentence speaking of what the document says it is about (its 8-K items). Not among
 * the tuned settings: earnings calls, the only labelled data, have no items.
 */
const focusWeight = 2

/** Weight of an amount per share that is not earnings (a dividend, book value): news, not the headline. */
const otherPerShareWeight = 4

/** A sentence with its salience: the higher the score, the more news it carries. */
export interface Scored {
  readonly sentence: Sentence
  /** Above 0 for a sentence worth a highlight. */
  readonly score: number
}

/**
 * The knobs of the score and of the choice among the scored sentences. They are few on purpose:
 * each is chosen by cross-validation on earnings calls (`bench/quality/summaries/crossValidation.ts`), and
 * the fewer there are, the less a choice can fit the calls it was made on.
 */
export interface ScoringSettings {
  /** Weight of the headline measure, earnings (or funds from operations) per share. */
  readonly headlineWeight: number
  /** Weight of each figure with a unit ($, %, million, per-share cents). */
  readonly figureWeight: number
  /** Figures counted at most: a sentence listing ten figures is a table read aloud. */
  readonly maxFigures: number
  /** Weight of each sign of a change against a prior period ("up", "compared with"). */
  readonly changeWeight: number
  /** How much less the last sentence weighs than the first: 0.1 means 10 %. */
  readonly positionDecay: number
  /** Words beyond which a sentence's score is divided in proportion to its length. */
  readonly lengthTarget: number
  /** Weight of a range of figures, the shape of an outlook ("$2.85 to $3.10"). */
  readonly rangeWeight: number
  /** Factor on the score of an aside: a cost, margin, cash or segment detail, or an opinion. */
  readonly asideFactor: number
  /** Word overlap (Jaccard) above which two sentences say the same thing and one is left out. */
  readonly repeatOverlap: number
}

/**
 * The settings the model uses when not told otherwise: those the coordinate search of
 * `bench/quality/summaries/crossValidation.ts` chooses on all 249 ECTSum validation calls, which are also,
 * setting by setting, the values most of its five folds chose on their own training calls.
 */
export const defaultScoring: ScoringSettings = {
  headlineWeight: 10,
  figureWeight: 2,
  maxFigures: 3,
  changeWeight: 1,
  positionDecay: 0,
  lengthTarget: 25,
  rangeWeight: 4,
  asideFactor: 0.8,
  repeatOverlap: 0.4
}

/**
 * Whether the sentence may be a highlight at all: a statement of a readable length that is not
 * boilerplate, a question, a heading or a table caption.
 */
export const isStatement = (sentence: Sentence): boolean => {
  const text = sentence.text
  const words = wordsOf(text).length
  if (words < 6 || words > 90) return false
  if (noise.some((pattern) => pattern.test(text))) return false
  // A question is the analyst's, not the company's news.
  const end = text.trimEnd()
  if (end.endsWith("?")) return false
  // A heading or a table caption is no statement: a statement ends as a sentence does, or runs long.
  return !(end.endsWith(":") || (!/[.!?]["”’)]?$/.test(end) && words < 16))
}

/**
 * The sentence's score; 0 or below means it is never a highlight. `focus` holds what the document
 * says it is about (the news its 8-K items report): sentences speaking of it weigh more.
 */
export const salience = (
  sentence: Sentence,
  total: number,
  focus: ReadonlyArray<RegExp> = [],
  settings: ScoringSettings = defaultScoring
): number => {
  if (!isStatement(sentence)) return 0
  const text = sentence.text
  const words = wordsOf(text).length

  let score = perShare.test(text) ? (earnings.test(text) ? settings.headlineWeight : otherPerShareWeight) : 0
  for (const cue of measureCues) if (cue.pattern.test(text)) score += cue.weight
  if (figureRange.test(text)) score += settings.rangeWeight
  for (const cue of focus) if (cue.test(text)) score += focusWeight
  const figures = text.match(unitFigure)?.length ?? 0
  score += Math.min(figures, settings.maxFigures) * settings.figureWeight
  if (score > 0) {
    for (const cue of changeCues) {
      if (cue.pattern.test(text)) score += cue.weight * settings.changeWeight
    }
  }
  // Without a measure or a figure there is no news to speak of.
  if (score === 0) return 0
  if (aside.test(text)) score *= settings.asideFactor
  // The news comes early in a release and in a call's prepared remarks.
  const position = total <= 1 ? 0 : sentence.index / (total - 1)
  score *= 1 + settings.positionDecay / 2 - settings.positionDecay * position
  // Prefer sentences about as long as a highlight: long ones bury their figure.
  if (words > settings.lengthTarget) score *= settings.lengthTarget / words
  return score
}

/** Word overlap of two sentences (Jaccard), to keep near-repeats out of one summary. */
export const overlap = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
  let shared = 0
  for (const word of a) if (b.has(word)) shared++
  const union = a.size + b.size - shared
  return union === 0 ? 0 : shared / union
}
