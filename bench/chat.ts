/**
 * Chat: how often the offline answer of `POST /v1/chat` holds the figure an analyst asks for, and
 * how soon the first sentence of a streamed answer arrives on a large store.
 *
 * 1. Quality. The questions of the search development set (`bench/quality/search/dev-questions.json`)
 *    whose answer is one figure (those made from XBRL facts, and a few written by hand) are asked
 *    of the answerer the server uses, restricted to the company as an analyst would ask, over the
 *    corpus stored in memory. Reported, by kind and rendition: the share of answers that state the
 *    figure, of answers whose cited passages state it, and of questions where one of the passages
 *    read holds it (what retrieval allowed); beside a baseline that answers with the first two
 *    sentences of the best search result. Every answer is also checked for grounding: each
 *    citation names a passage read, and each figure of a sentence is in a passage it cites.
 * 2. Latency. `filings serve` on a PGlite store of synthetic passages, seeded by
 *    `bench/searchScale.ts` into a temporary directory (or `--data-dir`, a store it seeded before, kept
 *    with its own `--data-dir`): streamed `POST /v1/chat`, one request at a time,
 *    time to the first `sentence` event and to `done`, beside `GET /v1/search` of the same
 *    question (the retrieval the answer is written from), p50 and p99.
 *
 *   node --import tsx bench/chat.ts [--data-dir DIR] [--passages 100000] [--requests 200]
 *     [--output bench/results/chat-latest.md] [--misses FILE.json] [--quality-only]
 *
 * `--misses` writes the questions whose figure a passage read held but the answer did not state,
 * with the answer; `--quality-only` skips the latency part.
 */
import type { Chat as ChatSchemas } from "@filings/domain"
import * as Chat from "@filings/server/chat/Chat"
import { execFile } from "node:child_process"
import { writeFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { cpus, tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs, promisify } from "node:util"
import { openCorpusAnswerer } from "./quality/chat/corpusAnswerer.js"
import { corpusEntries, corpusPresent } from "./quality/search/corpus.js"
import { type DevQuestion, readDevSet } from "./quality/search/devSet.js"
import { Cleanup, createBenchKey, filingsEnvironment, repositoryRoot, startFilingsServe } from "./support/processes.js"

const { values: argv } = parseArgs({
  options: {
    "data-dir": { type: "string" },
    passages: { type: "string", default: "100000" },
    requests: { type: "string", default: "200" },
    output: { type: "string" },
    misses: { type: "string" },
    "quality-only": { type: "boolean", default: false }
  },
  strict: true
})
const output = argv.output ?? join(repositoryRoot, "bench/results/chat-latest.md")
const passageCount = Number(argv.passages)
const requestCount = Number(argv.requests)

const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0
}
const share = (part: number, whole: number) => (whole === 0 ? "-" : (part / whole).toFixed(3))

/** The figures a text states, as the development set writes them: no grouping commas, no sign. */
const figuresOf = (text: string): Set<string> =>
  new Set([...text.matchAll(/\d[\d,]*(?:\.\d+)?/g)].map((match) => match[0].replace(/,/g, "").replace(/\.$/, "")))

// --- 1. Quality --------------------------------------------------------------------------------------

interface QualityOutcome {
  readonly question: DevQuestion
  readonly inAnswer: boolean
  readonly inCited: boolean
  readonly inRead: boolean
  readonly baseline: boolean
  readonly cannotTell: boolean
  readonly ungrounded: ReadonlyArray<string>
  readonly sentences: number
  readonly answer: ReadonlyArray<string>
  readonly ms: number
}

const quality = async () => {
  const questions = readDevSet().filter((question) => question.figure !== undefined)
  console.error(
    `${questions.length} questions with a figure; storing ${corpusEntries.length} corpus files in memory ...`
  )
  const { stored, passages, ask, dispose } = await openCorpusAnswerer()
  const documentOf = new Map(stored.map((entry) => [entry.file, entry.publicationId]))

  const outcomes: Array<QualityOutcome> = []
  for (const question of questions) {
    if (!documentOf.has(question.file)) continue
    const figure = question.figure!
    const request = { question: question.question, tickers: [question.ticker] } as unknown as ChatSchemas.ChatRequest
    const started = performance.now()
    const answered = await ask(request)
    const ms = performance.now() - started
    const read = answered.sources.map((source) => passages.get(`${source.publicationId}/${source.chunkId}`) ?? "")
    const citedTexts = answered.sentences.flatMap((sentence) =>
      sentence.citations.map((citation) => passages.get(`${citation.source}/${citation.chunkId}`) ?? "")
    )
    // Grounding: every citation is a passage read, every figure of a sentence is in one it cites.
    const ungrounded: Array<string> = []
    const readKeys = new Set(answered.sources.map((source) => `${source.publicationId}/${source.chunkId}`))
    for (const sentence of answered.sentences) {
      const cited = sentence.citations.map((citation) => `${citation.source}/${citation.chunkId}`)
      if (cited.some((key) => !readKeys.has(key))) ungrounded.push(`cites a passage not read: ${sentence.text}`)
      const held = new Set(cited.flatMap((key) => [...figuresOf(passages.get(key) ?? "")]))
      const missing = [...figuresOf(sentence.text)].filter((one) => !held.has(one))
      if (missing.length > 0) ungrounded.push(`states ${missing.join(", ")} no cited passage holds: ${sentence.text}`)
    }
    const lead = (read[0] ?? "").split(/(?<=[.!?])\s+/).slice(0, 2).join(" ")
    outcomes.push({
      question,
      inAnswer: figuresOf(answered.sentences.map((sentence) => sentence.text).join(" ")).has(figure),
      inCited: citedTexts.some((text) => figuresOf(text).has(figure)),
      inRead: read.some((text) => figuresOf(text).has(figure)),
      baseline: figuresOf(lead).has(figure),
      cannotTell: answered.sentences.length === 1 && answered.sentences[0]!.text === Chat.CannotTell,
      ungrounded,
      sentences: answered.sentences.length,
      answer: answered.sentences.map((sentence) => sentence.text),
      ms
    })
  }
  await dispose()
  return outcomes
}

// --- 2. Latency --------------------------------------------------------------------------------------

/** The synthetic store's words, as `bench/searchScale.ts` writes them (`w1` the most common). */
const word = (low: number, high: number) => `w${low + Math.floor(Math.random() * (high - low))}`
const companies = 2_000

const latencyQuestions = (): ReadonlyArray<{ readonly question: string; readonly ticker?: string }> =>
  Array.from({ length: requestCount }, (_, index) => {
    const question = `What are the ${word(20, 200)} and ${word(200, 2_000)} of the company?`
    // Half over everything, half within one company.
    return index % 2 === 0 ? { question } : { question, ticker: `T${Math.floor(Math.random() * companies)}` }
  })

/** Milliseconds to the first `sentence` event and to the end of a streamed answer. */
const timeChat = async (url: string, key: string, question: string, ticker: string | undefined) => {
  const started = performance.now()
  const response = await fetch(`${url}/v1/chat`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ question, stream: true, ...(ticker === undefined ? {} : { tickers: [ticker] }) })
  })
  if (response.status !== 200 || response.body === null) {
    throw new Error(`chat: ${response.status} ${await response.text()}`)
  }
  let text = ""
  let firstSentence: number | undefined
  for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
    text += chunk
    if (firstSentence === undefined && text.includes("event: sentence\n")) firstSentence = performance.now() - started
  }
  if (!text.includes("event: done\n")) throw new Error(`chat: no done event in ${text.slice(0, 300)}`)
  // An answer from the passages, rather than "cannot tell" (which cites nothing).
  const cited = /event: sentence\ndata: \{"text":.*"citations":\[\{/.test(text)
  return { firstSentence: firstSentence ?? Number.NaN, done: performance.now() - started, cited }
}

const timeSearch = async (url: string, key: string, question: string, ticker: string | undefined) => {
  const started = performance.now()
  const query = new URLSearchParams({ q: question, limit: "8", ...(ticker === undefined ? {} : { tickers: ticker }) })
  const response = await fetch(`${url}/v1/search?${query}`, { headers: { authorization: `Bearer ${key}` } })
  if (response.status !== 200) throw new Error(`search: ${response.status} ${await response.text()}`)
  await response.arrayBuffer()
  return performance.now() - started
}

const latency = async (cleanup: Cleanup) => {
  const workDir = await mkdtemp(join(tmpdir(), "filings-chat-bench-"))
  cleanup.add("remove the work directory", () => rm(workDir, { recursive: true, force: true }))
  // A store named by --data-dir is taken as seeded (by an earlier run of this or of searchScale.ts).
  const dataDir = argv["data-dir"] ?? join(workDir, "store")
  if (argv["data-dir"] === undefined) {
    console.error(`seeding ${passageCount} synthetic passages in ${dataDir} (bench/searchScale.ts) ...`)
    await promisify(execFile)(process.execPath, [
      "--import",
      "tsx",
      join(repositoryRoot, "bench/searchScale.ts"),
      "--engine",
      "pglite",
      "--passages",
      String(passageCount),
      "--connections",
      "1",
      "--duration",
      "1",
      "--data-dir",
      dataDir,
      "--output",
      join(workDir, "seed.md")
    ], { cwd: repositoryRoot, maxBuffer: 16 * 1024 * 1024 })
  }
  const env = filingsEnvironment(dataDir, "warn")
  const key = await createBenchKey(env, "chat-bench")
  const server = await startFilingsServe({ name: "filings serve", env, logFile: join(workDir, "serve.log") })
  cleanup.add("stop the server", server.stop)
  const asked = latencyQuestions()
  // Unmeasured first requests: the server's and the database's caches.
  for (const { question, ticker } of asked.slice(0, 10)) {
    await timeChat(server.url, key, question, ticker)
    await timeSearch(server.url, key, question, ticker)
  }
  const chat: Array<{ firstSentence: number; done: number; cited: boolean; within: boolean }> = []
  const search: Array<{ ms: number; within: boolean }> = []
  // Each question asked of both, in turn, so that both meet the same machine.
  for (const { question, ticker } of asked) {
    chat.push({ ...await timeChat(server.url, key, question, ticker), within: ticker !== undefined })
    search.push({ ms: await timeSearch(server.url, key, question, ticker), within: ticker !== undefined })
  }
  await server.stop()
  return { chat, search }
}

// --- Report ------------------------------------------------------------------------------------------

const main = async () => {
  const cleanup = new Cleanup()
  try {
    const lines: Array<string> = [
      "# Chat benchmark",
      "",
      `${new Date().toISOString().slice(0, 10)}, Node.js ${process.versions.node}, ${
        cpus()[0]?.model ?? "?"
      } × ${cpus().length}. \`node --import tsx bench/chat.ts\` (after \`npx tsc -b\`).`,
      ""
    ]
    if (!corpusPresent()) {
      lines.push("Quality skipped: ../shared/corpus is absent, and the development set is asked of its documents.", "")
    } else {
      const outcomes = await quality()
      const groups: ReadonlyArray<{ name: string; has: (question: DevQuestion) => boolean }> = [
        { name: "all", has: () => true },
        { name: "XBRL-generated", has: (question) => question.kind === "xbrl" },
        { name: "hand-written", has: (question) => question.kind === "hand" },
        { name: "HTML", has: (question) => question.format === "html" },
        { name: "PDF", has: (question) => question.format === "pdf" }
      ]
      if (argv.misses !== undefined) {
        const missed = outcomes.filter((outcome) => outcome.inRead && !outcome.inAnswer)
        writeFileSync(
          argv.misses,
          JSON.stringify(
            missed.map((o) => ({ question: o.question.question, figure: o.question.figure, answer: o.answer })),
            null,
            1
          )
        )
      }
      const ungrounded = outcomes.flatMap((outcome) => outcome.ungrounded)
      const sentences = outcomes.reduce((sum, outcome) => sum + outcome.sentences, 0)
      lines.push(
        "## The figure asked for, in the extractive answer",
        "",
        `${outcomes.length} questions of the development set whose answer is one figure, each asked of the answerer ` +
          "restricted to its company, over the corpus stored in memory. \"Answer\": the answer's sentences state " +
          "the figure; \"cited\": a passage the answer cites states it; \"read\": one of the 8 passages the answer " +
          "was written from holds it (what retrieval allowed); baseline: the first two sentences of the best " +
          "search result state it.",
        "",
        "| Questions | n | answer | cited | read | baseline | cannot tell |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        ...groups.map(({ has, name }) => {
          const group = outcomes.filter((outcome) => has(outcome.question))
          const count = (pick: (outcome: QualityOutcome) => boolean) => share(group.filter(pick).length, group.length)
          return `| ${name} | ${group.length} | ${count((o) => o.inAnswer)} | ${count((o) => o.inCited)} | ${
            count((o) => o.inRead)
          } | ${count((o) => o.baseline)} | ${count((o) => o.cannotTell)} |`
        }),
        "",
        `Grounding: ${sentences} sentences; ${ungrounded.length} cite a passage not read or state a figure no ` +
          "cited passage holds.",
        ...ungrounded.slice(0, 10).map((line) => `- ${line}`),
        "",
        `Answering in process (memory store): p50 ${percentile(outcomes.map((o) => o.ms), 0.5).toFixed(1)} ms, ` +
          `p99 ${percentile(outcomes.map((o) => o.ms), 0.99).toFixed(1)} ms.`,
        ""
      )
    }
    if (argv["quality-only"]) {
      console.log(lines.join("\n"))
      return
    }
    console.error("latency ...")
    const { chat, search } = await latency(cleanup)
    const row = (name: string, values: ReadonlyArray<number>) =>
      `| ${name} | ${percentile(values, 0.5).toFixed(0)} | ${percentile(values, 0.99).toFixed(0)} |`
    const scoped = <A extends { within: boolean }>(items: ReadonlyArray<A>, within: boolean) =>
      items.filter((item) => item.within === within)
    lines.push(
      `## Time to the first sentence, ${passageCount.toLocaleString("en-US")} passages on PGlite`,
      "",
      `\`filings serve\` on synthetic passages (\`bench/searchScale.ts\`), ${chat.length} questions of ` +
        "two of its words each (one of the 20th to 200th most common, one of the 200th to 2,000th), half over everything and half within one company, asked one at a " +
        "time; each asked of streamed `POST /v1/chat` and of `GET /v1/search` (limit 8) in turn (ms):",
      "",
      "| Request | p50 | p99 |",
      "| --- | ---: | ---: |",
      row("chat: first `sentence` event, everything", scoped(chat, false).map((c) => c.firstSentence)),
      row("chat: first `sentence` event, one company", scoped(chat, true).map((c) => c.firstSentence)),
      row(
        "chat: first `sentence` event, answers citing a passage",
        chat.filter((c) => c.cited).map((c) => c.firstSentence)
      ),
      row("chat: `done`, everything", scoped(chat, false).map((c) => c.done)),
      row("chat: `done`, one company", scoped(chat, true).map((c) => c.done)),
      row("search (baseline), everything", scoped(search, false).map((s) => s.ms)),
      row("search (baseline), one company", scoped(search, true).map((s) => s.ms)),
      "",
      `${chat.filter((c) => c.cited).length} of ${chat.length} answers cite a passage (the rest say they cannot ` +
        "tell, having found no passage holding enough of the question's words). " +
        `First sentence against search, p50 over all: ${
          (percentile(chat.map((c) => c.firstSentence), 0.5) / percentile(search.map((s) => s.ms), 0.5)).toFixed(2)
        }×.`,
      ""
    )
    writeFileSync(output, lines.join("\n"))
    console.log(lines.join("\n"))
  } finally {
    await cleanup.run()
  }
}

await main()
