/**
 * Feed benchmark, two parts:
 *
 * 1. The default summary model against parsing, per document, in this process (CPU time, median of
 *    `--rounds` runs after one warm-up): every document of the corpus's 10-K, 10-Q, 8-K, transcripts
 *    and press-releases folders, parsed with `Parser.parse` (the folder's form as the hint) and
 *    summarised from its chunks with `ExtractiveModel.summarize`; then the ECTSum validation
 *    transcripts (one sentence per line, 12 sentences a chunk as `summaries/run.ts` builds them).
 *    Summaries per second, the median and p95 time per document, and summarising time over the
 *    parsing time of the same document (parsing is the step before it).
 * 2. `POST /v1/feed` for 50 tickers on a feed of 100,000 items (1,000 synthetic tickers × 100 items
 *    over two years, three cited highlights each), stored in bulk: on embedded PGlite and, when
 *    `FILINGS_TEST_DATABASE_URL` names a PostgreSQL server, on a fresh database there (dropped
 *    afterwards). In this process, one query at a time: `FeedStore.query` (each ticker's newest items
 *    through the (ticker, time) index) against the plain `WHERE ticker IN (...) ORDER BY ... LIMIT`
 *    on the same table, for the newest page, for a page ending in the middle of the two years, and
 *    for the page after the newest one (a cursor's, from the last item's key). Then, through the real
 *    `filings serve` on the same database (autocannon, random ticker sets), the same three requests
 *    (the third with the `next_cursor` of each set's newest page): req/s, p50, p99, and HTTP p50 over
 *    query p50.
 *
 *   node --import tsx bench/feed.ts [--rounds 3] [--tickers 1000] [--items 100] [--asked 50]
 *     [--queries 200] [--duration 10] [--warmup 2] [--connections 10] [--part summaries|feed]
 *     [--output bench/results/feed-latest.md] [--log-dir <keep the server logs here>]
 *     [--cpu-prof <directory for the servers' V8 CPU profiles>]
 */
import { SqlClient } from "@effect/sql"
import { type DocType, Feed, type Ids } from "@filings/domain"
import { ExtractiveModel, type SummaryChunk, type SummaryInput } from "@filings/feed-summarizer"
import { type ParsedDocument, Parser, SectionQuery } from "@filings/filings-parser"
import { FeedStore } from "@filings/storage"
import { Database, SqlStorage } from "@filings/storage-sql"
import autocannon from "autocannon"
import { Effect, Layer, Redacted } from "effect"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { cpus, loadavg, tmpdir } from "node:os"
import { join, relative, resolve } from "node:path"
import { isDeepStrictEqual, parseArgs } from "node:util"
import { corpusDir } from "../test/support/corpus.js"
import { createDatabase } from "../test/support/postgres.js"
import { type EarningsCall, ectsumValidationDir, readEctsum } from "./quality/summaries/corpus.js"
import { transcriptChunks } from "./quality/summaries/ectsum.js"
import type { LoadRun, Summary } from "./support/load.js"
import { summarize } from "./support/load.js"
import {
  Cleanup,
  createBenchKey,
  filingsEnvironment,
  type ListeningProcess,
  repositoryRoot,
  startFilingsServe
} from "./support/processes.js"

// --- Settings ---------------------------------------------------------------------------------

const { values: argv } = parseArgs({
  options: {
    rounds: { type: "string" },
    tickers: { type: "string" },
    items: { type: "string" },
    asked: { type: "string" },
    queries: { type: "string" },
    duration: { type: "string" },
    warmup: { type: "string" },
    connections: { type: "string" },
    part: { type: "string" },
    output: { type: "string" },
    "log-dir": { type: "string" },
    "cpu-prof": { type: "string" }
  },
  strict: true
})

const wholeNumber = (name: string, text: string | undefined, fallback: number, minimum: number): number => {
  if (text === undefined) return fallback
  const value = Number(text)
  if (!Number.isInteger(value) || value < minimum) throw new Error(`--${name} must be a whole number ≥ ${minimum}`)
  return value
}

const settings = {
  /** Measured runs per document of part 1, after one warm-up. */
  rounds: wholeNumber("rounds", argv.rounds, 3, 1),
  tickers: wholeNumber("tickers", argv.tickers, 1_000, 1),
  /** Feed items per ticker. */
  items: wholeNumber("items", argv.items, 100, 1),
  /** Tickers per request (the API takes at most 50). */
  asked: wholeNumber("asked", argv.asked, 50, 1),
  /** In-process queries per variant (after a tenth as many unmeasured). */
  queries: wholeNumber("queries", argv.queries, 200, 1),
  /** Seconds of each measured HTTP run. */
  duration: wholeNumber("duration", argv.duration, 10, 1),
  /** Seconds of unmeasured load before each HTTP run. */
  warmup: wholeNumber("warmup", argv.warmup, 2, 0),
  connections: wholeNumber("connections", argv.connections, 10, 1),
  part: argv.part,
  output: resolve(repositoryRoot, argv.output ?? join("bench", "results", "feed-latest.md")),
  /** Where the servers' logs are kept; by default the work directory, removed at the end. */
  logDir: argv["log-dir"] === undefined ? undefined : resolve(argv["log-dir"]),
  /** Where V8 CPU profiles of the servers go (written when they stop); none by default. */
  cpuProfileDir: argv["cpu-prof"] === undefined ? undefined : resolve(argv["cpu-prof"])
}
if (settings.part !== undefined && settings.part !== "summaries" && settings.part !== "feed") {
  throw new Error(`--part is summaries or feed, not ${settings.part}`)
}
if (settings.asked > settings.tickers || settings.asked > 50) {
  throw new Error("--asked must be at most --tickers and at most 50 (the API's limit)")
}

const startedAt = Date.now()
const progress = (line: string) =>
  process.stderr.write(`[${((Date.now() - startedAt) / 1000).toFixed(0).padStart(4)} s] ${line}\n`)

// --- Statistics and formatting ----------------------------------------------------------------

/** Nearest-rank percentile. */
const percentile = (values: ReadonlyArray<number>, p: number): number => {
  const sorted = Float64Array.from(values).sort()
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
}
const median = (values: ReadonlyArray<number>) => percentile(values, 50)
const sum = (values: ReadonlyArray<number>) => values.reduce((total, value) => total + value, 0)

const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`
const ratio = (value: number) => value.toFixed(value >= 10 ? 1 : value >= 1 ? 2 : 3)
const integer = (value: number) => Math.round(value).toLocaleString("en-US")
const row = (cells: ReadonlyArray<string | number>) => `| ${cells.join(" | ")} |`

const cpuMillis = (run: () => void): number => {
  const start = process.cpuUsage()
  run()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000
}

// --- 1. Summaries against parsing -------------------------------------------------------------

interface CorpusFolder {
  readonly folder: string
  readonly docType: DocType.FeedDocType
  /** The form the parser is told, as ingestion tells it. */
  readonly form: string
}

const corpusFolders: ReadonlyArray<CorpusFolder> = [
  { folder: "10-K", docType: "10-K", form: "10-K" },
  { folder: "10-Q", docType: "10-Q", form: "10-Q" },
  { folder: "8-K", docType: "8-K", form: "8-K" },
  { folder: "transcripts", docType: "EARNINGS_CALL", form: "EARNINGS_CALL" },
  { folder: "press-releases", docType: "PRESS_RELEASE", form: "PRESS_RELEASE" }
]

interface TimedDocument {
  readonly name: string
  readonly docType: DocType.FeedDocType
  readonly bytes: number
  readonly chunks: number
  readonly words: number
  readonly parseMs: number
  readonly summarizeMs: number
  readonly highlights: number
}

/** An 8-K's items as the summarizer takes them (`2.02`): the header's list, else the sections found. */
const eightKItems = (parsed: ParsedDocument.ParsedDocument): ReadonlyArray<string> => {
  const fromHeader = (parsed.header?.items ?? []).flatMap((title) => {
    const number = SectionQuery.eightKItemForTitle(title)
    return number === undefined ? [] : [number]
  })
  if (fromHeader.length > 0) return fromHeader
  return parsed.sections.flatMap((section) =>
    section.item !== undefined && /^\d\.\d{2}$/.test(section.item) ? [section.item] : []
  )
}

/**
 * Parses and summarises one document `rounds` times after a warm-up, the two steps taking turns, and
 * keeps the median CPU time of each. `chunksOf` gives what the summarizer reads (the parser's chunks
 * unless told otherwise).
 */
const timeDocument = (options: {
  readonly name: string
  readonly docType: DocType.FeedDocType
  readonly bytes: Uint8Array
  readonly form: string
  readonly chunksOf?: (parsed: ParsedDocument.ParsedDocument) => ReadonlyArray<SummaryChunk>
}): TimedDocument => {
  const parse = () => Effect.runSync(Parser.parse({ bytes: options.bytes, fileName: options.name, form: options.form }))
  const inputOf = (parsed: ParsedDocument.ParsedDocument): SummaryInput => ({
    source: options.name,
    docType: options.docType,
    ...(options.docType === "8-K" ? { items: eightKItems(parsed) } : {}),
    chunks: options.chunksOf?.(parsed) ?? parsed.chunks,
    title: parsed.title
  })
  let parsed = parse()
  let summary = ExtractiveModel.summarize(inputOf(parsed))
  const parseTimes: Array<number> = []
  const summarizeTimes: Array<number> = []
  for (let round = 0; round < settings.rounds; round++) {
    parseTimes.push(cpuMillis(() => (parsed = parse())))
    const input = inputOf(parsed)
    summarizeTimes.push(cpuMillis(() => (summary = ExtractiveModel.summarize(input))))
  }
  return {
    name: options.name,
    docType: options.docType,
    bytes: options.bytes.length,
    chunks: inputOf(parsed).chunks.length,
    words: parsed.wordCount,
    parseMs: median(parseTimes),
    summarizeMs: median(summarizeTimes),
    highlights: summary.highlights.length
  }
}

const corpusDocuments = (): ReadonlyArray<TimedDocument> => {
  const timed: Array<TimedDocument> = []
  for (const { docType, folder, form } of corpusFolders) {
    const directory = join(corpusDir, folder)
    if (!existsSync(directory)) continue
    for (const name of readdirSync(directory).filter((file) => /\.(htm|html|txt|json)$/i.test(file)).sort()) {
      const document = timeDocument({ name, docType, form, bytes: new Uint8Array(readFileSync(join(directory, name))) })
      timed.push(document)
      progress(
        `${folder}/${name}: parse ${ms(document.parseMs)}, summarize ${
          ms(document.summarizeMs)
        } (${document.chunks} chunks)`
      )
    }
  }
  return timed
}

/** Each transcript summarised from the chunks above; its text (one sentence a line) parsed as the baseline. */
const ectsumDocuments = (calls: ReadonlyArray<EarningsCall>): ReadonlyArray<TimedDocument> =>
  calls.map((call, index) => {
    const chunks = transcriptChunks(call.sentences)
    const document = timeDocument({
      name: call.name,
      docType: "EARNINGS_CALL",
      form: "EARNINGS_CALL",
      bytes: new TextEncoder().encode(call.sentences.join("\n")),
      chunksOf: () => chunks
    })
    if ((index + 1) % 50 === 0) progress(`ECTSum: ${index + 1} of ${calls.length} transcripts`)
    return document
  })

interface SummaryStats {
  readonly label: string
  readonly documents: number
  readonly summariesPerSecond: number
  readonly medianMs: number
  readonly p95Ms: number
  readonly maxMs: number
  readonly medianRatio: number
  /** All summarising time over all parsing time. */
  readonly totalRatio: number
}

const statsOf = (label: string, documents: ReadonlyArray<TimedDocument>): SummaryStats => {
  const summarizeTimes = documents.map((document) => document.summarizeMs)
  return {
    label,
    documents: documents.length,
    summariesPerSecond: documents.length / (sum(summarizeTimes) / 1000),
    medianMs: median(summarizeTimes),
    p95Ms: percentile(summarizeTimes, 95),
    maxMs: Math.max(...summarizeTimes),
    medianRatio: median(documents.map((document) => document.summarizeMs / document.parseMs)),
    totalRatio: sum(summarizeTimes) / sum(documents.map((document) => document.parseMs))
  }
}

const statsTable = (stats: ReadonlyArray<SummaryStats>) => [
  "| documents | n | summaries/s | median | p95 | max | summarize / parse, median | summarize / parse, all |",
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ...stats.map((entry) =>
    row([
      entry.label,
      entry.documents,
      integer(entry.summariesPerSecond),
      ms(entry.medianMs),
      ms(entry.p95Ms),
      ms(entry.maxMs),
      ratio(entry.medianRatio),
      ratio(entry.totalRatio)
    ])
  )
]

const summariesPart = async (): Promise<ReadonlyArray<string>> => {
  if (!existsSync(corpusDir)) {
    progress(`Part 1 skipped: no corpus at ${relative(repositoryRoot, corpusDir)}`)
    return [`(skipped: the corpus is absent; expected at \`${relative(repositoryRoot, corpusDir)}\`)`]
  }
  progress("Part 1: summarising the corpus...")
  const corpus = corpusDocuments()
  const ectsum = await readEctsum(ectsumValidationDir)
  if (ectsum._tag === "Found") progress(`Part 1: ${ectsum.calls.length} ECTSum transcripts...`)
  const calls = ectsum._tag === "Found" ? ectsumDocuments(ectsum.calls) : []
  const byType = corpusFolders.flatMap(({ docType, folder }) => {
    const documents = corpus.filter((document) => document.docType === docType)
    return documents.length === 0 ? [] : [statsOf(`corpus ${folder}`, documents)]
  })
  const overall = [
    statsOf("corpus, all", corpus),
    ...(calls.length === 0 ? [] : [statsOf("ECTSum validation transcripts", calls)])
  ]
  return [
    `CPU time in this process, median of ${settings.rounds} runs per document after one warm-up. Parsing is`,
    "`Parser.parse` from the bytes with the folder's form as the hint; summarising is",
    "`ExtractiveModel.summarize({ source, docType, items, chunks, title })` on its result (8-K items from the",
    "submission header or the sections, as ingestion finds them). summaries/s = documents / total summarising time.",
    "ECTSum transcripts are summarised from chunks of 12 sentences (as `bench/quality/summaries/run.ts` builds them);",
    "their parse time, the baseline, is `Parser.parse` of the same text as an `EARNINGS_CALL`.",
    "",
    ...statsTable([...overall, ...byType]),
    "",
    ...(ectsum._tag === "Found" ? [] : [`ECTSum skipped: ${ectsum.reason}.`, ""]),
    "<details><summary>Per corpus document</summary>",
    "",
    "| document | type | kB | words | chunks | parse | summarize | summarize / parse | highlights |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...corpus.map((document) =>
      row([
        document.name,
        document.docType,
        integer(document.bytes / 1000),
        integer(document.words),
        document.chunks,
        ms(document.parseMs),
        ms(document.summarizeMs),
        ratio(document.summarizeMs / document.parseMs),
        document.highlights
      ])
    ),
    "",
    "</details>"
  ]
}

// --- 2. The feed: synthetic items ---------------------------------------------------------------

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so every run stores the same feed. */
const randomSource = (seed: number) => {
  let state = seed >>> 0
  return (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state)
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296
  }
}

/** The feed's two years end here; a fixed instant, so that runs compare. */
const windowEnd = Date.UTC(2026, 10, 25)
const windowStart = Date.UTC(2024, 10, 25)
/** The paging request's `end_date`: the middle of the two years. */
const middle = new Date((windowStart + windowEnd) / 2).toISOString()

/** `AAA`, `AAB`, ...: three letters for the first 17,576 tickers, then a number after them. */
const tickerName = (index: number): Ids.Ticker => {
  let name = ""
  let rest = index
  for (let letter = 0; letter < 3; letter++) {
    name = String.fromCharCode(65 + (rest % 26)) + name
    rest = Math.floor(rest / 26)
  }
  return (rest === 0 ? name : `${name}${rest}`) as Ids.Ticker
}

const companySuffixes = ["Holdings Inc.", "Corporation", "Group plc", "Technologies Inc.", "Industries Co.", "Bancorp"]

/** How often each kind of item appears in a company's feed. */
const kindWeights: ReadonlyArray<readonly [DocType.FeedDocType, number]> = [
  ["NEWS", 0.36],
  ["8-K", 0.22],
  ["PRESS_RELEASE", 0.18],
  ["EARNINGS_CALL", 0.08],
  ["10-Q", 0.06],
  ["PRESENTATION", 0.06],
  ["10-K", 0.04]
]

const categoriesOf: Partial<Record<DocType.FeedDocType, ReadonlyArray<Feed.Category>>> = {
  "10-K": ["Earnings", "Financial"],
  "10-Q": ["Earnings", "Financial"],
  EARNINGS_CALL: ["Earnings", "Guidance Update"]
}
const otherCategories: ReadonlyArray<Feed.Category> = Feed.Categories

type Random = () => number
const between = (random: Random, low: number, high: number, digits = 1) =>
  (low + random() * (high - low)).toFixed(digits)

/** Sentences shaped like the highlights the summarizer picks: a figure, a comparison, a reason. */
const highlightTexts: ReadonlyArray<(random: Random, company: string) => string> = [
  (random) =>
    `Revenue for the quarter was $${between(random, 0.4, 40)} billion, up ${
      between(random, 1, 25)
    }% from the same quarter a year earlier.`,
  (random) =>
    `Diluted earnings per share were $${between(random, 0.1, 6, 2)}, compared with $${
      between(random, 0.1, 6, 2)
    } in the prior-year period.`,
  (random) =>
    `The company now expects full-year revenue of $${between(random, 2, 20)} billion to $${
      between(random, 20, 30)
    } billion, above the range it gave in the previous quarter.`,
  (random) =>
    `Operating margin widened to ${
      between(random, 5, 35)
    }% as lower freight costs and a richer product mix more than offset higher wages.`,
  (random) =>
    `The board declared a quarterly dividend of $${between(random, 0.05, 1.5, 2)} per share and authorised a new $${
      integer(100 + random() * 4900)
    } million share repurchase program.`,
  (random) =>
    `Free cash flow reached $${integer(50 + random() * 9000)} million, and net debt fell to ${
      between(random, 0.5, 3.5)
    } times trailing adjusted EBITDA.`,
  (_random, company) =>
    `${company} appointed a new chief financial officer, who joins from a competitor at the start of the next fiscal quarter.`,
  (random) =>
    `Backlog stood at $${between(random, 1, 60)} billion at the end of the quarter, ${
      between(random, 2, 40)
    }% higher than a year ago, with orders strongest in data center products.`,
  (random) =>
    `Same-store sales declined ${
      between(random, 0.5, 9)
    }% as traffic weakened in the company's largest region and promotions weighed on prices.`,
  (random) =>
    `The company agreed to acquire a privately held software maker for $${
      integer(200 + random() * 5000)
    } million in cash, expected to close in the second half of the year.`
]

const titleOf = (kind: DocType.FeedDocType, company: string, at: Date, random: Random): string => {
  const year = at.getUTCFullYear()
  const quarter = Math.floor(at.getUTCMonth() / 3) + 1
  switch (kind) {
    case "10-K":
      return `${company} 10-K FY ${year - 1}`
    case "10-Q":
      return `${company} 10-Q Q${quarter} ${year}`
    case "8-K":
      return `${company} 8-K ${at.toISOString().slice(0, 10)}`
    case "EARNINGS_CALL":
      return `${company} Q${quarter} ${year} earnings call`
    case "PRESS_RELEASE":
      return `${company} Reports ${["First", "Second", "Third", "Fourth"][quarter - 1]} Quarter ${year} Results`
    case "PRESENTATION":
      return `${company} investor presentation, ${at.toISOString().slice(0, 10)}`
    case "NEWS":
      return `${company} ${
        ["shares rise after analyst upgrade", "faces regulatory review", "expands into new markets", "cuts jobs"][
          Math.floor(random() * 4)
        ]
      }`
  }
}

const pickKind = (random: Random): DocType.FeedDocType => {
  let draw = random()
  for (const [kind, weight] of kindWeights) {
    draw -= weight
    if (draw < 0) return kind
  }
  return "NEWS"
}

/**
 * The feed items of one ticker: `settings.items` over the two years, each with three highlights
 * citing chunks of its source. A press release comes at the very instant of its company's last 8-K,
 * as it does when it is that 8-K's exhibit, so some items share a publication time.
 */
const tickerItems = (tickerIndex: number): ReadonlyArray<FeedStore.StoredFeedItem> => {
  const random = randomSource(1_000_003 * (tickerIndex + 1))
  const ticker = tickerName(tickerIndex)
  const company = `${ticker} ${companySuffixes[tickerIndex % companySuffixes.length]}`
  const cik = String(1_100_000 + tickerIndex).padStart(10, "0")
  const items: Array<FeedStore.StoredFeedItem> = []
  const ids = new Set<string>()
  let lastEightK: { readonly id: string; readonly at: number; releases: number } | undefined
  for (let index = 0; index < settings.items; index++) {
    const kind = pickKind(random)
    let at = windowStart + Math.floor(random() * ((windowEnd - windowStart) / 1000)) * 1000
    const date = () => new Date(at).toISOString().slice(0, 10)
    const accession = () => `${cik}-${date().slice(2, 4)}-${String(index).padStart(6, "0")}`
    let id: string
    if (kind === "PRESS_RELEASE" && lastEightK !== undefined) {
      at = lastEightK.at
      id = `${lastEightK.id}-ex99.${++lastEightK.releases}`
    } else if (kind === "10-K" || kind === "10-Q" || kind === "8-K" || kind === "PRESS_RELEASE") {
      id = kind === "PRESS_RELEASE" ? `${accession()}-ex99.1` : accession()
      if (kind === "8-K") lastEightK = { id, at, releases: 0 }
    } else if (kind === "EARNINGS_CALL") {
      id = `call-${ticker.toLowerCase()}-${date()}`
      if (ids.has(id)) id = `${id}-${index}`
    } else {
      id = `${kind === "NEWS" ? "news" : "deck"}-${ticker.toLowerCase()}-${String(index).padStart(4, "0")}`
    }
    ids.add(id)
    const chosen = new Set<number>()
    while (chosen.size < 3) chosen.add(Math.floor(random() * highlightTexts.length))
    const chunkCount = kind === "10-K" ? 400 : kind === "10-Q" ? 150 : 20
    const chunkId = () => `c${String(1 + Math.floor(random() * chunkCount)).padStart(4, "0")}`
    const move = random()
    items.push({
      id,
      ticker,
      companyName: company,
      title: titleOf(kind, company, new Date(at), random),
      docType: kind,
      publishedAtMillis: at,
      categories: categoriesOf[kind] ??
        [...new Set([otherCategories[Math.floor(random() * 8)]!, otherCategories[Math.floor(random() * 8)]!])],
      sentiment: (["positive", "neutral", "negative"] as const)[Math.floor(random() * 3)]!,
      stockChange: move < 0.7 ? null : {
        percentage: Number(between(random, 0, 8, 2)),
        direction: move < 0.8 ? "down" : move < 0.9 ? "up" : "flat"
      },
      highlights: [...chosen].map((template) => ({
        text: highlightTexts[template]!(random, company),
        citations: random() < 0.2
          ? [{ source: id, chunkId: chunkId() }, { source: id, chunkId: chunkId() }]
          : [{ source: id, chunkId: chunkId() }]
      })),
      model: "extractive"
    })
  }
  return items
}

/** The ticker sets of the requests: random, distinct within a set, the same every run. */
const tickerSets = (count: number): ReadonlyArray<ReadonlyArray<Ids.Ticker>> => {
  const random = randomSource(42)
  return Array.from({ length: count }, () => {
    const chosen = new Set<number>()
    while (chosen.size < settings.asked) chosen.add(Math.floor(random() * settings.tickers))
    return [...chosen].map(tickerName)
  })
}

const sets = tickerSets(Math.max(settings.queries, 200))

// --- 2. The feed: storing and querying in process -----------------------------------------------

/** Items stored one by one with `FeedStore.save`, to time it; the rest go in multi-row inserts. */
const savedOneByOne = 1_000
const insertBatch = 1_000
/** What `POST /v1/feed` asks the store for: one more than the page, to find where the page ends. */
const pageLimit = 50
const storeLimit = pageLimit + 1

interface Seeded {
  readonly items: number
  readonly saveItemsPerSecond: number
  readonly insertItemsPerSecond: number
  readonly seconds: number
}

/** 1,000 items through `save`, the rest in multi-row `INSERT`s of 1,000 rows, then `ANALYZE`. */
const seed = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const store = yield* FeedStore.FeedStore
  const started = performance.now()
  let saved = 0
  let saveMillis = 0
  let inserted = 0
  let insertMillis = 0
  let pending: Array<FeedStore.StoredFeedItem> = []
  const flush = Effect.gen(function*() {
    if (pending.length === 0) return
    const rows = pending.map((item) => ({
      id: item.id,
      ticker: item.ticker,
      company_name: item.companyName,
      title: item.title,
      doc_type: item.docType,
      published_at_ms: item.publishedAtMillis,
      categories: Database.jsonb(item.categories),
      sentiment: item.sentiment,
      stock_change: Database.jsonb(item.stockChange),
      highlights: Database.jsonb(item.highlights),
      model: item.model
    }))
    const batchStarted = performance.now()
    yield* sql`INSERT INTO feed_items ${sql.insert(rows)}`
    insertMillis += performance.now() - batchStarted
    inserted += rows.length
    pending = []
  })
  for (let tickerIndex = 0; tickerIndex < settings.tickers; tickerIndex++) {
    for (const item of tickerItems(tickerIndex)) {
      if (saved < savedOneByOne) {
        const saveStarted = performance.now()
        yield* store.save(item)
        saveMillis += performance.now() - saveStarted
        saved++
        continue
      }
      pending.push(item)
      if (pending.length === insertBatch) yield* flush
    }
    if ((tickerIndex + 1) % 100 === 0) progress(`  stored the items of ${tickerIndex + 1} tickers`)
  }
  yield* flush
  yield* sql`ANALYZE feed_items`
  const [counted] = yield* sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM feed_items`
  // What a multi-row insert stored reads back as what `save` would have stored.
  for (const tickerIndex of [0, Math.floor(settings.tickers / 2), settings.tickers - 1]) {
    const expected = tickerItems(tickerIndex)
    for (const item of [expected[0]!, expected[expected.length - 1]!]) {
      const found = yield* store.findById(item.id)
      if (found._tag === "None" || !isDeepStrictEqual(found.value, item)) {
        return yield* Effect.die(new Error(`feed item ${item.id} does not read back as written`))
      }
    }
  }
  return {
    items: counted?.n ?? 0,
    saveItemsPerSecond: saved / (saveMillis / 1000),
    insertItemsPerSecond: inserted / (insertMillis / 1000),
    seconds: (performance.now() - started) / 1000
  } satisfies Seeded
})

const feedColumns = `id, ticker, company_name, title, doc_type, published_at_ms::float8 AS published_at_ms,
  categories, sentiment, stock_change, highlights, model`

/** Where a page starts: before an instant (`end_date`), or after an item's key (a cursor). */
interface PageStart {
  readonly beforeMillis?: number | undefined
  readonly after?: FeedStore.FeedKey | undefined
}

/** The query without the per-ticker strategy: every matching row, sorted, the newest kept. */
const naiveQuery = (tickers: ReadonlyArray<string>, { after, beforeMillis }: PageStart) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly id: string }>`
      SELECT ${sql.literal(feedColumns)} FROM feed_items
      WHERE ${
      sql.and([
        sql.in("ticker", tickers),
        ...(beforeMillis === undefined ? [] : [sql`published_at_ms < ${beforeMillis}`]),
        ...(after === undefined ? [] : [
          sql`(published_at_ms, id) < (${after.publishedAtMillis}::int8, ${after.id}::text)`
        ])
      ])
    }
      ORDER BY feed_items.published_at_ms DESC, feed_items.id DESC
      LIMIT ${storeLimit}`)

/** Where a cursor starts, in SQL, for the plans (the key comes from the store, not from a client). */
const afterCondition = (after: FeedStore.FeedKey | undefined) =>
  after === undefined ? "" : ` AND (f.published_at_ms, f.id) < (${after.publishedAtMillis}, '${after.id}')`

/** The statement `FeedStore.query` sends for these tickers, to show its plan. */
const indexedStatement = (tickers: ReadonlyArray<string>, after?: FeedStore.FeedKey) =>
  `SELECT ${feedColumns} FROM (VALUES ${tickers.map((ticker) => `('${ticker}')`).join(", ")}) AS wanted (wanted_ticker)
  CROSS JOIN LATERAL (
    SELECT f.* FROM feed_items f WHERE f.ticker = wanted.wanted_ticker${afterCondition(after)}
    ORDER BY f.published_at_ms DESC, f.id DESC LIMIT ${storeLimit}
  ) AS newest
  ORDER BY published_at_ms DESC, id DESC LIMIT ${storeLimit}`

const naiveStatement = (tickers: ReadonlyArray<string>) =>
  `SELECT ${feedColumns} FROM feed_items WHERE ticker IN (${tickers.map((ticker) => `'${ticker}'`).join(", ")})
  ORDER BY feed_items.published_at_ms DESC, feed_items.id DESC LIMIT ${storeLimit}`

interface QueryTimes {
  readonly indexed: ReadonlyArray<number>
  readonly naive: ReadonlyArray<number>
}

interface InProcess {
  readonly seeded: Seeded
  readonly latest: QueryTimes
  readonly page: QueryTimes
  /** After the last item of each set's newest page of `pageLimit`, as a cursor goes on. */
  readonly next: QueryTimes
  /** What the store answers for the first ticker set, to check the server's answers against. */
  readonly expectedLatest: ReadonlyArray<FeedStore.StoredFeedItem>
  readonly expectedPage: ReadonlyArray<FeedStore.StoredFeedItem>
  /** Its newest two pages and one more item: a cursor's page is a slice of them. */
  readonly expectedTwoPages: ReadonlyArray<FeedStore.StoredFeedItem>
  readonly plans: { readonly indexed: string; readonly naive: string; readonly cursor: string }
}

/**
 * One query at a time, wall-clock: for each ticker set the store's query and the naive one, in
 * turns (who goes first alternates), after a tenth as many unmeasured. Both must give the same items.
 */
const timeQueries = (
  sets: ReadonlyArray<ReadonlyArray<Ids.Ticker>>,
  startOf: (setIndex: number) => PageStart
) =>
  Effect.gen(function*() {
    const store = yield* FeedStore.FeedStore
    const indexed: Array<number> = []
    const naive: Array<number> = []
    const warm = Math.max(1, Math.ceil(settings.queries / 10))
    for (let index = 0; index < warm + settings.queries; index++) {
      const tickers = sets[index % sets.length]!
      const start = startOf(index % sets.length)
      let indexedIds: ReadonlyArray<string> = []
      let naiveIds: ReadonlyArray<string> = []
      const runIndexed = Effect.gen(function*() {
        const started = performance.now()
        const found = yield* store.query({ tickers, ...start, limit: storeLimit })
        if (index >= warm) indexed.push(performance.now() - started)
        indexedIds = found.map((item) => item.id)
      })
      const runNaive = Effect.gen(function*() {
        const started = performance.now()
        const found = yield* naiveQuery(tickers, start)
        if (index >= warm) naive.push(performance.now() - started)
        naiveIds = found.map((item) => item.id)
      })
      yield* index % 2 === 0 ? Effect.zipRight(runIndexed, runNaive) : Effect.zipRight(runNaive, runIndexed)
      if (indexedIds.length !== storeLimit || indexedIds.join() !== naiveIds.join()) {
        return yield* Effect.die(new Error(`the two queries disagree on ticker set ${index}`))
      }
    }
    return { indexed, naive } satisfies QueryTimes
  })

const explain = (statement: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const lines = yield* sql.unsafe<Record<string, string>>(`EXPLAIN (ANALYZE, COSTS OFF) ${statement}`)
    return lines.map((line) => Object.values(line)[0] ?? "").join("\n")
  })

const inProcess = (sets: ReadonlyArray<ReadonlyArray<Ids.Ticker>>, name: string) =>
  Effect.gen(function*() {
    progress(`${name}: storing ${integer(settings.tickers * settings.items)} feed items...`)
    const seeded = yield* seed
    progress(
      `${name}: ${integer(seeded.items)} items in ${seeded.seconds.toFixed(0)} s (save ${
        integer(seeded.saveItemsPerSecond)
      }/s, multi-row insert ${integer(seeded.insertItemsPerSecond)}/s)`
    )
    const store = yield* FeedStore.FeedStore
    const beforeMillis = Date.parse(middle)
    const latest = yield* timeQueries(sets, () => ({}))
    progress(`${name}: newest page, query p50 ${ms(median(latest.indexed))}, naive ${ms(median(latest.naive))}`)
    const page = yield* timeQueries(sets, () => ({ beforeMillis }))
    progress(`${name}: older page, query p50 ${ms(median(page.indexed))}, naive ${ms(median(page.naive))}`)
    const cursors: Array<FeedStore.FeedKey> = []
    for (const tickers of sets) {
      const last = (yield* store.query({ tickers, limit: pageLimit }))[pageLimit - 1]!
      cursors.push({ publishedAtMillis: last.publishedAtMillis, id: last.id })
    }
    const next = yield* timeQueries(sets, (setIndex) => ({ after: cursors[setIndex] }))
    progress(`${name}: next page by cursor, query p50 ${ms(median(next.indexed))}, naive ${ms(median(next.naive))}`)
    const first = sets[0]!
    return {
      seeded,
      latest,
      page,
      next,
      expectedLatest: yield* store.query({ tickers: first, limit: storeLimit }),
      expectedPage: yield* store.query({ tickers: first, beforeMillis, limit: storeLimit }),
      expectedTwoPages: yield* store.query({ tickers: first, limit: 2 * pageLimit + 1 }),
      plans: {
        indexed: yield* explain(indexedStatement(first)),
        naive: yield* explain(naiveStatement(first)),
        cursor: yield* explain(indexedStatement(first, cursors[0]))
      }
    } satisfies InProcess
  })

const runInProcess = <E>(
  layer: Layer.Layer<SqlClient.SqlClient, E>,
  sets: ReadonlyArray<ReadonlyArray<Ids.Ticker>>,
  name: string
): Promise<InProcess> =>
  Effect.runPromise(
    inProcess(sets, name).pipe(Effect.provide(Layer.provideMerge(SqlStorage.feedStore, layer)), Effect.scoped)
  )

// --- 2. The feed: through the server ------------------------------------------------------------

interface FeedRequestBody {
  readonly tickers: ReadonlyArray<string>
  readonly limit: number
  readonly end_date?: string
  readonly cursor?: string
}

/** What autocannon 8 takes beyond `bench/autocannon.d.ts`: a list of requests, each rebuilt by `setupRequest`. */
interface RequestOptions extends autocannon.Options {
  readonly requests: ReadonlyArray<{
    readonly method: "POST"
    readonly path: string
    readonly headers: Readonly<Record<string, string>>
    readonly setupRequest: (request: Record<string, unknown>) => Record<string, unknown>
  }>
}

/** `POST /v1/feed` under load, each request with the next body of `bodies`; fails on any error or non-2xx. */
const feedLoad = async (options: {
  readonly url: string
  readonly key: string
  readonly bodies: ReadonlyArray<string>
  readonly connections: number
  readonly duration: number
}): Promise<LoadRun> => {
  const latencies: Array<number> = []
  let next = 0
  const requestOptions: RequestOptions = {
    url: options.url,
    connections: options.connections,
    duration: options.duration,
    timeout: 10,
    requests: [{
      method: "POST",
      path: "/v1/feed",
      headers: { authorization: `Bearer ${options.key}`, "content-type": "application/json" },
      setupRequest: (request) => ({ ...request, body: options.bodies[next++ % options.bodies.length] })
    }]
  }
  const instance = autocannon(requestOptions)
  instance.on("response", (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime)
  })
  const result = await instance
  if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0 || result.requests.total === 0) {
    throw new Error(
      `POST /v1/feed: ${result.requests.total} requests, ${result.errors} errors, ${result.timeouts} timeouts, ` +
        `${result.non2xx} non-2xx responses (status codes: ${JSON.stringify(result.statusCodeStats)})`
    )
  }
  return { requests: result.requests.total, seconds: result.duration, latencies: Float64Array.from(latencies) }
}

interface FeedAnswer {
  readonly items: ReadonlyArray<{ readonly ticker: string; readonly date: string; readonly title: string }>
  readonly next_cursor: string | null
}

/** Each set's newest page, as a client asks it first: its `next_cursor`, and how many items it held. */
const newestPages = async (server: ListeningProcess, key: string, sets: ReadonlyArray<ReadonlyArray<string>>) => {
  const pages: Array<{ readonly cursor: string; readonly items: number }> = []
  for (const tickers of sets) {
    const response = await fetch(`${server.url}/v1/feed`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ tickers, limit: pageLimit })
    })
    const answer = (await response.json()) as FeedAnswer
    if (response.status !== 200 || answer.next_cursor === null) {
      throw new Error(`POST /v1/feed answered ${response.status} without a next_cursor`)
    }
    pages.push({ cursor: answer.next_cursor, items: answer.items.length })
  }
  return pages
}

/** Asks once and checks the answer against the store's: the same items, in order, at most a page. */
const checkAnswer = async (
  server: ListeningProcess,
  key: string,
  body: FeedRequestBody,
  expected: ReadonlyArray<FeedStore.StoredFeedItem>
): Promise<number> => {
  const response = await fetch(`${server.url}/v1/feed`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`POST /v1/feed answered ${response.status}: ${text.slice(0, 500)}`)
  const { items } = JSON.parse(text) as FeedAnswer
  const matches = items.every((item, index) => {
    const stored = expected[index]
    return stored !== undefined && item.ticker === stored.ticker && item.title === stored.title &&
      Date.parse(item.date) === stored.publishedAtMillis
  })
  if (items.length === 0 || items.length > pageLimit || !matches) {
    throw new Error(`POST /v1/feed ${JSON.stringify(body).slice(0, 200)}: not the store's items: ${text.slice(0, 500)}`)
  }
  return Buffer.byteLength(text)
}

type PageRequest = "newest" | "older" | "next"

interface HttpResult {
  readonly request: PageRequest
  readonly connections: number
  readonly summary: Summary
  readonly responseBytes: number
}

const throughServer = async (
  name: string,
  env: NodeJS.ProcessEnv,
  sets: ReadonlyArray<ReadonlyArray<Ids.Ticker>>,
  expected: InProcess,
  cleanup: Cleanup,
  logDir: string
): Promise<ReadonlyArray<HttpResult>> => {
  const key = await createBenchKey(env)
  const server = await startFilingsServe({
    name: `filings serve (${name})`,
    env,
    logFile: join(logDir, `${name}.log`),
    cpuProfileDir: settings.cpuProfileDir
  })
  cleanup.add(`stop the ${name} server`, server.stop)
  const firstPages = await newestPages(server, key, sets)
  const requests: ReadonlyArray<{
    readonly request: PageRequest
    readonly bodyOf: (tickers: ReadonlyArray<string>, setIndex: number) => FeedRequestBody
    readonly expected: ReadonlyArray<FeedStore.StoredFeedItem>
  }> = [
    { request: "newest", bodyOf: (tickers) => ({ tickers, limit: pageLimit }), expected: expected.expectedLatest },
    {
      request: "older",
      bodyOf: (tickers) => ({ tickers, limit: pageLimit, end_date: middle }),
      expected: expected.expectedPage
    },
    {
      request: "next",
      bodyOf: (tickers, setIndex) => ({ tickers, limit: pageLimit, cursor: firstPages[setIndex]!.cursor }),
      expected: expected.expectedTwoPages.slice(firstPages[0]!.items)
    }
  ]
  const results: Array<HttpResult> = []
  for (const { bodyOf, expected: expectedItems, request } of requests) {
    const responseBytes = await checkAnswer(server, key, bodyOf(sets[0]!, 0), expectedItems)
    const bodies = sets.map((tickers, setIndex) => JSON.stringify(bodyOf(tickers, setIndex)))
    for (const connections of [...new Set([settings.connections, 1])]) {
      const options = { url: server.url, key, bodies, connections }
      if (settings.warmup > 0) await feedLoad({ ...options, duration: settings.warmup })
      const summary = summarize([await feedLoad({ ...options, duration: settings.duration })])
      progress(
        `${name}: ${request} page over HTTP, ${connections} connection${connections === 1 ? "" : "s"}: ${
          integer(summary.requestsPerSecond)
        } req/s, p50 ${ms(summary.p50)}, p99 ${ms(summary.p99)}`
      )
      results.push({ request, connections, summary, responseBytes })
    }
  }
  await server.stop()
  return results
}

interface DatabaseResult {
  readonly name: string
  readonly inProcess: InProcess
  readonly http: ReadonlyArray<HttpResult>
}

const feedTables = (results: ReadonlyArray<DatabaseResult>, skipped: string | undefined): Array<string> => {
  const label = (request: PageRequest) =>
    request === "newest"
      ? "newest page"
      : request === "older"
      ? `older page (\`end_date\` ${middle})`
      : "next page (`cursor` of the newest)"
  const timesOf = (inProcess: InProcess, request: PageRequest) =>
    request === "newest" ? inProcess.latest : request === "older" ? inProcess.page : inProcess.next
  const sequentialRate = (times: ReadonlyArray<number>) => integer(times.length / (sum(times) / 1000))
  return [
    "### Through the server: `POST /v1/feed`",
    "",
    `${settings.asked} random tickers per request (${sets.length} different sets, taken in turn), \`limit\` ${pageLimit}, ` +
    `${settings.duration} s measured after a ${settings.warmup} s warm-up, through \`filings serve\` in a process of its own. ` +
    "HTTP / query = HTTP p50 over the in-process `FeedStore.query` p50 below. With one connection that is the " +
    "price of HTTP, authentication, rate limiting and encoding on top of the query; with more, the p50 is mostly " +
    "waiting in line (p50 ≈ connections / req/s).",
    "",
    "| database | request | connections | req/s | p50 | p99 | HTTP / query p50 | response |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...results.flatMap(({ http, inProcess, name }) =>
      http.map((result) =>
        row([
          name,
          label(result.request),
          result.connections,
          integer(result.summary.requestsPerSecond),
          ms(result.summary.p50),
          ms(result.summary.p99),
          ratio(
            result.summary.p50 / median(timesOf(inProcess, result.request).indexed)
          ),
          `${integer(result.responseBytes / 1000)} kB`
        ])
      )
    ),
    ...(skipped === undefined ? [] : [row(["PostgreSQL", skipped, "", "", "", "", "", ""])]),
    "",
    "### In process: `FeedStore.query` against the naive query",
    "",
    `One query at a time, wall-clock, ${settings.queries} per variant after ${
      Math.max(1, Math.ceil(settings.queries / 10))
    } unmeasured, the two variants taking turns on the same ticker sets and giving the same ${storeLimit} items ` +
    `(the handler asks for ${pageLimit} + 1 to see where a page may end). Naive: \`SELECT ... FROM feed_items ` +
    `WHERE ticker IN (...) ORDER BY published_at_ms DESC, id DESC LIMIT ${storeLimit}\`; ratio = naive p50 / query p50.`,
    "",
    "| database | request | query/s | query p50 | query p99 | naive p50 | naive p99 | naive / query p50 |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...results.flatMap(({ inProcess, name }) =>
      (["newest", "older", "next"] as const).map((request) => {
        const times = timesOf(inProcess, request)
        return row([
          name,
          label(request),
          sequentialRate(times.indexed),
          ms(median(times.indexed)),
          ms(percentile(times.indexed, 99)),
          ms(median(times.naive)),
          ms(percentile(times.naive, 99)),
          ratio(median(times.naive) / median(times.indexed))
        ])
      })
    ),
    "",
    "### Storing the feed",
    "",
    `${savedOneByOne.toLocaleString("en-US")} items through \`FeedStore.save\` one at a time, to time it, then the ` +
    `rest in multi-row \`INSERT\`s of ${insertBatch.toLocaleString("en-US")} rows through the \`SqlClient\`, ` +
    "then `ANALYZE feed_items`; items written in bulk were read back with `findById` and compared.",
    "",
    "| database | items | save, one at a time | multi-row insert | whole load |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...results.map(({ inProcess: { seeded }, name }) =>
      row([
        name,
        integer(seeded.items),
        `${integer(seeded.saveItemsPerSecond)} items/s`,
        `${integer(seeded.insertItemsPerSecond)} items/s`,
        `${seeded.seconds.toFixed(0)} s`
      ])
    ),
    "",
    ...results.flatMap(({ inProcess: { plans }, name }) => [
      `<details><summary>${name}: plans for the first ticker set (EXPLAIN ANALYZE)</summary>`,
      "",
      "`FeedStore.query`:",
      "",
      "```",
      plans.indexed,
      "```",
      "",
      "Naive:",
      "",
      "```",
      plans.naive,
      "```",
      "",
      "`FeedStore.query` for the next page by cursor (after the newest page's last item):",
      "",
      "```",
      plans.cursor,
      "```",
      "",
      "</details>",
      ""
    ])
  ]
}

const feedPart = async (cleanup: Cleanup): Promise<ReadonlyArray<string>> => {
  const workDir = await mkdtemp(join(tmpdir(), "filings-bench-feed-"))
  cleanup.add("remove the work directory", () => rm(workDir, { recursive: true, force: true }))
  const results: Array<DatabaseResult> = []
  const logDir = settings.logDir ?? workDir
  await mkdir(logDir, { recursive: true })

  const dataDir = join(workDir, "data")
  await mkdir(dataDir)
  // The data directory is filled here and closed before the server, which locks it, opens it.
  const pglite = await runInProcess(Database.layerPglite({ dataDir: Database.pgliteDataDir(dataDir) }), sets, "PGlite")
  const pgliteEnv = { ...filingsEnvironment(dataDir, "WARN"), FILINGS_EDGAR_FOLLOW: "false" }
  results.push({
    name: "PGlite",
    inProcess: pglite,
    http: await throughServer("PGlite", pgliteEnv, sets, pglite, cleanup, logDir)
  })

  const admin = process.env.FILINGS_TEST_DATABASE_URL
  if (admin === undefined || admin === "") return feedTables(results, "(skipped: set FILINGS_TEST_DATABASE_URL)")
  const database = await createDatabase(admin)
  cleanup.add("drop the PostgreSQL database", database.drop)
  const postgres = await runInProcess(Database.layerPostgres({ url: Redacted.make(database.url) }), sets, "PostgreSQL")
  const postgresEnv: NodeJS.ProcessEnv = {
    ...filingsEnvironment(dataDir, "WARN"),
    FILINGS_DATABASE_URL: database.url,
    FILINGS_EDGAR_FOLLOW: "false"
  }
  results.push({
    name: "PostgreSQL",
    inProcess: postgres,
    http: await throughServer("PostgreSQL", postgresEnv, sets, postgres, cleanup, logDir)
  })
  return feedTables(results, undefined)
}

// --- Run --------------------------------------------------------------------------------------

/** The command as run, the PostgreSQL server's URL shown only as set or not. */
const command = [
  ...(process.env.FILINGS_TEST_DATABASE_URL ? ["FILINGS_TEST_DATABASE_URL=<admin URL>"] : []),
  "node --import tsx bench/feed.ts",
  ...process.argv.slice(2)
].join(" ")

const main = async () => {
  const cleanup = new Cleanup()
  try {
    const startLoad = loadavg()
    const summaries = settings.part === "feed" ? ["(not run: `--part feed`)"] : await summariesPart()
    const feed = settings.part === "summaries" ? ["(not run: `--part summaries`)"] : await feedPart(cleanup)
    const report = [
      "# Feed benchmark",
      "",
      `Command: \`${command}\` (after \`npx tsc -b\`). Run ${new Date().toISOString()} on ${
        cpus()[0]?.model ?? "an unknown CPU"
      } (${cpus().length} cores), ` +
      `Node ${process.version}, load average ${startLoad.map((value) => value.toFixed(2)).join(", ")} at the start.`,
      "",
      "## 1. Summaries: the extractive model against parsing",
      "",
      ...summaries,
      "",
      `## 2. POST /v1/feed: ${settings.asked} tickers over ${
        integer(settings.tickers * settings.items)
      } stored items (${integer(settings.tickers)} tickers × ${settings.items} items over two years)`,
      "",
      ...feed,
      ""
    ].join("\n")
    await mkdir(join(settings.output, ".."), { recursive: true })
    await writeFile(settings.output, report)
    process.stdout.write(`${report}\n`)
    progress(`Wrote ${relative(repositoryRoot, settings.output)}`)
  } finally {
    await cleanup.run()
  }
}

void main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exitCode = 1
})
