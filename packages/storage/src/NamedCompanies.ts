/**
 * The companies a search query names, and how the query favours them. An analyst asks "what did
 * Apple report as capital expenditure" of everything stored: every passage carries its company's
 * name and ticker among its terms (see `SearchText.passageTokens`), but as one word among several
 * that word weighs little against the others, and another company's passage on capital
 * expenditure outranks Apple's. A word of the query that names a stored company (its ticker
 * written in capitals, or the first word of its name written with a capital) weighs
 * `namedCompanyWeight` times as much instead.
 *
 * @module
 */
import type { ParsedQuery } from "./SearchText.js"
import { isStopWord, tokens } from "./SearchText.js"

/** How many times a word that names a stored company counts. */
export const namedCompanyWeight = 3

/** A company as the documents store it: the words that name it. */
export interface NamedCompany {
  readonly ticker: string
  readonly companyName: string
}

/**
 * The terms that name companies, by how they are written: a ticker is found only written in
 * capitals (`CAT` for Caterpillar, not the word `cat`), the first word of a name (`Apple` of
 * Apple Inc., `GameStop`, `NVIDIA`) written with a capital.
 */
export interface CompanyTerms {
  readonly tickers: ReadonlySet<string>
  readonly names: ReadonlySet<string>
}

// The term of a word when it is one term (a hyphenated word's is its parts joined: `Coca-Cola`).
const termOf = (word: string): string | undefined => {
  const first = tokens(word)[0]
  return first !== undefined && first.start === 0 && first.end === word.length ? first.term : undefined
}

/** The terms of these companies' tickers and of the first word of their names. */
export const companyTerms = (companies: Iterable<NamedCompany>): CompanyTerms => {
  const tickers = new Set<string>()
  const names = new Set<string>()
  for (const company of companies) {
    const ticker = termOf(company.ticker)
    if (ticker !== undefined) tickers.add(ticker)
    // The first word, after a leading "The" (The Coca-Cola Company); a common word is no name (ON Semiconductor).
    const words = company.companyName.trim().split(/\s+/)
    const first = (/^the$/i.test(words[0] ?? "") ? words[1] : words[0])?.replace(/[,.]+$/, "")
    const name = first === undefined || isStopWord(first.toLowerCase()) ? undefined : termOf(first)
    // One- and two-letter beginnings (`A.`, `AT`) say too little to be a name.
    if (name !== undefined && name.length >= 3) names.add(name)
  }
  return { tickers, names }
}

// A word as written in the query, with its possessive (`GameStop's`).
const writtenWord = /[\p{L}\p{N}][\p{L}\p{N}&.-]*/gu

/** The terms of the query's words that name a company of `known`. */
export const namedIn = (query: string, known: CompanyTerms): ReadonlySet<string> => {
  const named = new Set<string>()
  for (const match of query.matchAll(writtenWord)) {
    const word = match[0].replace(/[.-]+$/, "")
    const term = termOf(word)
    if (term === undefined) continue
    const capitals = /^[\p{Lu}\p{N}&.-]+$/u.test(word) && /\p{Lu}/u.test(word)
    if ((capitals && known.tickers.has(term)) || (/^\p{Lu}/u.test(word) && known.names.has(term))) named.add(term)
  }
  return named
}

/** The query with each concept that names a company of `named` weighed `weight` times. */
export const favoring = (
  query: ParsedQuery,
  named: ReadonlySet<string>,
  weight: number = namedCompanyWeight
): ParsedQuery =>
  named.size === 0 ? query : {
    ...query,
    concepts: query.concepts.map((concept) =>
      !concept.required &&
        concept.alternatives.some((phrase) => phrase.terms.length === 1 && named.has(phrase.terms[0]!.term))
        ? {
          ...concept,
          alternatives: concept.alternatives.map((phrase) => ({ ...phrase, weight: (phrase.weight ?? 1) * weight }))
        }
        : concept
    )
  }
