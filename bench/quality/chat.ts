/**
 * Chat quality: how often the offline answer of `POST /v1/chat` (no model configured: the
 * extractive answer) answers an analyst's question right, on the questions of
 * `bench/quality/chat/questions.json` (see `bench/quality/README.md`).
 *
 * The corpus documents of `bench/search/corpus.ts` are stored through the server's own ingestion
 * in a fresh in-memory store; each question is asked of the answerer the server uses, restricted to
 * the company of its evidence document as an analyst would ask. Each answer is scored:
 *
 * - correct: a `figure` question's answer states every expected figure, with its unit (`million`,
 *   `thousand`, `billion`, `employees` ...) and one of its periods; an `items` question's answer
 *   names at least `minItems` of the expected items; a `name` or `yes-no` question's answer holds
 *   every expected phrase (the extractive answer cannot say "yes", it can state the evidence);
 * - ungrounded: a figure the answer states that no passage it cites holds;
 * - refused: the answer says it cannot tell.
 *
 *   node --import tsx bench/quality/chat.ts [--output bench/results/chat-quality-latest.md] [--label TEXT]
 *     [--only ID,ID]   (score only these questions, to look at them closely)
 */
import type { Chat as ChatSchemas } from "@filings/domain"
import * as Chat from "@filings/server/chat/Chat"
import { execFileSync } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { repositoryRoot } from "../support/processes.js"
import { openCorpusAnswerer } from "./chat/corpusAnswerer.js"
import { corpusPresent } from "./search/corpus.js"

const { values: argv } = parseArgs({
  options: { output: { type: "string" }, label: { type: "string" }, only: { type: "string" } },
  strict: true
})
const output = argv.output ?? join(repositoryRoot, "bench/results/chat-quality-latest.md")

/** One question of the development set (see `bench/quality/README.md` for each field). */
interface Question {
  readonly id: string
  readonly kind: "figure" | "items" | "name" | "yes-no"
  readonly question: string
  readonly ticker: string
  readonly file: string
  readonly figures?: ReadonlyArray<string>
  readonly unit?: string
  readonly period?: ReadonlyArray<ReadonlyArray<string>>
  readonly items?: ReadonlyArray<string>
  readonly minItems?: number
  readonly phrases?: ReadonlyArray<string>
  readonly where: string
}

const onlyIds = argv.only === undefined ? undefined : new Set(argv.only.split(","))
const questions: ReadonlyArray<Question> =
  (JSON.parse(readFileSync(new URL("./chat/questions.json", import.meta.url), "utf8")) as {
    readonly questions: ReadonlyArray<Question>
  }).questions.filter((question) => onlyIds === undefined || onlyIds.has(question.id))

/** The figures a text states, grouping commas and signs left out (`$(31,370)` is `31370`). */
const figuresOf = (text: string): Set<string> =>
  new Set([...text.matchAll(/\d[\d,]*(?:\.\d+)?/g)].map((match) => match[0].replace(/,/g, "").replace(/\.$/, "")))

const normalized = (text: string) => text.toLowerCase().replace(/[’']/g, "'").replace(/\s+/g, " ")
const says = (text: string, phrase: string) => normalized(text).includes(normalized(phrase))

/** How a unit may be written: `million` also as `millions`, `employees` also as `full-time equivalent employees`. */
const statesUnit = (text: string, unit: string) =>
  says(text, unit) || (unit.endsWith("s") && says(text, unit.slice(0, -1)))

interface Scored {
  readonly question: Question
  readonly answer: string
  readonly correct: boolean
  /** For a figure question, whether the figure is stated at all (with or without unit and period). */
  readonly figureStated: boolean
  readonly refused: boolean
  /** For a figure question, whether a passage read (cited or not) holds the figures: what retrieval allowed. */
  readonly read: boolean
  readonly ungrounded: ReadonlyArray<string>
}

const score = (question: Question, answer: string): Pick<Scored, "correct" | "figureStated"> => {
  switch (question.kind) {
    case "figure": {
      const stated = figuresOf(answer)
      const figureStated = (question.figures ?? []).every((figure) => stated.has(figure))
      const unit = question.unit === undefined || statesUnit(answer, question.unit)
      const periods = question.period ?? []
      const period = periods.length === 0 || periods.some((phrases) => phrases.every((phrase) => says(answer, phrase)))
      return { correct: figureStated && unit && period, figureStated }
    }
    case "items": {
      const named = (question.items ?? []).filter((item) => says(answer, item)).length
      return { correct: named >= (question.minItems ?? 1), figureStated: false }
    }
    case "name":
    case "yes-no":
      return { correct: (question.phrases ?? []).every((phrase) => says(answer, phrase)), figureStated: false }
  }
}

const main = async () => {
  if (!corpusPresent()) throw new Error("the corpus (../shared/corpus) is not there to score on")
  console.error("storing the corpus in memory ...")
  const { stored, passages, ask, dispose } = await openCorpusAnswerer()
  const tickerOf = new Map(stored.map((entry) => [entry.file, entry.ticker]))

  const results: Array<Scored> = []
  for (const question of questions) {
    const ticker = tickerOf.get(question.file)
    if (ticker === undefined) throw new Error(`${question.id}: ${question.file} is not among the documents stored`)
    if (ticker !== question.ticker) {
      throw new Error(`${question.id}: ${question.file} is stored under ${ticker}, not ${question.ticker}`)
    }
    const request = { question: question.question, tickers: [ticker] } as unknown as ChatSchemas.ChatRequest
    const answered = await ask(request)
    const answer = answered.sentences.map((sentence) => sentence.text).join(" ")
    const ungrounded: Array<string> = []
    for (const sentence of answered.sentences) {
      const held = new Set(sentence.citations.flatMap((citation) => [
        ...figuresOf(passages.get(`${citation.source}/${citation.chunkId}`) ?? "")
      ]))
      for (const figure of figuresOf(sentence.text)) if (!held.has(figure)) ungrounded.push(figure)
    }
    const readFigures = new Set(answered.sources.flatMap((source) => [
      ...figuresOf(passages.get(`${source.publicationId}/${source.chunkId}`) ?? "")
    ]))
    const read = (question.figures ?? []).length > 0 && question.figures!.every((figure) => readFigures.has(figure))
    const refused = answered.sentences.length === 1 && answered.sentences[0]!.text === Chat.CannotTell
    results.push({ question, answer, refused, read, ungrounded, ...score(question, answer) })
  }
  await dispose()

  const count = (test: (result: Scored) => boolean) => results.filter(test).length
  const figureQuestions = results.filter((result) => result.question.kind === "figure")
  const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: repositoryRoot, encoding: "utf8" }).trim()
  const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\s+/g, " ").slice(0, 400)
  const lines = [
    `# Chat quality${argv.label === undefined ? "" : `: ${argv.label}`}`,
    "",
    `Commit \`${commit}\`; \`npm run bench:chat-quality\` (offline extractive answer, no model configured),`,
    `${questions.length} questions of \`bench/quality/chat/questions.json\` over the corpus stored in memory.`,
    "",
    "| measure | count | share |",
    "| --- | ---: | ---: |",
    `| correct | ${count((r) => r.correct)} | ${(count((r) => r.correct) / results.length).toFixed(3)} |`,
    `| figure questions: the figure stated (unit and period or not) | ${
      count((r) => r.figureStated)
    } of ${figureQuestions.length} | ${(count((r) => r.figureStated) / figureQuestions.length).toFixed(3)} |`,
    `| figure questions: a passage read holds the figure (what retrieval allowed) | ${
      count((r) => r.read)
    } of ${figureQuestions.length} | ${(count((r) => r.read) / figureQuestions.length).toFixed(3)} |`,
    `| answers stating a figure no cited passage holds | ${count((r) => r.ungrounded.length > 0)} | ${
      (count((r) => r.ungrounded.length > 0) / results.length).toFixed(3)
    } |`,
    `| refusals (cannot tell) | ${count((r) => r.refused)} | ${
      (count((r) => r.refused) / results.length).toFixed(3)
    } |`,
    "",
    "## By kind",
    "",
    "| kind | questions | correct |",
    "| --- | ---: | ---: |",
    ...["figure", "items", "name", "yes-no"].map((kind) => {
      const of = results.filter((r) => r.question.kind === kind)
      return `| ${kind} | ${of.length} | ${of.filter((r) => r.correct).length} |`
    }),
    "",
    "## Answers",
    "",
    "| question | correct | read | ungrounded | answer |",
    "| --- | --- | --- | --- | --- |",
    ...results.map((r) =>
      `| ${r.question.id} | ${r.correct ? "yes" : r.figureStated ? "figure only" : "no"} | ${
        r.question.kind === "figure" ? (r.read ? "yes" : "no") : ""
      } | ${r.ungrounded.join(", ")} | ${cell(r.answer)} |`
    ),
    ""
  ]
  writeFileSync(output, lines.join("\n"))
  console.log(lines.slice(0, 14).join("\n"))
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
