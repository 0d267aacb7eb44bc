// Where a text names a fiscal period ("the second quarter of fiscal 2025", "Q1 FY23", "4Q21",
// "fourth-quarter and full-year 2021", "fiscal 2023 results") and what the words around each
// mention say of it: that it is compared with ("up from ... in the third quarter last year"), looked
// forward to ("outlook for the third quarter", "fiscal 2026 guidance"), or reported.

export type Quarter = 1 | 2 | 3 | 4

/** A period named in a sentence: a quarter, a year, or both; `[start, end)` in the sentence. */
export interface PeriodMention {
  readonly quarter?: Quarter | undefined
  readonly fiscalYear?: number | undefined
  readonly start: number
  readonly end: number
}

const ordinals: Record<string, Quarter> = {
  first: 1,
  "1st": 1,
  second: 2,
  "2nd": 2,
  third: 3,
  "3rd": 3,
  fourth: 4,
  "4th": 4
}

const ordinal = String.raw`(first|second|third|fourth|1st|2nd|3rd|4th)`
/** `fiscal 2025`, `fiscal year 2023`, `FY23`, `FY 2022`, `fiscal '21`: the year in one group. */
const fiscalYear = String.raw`(?:fiscal[\s-]+year|fiscal|FY)\s*['’]?\s*((?:19|20)?\d{2})(?!\d)`
const fullYear = String.raw`((?:19|20)\d{2})(?![\d,.]\d)`
const quarterWord = String.raw`(?:fiscal[\s-]+)?${ordinal}[\s-]+(?:fiscal[\s-]+)?quarter`

const yearOf = (digits: string | undefined): number | undefined => {
  if (digits === undefined) return undefined
  const year = digits.length === 2 ? 2000 + Number(digits) : Number(digits)
  return year >= 1990 && year <= 2099 ? year : undefined
}

const quarterOf = (text: string | undefined): Quarter | undefined => {
  if (text === undefined) return undefined
  const digit = Number(text)
  return digit >= 1 && digit <= 4 ? digit as Quarter : ordinals[text.toLowerCase()]
}

interface Reading {
  readonly pattern: RegExp
  readonly read: (match: RegExpExecArray) => { quarter?: Quarter | undefined; fiscalYear?: number | undefined }
}

// Most specific first: a mention found by an earlier reading hides the shorter ones inside it.
const readings: ReadonlyArray<Reading> = [
  {
    // "three months and year ended December 31, 2015": the fourth quarter of a calendar fiscal year.
    pattern: new RegExp(
      String
        .raw`\b(?:three\s+months|fourth\s+quarter|quarter)\s+and\s+(?:full\s+|fiscal\s+)?year\s+ended\s+December\s+31\s*,?\s*${fullYear}`,
      "gi"
    ),
    read: (match) => ({ quarter: 4, fiscalYear: yearOf(match[1]) })
  },
  {
    // "fiscal 2025 second quarter", "fiscal year 2023 first quarter", "2021 third quarter".
    pattern: new RegExp(String.raw`(?:${fiscalYear}|\b${fullYear})[\s,-]+${quarterWord}`, "gi"),
    read: (match) => ({ quarter: quarterOf(match[3]), fiscalYear: yearOf(match[1] ?? match[2]) })
  },
  {
    // "second quarter of fiscal 2025", "third-quarter 2021", "fourth quarter and full year 2021",
    // "first quarter fiscal year 2023", "second fiscal quarter of 2025", "fourth quarter of '21".
    pattern: new RegExp(
      String
        .raw`\b${quarterWord}(?:\s+(?:and|&)\s+(?:the\s+)?(?:full|fiscal)[\s-]+year)?(?:\s+(?:of|for|in))?(?:\s+the)?\s+(?:${fiscalYear}|${fullYear}|['’](\d{2})(?!\d))`,
      "gi"
    ),
    read: (match) => ({ quarter: quarterOf(match[1]), fiscalYear: yearOf(match[2] ?? match[3] ?? match[4]) })
  },
  {
    // "Q1 FY 2022", "Q1 Fiscal Year 2023", "Q1 FY23", "Q1 2023", "Q3'21", "4Q21", "3Q 2021".
    pattern: new RegExp(
      String
        .raw`\b(?:Q([1-4])|([1-4])Q)(?:\s*(?:of\s+)?(?:${fiscalYear}|${fullYear})|\s*['’]\s*(\d{2})(?!\d)|(\d{2})(?![\d%]))`,
      "gi"
    ),
    read: (match) => ({
      quarter: quarterOf(match[1] ?? match[2]),
      fiscalYear: yearOf(match[3] ?? match[4] ?? match[5] ?? match[6])
    })
  },
  {
    // "FY23 Q1", "fiscal 2023 Q1", "2023 Q4".
    pattern: new RegExp(String.raw`(?:${fiscalYear}|\b${fullYear})\s+Q([1-4])\b`, "gi"),
    read: (match) => ({ quarter: quarterOf(match[3]), fiscalYear: yearOf(match[1] ?? match[2]) })
  },
  {
    // A year of results: "fiscal 2023 results", "full year 2024 financial results", "2024 Financial
    // Results", "results for the fiscal year ended December 31, 2024".
    pattern: new RegExp(
      String
        .raw`(?:${fiscalYear}|(?:full|fiscal)[\s-]+year\s+${fullYear}|\b${fullYear})\s+(?:(?:full[\s-]+year|annual|financial|operating|fourth[\s-]quarter\s+and\s+full[\s-]year)\s+)*results\b|\b(?:fiscal\s+|full\s+)?year\s+ended\s+December\s+31\s*,?\s*${fullYear}`,
      "gi"
    ),
    read: (match) => ({ fiscalYear: yearOf(match[1] ?? match[2] ?? match[3] ?? match[4]) })
  },
  // A quarter without its year: "third quarter", "Q3", "3Q".
  { pattern: new RegExp(String.raw`\b${quarterWord}\b`, "gi"), read: (match) => ({ quarter: quarterOf(match[1]) }) },
  {
    pattern: /\b(?:Q([1-4])|([1-4])Q)\b/g,
    read: (match) => ({ quarter: quarterOf(match[1] ?? match[2]) })
  }
]

/** The periods a sentence names, left to right, none inside another. */
export const periodMentions = (sentence: string): ReadonlyArray<PeriodMention> => {
  const found: Array<PeriodMention> = []
  for (const { pattern, read } of readings) {
    pattern.lastIndex = 0
    for (let match = pattern.exec(sentence); match !== null; match = pattern.exec(sentence)) {
      const start = match.index
      const end = start + match[0].length
      if (found.some((mention) => start < mention.end && end > mention.start)) continue
      const { fiscalYear, quarter } = read(match)
      if (quarter === undefined && fiscalYear === undefined) continue
      found.push({ quarter, fiscalYear, start, end })
    }
  }
  return found.sort((a, b) => a.start - b.start)
}

// --- what the words around a mention say of it ---------------------------------------------------

// Up to so many characters of the sentence, where a decimal point ("69.3%") ends nothing.
const within = String.raw`(?:[^.;]|(?<=\d)\.(?=\d)){0,100}$`
/** Words that point back to the mention: "compared to 69.3% in", "versus", "looking back to", "lapping". */
const comparisonWords = [
  String.raw`compar\w*`,
  "versus",
  "vs",
  String.raw`relative\s+to`,
  "against",
  "than",
  "since",
  String.raw`looking\s+back`,
  String.raw`back\s+(?:to|in)`,
  String.raw`recall\w*`,
  String.raw`lapp\w*`,
  String.raw`anniversar\w*`
]
const comparedBefore = new RegExp(String.raw`\b(?:${comparisonWords.join("|")})\b${within}`, "i")
/** "70% of third quarter 2019 ASMs", "80% of Q4 2019 levels": a share of an earlier period's level. */
const shareOfBefore = /\d\s*(?:%|percent)\s+of\s+(?:the\s+|our\s+)?$/i
const levelsAfter = /^\s*(?:levels?|run[\s-]rate)\b/i

/** Words of a change measured from an earlier level: "up 5% from", "growth over". */
const changeWords = [
  "up",
  "down",
  String.raw`increase\w*`,
  String.raw`decrease\w*`,
  "rose",
  "fell",
  "grew",
  "growth",
  "gains?",
  String.raw`improve\w*`,
  String.raw`declin\w*`,
  String.raw`chang\w*`,
  "higher",
  "lower",
  "better",
  "worse"
]
/** "increase in adjusted earnings per share from", "up from 80% previously reported for ... in", "from the". */
const changedFrom = new RegExp(
  [
    String.raw`\b(?:${changeWords.join("|")})\s+(?:\S+\s+){0,6}?(?:from|over)\b${within}`,
    String.raw`\bfrom\s+(?:[$€£]?\d|the\s+(?:prior|previous|preceding|same)\b|last\b|a\s+year\b)${within}`,
    String.raw`\bfrom\s+the\s+$`
  ].join("|"),
  "i"
)
/** "last year's second quarter", "the prior-year third quarter", "the year-ago quarter". */
const earlierBefore =
  /\b(?:last|prior|previous|year[\s-]ago|same)(?:[\s-]+(?:fiscal[\s-]+)?year['’]?s?)?[\s-]+(?:fiscal\s+)?$/i
/** "the third quarter last year", "the third quarter of last year", "the second quarter a year ago". */
const earlierAfter =
  /^\s*(?:of\s+)?(?:last|the\s+prior|the\s+previous|prior|previous)\s+(?:fiscal\s+)?year\b|^\s*,?\s*(?:a\s+|one\s+)?year[\s-]ago\b/i
/** "down 2% in the third quarter of 2019": a change measured against the mentioned period. */
const changeBefore =
  /\b(?:up|down|increased?|decreased?|grew|rose|fell|declined?)\s+(?:by\s+)?(?:approximately\s+|about\s+|nearly\s+|over\s+)?[$€£]?\d[\d.,]*\s*(?:%|percent|basis\s+points|bps|million|billion)?\s+(?:in|for)\s+(?:the\s+)?$/i

/** Words that look ahead: "outlook for the third quarter", "we currently estimate third quarter 2021". */
const forwardBefore =
  /\b(outlook|guidance|guide|guiding|expect\w*|forecast\w*|anticipat\w*|estimat\w*|projected|projecting|predict\w*|looking\s+(?:ahead|forward)|look\s+(?:ahead|forward)|going\s+into|heading\s+into|upcoming|next|plan|planned|planning|plans|target\w*|intend\w*|will|should|would|could|commenc\w*|begin\w*|start\w*)\b((?:[^.;]|(?<=\d)\.(?=\d)){0,70})$/i
/** "will" that announces what the call does now ("Colette will discuss our results for ..."). */
const presentWill =
  /^\s*(?:now\s+|then\s+|also\s+|first\s+)?(?:discuss|review|report|present|cover|talk|walk|go\s+over|provide|share|comment|summarize|recap|(?:begin|start)\s+with)\b/i
/** "I'll start with our first quarter", "Colette will discuss the quarter": the call now, not ahead. */
const isPresentTense = (word: string, rest: string): boolean =>
  (/^will$/i.test(word) && presentWill.test(rest)) || (/^(?:begin|start)/i.test(word) && /^\s*with\b/i.test(rest))

/** "late second quarter of 2023", "by mid-third quarter": a time within a quarter, said of plans. */
const partOfQuarter = /\b(?:late|early|mid|end\s+of\s+the|by\s+the)[\s-]+$/i

/** "fiscal 2026 guidance", "third quarter outlook". */
const forwardAfter =
  /^\s*(?:[\w-]+\s+)?(?:outlook|guidance|forecasts?|expectations?|targets?|estimates?|projections?|plans?)\b|^\s*(?:and\s+beyond|onwards?)\b/i

export type MentionRole = "compared" | "forward" | "stated"

/** Whether the sentence names the mentioned period as one it compares with, one ahead, or as such. */
export const mentionRole = (sentence: string, mention: PeriodMention): MentionRole => {
  const before = sentence.slice(Math.max(0, mention.start - 120), mention.start)
  const after = sentence.slice(mention.end, mention.end + 50)
  if (
    comparedBefore.test(before) || changedFrom.test(before) || earlierBefore.test(before) ||
    earlierAfter.test(after) || changeBefore.test(before) || shareOfBefore.test(before) || levelsAfter.test(after)
  ) return "compared"
  const forward = forwardBefore.exec(before)
  if (forward !== null && !isPresentTense(forward[1]!, forward[2] ?? "")) return "forward"
  if (partOfQuarter.test(before)) return "forward"
  if (forwardAfter.test(after)) return "forward"
  return "stated"
}

/** What makes a sentence one that reports: a call's welcome, a results headline, its figures. */
export const reportsResults =
  /\b(?:results?|reports?|reported|reporting|net\s+income|net\s+(?:sales|revenues?)|revenues?|earnings|eps|per\s+share|sales|profit|loss)\b/i

/** A sentence of the call or release about itself: the welcome, the results, the quarter's review. */
export const speaksOfItself =
  /\b(?:welcome|conference\s+call|earnings\s+call|call|results?|reports?|reported|reporting|announc\w*|discuss\w*|review\w*|recap|highlights?|performance|delivered|posted|earnings)\b/i
