/**
 * Scores summarizers on an ECTSum split: every system summarizes every transcript, its sentences
 * joined by line breaks are scored against the gold bullets (also one per line) with `rouge.ts`, and
 * the per-document scores are averaged. One scorer and one corpus for every system, so the rows
 * of a table compare like with like.
 */
import { type EarningsCall, ectsumValidationDir, readEctsum } from "./corpus.js"
import { meanScores, type RougeScores, score } from "./rouge.js"

export interface SummaryContext {
  readonly ticker: string
}

export interface SummarySystem {
  /** Unique within one evaluation, and saying what the system is, budget included (`textrank-5`). */
  readonly name: string
  /** The summary's sentences, given the transcript's sentences. */
  readonly summarize: (
    sentences: ReadonlyArray<string>,
    context: SummaryContext
  ) => Promise<ReadonlyArray<string>> | ReadonlyArray<string>
}

export interface EvaluateOptions {
  /** The split to read; by default the validation split beside the repository. */
  readonly corpusDir?: string
  /** Called as each system finishes, for progress output. */
  readonly onSystemDone?: (result: SystemResult) => void
}

export interface Spread {
  readonly mean: number
  readonly median: number
  readonly min: number
  readonly max: number
}

/** What the corpus looks like, to read the scores against (how long the targets are, for one). */
export interface CorpusProfile {
  readonly documents: number
  readonly transcriptSentences: Spread
  readonly transcriptWords: Spread
  readonly goldBullets: Spread
  readonly goldWords: Spread
}

export interface SystemResult {
  readonly name: string
  /** Means over the documents of each precision, recall and F1. */
  readonly rouge: RougeScores
  readonly meanOutputSentences: number
  readonly meanOutputWords: number
  readonly seconds: number
}

export type Evaluation =
  | { readonly _tag: "Skipped"; readonly reason: string }
  | {
    readonly _tag: "Evaluated"
    readonly corpusDir: string
    readonly corpus: CorpusProfile
    readonly systems: ReadonlyArray<SystemResult>
  }

/** Whitespace-separated words, the length a reader sees (ROUGE's tokens split "$1.10" in two). */
const wordCount = (text: string): number => text.split(/\s+/).filter((word) => word.length > 0).length

const spreadOf = (values: ReadonlyArray<number>): Spread => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return {
    mean: sorted.reduce((sum, value) => sum + value, 0) / sorted.length,
    median: sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2,
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!
  }
}

const profileOf = (calls: ReadonlyArray<EarningsCall>): CorpusProfile => ({
  documents: calls.length,
  transcriptSentences: spreadOf(calls.map((call) => call.sentences.length)),
  transcriptWords: spreadOf(calls.map((call) => wordCount(call.sentences.join("\n")))),
  goldBullets: spreadOf(calls.map((call) => call.goldBullets.length)),
  goldWords: spreadOf(calls.map((call) => wordCount(call.goldBullets.join("\n"))))
})

const evaluateSystem = async (system: SummarySystem, calls: ReadonlyArray<EarningsCall>): Promise<SystemResult> => {
  const started = performance.now()
  const scores: Array<RougeScores> = []
  let sentences = 0
  let words = 0
  for (const call of calls) {
    const summary = await system.summarize(call.sentences, { ticker: call.ticker })
    const candidate = summary.join("\n")
    scores.push(score(candidate, call.goldBullets.join("\n")))
    sentences += summary.length
    words += wordCount(candidate)
  }
  return {
    name: system.name,
    rouge: meanScores(scores),
    meanOutputSentences: sentences / calls.length,
    meanOutputWords: words / calls.length,
    seconds: (performance.now() - started) / 1000
  }
}

/** Runs each system over the whole split, one after the other; `Skipped` when the split is absent. */
export const evaluate = async (
  systems: ReadonlyArray<SummarySystem>,
  options: EvaluateOptions = {}
): Promise<Evaluation> => {
  const names = systems.map((system) => system.name)
  const repeated = names.find((name, index) => names.indexOf(name) !== index)
  if (repeated !== undefined) throw new Error(`two systems are named ${repeated}`)
  const corpusDir = options.corpusDir ?? ectsumValidationDir
  const corpus = await readEctsum(corpusDir)
  if (corpus._tag === "Absent") return { _tag: "Skipped", reason: corpus.reason }
  const results: Array<SystemResult> = []
  for (const system of systems) {
    const result = await evaluateSystem(system, corpus.calls)
    options.onSystemDone?.(result)
    results.push(result)
  }
  return { _tag: "Evaluated", corpusDir, corpus: profileOf(corpus.calls), systems: results }
}

const fixed = (value: number, digits = 3) => value.toFixed(digits)
const spread = ({ max, mean, median, min }: Spread) =>
  `mean ${fixed(mean, 1)}, median ${fixed(median, 1)}, range ${min}–${max}`
const tableRow = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`

/** Each column's heading and its cell for one system; `goldWords` is the corpus's mean gold length. */
const columns: ReadonlyArray<readonly [string, (result: SystemResult, goldWords: number) => string]> = [
  ["System", ({ name }) => name],
  ["ROUGE-1 F1", ({ rouge }) => fixed(rouge.rouge1.f1)],
  ["ROUGE-1 P", ({ rouge }) => fixed(rouge.rouge1.precision)],
  ["ROUGE-1 R", ({ rouge }) => fixed(rouge.rouge1.recall)],
  ["ROUGE-2 F1", ({ rouge }) => fixed(rouge.rouge2.f1)],
  ["ROUGE-L F1", ({ rouge }) => fixed(rouge.rougeL.f1)],
  ["ROUGE-Lsum F1", ({ rouge }) => fixed(rouge.rougeLsum.f1)],
  ["Sentences out", ({ meanOutputSentences }) => fixed(meanOutputSentences, 1)],
  ["Words out", ({ meanOutputWords }) => fixed(meanOutputWords, 1)],
  ["Words out / gold", ({ meanOutputWords }, goldWords) => fixed(meanOutputWords / goldWords, 1)]
]

/** The results as Markdown: the corpus profile, then one table row per system. */
export const formatMarkdown = (evaluation: Evaluation): string => {
  if (evaluation._tag === "Skipped") return `Skipped: ${evaluation.reason}.\n`
  const { corpus } = evaluation
  return [
    `${corpus.documents} earnings calls.`,
    "",
    `- Transcript sentences: ${spread(corpus.transcriptSentences)}`,
    `- Transcript words: ${spread(corpus.transcriptWords)}`,
    `- Gold bullets: ${spread(corpus.goldBullets)}`,
    `- Gold words: ${spread(corpus.goldWords)}`,
    "",
    "Means over the calls (stemmed, `rouge-score` semantics); lengths are whitespace-separated words.",
    "",
    tableRow(columns.map(([heading]) => heading)),
    tableRow(columns.map(([heading]) => (heading === "System" ? "---" : "---:"))),
    ...evaluation.systems.map((result) => tableRow(columns.map(([, cell]) => cell(result, corpus.goldWords.mean)))),
    ""
  ].join("\n")
}

/** Sentences per chunk: about the few hundred words of the parser's chunks of a transcript. */
export const sentencesPerChunk = 12

/** A transcript's sentences as the chunks the feed summarizer reads, one paragraph per sentence. */
export const transcriptChunks = (
  sentences: ReadonlyArray<string>
): ReadonlyArray<{ readonly id: string; readonly text: string }> =>
  Array.from({ length: Math.ceil(sentences.length / sentencesPerChunk) }, (_, index) => ({
    id: `c${String(index + 1).padStart(4, "0")}`,
    text: sentences.slice(index * sentencesPerChunk, (index + 1) * sentencesPerChunk).join("\n\n")
  }))
