/**
 * Two extractive baselines that any summarizer of earnings calls should beat. Both take the
 * document's sentences and a budget of k sentences, and return at most k of those sentences
 * unchanged, in document order.
 */
import { rougeTokens } from "./tokens.js"

/** The lead baseline: the first k sentences. */
export const firstK = (sentences: ReadonlyArray<string>, k: number): Array<string> => sentences.slice(0, Math.max(k, 0))

export interface TextRankOptions {
  /** The probability of following an edge rather than jumping to a random sentence. */
  readonly damping?: number
  /** Iteration stops once no score moves by more than this. */
  readonly tolerance?: number
  /** A bound on the iterations, in case the scores oscillate within floating-point noise. */
  readonly maxIterations?: number
}

/**
 * Sentence similarity of Mihalcea & Tarau (2004), "TextRank: Bringing Order into Texts", section
 * 4.1: the number of distinct words the two sentences share, divided by the sum of the logarithms
 * of their lengths in words, so long sentences do not win on length alone. Words are the ROUGE
 * tokens (lowercase, stemmed), so "revenues" and "revenue" count as shared.
 */
const similarity = (
  first: ReadonlySet<string>,
  firstLength: number,
  second: ReadonlySet<string>,
  secondLength: number
): number => {
  const normalizer = Math.log(firstLength) + Math.log(secondLength)
  // Two one-word sentences would divide by zero; such fragments carry no content worth linking.
  if (normalizer <= 0) return 0
  const [smaller, larger] = first.size <= second.size ? [first, second] : [second, first]
  let shared = 0
  for (const word of smaller) if (larger.has(word)) shared++
  return shared / normalizer
}

/**
 * The TextRank score of each sentence: weighted PageRank on the undirected similarity graph,
 * WS(i) = (1 - d) + d * sum over neighbours j of w(j, i) / (sum of j's edge weights) * WS(j),
 * iterated from all ones until it converges. A sentence sharing no word with any other keeps 1 - d.
 */
export const textRankScores = (sentences: ReadonlyArray<string>, options: TextRankOptions = {}): Array<number> => {
  const damping = options.damping ?? 0.85
  const tolerance = options.tolerance ?? 1e-6
  const maxIterations = options.maxIterations ?? 1000
  const count = sentences.length
  const tokens = sentences.map(rougeTokens)
  const vocabularies = tokens.map((sentence) => new Set(sentence))

  const weights = new Float64Array(count * count)
  const outgoing = new Float64Array(count)
  for (let i = 0; i < count; i++) {
    for (let j = i + 1; j < count; j++) {
      const weight = similarity(vocabularies[i]!, tokens[i]!.length, vocabularies[j]!, tokens[j]!.length)
      weights[i * count + j] = weight
      weights[j * count + i] = weight
      outgoing[i] = outgoing[i]! + weight
      outgoing[j] = outgoing[j]! + weight
    }
  }

  let scores = new Float64Array(count).fill(1)
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    const next = new Float64Array(count)
    let largestChange = 0
    for (let i = 0; i < count; i++) {
      let incoming = 0
      for (let j = 0; j < count; j++) {
        const weight = weights[j * count + i]!
        if (weight > 0) incoming += (weight / outgoing[j]!) * scores[j]!
      }
      next[i] = 1 - damping + damping * incoming
      largestChange = Math.max(largestChange, Math.abs(next[i]! - scores[i]!))
    }
    scores = next
    if (largestChange <= tolerance) break
  }
  return Array.from(scores)
}

/** The TextRank baseline: the k best-scored sentences (the earlier one on a tie), in document order. */
export const textRank = (
  sentences: ReadonlyArray<string>,
  k: number,
  options: TextRankOptions = {}
): Array<string> => {
  const scores = textRankScores(sentences, options)
  const chosen = scores
    .map((value, position) => ({ value, position }))
    .sort((a, b) => b.value - a.value || a.position - b.position)
    .slice(0, Math.max(k, 0))
    .map(({ position }) => position)
    .sort((a, b) => a - b)
  return chosen.map((position) => sentences[position]!)
}
