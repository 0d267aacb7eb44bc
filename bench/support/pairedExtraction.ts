/**
 * Parse + extract by two builds of this repository side by side, in one process: this checkout and
 * another checkout of it (built with `npx tsc -b`), each loaded from its own `dist/` by file URL and
 * run by its own copy of Effect. Each 10-K is parsed and extracted by one build, then by the other,
 * in turn for a number of rounds after a warm-up, so that the load of a shared machine falls on both
 * alike; the lowest time of each is the one least disturbed by other work. Two checkouts measured
 * one after the other cannot tell a few percent from that load.
 *
 * No garbage collection is forced between runs: with `node --expose-gc` and `gc()` before each run,
 * every run took about three times as long (full collections age out compiled code), which is not
 * what a filing costs in the server.
 */
import type * as ExtractorPackage from "@filings/extractor"
import type * as ParserPackage from "@filings/filings-parser"
import { join } from "node:path"
import { isDeepStrictEqual } from "node:util"
import { describeCommit, importBuilt, importEffectOf } from "./builtCheckout.js"

/** One parse + extract of a file by one build: CPU time of each part, and the metrics found. */
export interface Run {
  readonly parseMillis: number
  readonly extractMillis: number
  readonly metrics: Readonly<Record<string, unknown>>
}

/** One build of the repository, ready to parse and extract. */
export interface Build {
  /** The checkout's commit, as the report names it (never its path on this machine). */
  readonly commit: string
  readonly run: (file: CorpusFile) => Run
}

/** A 10-K of the corpus, read once. */
export interface CorpusFile {
  readonly name: string
  readonly bytes: Uint8Array
}

const cpuMillis = (work: () => void): number => {
  const start = process.cpuUsage()
  work()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000
}

/**
 * Loads the parser and extractor built in the checkout at `root`, with the Effect its packages
 * resolve. The baseline is expected to have today's `Parser.parse`, `SgmlSubmission.parseBytes`
 * and `Extractor.extract` inputs, as every commit since the extractor took a split submission has.
 */
export const loadBuild = async (root: string): Promise<Build> => {
  const { Parser, SgmlSubmission } = await importBuilt<typeof ParserPackage>(
    join(root, "packages/filings-parser/dist/index.js")
  )
  const { Extractor } = await importBuilt<typeof ExtractorPackage>(join(root, "packages/extractor/dist/index.js"))
  const { Effect } = await importEffectOf(root, "extractor")

  const run = ({ bytes, name }: CorpusFile): Run => {
    let parsed: ParserPackage.ParsedDocument.ParsedDocument | undefined
    let submission: ParserPackage.SgmlSubmission.Submission | undefined
    // As the server's ingest does: a full submission is split once, for the parser and the extractor.
    const parseMillis = cpuMillis(() => {
      submission = SgmlSubmission.looksLikeSubmission(bytes)
        ? Effect.runSync(SgmlSubmission.parseBytes(bytes))
        : undefined
      parsed = Effect.runSync(Parser.parse({ bytes, fileName: name, submission }))
    })
    if (parsed === undefined) throw new Error(`${name}: not parsed`)
    const document = parsed
    let output: ExtractorPackage.Extractor.ExtractionOutput | undefined
    const extractMillis = cpuMillis(() => {
      output = Effect.runSync(Extractor.extract({ bytes, parsed: document, publicationId: name, submission }))
    })
    return { parseMillis, extractMillis, metrics: output?.metrics ?? {} }
  }
  return { commit: describeCommit(root), run }
}

const lowest = (values: ReadonlyArray<number>): number => Math.min(...values)
const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}
const geometricMean = (values: ReadonlyArray<number>): number =>
  Math.exp(values.reduce((sum, value) => sum + Math.log(value), 0) / values.length)

/** The metric names whose values differ between two runs' metrics (present in one only, or unequal). */
const differingMetrics = (base: Run["metrics"], candidate: Run["metrics"]): Array<string> =>
  [...new Set([...Object.keys(base), ...Object.keys(candidate)])]
    .filter((name) => !isDeepStrictEqual(base[name], candidate[name]))
    .sort()

/** Both builds' runs of one file, in the order they ran. */
export interface FileComparison {
  readonly file: CorpusFile
  readonly base: ReadonlyArray<Run>
  readonly candidate: ReadonlyArray<Run>
  /** Metric names the two builds disagree on; empty when their metrics are equal. */
  readonly differingMetrics: ReadonlyArray<string>
}

/**
 * Runs each file by both builds in turn: `warmup` rounds unmeasured, then `rounds` measured ones,
 * base first in each round (so every measured run follows one of the other build).
 */
export const compareBuilds = (options: {
  readonly files: ReadonlyArray<CorpusFile>
  readonly base: Build
  readonly candidate: Build
  readonly rounds: number
  readonly warmup: number
  readonly onFile?: (comparison: FileComparison) => void
}): Array<FileComparison> =>
  options.files.map((file) => {
    let differing: Array<string> = []
    for (let round = 0; round < options.warmup; round++) {
      const base = options.base.run(file)
      const candidate = options.candidate.run(file)
      if (round === 0) differing = differingMetrics(base.metrics, candidate.metrics)
    }
    const base: Array<Run> = []
    const candidate: Array<Run> = []
    for (let round = 0; round < options.rounds; round++) {
      base.push(options.base.run(file))
      candidate.push(options.candidate.run(file))
    }
    // The measured runs must agree with the warm-up's: a build whose output changes between runs is a finding too.
    for (const [index, run] of base.entries()) {
      const other = candidate[index]
      if (other !== undefined) differing = [...new Set([...differing, ...differingMetrics(run.metrics, other.metrics)])]
    }
    const comparison = { file, base, candidate, differingMetrics: differing.sort() }
    options.onFile?.(comparison)
    return comparison
  })

const total = (run: Run) => run.parseMillis + run.extractMillis
const milliseconds = (value: number) => value.toFixed(1)
const ratio = (value: number) => value.toFixed(2)

/** The lowest and median total of each build, and their ratio new / base, per file. */
export const summarizeFile = (comparison: FileComparison) => {
  const baseLowest = lowest(comparison.base.map(total))
  const candidateLowest = lowest(comparison.candidate.map(total))
  const baseMedian = median(comparison.base.map(total))
  const candidateMedian = median(comparison.candidate.map(total))
  return {
    baseLowest,
    candidateLowest,
    baseMedian,
    candidateMedian,
    lowestRatio: candidateLowest / baseLowest,
    medianRatio: candidateMedian / baseMedian
  }
}

/** The comparison as Markdown: one row per file, the geometric means, and parse and extract apart. */
export const comparisonTable = (comparisons: ReadonlyArray<FileComparison>): Array<string> => {
  const summaries = comparisons.map(summarizeFile)
  const sum = (pick: (summary: ReturnType<typeof summarizeFile>) => number) =>
    summaries.reduce((acc, summary) => acc + pick(summary), 0)
  const rows = [
    "| 10-K | MB | base lowest ms | new lowest ms | new / base, lowest | base median ms | new median ms | new / base, median | metrics |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ...comparisons.map((comparison, index) => {
      const summary = summaries[index]!
      const metrics = comparison.differingMetrics.length === 0
        ? "same"
        : `**differ**: ${comparison.differingMetrics.join(", ")}`
      return `| ${comparison.file.name} | ${(comparison.file.bytes.length / 1e6).toFixed(2)} | ${
        milliseconds(summary.baseLowest)
      } | ${milliseconds(summary.candidateLowest)} | ${ratio(summary.lowestRatio)} | ${
        milliseconds(summary.baseMedian)
      } | ${milliseconds(summary.candidateMedian)} | ${ratio(summary.medianRatio)} | ${metrics} |`
    }),
    `| all, sum | | ${milliseconds(sum((s) => s.baseLowest))} | ${milliseconds(sum((s) => s.candidateLowest))} | ${
      ratio(sum((s) => s.candidateLowest) / sum((s) => s.baseLowest))
    } | ${milliseconds(sum((s) => s.baseMedian))} | ${milliseconds(sum((s) => s.candidateMedian))} | ${
      ratio(sum((s) => s.candidateMedian) / sum((s) => s.baseMedian))
    } | |`,
    `| geometric mean of the ratios | | | | **${ratio(geometricMean(summaries.map((s) => s.lowestRatio)))}** | | | ${
      ratio(geometricMean(summaries.map((s) => s.medianRatio)))
    } | |`
  ]
  const part = (name: string, millis: (run: Run) => number) => {
    const lowestRatios = comparisons.map((c) => lowest(c.candidate.map(millis)) / lowest(c.base.map(millis)))
    const medianRatios = comparisons.map((c) => median(c.candidate.map(millis)) / median(c.base.map(millis)))
    return `| ${name} | ${ratio(geometricMean(lowestRatios))} | ${ratio(Math.min(...lowestRatios))} to ${
      ratio(Math.max(...lowestRatios))
    } | ${ratio(geometricMean(medianRatios))} |`
  }
  return [
    ...rows,
    "",
    "| part | new / base, lowest: geometric mean | per file | new / base, median: geometric mean |",
    "| --- | ---: | ---: | ---: |",
    part("parse (with the split of a full submission)", (run) => run.parseMillis),
    part("extract", (run) => run.extractMillis),
    part("parse + extract", total)
  ]
}
