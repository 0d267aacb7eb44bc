/**
 * The search index: every stored passage (a document's chunks) found by its words, ranked best
 * first. A document store indexes a document's passages when it saves it, in the same write, and a
 * saved document's passages replace the ones it had, so the index never holds a passage of a
 * document that is not stored, nor misses one that is.
 *
 * Ranking is BM25 over the terms of `SearchText` (a passage's words, and its document's ticker,
 * company name, form and section title), each concept of the query counted by its best
 * alternative, with a bonus where two words of the query stand side by side in the passage. Which passages are results at all is `selection`'s rule.
 * Every adapter ranks and selects with the same formula and constants, so they agree.
 *
 * @module
 */
import type { Document } from "@filings/domain"
import { Context, type Effect } from "effect"
import type { DocumentFilters, Paging, SectionMatch } from "./DocumentStore.js"
import type { ParsedQuery } from "./SearchText.js"
import type { StorageError } from "./StorageError.js"

/** A search: the query as `SearchText.parseQuery` read it, which documents and sections, and a page. */
export interface SearchQuery extends DocumentFilters, Paging {
  readonly query: ParsedQuery
  /** Only passages of these sections (by item for a document type, or by title); every one when absent. */
  readonly sections?: SectionMatch | undefined
  /**
   * Whether each hit's chunk carries its `blocks` (where the store kept them): for a reader of the
   * passages' tables and paragraphs, as chat is. Without it a store may leave them out, which keeps
   * a page of results a read of the passages' text alone.
   */
  readonly withBlocks?: boolean | undefined
}

/** A passage found, with its document's metadata and its score (higher is better). */
export interface SearchHit {
  readonly document: Document.DocumentMetadata
  readonly chunk: Document.Chunk
  readonly score: number
}

/** A page of results, best first (ties: newer filing, then publication id, then body order). */
export interface SearchPage {
  readonly hits: ReadonlyArray<SearchHit>
  /** Every passage the query matches, not only this page, up to `rankedAtMost`. */
  readonly total: number
}

/**
 * The constants of the ranking every adapter uses: BM25's `k1` and `b`, and the weight of the
 * bonus for two query words side by side (times the rarer word's idf).
 *
 * Passages are short and alike in length, and the passage that answers a question is often a table
 * row or a sentence that holds each of its words once, while narrative around it repeats a few of
 * them: so a term's repeats count less (`k1` 0.6, against the usual 1.2), length counts less (`b`
 * 0.3, against 0.75), and words side by side as in the query count more. On the development set
 * (`bench/quality/search.ts`) these move recall@5 from 0.649 to 0.722 within a company's documents and from
 * 0.516 to 0.614 over everything.
 */
export const ranking = { k1: 0.6, b: 0.3, adjacentWeight: 1 } as const

/**
 * BM25's inverse document frequency of a term held by `passages` of `total` passages: always
 * positive, larger for rarer terms.
 */
export const inverseFrequency = (passages: number, total: number): number =>
  Math.log(1 + (Math.max(total - passages, 0) + 0.5) / (passages + 0.5))

/**
 * The most passages a search ranks: the newest that match it (by filing date, then publication id
 * and body order, as ties are broken). A query of words held by much of a large index (`revenue`
 * over a million passages) would otherwise score every one of them; so it ranks the newest of its
 * matches instead, its `total` says this many, and its pages end there. Below this many matches,
 * every match is ranked.
 */
export const rankedAtMost = 10_000

/**
 * The most passages a search reads for the positions of its words: the newest that hold every
 * word it needs (each word of a quoted phrase, in any order, and no excluded word), of which those
 * that hold the phrases as written, and no excluded phrase, are its matches. A phrase of common
 * words (`"net income"`) would otherwise be looked for in every passage holding both words, to
 * find the newest `rankedAtMost` that hold them side by side. A query without phrases reads no
 * positions to match, and is not bounded by this.
 */
export const examinedAtMost = 10_000

/** Whether matching the query reads positions: it has a phrase of several words, required or excluded. */
export const readsPositions = (query: ParsedQuery): boolean =>
  query.excluded.some((phrase) => phrase.terms.length > 1) ||
  query.concepts.some((concept) => concept.required && concept.alternatives.some((phrase) => phrase.terms.length > 1))

/**
 * A term held by more passages than this is common: it ranks the passages a query finds, but does
 * not find them on its own when the query has rarer words (see `selection`). Every passage a query
 * finds is read from its row to be ranked, so the query's rarer words bound that work whatever the
 * size of the index: in a million passages, a share (say 2%) would let a word held by 19,000 of
 * them select every one.
 */
export const commonAbove = 2_000

/**
 * Which passages a query finds, besides holding every quoted phrase and no excluded one:
 * - `any`: those holding one of `terms`, the query's words (and their alternatives) that are not
 *   common; a passage holding only common words of the query is not a result;
 * - `all`: when every word is common, those holding each word (any of its alternatives);
 * - `required`: when the query has only quoted phrases, those holding them.
 */
export type Selection =
  | { readonly mode: "any"; readonly terms: ReadonlyArray<string> }
  | { readonly mode: "all" }
  | { readonly mode: "required" }

/** The selection of a query, given how many passages hold each of its terms. */
export const selection = (query: ParsedQuery, passagesHolding: (term: string) => number): Selection => {
  const optional = query.concepts.filter((concept) => !concept.required)
  if (optional.length === 0) return { mode: "required" }
  const terms = new Set(
    optional.flatMap((concept) => concept.alternatives.flatMap((phrase) => phrase.terms.map(({ term }) => term)))
  )
  const selective = [...terms].filter((term) => passagesHolding(term) <= commonAbove)
  return selective.length > 0 ? { mode: "any", terms: selective } : { mode: "all" }
}

/**
 * What a search index does. It fails with `StorageError` only when the backing store does; a query
 * that matches nothing is an empty page.
 */
export interface Service {
  /** The passages matching the query and filters, best first, one page. */
  readonly search: (query: SearchQuery) => Effect.Effect<SearchPage, StorageError>
}

/**
 * The search index as an Effect service, provided with the document store by
 * `MemoryStorage.documentStore` or an adapter's layer.
 *
 * @example
 * ```ts
 * const index = yield* SearchIndex
 * const query = yield* SearchText.parseQuery("capital expenditure 2018")
 * const page = yield* index.search({ query, tickers: [ticker], limit: 5, offset: 0 })
 * ```
 */
export class SearchIndex extends Context.Tag("@filings/storage/SearchIndex")<SearchIndex, Service>() {}
