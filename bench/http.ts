/**
 * HTTP benchmark: the real `filings serve` (its own process) on embedded PGlite and on PostgreSQL,
 * side by side with two references in processes of their own: the **framework floor**, a minimal
 * Effect `HttpApi` with the same Bearer check and `X-RateLimit-*` headers and no storage
 * (`support/frameworkFloor.ts`), and a bare `node:http` server (`support/baselineServer.ts`); both
 * answer with the very bytes the real server sent. Four endpoints: one document's metadata, the
 * same document with its body, a 50-document page of a ticker's list, and the feed's newest page.
 * Within each storage, runs rotate among the three servers so drift on a busy machine falls on all;
 * the report gives requests/s, p50 and p99 for each, and Filings' ratios to the floor and to
 * `node:http`.
 *
 *   node --import tsx bench/http.ts [--storage pglite|postgres|both] [--endpoints metadata,body,list,feed]
 *     [--duration 5] [--warmup 1]
 *     [--connections 10] [--rounds 2] [--documents 200] [--log-level WARN] [--cpu-prof DIR]
 *     [--output FILE]
 *
 * PostgreSQL runs on a fresh database made on the server `FILINGS_TEST_DATABASE_URL` names (an
 * admin URL) and dropped afterwards; the default is both storages when that is set, PGlite alone
 * otherwise. Each option can also come from the environment: BENCH_STORAGE, BENCH_DURATION, ...,
 * BENCH_LOG_LEVEL, BENCH_CPU_PROF, BENCH_OUTPUT.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { cpus, loadavg, release, tmpdir, totalmem } from "node:os"
import { join, relative, resolve } from "node:path"
import { parseArgs } from "node:util"
import { createDatabase } from "../test/support/postgres.js"
import { writeSubmission } from "../test/support/syntheticFilings.js"
import { load, type LoadRun, summarize, type Summary } from "./support/load.js"
import { cpuSeconds } from "./support/processCpu.js"
import {
  Cleanup,
  createBenchKey,
  filingsEnvironment,
  filingsJson,
  type ListeningProcess,
  repositoryRoot,
  startFilingsServe,
  startListening
} from "./support/processes.js"
import { encodeRecordedResponses, type RecordedResponse, recordResponse } from "./support/recordedResponse.js"

// --- Settings ---------------------------------------------------------------------------------

const optionNames = [
  "storage",
  "endpoints",
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

const endpointNames = ["metadata", "body", "list", "feed"] as const
type EndpointName = typeof endpointNames[number]

const endpointsAsked = (): ReadonlyArray<EndpointName> => {
  const text = setting("endpoints")
  if (text === undefined) return endpointNames
  const names = text.split(",").map((name) => name.trim())
  for (const name of names) {
    if (!(endpointNames as ReadonlyArray<string>).includes(name)) {
      throw new Error(`--endpoints takes a list of ${endpointNames.join(", ")}; got "${text}"`)
    }
  }
  return names as ReadonlyArray<EndpointName>
}

type StorageName = "pglite" | "postgres"

const adminDatabaseUrl = process.env.FILINGS_TEST_DATABASE_URL === ""
  ? undefined
  : process.env.FILINGS_TEST_DATABASE_URL

const storagesAsked = (): ReadonlyArray<StorageName> => {
  const text = setting("storage")
  if (text === undefined) return adminDatabaseUrl === undefined ? ["pglite"] : ["pglite", "postgres"]
  const storages = text === "both" ? ["pglite", "postgres"] as const : [text]
  for (const storage of storages) {
    if (storage !== "pglite" && storage !== "postgres") {
      throw new Error(`--storage must be pglite, postgres or both, got "${text}"`)
    }
    if (storage === "postgres" && adminDatabaseUrl === undefined) {
      throw new Error("--storage postgres needs FILINGS_TEST_DATABASE_URL (an admin URL of a PostgreSQL server)")
    }
  }
  return storages as ReadonlyArray<StorageName>
}

const settings = {
  storages: storagesAsked(),
  endpoints: endpointsAsked(),
  /** Seconds of each measured run. */
  duration: positiveInteger("duration", 5),
  /** Seconds of unmeasured load just before each measured run. */
  warmup: positiveInteger("warmup", 1),
  connections: positiveInteger("connections", 10),
  /** Measured runs of each server on each endpoint. */
  rounds: positiveInteger("rounds", 2),
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
  const files = await Promise.all(
    filings.map((filing) => writeSubmission(directory, `${filing.accession}.txt`, filing))
  )
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
  readonly name: EndpointName
  readonly label: string
  readonly method: "GET" | "POST"
  readonly target: string
  /** A `POST`'s JSON body. */
  readonly body?: string | undefined
  /** Fails when the real server's answer is not the one the benchmark means to measure. */
  readonly check: (body: unknown) => string | undefined
}

const feedPageSize = 50

const endpointsFor = (publicationId: string): ReadonlyArray<Endpoint> =>
  everyEndpoint(publicationId).filter((endpoint) => settings.endpoints.includes(endpoint.name))

const everyEndpoint = (publicationId: string): ReadonlyArray<Endpoint> => [
  {
    name: "metadata",
    label: "`GET /v1/documents/{id}?format=metadata`",
    method: "GET",
    target: `/v1/documents/${publicationId}?format=metadata`,
    check: (body) => {
      const document = body as { readonly publication_id?: unknown; readonly body?: unknown }
      return document.publication_id === publicationId && document.body === undefined
        ? undefined
        : `expected the metadata of ${publicationId}`
    }
  },
  {
    name: "body",
    label: "`GET /v1/documents/{id}` (body)",
    method: "GET",
    target: `/v1/documents/${publicationId}`,
    check: (body) => {
      const document = body as { readonly publication_id?: unknown; readonly body?: unknown }
      return document.publication_id === publicationId && typeof document.body === "string"
        ? undefined
        : `expected ${publicationId} with its body`
    }
  },
  {
    name: "list",
    label: `\`GET /v1/documents?tickers=${ticker}&limit=${listPageSize}\``,
    method: "GET",
    target: `/v1/documents?tickers=${ticker}&limit=${listPageSize}`,
    check: (body) => {
      const page = body as { readonly documents?: ReadonlyArray<unknown>; readonly total?: unknown }
      const expected = Math.min(listPageSize, settings.documents)
      return page.documents?.length === expected && page.total === settings.documents
        ? undefined
        : `expected ${expected} of ${settings.documents} documents`
    }
  },
  {
    name: "feed",
    label: `\`POST /v1/feed\` (${ticker}, limit ${feedPageSize})`,
    method: "POST",
    target: "/v1/feed",
    body: JSON.stringify({ tickers: [ticker], limit: feedPageSize }),
    check: (body) => {
      const page = body as { readonly items?: ReadonlyArray<unknown> }
      const expected = Math.min(feedPageSize, settings.documents)
      return page.items?.length === expected ? undefined : `expected ${expected} feed items`
    }
  }
]

const jsonHeaders = { "content-type": "application/json" }

const requestInit = (endpoint: Endpoint, headers: Readonly<Record<string, string>>): RequestInit =>
  endpoint.body === undefined
    ? { method: endpoint.method, headers }
    : { method: endpoint.method, headers: { ...headers, ...jsonHeaders }, body: endpoint.body }

/** Fetches each endpoint once from the real server and keeps the response for the references to replay. */
const recordEndpoints = (
  server: ListeningProcess,
  headers: Readonly<Record<string, string>>,
  endpoints: ReadonlyArray<Endpoint>
): Promise<ReadonlyArray<RecordedResponse>> =>
  Promise.all(endpoints.map(async (endpoint) => {
    const response = await fetch(server.url + endpoint.target, requestInit(endpoint, headers))
    const recorded = await recordResponse(endpoint.target, response)
    const body = Buffer.from(recorded.bodyBase64, "base64").toString("utf8")
    if (response.status !== 200) throw new Error(`${endpoint.target} answered ${response.status}: ${body}`)
    if (response.headers.get("x-ratelimit-remaining") === null) {
      throw new Error(`${endpoint.target} answered without X-RateLimit-* headers`)
    }
    const problem = endpoint.check(JSON.parse(body))
    if (problem !== undefined) throw new Error(`${endpoint.target}: ${problem}; got ${body.slice(0, 500)}`)
    return recorded
  }))

/** Checks that a reference server sends back exactly the recorded body and content type (and the floor, the rate-limit headers). */
const verifyReplay = async (
  name: string,
  server: ListeningProcess,
  endpoints: ReadonlyArray<Endpoint>,
  recorded: ReadonlyArray<RecordedResponse>,
  headers: Readonly<Record<string, string>>
) => {
  for (const [index, expected] of recorded.entries()) {
    const endpoint = endpoints[index]!
    const response = await fetch(server.url + expected.target, requestInit(endpoint, headers))
    const body = Buffer.from(await response.arrayBuffer())
    if (
      response.status !== expected.status ||
      response.headers.get("content-type") !== expected.headers["content-type"] ||
      response.headers.get("x-ratelimit-limit") === null ||
      !body.equals(Buffer.from(expected.bodyBase64, "base64"))
    ) {
      throw new Error(`${name} does not replay ${expected.target} byte for byte`)
    }
  }
}

// --- Report -----------------------------------------------------------------------------------

const serverNames = ["node", "floor", "filings"] as const
type ServerName = typeof serverNames[number]

const serverLabel: Record<ServerName, string> = { node: "node:http", floor: "framework floor", filings: "Filings" }

const storageLabel: Record<StorageName, string> = { pglite: "PGlite", postgres: "PostgreSQL" }

interface EndpointResult {
  readonly storage: StorageName
  readonly endpoint: Endpoint
  readonly responseBytes: number
  readonly summaries: Record<ServerName, Summary>
  /** The server's CPU seconds per response over the measured runs; undefined where it cannot be read. */
  readonly cpuPerResponse: Record<ServerName, number | undefined>
}

const integer = (value: number) => Math.round(value).toLocaleString("en-US")
const milliseconds = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`
const ratio = (value: number) => value.toFixed(value >= 10 ? 1 : value >= 1 ? 2 : 3)

const markdownTable = (header: ReadonlyArray<string>, align: string, rows: ReadonlyArray<ReadonlyArray<string>>) =>
  [`| ${header.join(" | ")} |`, `|${align}|`, ...rows.map((row) => `| ${row.join(" | ")} |`)].join("\n")

const resultsTable = (results: ReadonlyArray<EndpointResult>) =>
  markdownTable(
    [
      "Storage",
      "Endpoint",
      "node:http req/s",
      "Floor req/s",
      "Filings req/s",
      "Filings / floor",
      "Filings / node:http",
      "Floor p99",
      "Filings p50",
      "Filings p99"
    ],
    "---|---|--:|--:|--:|--:|--:|--:|--:|--:",
    results.map(({ endpoint, storage, summaries }) => [
      storageLabel[storage],
      endpoint.label,
      integer(summaries.node.requestsPerSecond),
      integer(summaries.floor.requestsPerSecond),
      integer(summaries.filings.requestsPerSecond),
      ratio(summaries.filings.requestsPerSecond / summaries.floor.requestsPerSecond),
      ratio(summaries.filings.requestsPerSecond / summaries.node.requestsPerSecond),
      milliseconds(summaries.floor.p99),
      milliseconds(summaries.filings.p50),
      milliseconds(summaries.filings.p99)
    ])
  )

const microseconds = (seconds: number | undefined) => seconds === undefined ? "–" : `${integer(seconds * 1e6)} µs`

const cpuRatio = (numerator: number | undefined, denominator: number | undefined) =>
  numerator === undefined || denominator === undefined ? "–" : ratio(numerator / denominator)

const cpuTable = (results: ReadonlyArray<EndpointResult>) =>
  markdownTable(
    [
      "Storage",
      "Endpoint",
      "node:http CPU / response",
      "Floor CPU / response",
      "Filings CPU / response",
      "Floor / Filings (CPU)"
    ],
    "---|---|--:|--:|--:|--:",
    results.map(({ cpuPerResponse, endpoint, storage }) => [
      storageLabel[storage],
      endpoint.label,
      microseconds(cpuPerResponse.node),
      microseconds(cpuPerResponse.floor),
      microseconds(cpuPerResponse.filings),
      cpuRatio(cpuPerResponse.floor, cpuPerResponse.filings)
    ])
  )

const runsTable = (results: ReadonlyArray<EndpointResult>) =>
  markdownTable(
    ["Storage", "Endpoint", "Server", "Response body", "req/s of each run, in order", "p50", "p99", "Responses timed"],
    "---|---|---|--:|---|--:|--:|--:",
    results.flatMap((result) =>
      serverNames.map((server) => [
        storageLabel[result.storage],
        result.endpoint.label,
        serverLabel[server],
        `${integer(result.responseBytes)} B`,
        result.summaries[server].requestsPerSecondByRun.map(integer).join(", "),
        milliseconds(result.summaries[server].p50),
        milliseconds(result.summaries[server].p99),
        integer(result.summaries[server].responses)
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
    "# HTTP benchmark: Filings against the framework floor and bare node:http",
    "",
    "Filings / floor = Filings' requests per second over the framework floor's (a minimal Effect `HttpApi`",
    "with the same Bearer check and rate-limit headers, no storage); Filings / node:http, over a bare",
    "`node:http` server sending the same bytes. Each storage's rows were measured with its own floor and",
    "node:http, runs rotating among the three.",
    "",
    resultsTable(results),
    "",
    "The CPU time each server process used over its measured runs, per response (user and system time",
    "from `/proc`; the load generator runs in another process). It moves far less than requests per",
    "second with what else the machine runs; Floor / Filings is the same comparison as Filings / floor above.",
    "",
    cpuTable(results),
    "",
    `Settings: ${settings.rounds} measured run${settings.rounds === 1 ? "" : "s"} of ${settings.duration} s per ` +
    `server, endpoint and storage, each after a ` +
    `${settings.warmup} s warm-up, ${settings.connections} connections, ${settings.documents} documents of ` +
    `${ticker} stored, server log level ${settings.logLevel}` +
    (settings.cpuProfileDir === undefined ? "" : ", Filings under --cpu-prof") + ".",
    "",
    runsTable(results),
    "",
    "Machine:",
    "",
    machine(startLoad),
    "",
    `Reproduce: \`node --import tsx bench/http.ts\` from the repository root, with \`FILINGS_TEST_DATABASE_URL\` set ` +
    "for the PostgreSQL rows (see bench/README.md).",
    ""
  ].join("\n")

// --- Run --------------------------------------------------------------------------------------

const progress = (line: string) => process.stderr.write(`${line}\n`)

/** The environment of `filings` on the storage: PGlite under `dataDir`, or the PostgreSQL database at `url`. */
const storageEnvironment = (dataDir: string, logLevel: string, databaseUrl: string | undefined) =>
  databaseUrl === undefined
    ? filingsEnvironment(dataDir, logLevel)
    : { ...filingsEnvironment(dataDir, logLevel), FILINGS_DATABASE_URL: databaseUrl }

/** The environment of a reference server: the caller's, without anything that would load more code. */
const referenceEnvironment = (extra: Readonly<Record<string, string>>): NodeJS.ProcessEnv => {
  const env = { ...process.env, ...extra }
  delete env.NODE_OPTIONS
  return env
}

/** CPU seconds per completed request over the runs; undefined when any run's CPU time is unknown. */
const cpuPerResponse = (runs: ReadonlyArray<LoadRun>, cpu: ReadonlyArray<number | undefined>) => {
  if (cpu.length === 0 || cpu.some((seconds) => seconds === undefined)) return undefined
  const requests = runs.reduce((total, run) => total + run.requests, 0)
  return requests === 0 ? undefined : cpu.reduce<number>((total, seconds) => total + (seconds ?? 0), 0) / requests
}

/** Stores the documents on one storage, starts the three servers, and measures every endpoint on each. */
const measureStorage = async (
  storage: StorageName,
  workRoot: string,
  cleanup: Cleanup
): Promise<ReadonlyArray<EndpointResult>> => {
  const workDir = join(workRoot, storage)
  await mkdir(workDir)
  const stops = new Cleanup(false)
  try {
    let databaseUrl: string | undefined
    if (storage === "postgres") {
      const database = await createDatabase(adminDatabaseUrl!)
      cleanup.add("drop the PostgreSQL database", database.drop)
      databaseUrl = database.url
    }
    // On Ctrl-C or SIGTERM only the main cleanup runs: it stops this stage's servers too (once),
    // before dropping the database they use.
    cleanup.add(`stop the ${storageLabel[storage]} servers`, () => stops.run())
    const dataDir = join(workDir, "data")
    // The CLI commands that set up the data stay quiet; the log level is the server's.
    const env = storageEnvironment(dataDir, "WARN", databaseUrl)

    progress(`${storageLabel[storage]}: storing ${settings.documents} synthetic ${ticker} filings...`)
    const key = await createBenchKey(env)
    const publicationIds = await storeDocuments(env, join(workDir, "filings"))
    const headers = { authorization: `Bearer ${key}` }

    const cpuProfileDir = settings.cpuProfileDir === undefined
      ? undefined
      : join(resolve(settings.cpuProfileDir), storage)
    const filings = await startFilingsServe({
      name: "filings serve",
      env: storageEnvironment(dataDir, settings.logLevel, databaseUrl),
      logFile: join(workDir, "filings.log"),
      cpuProfileDir
    })
    stops.add("stop filings serve", filings.stop)

    const endpoints = endpointsFor(publicationIds[0] ?? "")
    const recorded = await recordEndpoints(filings, headers, endpoints)
    const routesFile = join(workDir, "routes.json")
    await writeFile(routesFile, encodeRecordedResponses(recorded))
    const node = await startListening({
      name: "the node:http server",
      nodeArgs: ["--import", "tsx", join(repositoryRoot, "bench", "support", "baselineServer.ts"), routesFile],
      env: referenceEnvironment({}),
      logFile: join(workDir, "node-http.log")
    })
    stops.add("stop the node:http server", node.stop)
    const floor = await startListening({
      name: "the framework floor",
      nodeArgs: ["--import", "tsx", join(repositoryRoot, "bench", "support", "frameworkFloor.ts"), routesFile],
      env: referenceEnvironment({ BENCH_API_KEY: key }),
      logFile: join(workDir, "floor.log")
    })
    stops.add("stop the framework floor", floor.stop)
    const servers: Record<ServerName, ListeningProcess> = { node, floor, filings }
    for (const server of Object.values(servers)) {
      if (!server.url.startsWith("http://127.0.0.1:")) throw new Error(`not on the loopback address: ${server.url}`)
    }
    await verifyReplay("the node:http server", node, endpoints, recorded, {})
    await verifyReplay("the framework floor", floor, endpoints, recorded, headers)

    const runs = endpoints.map(() => ({
      node: [] as Array<LoadRun>,
      floor: [] as Array<LoadRun>,
      filings: [] as Array<LoadRun>
    }))
    // CPU seconds each server used during each measured run; undefined where it cannot be read.
    const cpu = endpoints.map(() => ({
      node: [] as Array<number | undefined>,
      floor: [] as Array<number | undefined>,
      filings: [] as Array<number | undefined>
    }))
    const perRun = settings.warmup + settings.duration
    const count = settings.rounds * endpoints.length * serverNames.length
    progress(
      `${storageLabel[storage]}: ${count} runs of ${perRun} s (about ${Math.ceil((count * perRun) / 60)} min)...`
    )
    for (let round = 0; round < settings.rounds; round++) {
      for (const [index, endpoint] of endpoints.entries()) {
        // Rotate who goes first, so a machine that gets busier or quieter favours none of the three.
        const shift = (round + index) % serverNames.length
        const order = [...serverNames.slice(shift), ...serverNames.slice(0, shift)]
        for (const server of order) {
          const options = {
            url: servers[server].url + endpoint.target,
            headers: endpoint.body === undefined
              ? (server === "node" ? {} : headers)
              : { ...(server === "node" ? {} : headers), ...jsonHeaders },
            connections: settings.connections,
            method: endpoint.method,
            body: endpoint.body
          }
          if (settings.warmup > 0) await load({ ...options, duration: settings.warmup })
          const cpuBefore = cpuSeconds(servers[server].pid)
          const run = await load({ ...options, duration: settings.duration })
          const cpuAfter = cpuSeconds(servers[server].pid)
          runs[index]?.[server].push(run)
          cpu[index]?.[server].push(
            cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore
          )
          progress(
            `  ${storage} round ${round + 1} ${server.padEnd(7)} ${endpoint.method} ${endpoint.target}: ${
              integer(run.requests / run.seconds)
            } req/s`
          )
        }
      }
    }
    if (cpuProfileDir !== undefined) progress(`The server's CPU profile goes to ${cpuProfileDir} when it stops.`)
    return endpoints.map((endpoint, index): EndpointResult => ({
      storage,
      endpoint,
      responseBytes: Buffer.from(recorded[index]?.bodyBase64 ?? "", "base64").length,
      summaries: {
        node: summarize(runs[index]?.node ?? []),
        floor: summarize(runs[index]?.floor ?? []),
        filings: summarize(runs[index]?.filings ?? [])
      },
      cpuPerResponse: {
        node: cpuPerResponse(runs[index]?.node ?? [], cpu[index]?.node ?? []),
        floor: cpuPerResponse(runs[index]?.floor ?? [], cpu[index]?.floor ?? []),
        filings: cpuPerResponse(runs[index]?.filings ?? [], cpu[index]?.filings ?? [])
      }
    }))
  } finally {
    // The servers stop before the next storage is measured (and Filings writes its profile).
    await stops.run()
  }
}

const main = async (cleanup: Cleanup) => {
  const startLoad = loadavg()
  const workDir = await mkdtemp(join(tmpdir(), "filings-bench-"))
  cleanup.add("remove the work directory", () => rm(workDir, { recursive: true, force: true }))

  const results: Array<EndpointResult> = []
  for (const storage of settings.storages) results.push(...await measureStorage(storage, workDir, cleanup))

  const markdown = report(results, startLoad)
  process.stdout.write(`${resultsTable(results)}\n\n${cpuTable(results)}\n`)

  const outputs = settings.output === undefined
    ? [join(resultsDir, `http-${new Date().toISOString().slice(0, 10)}.md`), join(resultsDir, "http-latest.md")]
    : [resolve(settings.output)]
  for (const output of outputs) {
    await mkdir(join(output, ".."), { recursive: true })
    await writeFile(output, markdown)
  }
  const shown = (path: string) => relative(process.cwd(), path).startsWith("..") ? path : relative(process.cwd(), path)
  progress(`Wrote ${outputs.map(shown).join(" and ")}`)
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
