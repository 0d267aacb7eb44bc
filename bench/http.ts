/**
 * HTTP benchmark: the real `filings serve` (embedded PGlite, its own process) against a bare
 * `node:http` baseline (its own process) that sends the very bytes the real server sent, on two
 * endpoints: one document's metadata, and a 50-document page of a ticker's list. Runs alternate
 * between the two servers so drift on a busy machine falls on both; the report gives requests/s,
 * p50 and p99 for each, and Filings' ratio to the baseline.
 *
 *   node --import tsx bench/http.ts [--duration 10] [--warmup 2] [--connections 10] [--rounds 3]
 *     [--documents 200] [--log-level WARN] [--cpu-prof DIR] [--output FILE]
 *
 * Each option can also come from the environment: BENCH_DURATION, BENCH_WARMUP, ...,
 * BENCH_LOG_LEVEL, BENCH_CPU_PROF, BENCH_OUTPUT.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { cpus, loadavg, release, tmpdir, totalmem } from "node:os"
import { join, relative, resolve } from "node:path"
import { parseArgs } from "node:util"
import { submission } from "../test/support/syntheticFilings.js"
import { load, type LoadRun, summarize, type Summary } from "./support/load.js"
import {
  Cleanup,
  createBenchKey,
  filingsEnvironment,
  filingsJson,
  filingsProgram,
  type ListeningProcess,
  repositoryRoot,
  startListening
} from "./support/processes.js"
import { encodeRecordedResponses, type RecordedResponse, recordResponse } from "./support/recordedResponse.js"

// --- Settings ---------------------------------------------------------------------------------

const optionNames = [
  "duration",
  "warmup",
  "connections",
  "rounds",
  "documents",
  "log-level",
  "cpu-prof",
  "output"
] as const
type OptionName = typeof optionNames[number]

const { values: argv } = parseArgs({
  options: Object.fromEntries(optionNames.map((name) => [name, { type: "string" }])) as Record<
    OptionName,
    { type: "string" }
  >,
  strict: true
})

const setting = (name: OptionName): string | undefined =>
  argv[name] ?? process.env[`BENCH_${name.toUpperCase().replace(/-/g, "_")}`]

const positiveInteger = (name: OptionName, fallback: number): number => {
  const text = setting(name)
  if (text === undefined) return fallback
  const value = Number(text)
  if (!Number.isInteger(value) || value < (name === "warmup" ? 0 : 1)) {
    throw new Error(`--${name} must be a whole number${name === "warmup" ? "" : " above 0"}, got "${text}"`)
  }
  return value
}

const settings = {
  /** Seconds of each measured run. */
  duration: positiveInteger("duration", 10),
  /** Seconds of unmeasured load just before each measured run. */
  warmup: positiveInteger("warmup", 2),
  connections: positiveInteger("connections", 10),
  /** Measured runs of each server on each endpoint. */
  rounds: positiveInteger("rounds", 3),
  /** Documents stored for the ticker the list query asks for. */
  documents: positiveInteger("documents", 200),
  logLevel: setting("log-level") ?? "WARN",
  cpuProfileDir: setting("cpu-prof"),
  output: setting("output")
}

const ticker = "BNCH"
const listPageSize = 50
const resultsDir = join(repositoryRoot, "bench", "results")

// --- Synthetic documents ----------------------------------------------------------------------

const quarterEnds = ["03-31", "06-30", "09-30", "12-31"] as const

/** The i-th quarterly report of the benchmark company: 10-Qs, and a 10-K for each fourth quarter. */
const syntheticFiling = (index: number) => {
  const year = 1974 + Math.floor(index / 4)
  const quarter = index % 4
  const periodOfReport = `${year}-${quarterEnds[quarter]}`
  const filed = new Date(`${periodOfReport}T00:00:00Z`)
  filed.setUTCDate(filed.getUTCDate() + 40)
  return {
    accession: `0000999999-${String(year % 100).padStart(2, "0")}-${String(index).padStart(6, "0")}`,
    form: quarter === 3 ? "10-K" : "10-Q",
    filedAsOf: filed.toISOString().slice(0, 10),
    periodOfReport
  }
}

/** Writes the synthetic submissions and stores them with `filings ingest`, a hundred files per call. */
const storeDocuments = async (env: NodeJS.ProcessEnv, directory: string): Promise<ReadonlyArray<string>> => {
  await mkdir(directory)
  const filings = Array.from({ length: settings.documents }, (_, index) => syntheticFiling(index))
  const files = await Promise.all(filings.map(async (filing) => {
    const file = join(directory, `${filing.accession}.txt`)
    await writeFile(file, submission(filing))
    return file
  }))
  for (let start = 0; start < files.length; start += 100) {
    const batch = files.slice(start, start + 100)
    const outcome = await filingsJson<{ readonly stored: number; readonly failed: number }>(
      env,
      ["ingest", ...batch, "--ticker", ticker]
    )
    if (outcome.stored !== batch.length) {
      throw new Error(`filings ingest stored ${outcome.stored} of ${batch.length} files (${outcome.failed} failed)`)
    }
  }
  return filings.map((filing) => filing.accession)
}

// --- Endpoints --------------------------------------------------------------------------------

interface Endpoint {
  readonly label: string
  readonly target: string
  /** Fails when the real server's answer is not the one the benchmark means to measure. */
  readonly check: (body: unknown) => string | undefined
}

const endpointsFor = (publicationId: string): ReadonlyArray<Endpoint> => [
  {
    label: "`GET /v1/documents/{id}?format=metadata`",
    target: `/v1/documents/${publicationId}?format=metadata`,
    check: (body) =>
      (body as { readonly publication_id?: unknown }).publication_id === publicationId
        ? undefined
        : `expected the metadata of ${publicationId}`
  },
  {
    label: `\`GET /v1/documents?tickers=${ticker}&limit=${listPageSize}\``,
    target: `/v1/documents?tickers=${ticker}&limit=${listPageSize}`,
    check: (body) => {
      const page = body as { readonly documents?: ReadonlyArray<unknown>; readonly total?: unknown }
      const expected = Math.min(listPageSize, settings.documents)
      return page.documents?.length === expected && page.total === settings.documents
        ? undefined
        : `expected ${expected} of ${settings.documents} documents`
    }
  }
]

/** Fetches each endpoint once from the real server and keeps the response for the baseline to replay. */
const recordEndpoints = (
  server: ListeningProcess,
  headers: Readonly<Record<string, string>>,
  endpoints: ReadonlyArray<Endpoint>
): Promise<ReadonlyArray<RecordedResponse>> =>
  Promise.all(endpoints.map(async (endpoint) => {
    const response = await fetch(server.url + endpoint.target, { headers })
    const recorded = await recordResponse(endpoint.target, response)
    const body = Buffer.from(recorded.bodyBase64, "base64").toString("utf8")
    if (response.status !== 200) throw new Error(`${endpoint.target} answered ${response.status}: ${body}`)
    const problem = endpoint.check(JSON.parse(body))
    if (problem !== undefined) throw new Error(`${endpoint.target}: ${problem}; got ${body.slice(0, 500)}`)
    return recorded
  }))

/** Checks that the baseline sends back exactly the recorded body and content type. */
const verifyBaseline = async (baseline: ListeningProcess, recorded: ReadonlyArray<RecordedResponse>) => {
  for (const expected of recorded) {
    const response = await fetch(baseline.url + expected.target)
    const body = Buffer.from(await response.arrayBuffer())
    if (
      response.status !== expected.status ||
      response.headers.get("content-type") !== expected.headers["content-type"] ||
      !body.equals(Buffer.from(expected.bodyBase64, "base64"))
    ) {
      throw new Error(`the baseline does not replay ${expected.target} byte for byte`)
    }
  }
}

// --- Report -----------------------------------------------------------------------------------

type TargetName = "baseline" | "filings"

interface EndpointResult {
  readonly endpoint: Endpoint
  readonly responseBytes: number
  readonly baseline: Summary
  readonly filings: Summary
}

const integer = (value: number) => Math.round(value).toLocaleString("en-US")
const milliseconds = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`
const ratio = (value: number) => value.toFixed(value >= 10 ? 1 : value >= 1 ? 2 : 3)

const markdownTable = (header: ReadonlyArray<string>, align: string, rows: ReadonlyArray<ReadonlyArray<string>>) =>
  [`| ${header.join(" | ")} |`, `|${align}|`, ...rows.map((row) => `| ${row.join(" | ")} |`)].join("\n")

const resultsTable = (results: ReadonlyArray<EndpointResult>) =>
  markdownTable(
    [
      "Endpoint",
      "Baseline req/s",
      "Filings req/s",
      "Throughput ratio",
      "Baseline p50",
      "Filings p50",
      "Baseline p99",
      "Filings p99",
      "p99 ratio"
    ],
    "---|--:|--:|--:|--:|--:|--:|--:|--:",
    results.map(({ baseline, endpoint, filings }) => [
      endpoint.label,
      integer(baseline.requestsPerSecond),
      integer(filings.requestsPerSecond),
      ratio(filings.requestsPerSecond / baseline.requestsPerSecond),
      milliseconds(baseline.p50),
      milliseconds(filings.p50),
      milliseconds(baseline.p99),
      milliseconds(filings.p99),
      ratio(filings.p99 / baseline.p99)
    ])
  )

const runsTable = (results: ReadonlyArray<EndpointResult>) =>
  markdownTable(
    ["Endpoint", "Server", "Response body", "req/s of each run, in order", "Responses timed"],
    "---|---|--:|---|--:",
    results.flatMap((result) =>
      (["baseline", "filings"] as const).map((target) => [
        result.endpoint.label,
        target === "baseline" ? "baseline" : "Filings",
        `${integer(result.responseBytes)} B`,
        result[target].requestsPerSecondByRun.map(integer).join(", "),
        integer(result[target].responses)
      ])
    )
  )

const machine = (startLoad: ReadonlyArray<number>) => {
  const processors = cpus()
  return [
    `- Date: ${new Date().toISOString()}`,
    `- Node.js ${process.version} on ${process.platform} ${release()} (${process.arch})`,
    `- CPU: ${processors[0]?.model ?? "unknown"} × ${processors.length}; memory ${
      (totalmem() / 2 ** 30).toFixed(1)
    } GiB`,
    `- Load average when the run started: ${startLoad.map((value) => value.toFixed(2)).join(", ")}`
  ].join("\n")
}

const report = (results: ReadonlyArray<EndpointResult>, startLoad: ReadonlyArray<number>) =>
  [
    "# HTTP benchmark: Filings against a bare node:http baseline",
    "",
    "Ratio = Filings / baseline: throughput ratio 0.25 means Filings serves a quarter of the baseline's",
    "requests per second; p99 ratio 4 means its 99th-percentile latency is four times the baseline's.",
    "",
    resultsTable(results),
    "",
    `Settings: ${settings.rounds} measured run${settings.rounds === 1 ? "" : "s"} of ${settings.duration} s per ` +
    `server and endpoint, each after a ` +
    `${settings.warmup} s warm-up, ${settings.connections} connections, ${settings.documents} documents of ` +
    `${ticker} stored (embedded PGlite), server log level ${settings.logLevel}` +
    (settings.cpuProfileDir === undefined ? "" : ", server under --cpu-prof") + ".",
    "",
    runsTable(results),
    "",
    "Machine:",
    "",
    machine(startLoad),
    "",
    "Reproduce: `node --import tsx bench/http.ts` from the repository root (see bench/README.md).",
    ""
  ].join("\n")

// --- Run --------------------------------------------------------------------------------------

const progress = (line: string) => process.stderr.write(`${line}\n`)

const main = async (cleanup: Cleanup) => {
  const startLoad = loadavg()
  const workDir = await mkdtemp(join(tmpdir(), "filings-bench-"))
  cleanup.add("remove the work directory", () => rm(workDir, { recursive: true, force: true }))
  const dataDir = join(workDir, "data")
  // The CLI commands that set up the data stay quiet; the log level is the server's.
  const env = filingsEnvironment(dataDir, "WARN")

  progress(`Storing ${settings.documents} synthetic ${ticker} filings...`)
  const key = await createBenchKey(env)
  const publicationIds = await storeDocuments(env, join(workDir, "filings"))
  const headers = { authorization: `Bearer ${key}` }

  const cpuProfileDir = settings.cpuProfileDir === undefined ? undefined : resolve(settings.cpuProfileDir)
  const filings = await startListening({
    name: "filings serve",
    nodeArgs: [
      ...(cpuProfileDir === undefined ? [] : ["--cpu-prof", "--cpu-prof-dir", cpuProfileDir]),
      filingsProgram,
      "serve",
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--json"
    ],
    env: filingsEnvironment(dataDir, settings.logLevel),
    logFile: join(workDir, "filings.log")
  })
  cleanup.add("stop filings serve", filings.stop)

  const endpoints = endpointsFor(publicationIds[0] ?? "")
  const recorded = await recordEndpoints(filings, headers, endpoints)
  const routesFile = join(workDir, "routes.json")
  await writeFile(routesFile, encodeRecordedResponses(recorded))
  const baselineEnv = { ...process.env }
  delete baselineEnv.NODE_OPTIONS
  const baseline = await startListening({
    name: "the baseline server",
    nodeArgs: ["--import", "tsx", join(repositoryRoot, "bench", "support", "baselineServer.ts"), routesFile],
    env: baselineEnv,
    logFile: join(workDir, "baseline.log")
  })
  cleanup.add("stop the baseline server", baseline.stop)
  for (const server of [filings, baseline]) {
    if (!server.url.startsWith("http://127.0.0.1:")) throw new Error(`not on the loopback address: ${server.url}`)
  }
  await verifyBaseline(baseline, recorded)

  const servers: Record<TargetName, ListeningProcess> = { baseline, filings }
  const runs = endpoints.map(() => ({ baseline: [] as Array<LoadRun>, filings: [] as Array<LoadRun> }))
  const perRun = settings.warmup + settings.duration
  progress(
    `Measuring: ${settings.rounds * endpoints.length * 2} runs of ${perRun} s ` +
      `(about ${Math.ceil((settings.rounds * endpoints.length * 2 * perRun) / 60)} min)...`
  )
  for (let round = 0; round < settings.rounds; round++) {
    for (const [index, endpoint] of endpoints.entries()) {
      // Alternate who goes first (ABBA), so a machine that gets busier or quieter favours neither.
      const order: ReadonlyArray<TargetName> = (round + index) % 2 === 0
        ? ["baseline", "filings"]
        : ["filings", "baseline"]
      for (const target of order) {
        const options = {
          url: servers[target].url + endpoint.target,
          headers: target === "filings" ? headers : {},
          connections: settings.connections
        }
        if (settings.warmup > 0) await load({ ...options, duration: settings.warmup })
        const run = await load({ ...options, duration: settings.duration })
        runs[index]?.[target].push(run)
        progress(
          `  round ${round + 1} ${target.padEnd(8)} ${endpoint.target}: ${integer(run.requests / run.seconds)} req/s`
        )
      }
    }
  }

  const results = endpoints.map((endpoint, index): EndpointResult => ({
    endpoint,
    responseBytes: Buffer.from(recorded[index]?.bodyBase64 ?? "", "base64").length,
    baseline: summarize(runs[index]?.baseline ?? []),
    filings: summarize(runs[index]?.filings ?? [])
  }))
  const markdown = report(results, startLoad)
  process.stdout.write(`${resultsTable(results)}\n`)

  const outputs = settings.output === undefined
    ? [join(resultsDir, `http-${new Date().toISOString().slice(0, 10)}.md`), join(resultsDir, "http-latest.md")]
    : [resolve(settings.output)]
  for (const output of outputs) {
    await mkdir(join(output, ".."), { recursive: true })
    await writeFile(output, markdown)
  }
  const shown = (path: string) => relative(process.cwd(), path).startsWith("..") ? path : relative(process.cwd(), path)
  progress(`Wrote ${outputs.map(shown).join(" and ")}`)
  if (cpuProfileDir !== undefined) progress(`The server's CPU profile goes to ${cpuProfileDir} when it stops.`)
}

const cleanup = new Cleanup()
try {
  await main(cleanup)
} catch (error) {
  process.exitCode = 1
  progress(`bench/http.ts failed: ${error instanceof Error ? error.message : String(error)}`)
} finally {
  await cleanup.run()
}
