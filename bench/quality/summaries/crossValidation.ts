/**
 * How well the extractive model's settings generalise: the ECTSum validation calls are split into
 * k folds by a hash of their file names; for each fold, the settings are chosen by a coordinate
 * search on the other folds, and the held-out fold is scored with them. Beside each held-out score
 * stand the hand-set settings the search starts from and the model's current defaults, on the
 * same calls, so one run shows all three. The settings chosen on all calls together (what the
 * defaults are set to) are reported last; their score on those calls is in-sample and flatters them.
 *
 *   node --import tsx bench/quality/summaries/crossValidation.ts [--folds 5] [--highlights 3]
 *     [--output bench/results/summaries-cv-latest.md] [--corpus ../shared/corpus/ectsum-val]
 */
import { ExtractiveModel } from "@filings/feed-summarizer"

import { cpus } from "node:os"
import { resolve } from "node:path"
import { parseArgs } from "node:util"
import { type EarningsCall, ectsumValidationDir, readEctsum } from "./corpus.js"
import { transcriptChunks } from "./ectsum.js"
import { coordinateSearch, foldOf, type SearchSpace } from "./folds.js"
import { publishReport, runEvaluation } from "./report.js"
import { meanScores, type RougeScores, score } from "./rouge.js"

type Settings = ExtractiveModel.ScoringSettings

/**
 * Where every search starts: the settings the model had before they were cross-validated, set by
 * hand, with the cues added since then switched off (range weight 0, aside factor 1). Starting from the current defaults instead would let the held-out calls, which
 * helped choose them, steer each fold's search.
 */
const searchStart: Settings = {
  headlineWeight: 4,
  figureWeight: 1.5,
  maxFigures: 3,
  changeWeight: 1,
  positionDecay: 0.1,
  lengthTarget: 25,
  rangeWeight: 0,
  asideFactor: 1,
  repeatOverlap: 0.5
}

/**
 * The values tried for each setting: a few around the starting value, wide enough that the choice
 * is rarely the edge of the range. The search visits the settings in this order.
 */
const searchSpace: SearchSpace<Settings> = {
  headlineWeight: [2, 4, 6, 8, 10, 12],
  rangeWeight: [0, 2, 4, 6, 8],
  figureWeight: [0.5, 1, 1.5, 2, 3],
  maxFigures: [1, 2, 3, 4, 6],
  changeWeight: [0, 0.5, 1, 1.5, 2],
  positionDecay: [-0.2, 0, 0.1, 0.2, 0.4],
  lengthTarget: [15, 20, 25, 30, 40],
  asideFactor: [0.4, 0.6, 0.8, 1],
  repeatOverlap: [0.3, 0.4, 0.5, 0.7]
}

/**
 * The highlights of a call as `ExtractiveModel.summarize` chooses them for an earnings call (no 8-K
 * items, so no focus; no lead rule), from sentences read once: the search scores hundreds of
 * settings, and reading the sentences again each time would be most of the work. `main` checks
 * that this agrees with `summarize` on every call.
 */
const highlightsOf = (
  sentences: ReadonlyArray<ExtractiveModel.Sentence>,
  highlights: number,
  settings: Settings
): ReadonlyArray<string> =>
  ExtractiveModel.selectSentences(ExtractiveModel.rankSentences(sentences, [], settings), highlights, settings)
    .map(({ sentence }) => ExtractiveModel.asHighlightText(sentence.text))

const summarizedHighlights = (call: EarningsCall, highlights: number, settings: Settings): ReadonlyArray<string> =>
  ExtractiveModel.summarize(
    { source: call.ticker, docType: "EARNINGS_CALL", chunks: transcriptChunks(call.sentences) },
    { maxHighlights: highlights, scoring: settings }
  ).highlights.map((highlight) => highlight.text)

/** Scores every call once per distinct setting, so folds that try the same settings share the work. */
const scorer = (calls: ReadonlyArray<EarningsCall>, highlights: number) => {
  const sentences = calls.map((call) => ExtractiveModel.sentencesOf(transcriptChunks(call.sentences)))
  const cache = new Map<string, ReadonlyArray<RougeScores>>()
  return (settings: Settings): ReadonlyArray<RougeScores> => {
    const key = JSON.stringify(settings)
    const cached = cache.get(key)
    if (cached !== undefined) return cached
    const scores = calls.map((call, index) =>
      score(highlightsOf(sentences[index]!, highlights, settings).join("\n"), call.goldBullets.join("\n"))
    )
    cache.set(key, scores)
    return scores
  }
}

/** Fails unless the shortcut gives, on every call, the highlights `summarize` gives. */
const checkAgainstSummarize = (calls: ReadonlyArray<EarningsCall>, highlights: number, settings: Settings) => {
  for (const call of calls) {
    const sentences = ExtractiveModel.sentencesOf(transcriptChunks(call.sentences))
    const shortcut = highlightsOf(sentences, highlights, settings).join("\n")
    if (shortcut !== summarizedHighlights(call, highlights, settings).join("\n")) {
      throw new Error(`the bench's highlights of ${call.name} differ from ExtractiveModel.summarize's`)
    }
  }
}

interface FoldResult {
  readonly fold: number
  readonly calls: number
  /** The settings the search starts from, the model's hand-set ones before cross-validation. */
  readonly start: RougeScores
  readonly tuned: RougeScores
  /** The model's current defaults, chosen on all calls, this fold included: in-sample. */
  readonly defaults: RougeScores
  readonly settings: Settings
  /** ROUGE-1 F1 of the chosen settings on the training folds, in-sample. */
  readonly trainingObjective: number
}

const meanOf = (values: ReadonlyArray<number>) => values.reduce((sum, value) => sum + value, 0) / values.length
const fixed = (value: number) => value.toFixed(3)
const row = (cells: ReadonlyArray<string | number>) => `| ${cells.join(" | ")} |`
const rouge = (scores: RougeScores) => [scores.rouge1.f1, scores.rouge2.f1, scores.rougeL.f1].map(fixed)

/** The settings that differ from the start, as `name value`; "the start" when none does. */
const changes = (settings: Settings): string => {
  const changed = (Object.keys(settings) as Array<keyof Settings>)
    .filter((name) => settings[name] !== searchStart[name])
    .map((name) => `${name} ${settings[name]}`)
  return changed.length === 0 ? "the start" : changed.join(", ")
}

/** Mean over folds of each fold's mean, for ROUGE-1, -2 and -L F1. */
const meanRow = (scores: ReadonlyArray<RougeScores>) =>
  [
    meanOf(scores.map((s) => s.rouge1.f1)),
    meanOf(scores.map((s) => s.rouge2.f1)),
    meanOf(scores.map((s) => s.rougeL.f1))
  ].map(fixed)

const main = async () => {
  const { values } = parseArgs({
    options: {
      folds: { type: "string" },
      highlights: { type: "string" },
      output: { type: "string" },
      corpus: { type: "string" }
    },
    strict: true
  })
  const folds = Number(values.folds ?? 5)
  const highlights = Number(values.highlights ?? ExtractiveModel.DefaultMaxHighlights)
  if (!Number.isInteger(folds) || folds < 2) throw new Error(`--folds takes a whole number from 2, not ${values.folds}`)
  if (!Number.isInteger(highlights) || highlights < 1) {
    throw new Error(`--highlights takes a positive whole number, not ${values.highlights}`)
  }
  const corpusDir = values.corpus === undefined ? ectsumValidationDir : resolve(values.corpus)
  const corpus = await readEctsum(corpusDir)
  if (corpus._tag === "Absent") {
    process.stdout.write(`Skipped: ${corpus.reason}.\n`)
    return
  }
  const started = performance.now()
  const calls = corpus.calls
  const foldOfCall = calls.map((call) => foldOf(call.name, folds))
  const scoresOf = scorer(calls, highlights)
  const objectiveOn = (inFold: (fold: number) => boolean) => (settings: Settings) =>
    meanOf(scoresOf(settings).filter((_, index) => inFold(foldOfCall[index]!)).map((s) => s.rouge1.f1))
  const meanScoresOn = (settings: Settings, fold: number) =>
    meanScores(scoresOf(settings).filter((_, index) => foldOfCall[index] === fold))

  const results: Array<FoldResult> = []
  for (let fold = 0; fold < folds; fold++) {
    const search = await coordinateSearch(
      searchStart,
      searchSpace,
      objectiveOn((other) => other !== fold)
    )
    const result: FoldResult = {
      fold,
      calls: foldOfCall.filter((other) => other === fold).length,
      start: meanScoresOn(searchStart, fold),
      tuned: meanScoresOn(search.settings, fold),
      defaults: meanScoresOn(ExtractiveModel.DefaultScoring, fold),
      settings: search.settings,
      trainingObjective: search.objective
    }
    process.stderr.write(
      `fold ${fold}: held-out ROUGE-1 ${fixed(result.tuned.rouge1.f1)} (start ${fixed(result.start.rouge1.f1)}) with ${
        changes(result.settings)
      }\n`
    )
    results.push(result)
  }
  const everyCall = await coordinateSearch(searchStart, searchSpace, objectiveOn(() => true))
  for (const settings of [searchStart, ExtractiveModel.DefaultScoring, everyCall.settings]) {
    checkAgainstSummarize(calls, highlights, settings)
  }
  const fullSplit = (settings: Settings) => meanScores(scoresOf(settings))
  const seconds = (performance.now() - started) / 1000

  const settingNames = Object.keys(searchSpace) as Array<keyof Settings>
  const wholeSplitRow = (label: string, settings: Settings) => {
    const scores = fullSplit(settings)
    return row([label, ...rouge(scores), fixed(scores.rougeLsum.f1)])
  }
  const report = [
    `# Summaries: ${folds}-fold cross-validation of the extractive model's settings on ECTSum validation`,
    "",
    `Command: \`node --import tsx bench/quality/summaries/crossValidation.ts --folds ${folds} --highlights ${highlights}\`. Run ${
      new Date().toISOString()
    } on ${cpus()[0]?.model ?? "an unknown CPU"}, Node ${process.version}; ${seconds.toFixed(0)} s.`,
    "",
    `${calls.length} earnings calls, at most ${highlights} highlights each. A call's fold is the FNV-1a hash of its`,
    `file name modulo ${folds}. For each fold, a coordinate search chooses the settings on the other folds by their`,
    "mean ROUGE-1 F1 (from the hand-set start below, at most 3 rounds over the settings in the order listed, a change",
    "kept only if it gains more than 0.0005), and the fold is scored with them. Scores are F1 means over the fold's",
    "calls (stemmed, `rouge-score` semantics); the last row averages the folds' means.",
    "",
    "- **Start**: the hand-set settings every search starts from (the model's settings before cross-validation).",
    "- **Tuned on other folds**: the held-out score, the one that says how the model generalises.",
    "- **Current defaults**: `ExtractiveModel.DefaultScoring`, chosen on all calls, so this fold helped choose them.",
    "",
    "## Held-out scores",
    "",
    row([
      "Fold",
      "Calls",
      "Start R-1",
      "R-2",
      "R-L",
      "Tuned on other folds R-1",
      "R-2",
      "R-L",
      "Current defaults R-1",
      "R-2",
      "R-L"
    ]),
    row(["---", ...Array.from({ length: 10 }, () => "---:")]),
    ...results.map((result) =>
      row([result.fold, result.calls, ...rouge(result.start), ...rouge(result.tuned), ...rouge(result.defaults)])
    ),
    row([
      "**Mean of folds**",
      calls.length,
      ...meanRow(results.map((result) => result.start)),
      ...meanRow(results.map((result) => result.tuned)),
      ...meanRow(results.map((result) => result.defaults))
    ]),
    "",
    "## Settings chosen",
    "",
    row(["Setting", "Start", ...results.map((result) => `Fold ${result.fold}`), "All calls", "Current default"]),
    row(["---", "---:", ...results.map(() => "---:"), "---:", "---:"]),
    ...settingNames.map((name) =>
      row([
        `\`${name}\``,
        searchStart[name],
        ...results.map((result) => result.settings[name]),
        everyCall.settings[name],
        ExtractiveModel.DefaultScoring[name]
      ])
    ),
    row([
      "Training R-1 (in-sample)",
      "",
      ...results.map((result) => fixed(result.trainingObjective)),
      fixed(everyCall.objective),
      ""
    ]),
    "",
    "Values tried: " + settingNames.map((name) => `\`${name}\` ${(searchSpace[name] ?? []).join(", ")}`).join("; ") +
    ".",
    "",
    "## Whole split",
    "",
    "In-sample for the last two rows: those settings were chosen on these same calls.",
    "",
    row(["Settings", "R-1", "R-2", "R-L", "R-Lsum"]),
    row(["---", "---:", "---:", "---:", "---:"]),
    wholeSplitRow("start (hand-set)", searchStart),
    wholeSplitRow(`chosen on all calls (${changes(everyCall.settings)})`, everyCall.settings),
    wholeSplitRow("current defaults", ExtractiveModel.DefaultScoring),
    ""
  ].join("\n")
  await publishReport(report, values.output)
}

runEvaluation(main)
