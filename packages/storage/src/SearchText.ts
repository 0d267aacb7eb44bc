/**
 * How search reads text: the one analyzer every `SearchIndex` adapter indexes passages with and
 * reads queries with, so a passage is found by the same words in memory, on PGlite and on
 * PostgreSQL.
 *
 * Filings are full of figures and codes that a general-purpose analyzer breaks apart, so:
 * - a figure is one term, without its grouping commas or currency sign: `$1,577` and `(1,577)` are
 *   `1577`, `3.5%` is `3.5`;
 * - a hyphenated word is its parts and also the parts joined (`10-K` is `10`, `k` and `10k`, so
 *   `10-K`, `10K` and `"10 K"` all find it; `non-GAAP` finds `non GAAP`);
 * - words are lower-cased and stemmed (Porter), and common English words are left out but still
 *   counted, so a phrase with them in it (`"cost of sales"`) keeps its distances;
 * - `R&D`, `PP&E` and `S&P` are words, not letters;
 * - a query word also finds its derived forms whose stems differ (`acquired` finds `acquisition`,
 *   `reduce` finds `reduction`), by a few suffix alternations of English (see `relatedStems`);
 * - a query's words of a `FinancialTerms` group (`capex`, `cost of sales`) also find the group's
 *   other phrases, and the words of how a question is asked (`how much`, `report`, `fiscal`,
 *   `quarter`) are left out of a query that has others (see `parseQuery`).
 *
 * @module
 */
import { Data, Either } from "effect"
import { stemmer } from "stemmer"
import { synonymGroups } from "./FinancialTerms.js"

/** A term of a text at its word position (0-based), with where it lies in the text. */
export interface Token {
  readonly term: string
  readonly position: number
  /** Offset of the token's first character in the text. */
  readonly start: number
  /** Offset after its last character. */
  readonly end: number
}

// Words common enough to say nothing of a passage, and the question words of an analyst's query.
const stopWords = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below between " +
    "both but by can could did do does doing down during each few for from further had has have having he her " +
    "here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not " +
    "of off on once only or other our ours ourselves out over own same she should so some such than that the " +
    "their theirs them themselves then there these they this those through to too under until up very was we " +
    "were what when where which while who whom why will with would you your yours yourself yourselves"
  ).split(" ")
)

/** Is this (lower-case) word one search leaves out? */
export const isStopWord = (word: string): boolean => stopWords.has(word)

// A figure with grouping commas or a decimal part, or a word (letters and digits: `2018`, `1a`;
// joined by `&` as in `R&D`, `PP&E`) with its hyphenated parts.
const tokenPattern =
  /\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+|[\p{L}\p{N}]+(?:&[\p{L}\p{N}]+)*(?:['’][\p{L}]+)?(?:-[\p{L}\p{N}]+(?:&[\p{L}\p{N}]+)*)*/gu
// Link targets and images in Markdown: their addresses are not the passage's words.
const linkTarget = /\]\([^)\s]*\)/g

const normalizeUncached = (word: string): string => {
  const lower = word.toLowerCase().replace(/['’]s$/u, "").replace(/['’]/gu, "")
  // Stemmed only when it is a word of letters: codes like `1a` or `10k` stay as they are.
  return /^\p{L}+$/u.test(lower) ? stemmer(lower) : lower
}

// A filing repeats its words: each word's term is worked out once (Porter's stemmer is most of
// the cost of indexing a passage). The cache is emptied when full, so it never grows unbounded.
// Only short words are kept: a longer one may be a slice of the passage's text, and a key must
// not hold a whole document in memory (V8 copies substrings shorter than 13 characters).
const cachedTerms = new Map<string, string>()
const cachedTermsLimit = 50_000
const cachedWordLength = 13

const normalizeWord = (word: string): string => {
  if (word.length >= cachedWordLength) return normalizeUncached(word)
  let term = cachedTerms.get(word)
  if (term === undefined) {
    if (cachedTerms.size >= cachedTermsLimit) cachedTerms.clear()
    term = normalizeUncached(word)
    cachedTerms.set(word, term)
  }
  return term
}

const normalizeFigure = (figure: string): string => {
  const plain = figure.replace(/,/g, "")
  // `1,577.0` and `1,577` are the same figure; `2018` stays `2018`.
  return plain.includes(".") ? plain.replace(/\.?0+$/, "") || "0" : plain
}

/**
 * The terms of a text, in order, with their positions. Positions count every word, left-out
 * words included, so distances between terms are the text's own.
 */
export const tokens = (text: string): Array<Token> => {
  const out: Array<Token> = []
  const plain = text.replace(linkTarget, (match) => "]" + " ".repeat(match.length - 1))
  let position = 0
  for (const match of plain.matchAll(tokenPattern)) {
    const raw = match[0]
    const start = match.index
    if (/^\d/.test(raw) && !/[\p{L}-]/u.test(raw)) {
      // A figure; a trailing comma is punctuation, not part of it.
      const figure = raw.replace(/,+$/, "")
      out.push({ term: normalizeFigure(figure), position, start, end: start + figure.length })
      position++
      continue
    }
    const parts = raw.split("-")
    if (parts.length > 1) {
      const joined = normalizeWord(parts.join(""))
      out.push({ term: joined, position, start, end: start + raw.length })
      let offset = start
      for (const part of parts) {
        const term = normalizeWord(part)
        if (!isStopWord(part.toLowerCase()) && term !== joined) {
          out.push({ term, position, start: offset, end: offset + part.length })
        }
        offset += part.length + 1
        position++
      }
      continue
    }
    if (!isStopWord(raw.toLowerCase())) {
      out.push({ term: normalizeWord(raw), position, start, end: start + raw.length })
    }
    position++
  }
  return out
}

// Suffix alternations of English derivation that Porter's stems keep apart: acquire/acquisition,
// reduce/reduction, expand/expansion, decide/decision, conclude/conclusion, permit/permission,
// describe/description, assume/assumption, resolve/resolution, receive/reception, grow/growth.
const alternations: ReadonlyArray<readonly [string, string]> = [
  ["ir", "isit"],
  ["olv", "olut"],
  ["eiv", "ept"],
  ["um", "umpt"],
  ["uc", "uct"],
  ["and", "ans"],
  ["end", "ens"],
  ["ib", "ipt"],
  ["ow", "owth"],
  ["id", "is"],
  ["ud", "us"],
  ["it", "iss"]
]

/**
 * The stems of a query word's derived forms that its own stem does not reach, by the suffix
 * alternations above; none for short stems, figures and codes.
 */
export const relatedStems = (stem: string): Array<string> => {
  if (stem.length < 4 || !/^\p{L}+$/u.test(stem)) return []
  const related: Array<string> = []
  // The first alternation that fits, longest endings first, so `acquisit` is only `acquir`.
  for (const [one, other] of alternations) {
    if (stem.endsWith(other)) related.push(stem.slice(0, -other.length) + one)
    else if (stem.endsWith(one)) related.push(stem.slice(0, -one.length) + other)
    if (related.length > 0) break
  }
  return related.filter((candidate) => candidate.length >= 4)
}

/** What a passage is found by besides its own words: its document's and section's names. */
export interface PassageContext {
  readonly ticker: string
  readonly companyName: string
  readonly docType: string
  readonly section?: string | undefined
}

// Context terms come after the passage's words, far enough that no phrase spans the two.
const contextGap = 8

/**
 * The terms a passage is indexed by: its text's, then its ticker, company name, form and section
 * title, so `AAPL capital expenditure`, `10-K risk factors` or `Item 1A` find it.
 */
export const passageTokens = (context: PassageContext, text: string): Array<Token> => {
  const own = tokens(text)
  const last = own[own.length - 1]
  const base = last === undefined ? 0 : last.position + contextGap
  const extra = tokens([context.ticker, context.companyName, context.docType, context.section ?? ""].join(" \n "))
  return [...own, ...extra.map((token) => ({ ...token, position: token.position + base, start: -1, end: -1 }))]
}

/** The highest word position an index keeps; later words are counted at it (PostgreSQL's limit). */
export const maxPosition = 16_383
/** At most this many positions of one term are kept in a passage (PostgreSQL's limit). */
export const maxPositionsPerTerm = 256
/** Longer terms (a run of letters without a break, as an encoded image) are not indexed. */
export const maxTermLength = 100

/**
 * Each term of a passage with its positions, ascending and distinct, within the limits every
 * adapter keeps (`maxPosition`, `maxPositionsPerTerm`, `maxTermLength`), so that a term's frequency
 * is the same in every index.
 */
export const termPositions = (found: ReadonlyArray<Token>): Map<string, Array<number>> => {
  const positions = new Map<string, Array<number>>()
  for (const token of found) {
    if (token.term.length > maxTermLength) continue
    const position = Math.min(token.position, maxPosition)
    const list = positions.get(token.term)
    if (list === undefined) positions.set(token.term, [position])
    else if (list.length < maxPositionsPerTerm && list[list.length - 1] !== position) list.push(position)
  }
  return positions
}

/** Terms in order with the distance of each from the first: a phrase, or a single term (`[t]`). */
export interface Phrase {
  readonly terms: ReadonlyArray<{ readonly term: string; readonly offset: number }>
  /**
   * What each of its terms' scores is multiplied by: 1, except for a synonym the query did not
   * write, which counts as much as the words written however many words it has.
   */
  readonly weight?: number | undefined
}

/**
 * One thing a query asks for: any of its alternatives (a word and its derived forms, the words on
 * either side of `OR`, or a quoted phrase). A passage scores for a concept by its best alternative.
 */
export interface Concept {
  readonly alternatives: ReadonlyArray<Phrase>
  /** A quoted phrase: a passage must hold it. */
  readonly required: boolean
  /** Where the concept's first word stands in the query, common words counted. */
  readonly position: number
}

/** A query read: what it looks for, in the order written, and what a passage must not hold. */
export interface ParsedQuery {
  readonly concepts: ReadonlyArray<Concept>
  readonly excluded: ReadonlyArray<Phrase>
}

/** The synonym groups as phrases, read once. */
let synonymPhrases: ReadonlyArray<ReadonlyArray<Phrase>> | undefined
const synonyms = (): ReadonlyArray<ReadonlyArray<Phrase>> =>
  synonymPhrases ??= synonymGroups.map((group) =>
    group.map((text) => phraseOf(text)).filter((phrase) => phrase !== undefined)
  )

const termsKey = (phrase: Phrase): string => phrase.terms.map(({ term }) => term).join(" ")

/**
 * Replaces the runs of written words that are a phrase of a synonym group (`capex`, `cost of
 * sales`) by one concept whose alternatives are the words as written and every phrase of the
 * groups they are in, each weighed to count as much as the words written.
 */
const withSynonyms = (
  concepts: Array<{ alternatives: Array<Phrase>; required: boolean; position: number }>
): Array<{ alternatives: Array<Phrase>; required: boolean; position: number }> => {
  const groups = synonyms()
  const out: typeof concepts = []
  for (let index = 0; index < concepts.length; index++) {
    const start = concepts[index]!
    let matched: { end: number; written: Phrase; groups: ReadonlyArray<ReadonlyArray<Phrase>> } | undefined
    let written: Array<{ term: string; offset: number }> = []
    for (let end = index; end < concepts.length && end < index + 6; end++) {
      const concept = concepts[end]!
      if (concept.required) break
      const base = concept.position - start.position
      written = [
        ...written,
        ...concept.alternatives[0]!.terms.map(({ offset, term }) => ({ term, offset: base + offset }))
      ]
      const key = written.map(({ term }) => term).join(" ")
      const holding = groups.filter((group) => group.some((phrase) => termsKey(phrase) === key))
      if (holding.length > 0) matched = { end, written: { terms: written }, groups: holding }
    }
    if (matched === undefined) {
      out.push(start)
      continue
    }
    const seen = new Set([termsKey(matched.written)])
    const alternatives: Array<Phrase> = [matched.written]
    for (const phrase of matched.groups.flat()) {
      if (seen.has(termsKey(phrase))) continue
      seen.add(termsKey(phrase))
      alternatives.push({ ...phrase, weight: matched.written.terms.length / phrase.terms.length })
    }
    out.push({ alternatives, required: false, position: start.position })
    index = matched.end
  }
  return out
}

/** Why a query cannot be run: it says so in words a user can act on. */
export class QueryProblem extends Data.TaggedError("QueryProblem")<{ readonly message: string }> {}

/** The longest query read, in characters. */
export const maxQueryLength = 2_000
/** At most this many concepts of a query are searched for; the rest are ignored. */
export const maxConcepts = 64

const single = (term: string): Phrase => ({ terms: [{ term, offset: 0 }] })

const phraseOf = (text: string): Phrase | undefined => {
  // In a phrase, a hyphenated word counts as its parts, as the passage's positions do.
  const found = tokens(text).filter((token, index, all) => all[index + 1]?.position !== token.position)
  const first = found[0]
  if (first === undefined) return undefined
  return { terms: found.map((token) => ({ term: token.term, offset: token.position - first.position })) }
}

// A word of a query as its alternatives: its term and the stems of its derived forms. A word that
// is several terms (`U.S.`, `10-K`) is its joined term when it has one, else a phrase.
const wordAlternatives = (word: string): Array<Phrase> => {
  const found = tokens(word)
  const first = found[0]
  if (first === undefined) return []
  const joined = found.filter((token) => token.position === first.position && token.end - token.start === word.length)
  if (found.length === 1 || joined.length > 0) {
    const term = (joined[0] ?? first).term
    return [single(term), ...relatedStems(term).map(single)]
  }
  const phrase = phraseOf(word)
  return phrase === undefined ? [] : [phrase]
}

// Words of an analyst's question that say how it is asked rather than what it asks (`How much
// did ... report`, `in USD millions`) or which period it means, when the year says it (`fiscal`,
// `quarter`, `nine months ended`): filings repeat them everywhere, so they crowd the answer out.
// A query of nothing else still searches for them.
const questionWords = new Set(
  (
    "much many report reported reports amount amounts usd dollar dollars million millions billion billions " +
    "according fiscal quarter quarters month months ended ending"
  ).split(" ")
)

/** Is this (lower-case) word one a query leaves out when it has other words? */
export const isQuestionWord = (word: string): boolean => questionWords.has(word)

// The query's parts: quoted phrases, words, and the `OR` and `-` operators.
const queryPart = /(-?)"([^"]*)"?|(\S+)/g

/**
 * Reads a query: words, `"quoted phrases"`, `-excluded` words or phrases, and `OR` between two
 * words or phrases. Words a passage may hold, ranked by how many it holds and how rare they are; a
 * quoted phrase it must hold; an excluded one it must not. Fails with a `QueryProblem` when the
 * query is longer than `maxQueryLength` or has nothing to search for.
 */
export const parseQuery = (query: string): Either.Either<ParsedQuery, QueryProblem> => {
  if (query.length > maxQueryLength) {
    return Either.left(
      new QueryProblem({ message: `q is ${query.length} characters long; at most ${maxQueryLength} are read` })
    )
  }
  const concepts: Array<{ alternatives: Array<Phrase>; required: boolean; position: number }> = []
  const excluded: Array<Phrase> = []
  const asked = new Set<(typeof concepts)[number]>()
  let joinNext = false
  let position = -1
  for (const match of query.matchAll(queryPart)) {
    const [, minus, quoted, bare] = match
    position++
    if (bare === "OR") {
      joinNext = concepts.length > 0
      continue
    }
    const negated = minus === "-" || (bare !== undefined && bare.startsWith("-") && bare.length > 1)
    const text = quoted ?? (negated && bare !== undefined ? bare.slice(1) : bare ?? "")
    const alternatives = quoted === undefined
      ? wordAlternatives(text)
      : [phraseOf(text)].filter((phrase) => phrase !== undefined)
    if (alternatives.length === 0) {
      joinNext = false
      continue
    }
    if (negated) {
      excluded.push(alternatives[0]!)
    } else if (joinNext) {
      const previous = concepts[concepts.length - 1]!
      previous.alternatives.push(...alternatives)
      // Either side of OR may satisfy it, so neither is required on its own.
      previous.required = previous.required && quoted !== undefined
    } else {
      const concept = { alternatives, required: quoted !== undefined, position }
      concepts.push(concept)
      if (quoted === undefined && isQuestionWord(text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, ""))) asked.add(concept)
    }
    joinNext = false
  }
  const searched = concepts.filter((concept) => !asked.has(concept))
  if (concepts.length === 0) {
    return Either.left(
      new QueryProblem({
        message: excluded.length > 0
          ? "q only excludes; add a word or a phrase to find"
          : "q has no word to search for (common words such as \"the\" or \"what\" are left out)"
      })
    )
  }
  return Either.right({
    concepts: withSynonyms(searched.length > 0 ? searched : concepts).slice(0, maxConcepts),
    excluded
  })
}

/** Two concepts of a query side by side: a passage holding them as close earns a bonus. */
export interface AdjacentPair {
  readonly first: string
  readonly second: string
  /** How many words apart they stand in the query (1: next to each other). */
  readonly distance: number
}

/**
 * The pairs of consecutive concepts of a query written at most three words apart (common words
 * between them counted), each by the last term of the first's first alternative and the first
 * term of the second's.
 */
export const adjacentPairs = (query: ParsedQuery): Array<AdjacentPair> =>
  query.concepts.flatMap((concept, index) => {
    const next = query.concepts[index + 1]
    if (next === undefined) return []
    const firstTerms = concept.alternatives[0]!.terms
    const last = firstTerms[firstTerms.length - 1]!
    const distance = next.position - concept.position - last.offset
    const second = next.alternatives[0]!.terms[0]!.term
    return distance >= 1 && distance <= 3 && last.term !== second ? [{ first: last.term, second, distance }] : []
  })

/** Every term a query searches for: each concept's alternatives, each phrase's words. */
export const queryTerms = (query: ParsedQuery): Set<string> =>
  new Set(
    query.concepts.flatMap((concept) => concept.alternatives.flatMap((phrase) => phrase.terms.map((t) => t.term)))
  )

/** The most words a snippet holds. */
export const snippetWords = 60

// Markdown a snippet reads as plain text: table rules, heading marks, emphasis, link targets.
const tableRule = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/
const markup = /(\*\*|__|[*_`]|^#+\s*|^>\s*|^\s*[-+]\s+(?=\S))/gm

/** A passage's text as plain sentences: table rows as lines, cells apart, without Markdown marks. */
const sentencesOf = (text: string): Array<string> =>
  text
    .replace(linkTarget, "]")
    .split("\n")
    .filter((line) => !tableRule.test(line))
    .map((line) =>
      line.replace(/\[([^\]]*)\]/g, "$1").replace(markup, "").replace(/^\s*\|\s*|\s*\|\s*$/g, "").replace(
        /\s*\|\s*/g,
        " | "
      ).trim()
    )
    .filter((line) => line !== "")
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=["“(]?[\p{Lu}\d])/u))

/** Marks the words of `sentence` whose terms are in `wanted` as `**word**`, joining marks that touch. */
const markTerms = (sentence: string, wanted: ReadonlySet<string>): string => {
  const spans: Array<[number, number]> = []
  for (const token of tokens(sentence)) {
    if (!wanted.has(token.term)) continue
    const last = spans[spans.length - 1]
    if (last !== undefined && token.start <= last[1]) last[1] = Math.max(last[1], token.end)
    else spans.push([token.start, token.end])
  }
  let marked = ""
  let at = 0
  for (const [start, end] of spans) {
    marked += `${sentence.slice(at, start)}**${sentence.slice(start, end)}**`
    at = end
  }
  return marked + sentence.slice(at)
}

/**
 * The best few sentences of a passage for a query, as plain text with the words that matched
 * marked `**like this**`: the run of up to three sentences (at most `snippetWords` words) that holds
 * the most of the query's terms, the shortest and then the earliest of equals. A passage without a match gives its start.
 */
export const snippet = (text: string, query: ParsedQuery): string => {
  const wanted = queryTerms(query)
  const sentences = sentencesOf(text)
  const termsOf = sentences.map((sentence) => new Set(tokens(sentence).map((token) => token.term)))
  const wordsOf = sentences.map((sentence) => sentence.split(/\s+/).length)
  let best = { start: 0, end: Math.min(1, sentences.length), found: -1, words: 0 }
  for (let start = 0; start < sentences.length; start++) {
    const found = new Set<string>()
    let words = 0
    for (let end = start; end < Math.min(start + 3, sentences.length); end++) {
      words += wordsOf[end]!
      if (end > start && words > snippetWords) break
      for (const term of termsOf[end]!) if (wanted.has(term)) found.add(term)
      if (found.size > best.found || (found.size === best.found && words < best.words)) {
        best = { start, end: end + 1, found: found.size, words }
      }
    }
  }
  const words = sentences.slice(best.start, best.end).join(" ").split(/\s+/)
  if (words.length <= snippetWords) return markTerms(words.join(" "), wanted)
  // A long sentence: start a little before its first match, so the match is in the snippet.
  const firstMatch = words.findIndex((word) => tokens(word).some((token) => wanted.has(token.term)))
  const from = firstMatch < snippetWords - 10 ? 0 : Math.min(firstMatch - 10, words.length - snippetWords)
  const clipped = words.slice(from, from + snippetWords).join(" ")
  return markTerms(`${from > 0 ? "… " : ""}${clipped}${from + snippetWords < words.length ? " …" : ""}`, wanted)
}
