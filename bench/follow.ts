/**
 * Following-EDGAR benchmark: how long a filing takes from its appearance in the regulator's
 * latest-filings feed to (a) being served by `GET /v1/documents/{id}` and (b) its `filing.new` event
 * being recorded, how many filings a minute one server ingests, and how hard it presses on the
 * regulator (never above 10 requests per second).
 *
 * The local EDGAR replay (`test/support/edgarReplay.ts`) publishes the filings on a timeline: a
 * steady rate, then a burst all at once so that the queue has to drain. The real `filings serve`
 * follows it at its default settings (poll interval, workers), on a fresh embedded PGlite data
 * directory and, when `FILINGS_TEST_DATABASE_URL` names a PostgreSQL server, on a fresh database
 * there (dropped afterwards). Each filing's time is also split into its stages, read from the
 * replay's request log: waiting for the next feed poll, waiting in the queue, and processing
 * (the submission's fetch to the recorded event).
 *
 *   node --import tsx bench/follow.ts [--filings 200] [--rate 2] [--burst 50] [--log-level INFO]
 *     [--log-dir <keep the server logs here>] [--output bench/results/follow-latest.md]
 */
import { randomBytes } from "node:crypto"
import { existsSync } from "node:fs"
import { mkdir, mkdtemp, rm } from "node:fs/promises"
import { cpus, tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { corpusDir } from "../test/support/corpus.js"
import {
  corpusFiling,
  type EdgarReplay,
  type ReplayFiling,
  startEdgarReplay,
  syntheticFilings
} from "../test/support/edgarReplay.js"
import { createDatabase } from "../test/support/postgres.js"
import { eightKSubmission } from "../test/support/syntheticEightK.js"
import { commandLines, progressReporter, publishReport } from "./support/commandLine.js"
import {
  Cleanup,
  createBenchKey,
  filingsEnvironment,
  filingsProgram,
  repositoryRoot,
  startListening
} from "./support/processes.js"

const { values: argv } = parseArgs({
  options: {
    filings: { type: "string" },
    rate: { type: "string" },
    burst: { type: "string" },
    "log-level": { type: "string" },
    output: { type: "string" },
    "log-dir": { type: "string" }
  },
  strict: true
})
const filingCount = Number(argv.filings ?? 200)
const ratePerSecond = Number(argv.rate ?? 2)
const burstSize = Math.min(filingCount, Number(argv.burst ?? 50))
const steadyCount = filingCount - burstSize
// INFO puts the server's own "... ms after discovery" line for every filing into its log.
const logLevel = argv["log-level"] ?? "INFO"
/** Where the servers' logs go; by default the work directory, removed at the end. */
const logDir = argv["log-dir"]
const outputFile = argv.output ?? join(repositoryRoot, "bench", "results", "follow-latest.md")
if (!(filingCount >= 1 && ratePerSecond > 0 && burstSize >= 0)) {
  throw new Error("--filings must be at least 1, --rate above 0, --burst at least 0")
}

/** The issue's target for p99, and the specification's limit. */
const targetMillis = 10_000
const specLimitMillis = 60_000
/** The burst comes this long after the last steady filing, so the two phases do not overlap. */
const pauseBeforeBurstMillis = 10_000
/** How long after the last publication every filing must be served and recorded. */
const settleTimeoutMillis = 180_000
/** Our polling of the API: a tick every 100 ms, at most this many document lookups per tick. */
const pollTickMillis = 100
const lookupsPerTick = 5
const eventsPollMillis = 250

/** Progress on standard error, with the seconds since the start. */
const progress = progressReporter()

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

// --- The filings ---------------------------------------------------------------------------------

const adbeSubmission = "8-K/adbe-8k-2023-03-15-full-submission.txt"
const hasCorpus = existsSync(join(corpusDir, adbeSubmission))

interface BenchFiling {
  readonly filing: ReplayFiling
  readonly ticker: string
  readonly kind: "synthetic 8-K" | "ADBE 8-K re-stamped"
}

const itemSets: ReadonlyArray<ReadonlyArray<string>> = [["2.02", "9.01"], ["1.01", "2.02", "9.01"], ["7.01", "9.01"]]
// A block of CIKs of their own for each run, apart from the replay's re-stamped ones (9000000001 up).
let builderSerial = 0

/** The synthetic builder's 8-K with its EX-99.1 release, by a company of its own. */
const builderFiling = (): BenchFiling => {
  const serial = ++builderSerial
  const cik = String(8_100_000_000 + serial).padStart(10, "0")
  const ticker = `FLW${serial}`
  const today = new Date().toISOString().slice(0, 10)
  const accession = `${cik}-26-${String(serial).padStart(6, "0")}`
  const submission = eightKSubmission({
    accession,
    cik,
    companyName: `FOLLOW BENCH ${serial} INC`,
    ticker,
    filedAsOf: today,
    items: itemSets[serial % itemSets.length]!
  })
  return {
    filing: {
      accessionNumber: accession,
      cik,
      form: "8-K",
      companyName: `FOLLOW BENCH ${serial} INC`,
      submission,
      filedDate: today
    },
    ticker,
    kind: "synthetic 8-K"
  }
}

/**
 * Half the filings are Adobe's real 8-K submission (483 kB: the earnings release, inline XBRL)
 * re-stamped as new filers, half the small synthetic 8-K; one after the other, so both phases mix them.
 */
const makeFilings = (count: number): ReadonlyArray<BenchFiling> => {
  const corpusCount = hasCorpus ? Math.floor(count / 2) : 0
  const restamped = corpusCount === 0 ? [] : syntheticFilings(corpusFiling(adbeSubmission), corpusCount)
  const all: Array<BenchFiling> = []
  for (let index = 0; index < count; index++) {
    const corpusOne = index % 2 === 0 ? restamped[index / 2] : undefined
    all.push(
      corpusOne === undefined
        ? builderFiling()
        : { filing: corpusOne, ticker: `FLA${Number(corpusOne.cik) % 1_000_000}`, kind: "ADBE 8-K re-stamped" }
    )
  }
  return all
}

// --- Statistics ----------------------------------------------------------------------------------

/** Nearest-rank percentile. */
const percentile = (values: ReadonlyArray<number>, p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
}
// A phase with no filings (`--burst 0`) has no numbers: a dash rather than NaN.
const seconds = (ms: number) => Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : "–"
const fixed = (value: number, digits: number) => Number.isFinite(value) ? value.toFixed(digits) : "–"

interface Distribution {
  readonly count: number
  readonly p50: number
  readonly p90: number
  readonly p99: number
  readonly max: number
}

const distribution = (values: ReadonlyArray<number>): Distribution => ({
  count: values.length,
  p50: percentile(values, 50),
  p90: percentile(values, 90),
  p99: percentile(values, 99),
  max: values.length === 0 ? Number.NaN : Math.max(...values)
})

// --- One run -------------------------------------------------------------------------------------

interface Measured {
  readonly accession: string
  readonly phase: "steady" | "burst"
  readonly publishedAt: number
  /** When our lookup first got a 200 (the answer's arrival). */
  servedAt?: number
  /** `recorded_at` of its `filing.new` event. */
  recordedAt?: number
}

interface RunResult {
  readonly store: string
  readonly measured: ReadonlyArray<Measured>
  readonly served: Distribution
  readonly recorded: Distribution
  readonly recordedSteady: Distribution
  readonly recordedBurst: Distribution
  readonly stages: {
    readonly feedWait: Distribution
    readonly queueWait: Distribution
    readonly processing: Distribution
  }
  readonly steadyPerMinute: number
  readonly burstPerMinute: number
  readonly burstDrainMillis: number
  readonly peakRequestsPerSecond: number
  readonly regulatorRequests: number
  readonly submissionFetches: number
  readonly feedPolls: number
  readonly notOk: number
  readonly meanLookupGapMillis: number
  readonly lookups: number
  readonly missing: number
}

interface LoggedEvent {
  readonly sequence: number
  readonly type: string
  readonly recorded_at: string
  readonly payload: { readonly data: { readonly publication_id?: unknown } }
}

const followOnce = async (
  store: string,
  storageEnv: NodeJS.ProcessEnv,
  cleanup: Cleanup,
  workDir: string
): Promise<RunResult> => {
  const filings = makeFilings(filingCount)
  const replay: EdgarReplay = await startEdgarReplay({
    companyTickers: filings.map(({ filing, ticker }) => ({ cik: filing.cik, ticker, name: filing.companyName }))
  })
  let replayOpen = true
  const closeReplay = async () => {
    if (replayOpen) await replay.close()
    replayOpen = false
  }
  cleanup.add(`close the ${store} replay`, closeReplay)

  const key = await createBenchKey(storageEnv, "follow-bench")
  progress(`${store}: API key created`)
  const adminToken = randomBytes(24).toString("hex")
  const server = await startListening({
    name: `filings serve (${store})`,
    nodeArgs: [filingsProgram, "serve", "--port", "0", "--json"],
    env: {
      ...storageEnv,
      FILINGS_SEC_USER_AGENT: "Filings Bench bench@filings.example",
      FILINGS_EDGAR_BASE_URL: replay.url,
      FILINGS_EDGAR_DATA_BASE_URL: replay.url,
      FILINGS_ADMIN_TOKEN: adminToken
    },
    logFile: join(logDir ?? workDir, `follow-${store}.log`)
  })
  cleanup.add(`stop the ${store} server`, server.stop)
  progress(`${store}: server listening`)

  // Publish only once the server reads the feed, so that start-up does not count as latency.
  const isFeed = (path: string) => path.includes("action=getcurrent")
  const readyBy = Date.now() + 60_000
  while (!replay.requests.some((request) => isFeed(request.path) && request.status === 200)) {
    if (Date.now() > readyBy) throw new Error(`${store}: the server never read the feed:\n${server.output()}`)
    await sleep(100)
  }
  progress(`${store}: following; publishing ${steadyCount} at ${ratePerSecond}/s, then ${burstSize}`)

  const steadyMillis = steadyCount === 0 ? 0 : ((steadyCount - 1) / ratePerSecond) * 1000
  const burstAfter = steadyCount === 0 ? 0 : steadyMillis + pauseBeforeBurstMillis
  const timeline = filings.map(({ filing }, index) => ({
    afterMs: index < steadyCount ? (index / ratePerSecond) * 1000 : burstAfter,
    filing
  }))
  const phaseOf = new Map(filings.map(({ filing }, index) => [filing.accessionNumber, index < steadyCount]))
  const publishing = replay.publishOnTimeline(timeline)

  const measured = new Map<string, Measured>()
  const lastLookup = new Map<string, number>()
  const lookupGaps: Array<number> = []
  let lookups = 0
  let eventsAfter = 0
  let publishingDone = false
  // Set when the wait is over, settled or not, so that neither loop outlives the run.
  let stopped = false
  void publishing.then(() => (publishingDone = true))

  const track = () => {
    for (const [accession, at] of replay.publishedAt) {
      if (!measured.has(accession)) {
        measured.set(accession, { accession, phase: phaseOf.get(accession) ? "steady" : "burst", publishedAt: at })
      }
    }
  }

  const lookUp = async (entry: Measured) => {
    const sentAt = Date.now()
    const previous = lastLookup.get(entry.accession)
    if (previous !== undefined) lookupGaps.push(sentAt - previous)
    lastLookup.set(entry.accession, sentAt)
    lookups++
    const response = await fetch(`${server.url}/v1/documents/${entry.accession}?format=metadata`, {
      headers: { authorization: `Bearer ${key}` }
    })
    await response.arrayBuffer()
    if (response.status === 200) entry.servedAt ??= Date.now()
    else if (response.status !== 404) throw new Error(`${store}: ${entry.accession} answered ${response.status}`)
  }

  // Lookups: every tick, the few pending filings looked at longest ago; an idle API gets a lookup
  // per filing every 100 ms, a busy one fewer, and the mean gap between lookups says how fine it was.
  const lookupLoop = async () => {
    while (!stopped) {
      track()
      const pending = [...measured.values()].filter((entry) => entry.servedAt === undefined)
      if (publishingDone && pending.length === 0) return
      const due = pending
        .filter((entry) => Date.now() - (lastLookup.get(entry.accession) ?? 0) >= pollTickMillis)
        .sort((a, b) => (lastLookup.get(a.accession) ?? 0) - (lastLookup.get(b.accession) ?? 0))
        .slice(0, lookupsPerTick)
      const tick = sleep(pollTickMillis)
      await Promise.all(due.map(lookUp))
      await tick
    }
  }

  const eventsLoop = async () => {
    while (!stopped) {
      track()
      const response = await fetch(`${server.url}/admin/events?after=${eventsAfter}&limit=1000`, {
        headers: { authorization: `Bearer ${adminToken}` }
      })
      if (response.status !== 200) throw new Error(`${store}: /admin/events answered ${response.status}`)
      const page = (await response.json()) as { events: ReadonlyArray<LoggedEvent>; next_after: number }
      for (const event of page.events) {
        const id = event.payload.data.publication_id
        const entry = typeof id === "string" ? measured.get(id) : undefined
        if (event.type === "filing.new" && entry !== undefined) entry.recordedAt ??= Date.parse(event.recorded_at)
      }
      eventsAfter = page.next_after
      if (page.events.length === 1000) continue
      if (publishingDone && [...measured.values()].every((entry) => entry.recordedAt !== undefined)) return
      await sleep(eventsPollMillis)
    }
  }

  const settled = Promise.all([lookupLoop(), eventsLoop()])
  // A loop that fails early is reported below, not as an unhandled rejection while publishing goes on.
  settled.catch(() => {})
  await publishing
  let giveUp: NodeJS.Timeout | undefined
  let timedOut: boolean
  try {
    timedOut = await Promise.race([
      settled.then(() => false),
      new Promise<boolean>((resolve) => (giveUp = setTimeout(() => resolve(true), settleTimeoutMillis)))
    ])
  } finally {
    // The timer would otherwise keep the process alive for minutes after the report (or a failure),
    // and the loops would go on polling a server being stopped.
    clearTimeout(giveUp)
    stopped = true
  }
  if (timedOut) progress(`${store}: not everything settled within ${settleTimeoutMillis / 1000} s`)
  // Let a lookup or an events page still under way finish before the server goes.
  await sleep(500)
  await server.stop()
  progress(`${store}: server stopped`)

  const all = [...measured.values()]
  const servedMillis = all.flatMap((entry) => entry.servedAt === undefined ? [] : [entry.servedAt - entry.publishedAt])
  const recordedOf = (phase?: Measured["phase"]) =>
    all.flatMap((entry) =>
      entry.recordedAt === undefined || (phase !== undefined && entry.phase !== phase)
        ? []
        : [entry.recordedAt - entry.publishedAt]
    )

  // The stages, from the replay's log: the first feed poll after publication found the filing,
  // the fetch of its submission is when a worker took it, the event ends its processing.
  const feedTimes = replay.requests.filter((request) => isFeed(request.path)).map((request) => request.at)
  const fetchAt = new Map<string, number>()
  for (const request of replay.requests) {
    const accession = /\/(\d{10}-\d{2}-\d{6})\.txt$/.exec(request.path)?.[1]
    if (accession !== undefined && !fetchAt.has(accession)) fetchAt.set(accession, request.at)
  }
  const feedWait: Array<number> = []
  const queueWait: Array<number> = []
  const processing: Array<number> = []
  for (const entry of all) {
    const found = feedTimes.find((at) => at >= entry.publishedAt)
    const fetched = fetchAt.get(entry.accession)
    if (found === undefined || fetched === undefined || entry.recordedAt === undefined) continue
    feedWait.push(found - entry.publishedAt)
    queueWait.push(fetched - found)
    processing.push(entry.recordedAt - fetched)
  }

  const rateOf = (phase: Measured["phase"]) => {
    const entries = all.filter((entry) => entry.phase === phase)
    if (entries.length === 0) return { perMinute: Number.NaN, millis: Number.NaN }
    const start = Math.min(...entries.map((entry) => entry.publishedAt))
    const end = Math.max(...entries.map((entry) => entry.recordedAt ?? Number.NaN))
    return { perMinute: (entries.length / (end - start)) * 60_000, millis: end - start }
  }
  const burst = rateOf("burst")

  const result: RunResult = {
    store,
    measured: all,
    served: distribution(servedMillis),
    recorded: distribution(recordedOf()),
    recordedSteady: distribution(recordedOf("steady")),
    recordedBurst: distribution(recordedOf("burst")),
    stages: {
      feedWait: distribution(feedWait),
      queueWait: distribution(queueWait),
      processing: distribution(processing)
    },
    steadyPerMinute: rateOf("steady").perMinute,
    burstPerMinute: burst.perMinute,
    burstDrainMillis: burst.millis,
    peakRequestsPerSecond: replay.peakRequestsPerSecond(),
    regulatorRequests: replay.requests.length,
    submissionFetches: replay.requests.filter((request) => request.path.endsWith(".txt")).length,
    feedPolls: feedTimes.length,
    notOk: replay.requests.filter((request) => request.status !== 200).length,
    meanLookupGapMillis: lookupGaps.reduce((total, gap) => total + gap, 0) / Math.max(1, lookupGaps.length),
    lookups,
    missing: all.filter((entry) => entry.servedAt === undefined || entry.recordedAt === undefined).length +
      (filingCount - all.length)
  }
  await closeReplay()
  progress(
    `${store}: served p99 ${seconds(result.served.p99)}, event p99 ${
      seconds(result.recorded.p99)
    }, peak ${result.peakRequestsPerSecond} req/s to the regulator`
  )
  return result
}

// --- The report ----------------------------------------------------------------------------------

const latencyRow = (store: string, what: string, d: Distribution) =>
  `| ${store} | ${what} | ${d.count} | ${seconds(d.p50)} | ${seconds(d.p90)} | ${seconds(d.p99)} | ${
    seconds(d.max)
  } | ${fixed(d.p99 / targetMillis, 2)} | ${fixed(d.p99 / specLimitMillis, 2)} |`

const report = (results: ReadonlyArray<RunResult>, skipped: ReadonlyArray<string>): string => {
  const command = [
    "node --import tsx bench/follow.ts",
    ...(filingCount === 200 ? [] : [`--filings ${filingCount}`]),
    ...(ratePerSecond === 2 ? [] : [`--rate ${ratePerSecond}`]),
    ...(burstSize === Math.min(filingCount, 50) ? [] : [`--burst ${burstSize}`])
  ].join(" ")
  const mix = hasCorpus
    ? `${Math.floor(filingCount / 2)} re-stamped copies of Adobe's 8-K full submission ` +
      `(\`${adbeSubmission}\`, 483 kB with its EX-99.1 earnings release and inline XBRL) and ` +
      `${
        filingCount - Math.floor(filingCount / 2)
      } synthetic 8-Ks with an EX-99.1 release (\`test/support/syntheticEightK.ts\`)`
    : `${filingCount} synthetic 8-Ks with an EX-99.1 release (the corpus filings skipped: ../shared/corpus is absent)`
  return [
    "# Following EDGAR benchmark",
    "",
    ...commandLines(command),
    "",
    `Run ${new Date().toISOString()} on ${
      cpus()[0]?.model ?? "unknown CPU"
    } (${cpus().length} cores), Node ${process.version};`,
    "the replay, the server and this program share the machine, with other work running on it.",
    "",
    `The local EDGAR replay publishes ${filingCount} filings: ${mix}, each by a listed company of its own.`,
    `${steadyCount} appear at ${ratePerSecond} per second, then, ${
      pauseBeforeBurstMillis / 1000
    } s after the last of them,`,
    `${burstSize} at once. \`filings serve\` follows the replay at its defaults (feed polled every 2 s, 4 workers,`,
    `log level ${logLevel}). Latency counts from the filing's publication in the feed to (a) the first 200 of`,
    `\`GET /v1/documents/{id}?format=metadata\` (each pending filing looked up at most every ${pollTickMillis} ms,`,
    `${lookupsPerTick} lookups per tick at most) and (b) the \`recorded_at\` of its \`filing.new\` event in`,
    "`/admin/events` (the server's own clock, not our polling). Target: p99 under 10 s; the specification allows 60 s.",
    "",
    "## Latency from the feed",
    "",
    "| store | until | filings | p50 | p90 | p99 | max | p99 / 10 s target | p99 / 60 s limit |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...results.flatMap((result) => [
      latencyRow(result.store, "served by /v1", result.served),
      latencyRow(result.store, "event recorded", result.recorded),
      latencyRow(result.store, "event, steady phase", result.recordedSteady),
      latencyRow(result.store, "event, burst phase", result.recordedBurst)
    ]),
    ...skipped,
    "",
    "## Where the time goes (publication to event, from the replay's request log)",
    "",
    "Feed wait: publication to the next feed poll. Queue wait: that poll to a worker's fetch of the submission.",
    "Processing: the fetch to the recorded event (download, parse, extract, store, events).",
    "",
    "| store | stage | p50 | p90 | p99 | max |",
    "| --- | --- | ---: | ---: | ---: | ---: |",
    ...results.flatMap((result) =>
      (
        [["feed wait", result.stages.feedWait], ["queue wait", result.stages.queueWait], [
          "processing",
          result.stages.processing
        ]] as const
      ).map(([stage, d]) =>
        `| ${result.store} | ${stage} | ${seconds(d.p50)} | ${seconds(d.p90)} | ${seconds(d.p99)} | ${seconds(d.max)} |`
      )
    ),
    "",
    "## Ingestion rate and the regulator",
    "",
    "Steady: filings of the steady phase over the time from its first publication to its last event (it cannot",
    `exceed the offered ${ratePerSecond * 60} per minute). Burst: the ${burstSize} filings over the time from their`,
    "publication to the last event: what one server can do when it has a queue.",
    "",
    "| store | steady, filings/min | burst, filings/min | burst drained in | peak requests/s to the regulator (max 10) | requests to the regulator | feed polls | submission fetches | non-200 answers | not settled |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...results.map((result) =>
      `| ${result.store} | ${fixed(result.steadyPerMinute, 0)} | ${fixed(result.burstPerMinute, 0)} | ${
        seconds(result.burstDrainMillis)
      } | ${result.peakRequestsPerSecond} | ${result.regulatorRequests} | ${result.feedPolls} | ${result.submissionFetches} | ${result.notOk} | ${result.missing} |`
    ),
    "",
    "The fair-access gate lets at most 10 requests start per 1.1 s (about 9.1 a second), and following costs one",
    "request per filing plus a feed poll every 2 s; so, sustained, one server ingests at most about 8.6 filings a",
    "second (about 515 a minute), however fast it processes them. A burst drains at about that rate (a little more,",
    "as it starts on an empty window): its queue wait is that gate, not the workers.",
    "",
    `Our lookups: ${
      results.map((result) =>
        `${result.store} ${result.lookups} (a pending filing every ${
          result.meanLookupGapMillis.toFixed(0)
        } ms on average)`
      ).join(", ")
    }.`,
    ""
  ].join("\n")
}

// --- Main ----------------------------------------------------------------------------------------

const main = async () => {
  const cleanup = new Cleanup()
  try {
    const workDir = await mkdtemp(join(tmpdir(), "filings-bench-follow-"))
    cleanup.add("remove the work directory", () => rm(workDir, { recursive: true, force: true }))
    if (!hasCorpus) process.stderr.write("../shared/corpus is absent: synthetic 8-Ks only\n")

    // The server's defaults are what is measured: no poll interval, workers or forms of the caller's.
    const defaults = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv =>
      Object.fromEntries(
        Object.entries(env).filter(([name]) => !/^FILINGS_(EDGAR_|PIPELINE_|SEC_|FORMS$|TICKERS$)/.test(name))
      )

    const results: Array<RunResult> = []
    const skipped: Array<string> = []
    const dataDir = join(workDir, "data")
    await mkdir(dataDir)
    results.push(await followOnce("PGlite", defaults(filingsEnvironment(dataDir, logLevel)), cleanup, workDir))

    const admin = process.env.FILINGS_TEST_DATABASE_URL
    if (admin !== undefined && admin !== "") {
      const database = await createDatabase(admin)
      cleanup.add("drop the PostgreSQL database", database.drop)
      const url = new URL(database.url)
      const postgresDir = join(workDir, "postgres")
      await mkdir(postgresDir)
      const env = { ...defaults(filingsEnvironment(postgresDir, logLevel)), FILINGS_DATABASE_URL: url.toString() }
      results.push(await followOnce("PostgreSQL", env, cleanup, workDir))
    } else {
      skipped.push("| PostgreSQL | (skipped: set FILINGS_TEST_DATABASE_URL) | | | | | | | |")
    }

    const text = report(results, skipped)
    await publishReport(outputFile, text)
    const failures = results.flatMap((result) => [
      ...(result.missing > 0 ? [`${result.store}: ${result.missing} filings not served or recorded`] : []),
      ...(result.peakRequestsPerSecond > 10
        ? [`${result.store}: ${result.peakRequestsPerSecond} requests per second to the regulator`]
        : [])
    ])
    if (failures.length > 0) throw new Error(failures.join("\n"))
  } finally {
    await cleanup.run()
  }
}

void main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exitCode = 1
})
