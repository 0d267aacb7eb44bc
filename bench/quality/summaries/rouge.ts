/**
 * ROUGE-1, ROUGE-2, ROUGE-L and ROUGE-Lsum with the semantics of Google's `rouge-score` package
 * (`RougeScorer([...], use_stemmer=True)`), so that figures computed here can sit next to
 * published ones. Tokens come from `rougeTokens` (see `tokens.ts`).
 *
 * - ROUGE-N: n-gram counts of each side, overlap clipped per n-gram (an n-gram the candidate
 *   repeats counts at most as often as the reference has it).
 * - ROUGE-L: longest common subsequence of the two whole token sequences; line breaks are only
 *   whitespace here.
 * - ROUGE-Lsum: both texts split on "\n" (empty lines dropped); for each reference line, the union
 *   of its tokens that lie on an LCS with each candidate line; a token is a hit only while both
 *   texts still have an unused occurrence of it.
 *
 * Precision divides by the candidate's count, recall by the reference's; F1 is their harmonic
 * mean, and every score is 0 (not NaN) when a side has nothing to count.
 *
 * Argument order: `score(candidate, reference)`; rouge-score's is `score(target, prediction)`.
 */
import { rougeTokens } from "./tokens.js"

export interface Score {
  readonly precision: number
  readonly recall: number
  readonly f1: number
}

export interface RougeScores {
  readonly rouge1: Score
  readonly rouge2: Score
  readonly rougeL: Score
  readonly rougeLsum: Score
}

const harmonicMean = (precision: number, recall: number): number =>
  precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0

/** `hits` matched units out of the candidate's and the reference's totals; an empty side scores 0. */
const fromCounts = (hits: number, candidateTotal: number, referenceTotal: number): Score => {
  const precision = hits / Math.max(candidateTotal, 1)
  const recall = hits / Math.max(referenceTotal, 1)
  return { precision, recall, f1: harmonicMean(precision, recall) }
}

const countOf = <K>(counts: ReadonlyMap<K, number>, key: K): number => counts.get(key) ?? 0

const ngramCounts = (tokens: ReadonlyArray<string>, n: number): Map<string, number> => {
  const counts = new Map<string, number>()
  for (let start = 0; start + n <= tokens.length; start++) {
    // Tokens never contain a space, so the joined string identifies the n-gram.
    const ngram = tokens.slice(start, start + n).join(" ")
    counts.set(ngram, countOf(counts, ngram) + 1)
  }
  return counts
}

const ngramScore = (candidate: ReadonlyArray<string>, reference: ReadonlyArray<string>, n: number): Score => {
  const candidateCounts = ngramCounts(candidate, n)
  const referenceCounts = ngramCounts(reference, n)
  let overlap = 0
  for (const [ngram, count] of referenceCounts) overlap += Math.min(count, countOf(candidateCounts, ngram))
  const total = (tokens: ReadonlyArray<string>) => Math.max(tokens.length - n + 1, 0)
  return fromCounts(overlap, total(candidate), total(reference))
}

/** Cell [i][j]: the LCS length of the first i reference tokens and the first j candidate tokens. */
const lcsTable = (reference: ReadonlyArray<string>, candidate: ReadonlyArray<string>): Array<Uint32Array> => {
  const table = Array.from({ length: reference.length + 1 }, () => new Uint32Array(candidate.length + 1))
  for (let i = 1; i <= reference.length; i++) {
    const row = table[i]!
    const above = table[i - 1]!
    for (let j = 1; j <= candidate.length; j++) {
      row[j] = reference[i - 1] === candidate[j - 1] ? above[j - 1]! + 1 : Math.max(above[j]!, row[j - 1]!)
    }
  }
  return table
}

const lcsLength = (reference: ReadonlyArray<string>, candidate: ReadonlyArray<string>): number =>
  lcsTable(reference, candidate)[reference.length]![candidate.length]!

/**
 * The reference positions of one LCS. When several LCS exist, the choice changes ROUGE-Lsum's
 * union, so this walks back from the end exactly as rouge-score does: take a match, else step
 * along the candidate only when that keeps a strictly longer LCS, else step along the reference.
 */
const lcsReferencePositions = (reference: ReadonlyArray<string>, candidate: ReadonlyArray<string>): Array<number> => {
  const table = lcsTable(reference, candidate)
  const positions: Array<number> = []
  let i = reference.length
  let j = candidate.length
  while (i > 0 && j > 0) {
    if (reference[i - 1] === candidate[j - 1]) {
      positions.push(i - 1)
      i--
      j--
    } else if (table[i]![j - 1]! > table[i - 1]![j]!) {
      j--
    } else {
      i--
    }
  }
  return positions
}

const tokenCounts = (sentences: ReadonlyArray<ReadonlyArray<string>>): Map<string, number> => {
  const counts = new Map<string, number>()
  for (const sentence of sentences) for (const token of sentence) counts.set(token, countOf(counts, token) + 1)
  return counts
}

const summaryLevelLcsScore = (
  candidateSentences: ReadonlyArray<ReadonlyArray<string>>,
  referenceSentences: ReadonlyArray<ReadonlyArray<string>>
): Score => {
  const candidateTotal = candidateSentences.reduce((sum, sentence) => sum + sentence.length, 0)
  const referenceTotal = referenceSentences.reduce((sum, sentence) => sum + sentence.length, 0)
  if (candidateTotal === 0 || referenceTotal === 0) return fromCounts(0, candidateTotal, referenceTotal)
  // Occurrences not yet matched, so that a token the union LCS finds for several reference lines
  // is a hit no more often than both texts contain it.
  const candidateLeft = tokenCounts(candidateSentences)
  const referenceLeft = tokenCounts(referenceSentences)
  let hits = 0
  for (const referenceSentence of referenceSentences) {
    const union = new Set<number>()
    for (const candidateSentence of candidateSentences) {
      for (const position of lcsReferencePositions(referenceSentence, candidateSentence)) union.add(position)
    }
    // The visiting order does not matter: the hits of one token are capped by its counts either way.
    for (const position of union) {
      const token = referenceSentence[position]!
      if (countOf(candidateLeft, token) > 0 && countOf(referenceLeft, token) > 0) {
        hits++
        candidateLeft.set(token, countOf(candidateLeft, token) - 1)
        referenceLeft.set(token, countOf(referenceLeft, token) - 1)
      }
    }
  }
  return fromCounts(hits, candidateTotal, referenceTotal)
}

const tokenizedLines = (text: string): Array<Array<string>> =>
  text.split("\n").filter((line) => line.length > 0).map(rougeTokens)

/** ROUGE of one candidate summary against one reference; put one sentence per line for ROUGE-Lsum. */
export const score = (candidate: string, reference: string): RougeScores => {
  const candidateTokens = rougeTokens(candidate)
  const referenceTokens = rougeTokens(reference)
  return {
    rouge1: ngramScore(candidateTokens, referenceTokens, 1),
    rouge2: ngramScore(candidateTokens, referenceTokens, 2),
    rougeL: fromCounts(lcsLength(referenceTokens, candidateTokens), candidateTokens.length, referenceTokens.length),
    rougeLsum: summaryLevelLcsScore(tokenizedLines(candidate), tokenizedLines(reference))
  }
}

const meanOf = (values: ReadonlyArray<number>): number => values.reduce((sum, value) => sum + value, 0) / values.length

/**
 * Corpus-level ROUGE: the arithmetic mean over documents of each precision, recall and F1 (not an
 * F1 of mean precision and recall). rouge-score's `BootstrapAggregator` estimates the same mean:
 * its `mid` is the median of the means of resampled document sets.
 */
export const meanScores = (perDocument: ReadonlyArray<RougeScores>): RougeScores => {
  if (perDocument.length === 0) throw new RangeError("meanScores needs at least one document's scores")
  const mean = (type: keyof RougeScores): Score => ({
    precision: meanOf(perDocument.map((scores) => scores[type].precision)),
    recall: meanOf(perDocument.map((scores) => scores[type].recall)),
    f1: meanOf(perDocument.map((scores) => scores[type].f1))
  })
  return { rouge1: mean("rouge1"), rouge2: mean("rouge2"), rougeL: mean("rougeL"), rougeLsum: mean("rougeLsum") }
}
