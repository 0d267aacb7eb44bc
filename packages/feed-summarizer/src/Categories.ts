/**
 * The feed's categories of a document. An 8-K says what it reports through its items, and those
 * decide first (Item 2.02 is Earnings, Item 5.02 a Leadership Change); where an item covers several
 * kinds of news (a material agreement may be a merger, a loan or a supply contract) or says nothing
 * (Items 7.01 and 8.01), the text decides, read for the words that name each kind of news. A
 * category needs more than one passing mention in the text, so a results release that mentions a
 * past acquisition once is not filed under Mergers & Acquisitions.
 *
 * @module
 */
import type { DocType, Feed } from "@filings/domain"

/** 8-K items that decide a category by themselves. */
const categoryOfItem: Readonly<Record<string, Feed.Category>> = {
  "1.05": "Regulatory",
  "2.01": "Mergers & Acquisitions",
  "2.02": "Earnings",
  "2.03": "Financial",
  "2.04": "Financial",
  "2.05": "Financial",
  "2.06": "Financial",
  "3.01": "Regulatory",
  "3.02": "Financial",
  "3.03": "Financial",
  "4.01": "Financial",
  "4.02": "Financial",
  "5.01": "Leadership Changes",
  "5.02": "Leadership Changes",
  "5.03": "Regulatory"
}

/**
 * What the sentences of an 8-K speak of when they report an item: an 8-K about a departure is
 * summarised by the departure, not by the pay table that follows it.
 */
const focusOfItem: Readonly<Record<string, RegExp>> = {
  "1.01": /\b(?:agreement|acqui\w*|merger|purchase)\b/i,
  "2.01": /\b(?:acqui\w*|merger|completed|disposition|sale)\b/i,
  "2.02": /\b(?:results|revenues?|earnings|net (?:income|loss)|per (?:diluted )?share)\b/i,
  "2.03": /\b(?:notes|credit|loan|indebtedness|facility|borrow\w*)\b/i,
  "3.01": /\b(?:listing|delist\w*|nasdaq|nyse|deficiency)\b/i,
  "4.02": /\b(?:restate\w*|non-reliance|misstatements?|no longer be relied)\b/i,
  "5.02": /\b(?:appoint\w*|resign\w*|retire\w*|named|elected|depart\w*|succeed\w*|became|transition\w*)\b/i,
  "5.07": /\b(?:votes?|voted|elected|approved|stockholders|shareholders)\b/i
}

/** The focus of a document with these 8-K items, for the extractive model's scoring. */
export const focusOf = (items: ReadonlyArray<string>): ReadonlyArray<RegExp> =>
  items.flatMap((item) => {
    const focus = focusOfItem[item]
    return focus === undefined ? [] : [focus]
  })

/** Words naming each kind of news, and how many distinct matches make the text about it. */
const textCues: ReadonlyArray<readonly [Feed.Category, RegExp, number]> = [
  [
    "Earnings",
    /\b(?:earnings per (?:diluted )?share|diluted eps|net (?:income|loss)|(?:quarterly|annual|fourth[- ]quarter|first[- ]quarter|second[- ]quarter|third[- ]quarter) results|revenues? (?:of|was|were|increased|decreased|grew|rose|fell))\b/gi,
    2
  ],
  [
    "Guidance Update",
    // Guidance given or changed says so at once.
    /\b(?:(?:expects?|anticipates?|projects?) (?:full[- ]year|fiscal|revenue|earnings|eps|sales)|(?:raises?|reaffirms?|lowers?|updates?|narrows?|maintains?|initiates?|issues?) (?:its |our |the )?(?:full[- ]year |annual |fiscal(?: \d{4})? )?(?:[a-z]+ )?(?:guidance|outlook|forecast))\b/gi,
    1
  ],
  ["Guidance Update", /\b(?:guidance|outlook|forecast)\b/gi, 2],
  [
    "Mergers & Acquisitions",
    /\b(?:merger agreement|agreement and plan of merger|to acquire|acquisition of|will acquire|has acquired|completed (?:the|its) acquisition|business combination|tender offer|divestiture|to be acquired|definitive agreement to (?:acquire|sell|merge)|spin-?off|separation of|distribution of [\d.]+% of)\b/gi,
    2
  ],
  [
    "Leadership Changes",
    /\b(?:(?:appoint(?:ed|s|ment of)|named(?!\s+executive)|elected|promoted)\s+(?:[\w.’'-]+\s+){0,4}?(?:as\s+)?(?:the\s+|its\s+|our\s+)?(?:new\s+)?(?:chief|president|chair\w*|ceo|cfo|coo|director|officer|treasurer)|resign(?:s|ed)|will resign|retire(?:s|d)?\b(?!\s+plan)|retirement (?:from|as)|step(?:s|ped)? down|departure of)/gi,
    1
  ],
  [
    "Product Launches",
    /\b(?:launch(?:ed|es)?|introduc(?:ed|es)|unveil(?:ed|s)?|now available|general availability|new (?:product|platform|service)s?)\b/gi,
    2
  ],
  [
    "Regulatory",
    /\b(?:fda|food and drug administration|sec investigation|securities and exchange commission (?:investigation|inquiry)|department of justice|ftc|regulatory approval|marketing authorization|clearance|consent order|settlement with|subpoena|delisting|nasdaq (?:notice|deficiency)|listing rule|cybersecurity incident)\b/gi,
    1
  ],
  [
    "New Projects/Investments",
    /\b(?:new (?:facility|plant|factory|headquarters|data center)|capital (?:investment|project)|strategic (?:partnership|investment|collaboration)|joint venture|collaboration agreement|license agreement|(?:will|to) invest|investment of \$|expansion of)\b/gi,
    2
  ],
  [
    "Financial",
    /\b(?:dividends?(?! yield)|share repurchase|stock repurchase|buyback|credit (?:agreement|facility)|term loan|senior (?:secured )?notes|notes offering|offering of|private placement|public offering|convertible|refinanc(?:e|ing)|debt|impairment|restatement|going concern|underwriting agreement|underwriters|notes due \d{4}|aggregate principal amount|indenture)\b/gi,
    2
  ]
]

const distinctMatches = (text: string, pattern: RegExp): number => {
  const matches = Array.from(text.matchAll(pattern), (match) => match[0].toLowerCase())
  if (matches.length === 0) return 0
  // Repeated mentions of one phrase count, but less than different phrases.
  return new Set(matches).size + Math.floor((matches.length - 1) / 3)
}

/** What categories are told from: the document type, an 8-K's items, the text and the headline. */
export interface CategoryInput {
  readonly docType: DocType.FeedDocType
  readonly items?: ReadonlyArray<string> | undefined
  /** The document's plain text, or its most telling part. */
  readonly text: string
  /**
   * The headline its author wrote (a news item's, a release's): one cue there is enough, since a
   * headline names what the news is.
   */
  readonly headline?: string | undefined
}

/** The categories in the order of `Feed.Categories`, most telling first where items decide. */
export const categorize = (input: CategoryInput): ReadonlyArray<Feed.Category> => {
  const found = new Set<Feed.Category>()
  for (const item of input.items ?? []) {
    const category = categoryOfItem[item]
    if (category !== undefined) found.add(category)
  }
  // Results are what a periodic report, a call and a release of results are about.
  if (input.docType === "10-K" || input.docType === "10-Q" || input.docType === "EARNINGS_CALL") found.add("Earnings")
  for (const [category, pattern, needed] of textCues) {
    const inHeadline = input.headline !== undefined && distinctMatches(input.headline, pattern) > 0
    if (inHeadline || distinctMatches(input.text, pattern) >= needed) found.add(category)
  }
  // Item 1.01 alone is a material agreement: a category only when the text says what kind.
  if (found.size === 0 && (input.items ?? []).includes("1.01")) found.add("Financial")
  return [...found]
}
