/**
 * ROUGE of the feed summarizer's extractive model and of two baselines on the ECTSum validation
 * split, for a sweep of sentence budgets k. Prints a Markdown report (progress goes to standard
 * error); `--output` also writes it to a file.
 *
 *   node --import tsx bench/quality/summaries/run.ts [--k 1,2,3,5,8,10] [--output bench/results/summaries-latest.md]
 *     [--corpus ../shared/corpus/ectsum-val]
 */
import { ExtractiveModel } from "@filings/feed-summarizer"

import { cpus } from "node:os"
import { resolve } from "node:path"
import { parseArgs } from "node:util"
import { firstK, textRank } from "./baselines.js"
import { evaluate, formatMarkdown, type SummarySystem, transcriptChunks } from "./ectsum.js"
import { publishReport, runEvaluation } from "./report.js"

/** Every system compared at a budget of k sentences, scored by the same runner on the same calls. */
const systems = (k: number): ReadonlyArray<SummarySystem> => [
  { name: `first-${k}`, summarize: (sentences) => firstK(sentences, k) },
  { name: `textrank-${k}`, summarize: (sentences) => textRank(sentences, k) },
  {
    name: `feed-summarizer-${k}`,
    summarize: (sentences, { ticker }) =>
      ExtractiveModel.summarize(
        { source: ticker, docType: "EARNINGS_CALL", chunks: transcriptChunks(sentences) },
        { maxHighlights: k }
      ).highlights.map((highlight) => highlight.text)
  }
]

const defaultBudgets = [1, 2, 3, 5, 8, 10]

const parseBudgets = (text: string | undefined): Array<number> => {
  if (text === undefined) return defaultBudgets
  const budgets = text.split(",").map((part) => Number(part.trim()))
  if (budgets.some((k) => !Number.isInteger(k) || k < 1)) {
    throw new Error(`--k takes positive whole numbers separated by commas, not ${text}`)
  }
  return budgets
}

const main = async () => {
  const { values } = parseArgs({
    options: { k: { type: "string" }, output: { type: "string" }, corpus: { type: "string" } },
    strict: true
  })
  const budgets = parseBudgets(values.k)
  const evaluation = await evaluate(budgets.flatMap(systems), {
    ...(values.corpus === undefined ? {} : { corpusDir: resolve(values.corpus) }),
    onSystemDone: (result) =>
      process.stderr.write(
        `${result.name}: ROUGE-1 F1 ${result.rouge.rouge1.f1.toFixed(3)} (${result.seconds.toFixed(1)} s)\n`
      )
  })
  const report = [
    "# Summaries: ROUGE on ECTSum validation",
    "",
    `Command: \`node --import tsx bench/quality/summaries/run.ts --k ${budgets.join(",")}\`. Run ${
      new Date().toISOString()
    } on ${cpus()[0]?.model ?? "an unknown CPU"}, Node ${process.version}.`,
    "",
    formatMarkdown(evaluation)
  ].join("\n")
  await publishReport(report, values.output)
}

runEvaluation(main)
