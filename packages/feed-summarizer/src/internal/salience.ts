/**
 * How much a sentence carries the news of a financial document. Analysts read a results release or
 * an earnings call for the figures against a prior period, the outlook, deals, leadership moves,
 * launches and regulatory steps; they skip the safe-harbour language, the call's logistics and the
 * pleasantries. The score adds up those signals; it is a transparent rule set, so a reader can see
 * why a sentence was chosen, and it runs offline, the same way every time.
 */
import { type Sentence, wordsOf } from "./sentences.js"

interface Cue {
  readonly pattern: RegExp
  readonly weight: number
}

/** What the news is made of: the measures results are reported in, and the outlook. */
const measureCues: ReadonlyArray<Cue> = [
  {
    pattern: /\b(?:earnings|income|loss) per (?:diluted |basic )?share\b|\beps\b|\bper (?:diluted )?share\b/i,
    weight: 4
  },
  { pattern: /\b(?:net )?(?:revenues?|sales)\b/i, weight: 2 },
  { pattern: /\bnet (?:income|loss|earnings)\b|\boperating (?:income|loss|margin)\b/i, weight: 2 },
  {
    pattern: /\b(?:adjusted )?ebitda\b|\bgross margin\b|\bfree cash flow\b|\bcash flow from operations\b/i,
    weight: 1.5
  },
  { pattern: /\b(?:guidance|outlook|forecast)\b/i, weight: 2.5 },
  { pattern: /\b(?:expects?|anticipates?|projects?)\b.*\b(?:fiscal|full[- ]year|quarter|20\d\d)\b/i, weight: 2.5 },
  {
    pattern:
      /\b(?:raise[sd]?|reaffirm(?:s|ed)?|maintain(?:s|ed)?|lower(?:s|ed)?|narrow(?:s|ed)?|updat(?:es|ed))\b.*\b(?:guidance|outlook|forecast)\b/i,
    weight: 1.5
  },
  { pattern: /\bdividends?\b|\b(?:share )?repurchases?\b|\bbuybacks?\b/i, weight: 1.5 },
  { pattern: /\b(?:acqui(?:re[sd]?|sition)|merger|merge|divest(?:iture|ed|s)?)\b/i, weight: 2 },
  {
    pattern: /\b(?:appoint(?:s|ed|ment)?|resign(?:s|ed|ation)?|retire(?:s|d|ment)?|named|succeed(?:s|ed)?)\b/i,
    weight: 1.5
  },
  { pattern: /\b(?:launch(?:es|ed)?|introduc(?:es|ed)|unveil(?:s|ed)?)\b/i, weight: 1.5 },
  { pattern: /\b(?:fda|approval|clearance|settlement|investigation|subpoena)\b/i, weight: 1.5 },
  { pattern: /\b(?:quarter|q[1-4]|fiscal|full[- ]year|year[- ]over[- ]year)\b/i, weight: 1 }
]

/** A change against a prior period: what turns a number into news. */
const changeCues: ReadonlyArray<Cue> = [
  {
    pattern:
      /\b(?:increase[sd]?|decrease[sd]?|grew|grow(?:s|th)?|rose|fell|declin(?:e[sd]?|ing)|up|down|improv(?:e[sd]?|ement))\b/i,
    weight: 1
  },
  {
    pattern: /\b(?:compared (?:to|with)|versus|vs\.?|from|prior[- ]year|last year|a year ago|year[- ]over[- ]year)\b/i,
    weight: 1
  },
  { pattern: /\brecord\b/i, weight: 0.5 }
]

/** Sentences a reader skips, whatever figures they hold. */
const noise: ReadonlyArray<RegExp> = [
  /forward[- ]looking statements?|safe harbor|risks? and uncertainties|actual results (?:may|could) differ/i,
  /\b(?:conference call|webcast|replay|dial[- ]in|operator|question[- ]and[- ]answer|q&a)\b/i,
  /\b(?:thank you|thanks|good (?:morning|afternoon|evening)|welcome (?:to|everyone)|joining us)\b/i,
  /\breconciliation\b|\bnon-gaap (?:financial )?measures? (?:is|are) (?:included|provided|available)\b/i,
  /\b(?:press release|our website|investor relations|sec filings?)\b/i,
  /\b(?:pursuant to|incorporated (?:herein )?by reference|hereby|hereto|the registrant)\b/i,
  // A filing's cover page.
  /securities exchange act of 1934|date of (?:report|earliest event)|telephone number|former (?:name|address)|commission file number|irs employer|jurisdiction of incorporation|check the appropriate box|emerging growth company|name of each exchange|trading symbol/i,
  // How non-GAAP measures are defined, not what they came to.
  /\b(?:to provide a framework|we (?:believe|use) (?:that )?(?:these |this |the )?(?:non-gaap|adjusted)|(?:is|are) (?:calculated|defined|computed)|we define|in accordance with gaap, we)\b/i,
  /\bnon-gaap\b.*\b(?:facilitat\w*|useful|meaningful|supplement\w*|comparab\w*)\b|\bexcluded from (?:our )?non-gaap\b|\bnon-gaap tax rate\b|\bwe use (?:these|this|such) (?:non-gaap )?(?:measures?|metrics?)\b|\bwe exclude\b/i,
  // A heading that ends like a sentence: "Item 5.02 Departure of Directors ...".
  /^item\s*[-–—:]?\s*\d/i
]

// A figure with a unit: money, a percentage, a per-share amount, or a scale word.
const unitFigure =
  /[$€£]\s?\d|\d(?:\.\d+)?\s?(?:%|percent|basis points|bps)\b|\d\s?(?:million|billion|thousand)\b|\bcents?\b/gi

/** A sentence with its salience: the higher the score, the more news it carries. */
export interface Scored {
  readonly sentence: Sentence
  /** Above 0 for a sentence worth a highlight. */
  readonly score: number
}

/**
 * The sentence's score; 0 or below means it is never a highlight. `focus` holds what the document
 * says it is about (the news its 8-K items report): sentences speaking of it weigh more.
 */
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

export const salience = (sentence: Sentence, total: number, focus: ReadonlyArray<RegExp> = []): number => {
  if (!isStatement(sentence)) return 0
  const text = sentence.text
  const words = wordsOf(text).length

  let score = 0
  for (const cue of measureCues) if (cue.pattern.test(text)) score += cue.weight
  for (const cue of focus) if (cue.test(text)) score += 2
  const figures = text.match(unitFigure)?.length ?? 0
  score += Math.min(figures, 3) * 1.5
  if (score > 0) { for (const cue of changeCues) if (cue.pattern.test(text)) score += cue.weight }
  // Without a measure or a figure there is no news to speak of.
  if (score === 0) return 0
  // The news comes early in a release and in a call's prepared remarks.
  const position = total <= 1 ? 0 : sentence.index / (total - 1)
  score *= 1.05 - 0.1 * position
  // Prefer sentences about as long as a highlight: long ones bury their figure.
  if (words > 25) score *= 25 / words
  return score
}

/** Word overlap of two sentences (Jaccard), to keep near-repeats out of one summary. */
export const overlap = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
  let shared = 0
  for (const word of a) if (b.has(word)) shared++
  const union = a.size + b.size - shared
  return union === 0 ? 0 : shared / union
}
