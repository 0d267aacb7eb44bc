/**
 * The words and shapes the salience score looks for: the measures results are reported in, the
 * signs of a change against a prior period, the boilerplate a reader skips, and the asides (line
 * items, commentary) that hold figures without being the news. Patterns only; how much each counts
 * is `salience`'s business.
 */

export interface Cue {
  readonly pattern: RegExp
  readonly weight: number
}

/** An amount per share: earnings, funds from operations, but also a dividend or book value. */
export const perShare = /\b(?:earnings|income|loss) per (?:diluted |basic )?share\b|\beps\b|\bper (?:diluted )?share\b/i

/**
 * What makes an amount per share the headline of results: earnings (or, for a REIT, funds from
 * operations), not a dividend, a buyback price or book value.
 */
export const earnings = /\b(?:earnings|eps|ffo|funds from operations|income|profit|loss)\b/i

/** The other measures results are reported in, and the outlook. */
export const measureCues: ReadonlyArray<Cue> = [
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
export const changeCues: ReadonlyArray<Cue> = [
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
export const noise: ReadonlyArray<RegExp> = [
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
export const unitFigure =
  /[$€£]\s?\d|\d(?:\.\d+)?\s?(?:%|percent|basis points|bps)\b|\d\s?(?:million|billion|thousand)\b|\bcents?\b/gi

/**
 * A range of figures, the shape of an outlook: "$2.85 to $3.10", "between 3% and 5%", "4%-6%". Not a
 * change: "from $561 million to $404 million" states where a figure went.
 */
export const figureRange =
  /(?<!\bfrom\s)(?:[$€£]\s?\d[\d,]*(?:\.\d+)?\s?(?:million|billion)?\s?(?:to|-|–)\s?[$€£]?\s?\d|\b\d+(?:\.\d+)?\s?(?:%|percent)?\s?(?:to|-|–)\s?\d+(?:\.\d+)?\s?(?:%|percent))|\bbetween\s[$€£]?\s?\d[\d,.]*\s?(?:%|percent|million|billion)?\s?and\s[$€£]?\s?\d/i

/**
 * Asides: figures that detail the results rather than state them (costs, margins, cash and debt, a
 * segment, a sequential comparison) and opinions ("I think", "we believe"). A reader of the feed
 * wants the results and the outlook first; `asideFactor` sets how much an aside counts.
 */
export const aside =
  /\b(?:expenses?|costs?|margins?|cash|debt|leverage|liquidity|sequential(?:ly)?|segments?|tax rate|interest expense)\b|\bI\b|\bwe (?:believe|think|feel)\b/
