// The in-memory search index: an inverted index of the passages of the documents in the memory
// document store, kept up to date by the store's saves, ranked as every adapter ranks.
import type { Document } from "@filings/domain"
import {
  compareForListing,
  matchesQuery,
  matchesSection,
  type SectionMatch,
  type StoredDocument
} from "../DocumentStore.js"
import {
  examinedAtMost,
  inverseFrequency,
  rankedAtMost,
  ranking,
  readsPositions,
  type SearchHit,
  type SearchPage,
  type SearchQuery,
  type Selection,
  selection
} from "../SearchIndex.js"
import { adjacentPairs, type ParsedQuery, passageTokens, type Phrase, termPositions } from "../SearchText.js"

interface IndexedPassage {
  readonly document: StoredDocument
  readonly chunk: Document.Chunk
  /** The chunk's place in the document's chunks. */
  readonly order: number
  /** How many terms it is indexed by. */
  readonly length: number
  /** Each term's positions, ascending. */
  readonly positions: ReadonlyMap<string, ReadonlyArray<number>>
}

const indexPassage = (document: StoredDocument, chunk: Document.Chunk, order: number): IndexedPassage => {
  const context = {
    ticker: document.ticker,
    companyName: document.companyName,
    docType: document.docType,
    section: chunk.section
  }
  const found = passageTokens(context, chunk.text)
  return { document, chunk, order, length: found.length, positions: termPositions(found) }
}

/** Does the passage hold the phrase: its terms at their offsets from some position of the first? */
const holds = (passage: IndexedPassage, phrase: Phrase): boolean => {
  const [first, ...rest] = phrase.terms
  const starts = first === undefined ? undefined : passage.positions.get(first.term)
  if (starts === undefined) return false
  return starts.some((start) =>
    rest.every(({ offset, term }) => passage.positions.get(term)?.includes(start + offset) === true)
  )
}

const holdsAny = (passage: IndexedPassage, term: string): boolean => passage.positions.has(term)

const inSections = (passage: IndexedPassage, match: SectionMatch | undefined): boolean => {
  if (match === undefined) return true
  const section = passage.document.sections.find((candidate) => candidate.title === passage.chunk.section)
  return section !== undefined && matchesSection(match, passage.document.docType)(section)
}

/** Newer filing first, then the greater publication id, then body order: how ties of score are broken. */
const compareTies = (a: IndexedPassage, b: IndexedPassage): number =>
  compareForListing("desc")(a.document, b.document) || a.order - b.order

const metadataOf = (
  { body: _body, chunks: _chunks, exhibits: _exhibits, sections: _sections, ...metadata }: StoredDocument
): Document.DocumentMetadata => metadata

/** The passages of every stored document, by document and by term. */
export class MemoryPassages {
  private readonly byDocument = new Map<string, ReadonlyArray<IndexedPassage>>()
  private readonly byTerm = new Map<string, Set<IndexedPassage>>()
  private totalLength = 0
  private count = 0

  /** Indexes a saved document's passages in place of the ones it had. */
  replace(document: StoredDocument): void {
    this.remove(document.publicationId)
    const passages = document.chunks.map((chunk, order) => indexPassage(document, chunk, order))
    this.byDocument.set(document.publicationId, passages)
    for (const passage of passages) {
      this.count++
      this.totalLength += passage.length
      for (const term of passage.positions.keys()) {
        const holders = this.byTerm.get(term)
        if (holders === undefined) this.byTerm.set(term, new Set([passage]))
        else holders.add(passage)
      }
    }
  }

  private remove(publicationId: string): void {
    for (const passage of this.byDocument.get(publicationId) ?? []) {
      this.count--
      this.totalLength -= passage.length
      for (const term of passage.positions.keys()) {
        const holders = this.byTerm.get(term)
        holders?.delete(passage)
        if (holders?.size === 0) this.byTerm.delete(term)
      }
    }
    this.byDocument.delete(publicationId)
  }

  private frequency(term: string): number {
    return this.byTerm.get(term)?.size ?? 0
  }

  /** The passages that may match: the holders of a term every match must hold one of. */
  private candidates(query: ParsedQuery, selected: Selection): Set<IndexedPassage> {
    const holdersOf = (terms: Iterable<string>) => {
      const found = new Set<IndexedPassage>()
      for (const term of terms) for (const passage of this.byTerm.get(term) ?? []) found.add(passage)
      return found
    }
    if (selected.mode === "any") return holdersOf(selected.terms)
    const first = query.concepts.find((concept) => selected.mode === "all" ? !concept.required : concept.required)
    return holdersOf(first?.alternatives.flatMap((phrase) => phrase.terms.map(({ term }) => term)) ?? [])
  }

  /**
   * Whether the passage holds the words the query needs, in any order: every word of a required
   * phrase (of one of its alternatives), no excluded word, and what the selection asks.
   */
  private holdsWords(passage: IndexedPassage, query: ParsedQuery, selected: Selection): boolean {
    const holdsAll = query.concepts.every((concept) =>
      !concept.required ||
      concept.alternatives.some((phrase) => phrase.terms.every(({ term }) => holdsAny(passage, term)))
    )
    const excludedWord = query.excluded.some((phrase) => phrase.terms.length === 1 && holds(passage, phrase))
    if (!holdsAll || excludedWord) return false
    switch (selected.mode) {
      case "any":
        return selected.terms.some((term) => holdsAny(passage, term))
      case "all":
        return query.concepts.every((concept) =>
          concept.required ||
          concept.alternatives.some((phrase) => phrase.terms.some(({ term }) => holdsAny(passage, term)))
        )
      case "required":
        return true
    }
  }

  /** Whether a passage that holds the query's words holds its phrases as written, and no excluded phrase. */
  private holdsPhrases(passage: IndexedPassage, query: ParsedQuery): boolean {
    return query.concepts.every((concept) =>
      !concept.required || concept.alternatives.some((phrase) => holds(passage, phrase))
    ) && !query.excluded.some((phrase) => holds(passage, phrase))
  }

  private score(passage: IndexedPassage, query: ParsedQuery, average: number): number {
    const { adjacentWeight, b, k1 } = ranking
    const idf = (term: string) => inverseFrequency(this.frequency(term), this.count)
    const weight = (term: string) => {
      const frequency = passage.positions.get(term)?.length ?? 0
      if (frequency === 0) return 0
      const norm = 1 - b + b * passage.length / average
      return idf(term) * frequency * (k1 + 1) / (frequency + k1 * norm)
    }
    let score = 0
    for (const concept of query.concepts) {
      let best = 0
      for (const phrase of concept.alternatives) {
        best = Math.max(best, (phrase.weight ?? 1) * phrase.terms.reduce((sum, { term }) => sum + weight(term), 0))
      }
      score += best
    }
    for (const pair of adjacentPairs(query)) {
      if (holds(passage, { terms: [{ term: pair.first, offset: 0 }, { term: pair.second, offset: pair.distance }] })) {
        score += adjacentWeight * Math.min(idf(pair.first), idf(pair.second))
      }
    }
    return score
  }

  /** One page of the passages matching the query and filters, best first. */
  search(query: SearchQuery): SearchPage {
    const average = this.count === 0 ? 1 : this.totalLength / this.count
    const selected = selection(query.query, (term) => this.frequency(term))
    const holding: Array<IndexedPassage> = []
    for (const passage of this.candidates(query.query, selected)) {
      if (
        matchesQuery(query)(passage.document) && inSections(passage, query.sections) &&
        this.holdsWords(passage, query.query, selected)
      ) {
        holding.push(passage)
      }
    }
    // The newest passages holding the words are examined, and the newest matches ranked, as the SQL
    // adapter does.
    holding.sort(compareTies)
    const examined = readsPositions(query.query) ? holding.slice(0, examinedAtMost) : holding
    const matched = examined.filter((passage) => this.holdsPhrases(passage, query.query))
    const scored = matched.slice(0, rankedAtMost).map((passage) => ({
      passage,
      score: this.score(passage, query.query, average)
    }))
    scored.sort((a, b) => b.score - a.score || compareTies(a.passage, b.passage))
    const hits = scored.slice(query.offset, query.offset + query.limit).map(({ passage, score }): SearchHit => ({
      document: metadataOf(passage.document),
      chunk: passage.chunk,
      score
    }))
    return { hits, total: scored.length }
  }
}
