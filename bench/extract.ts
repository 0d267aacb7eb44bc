/**
 * Extraction benchmark, two parts, or with `--baseline` a third alone:
 *
 * 1. Extraction against parsing, per 10-K of the corpus (in this process, CPU time, median of
 *    several runs): `Extractor.extract` (metrics, tables, exhibits, signatures) next to the
 *    `Parser.parse` it works from. The target: well under the parse time.
 * 2. `GET /v1/extract/metrics` for 10 tickers over 10 years, on a store of 10,000 filings' metrics
 *    (250 synthetic companies × 40 filings × 13 metrics), through the real server on embedded
 *    PGlite and, when `FILINGS_TEST_DATABASE_URL` names a PostgreSQL server, on PostgreSQL: p50/p99.
 * 3. With `--baseline <checkout>` (another checkout of this repository, built with `npx tsc -b`):
 *    parse + extract of every corpus 10-K by that checkout's build and this one's, loaded side by
 *    side in this process and run in turn (`--warmup` rounds, then `--rounds` measured ones): per
 *    file the lowest and median CPU time of each and new / base, the geometric mean of the ratios,
 *    and whether both builds found the same metrics. Only this part runs then; it writes
 *    `bench/results/extract-baseline-latest.md`.
 *
 *   node --import tsx bench/extract.ts [--duration 10] [--connections 10]
 *   node --import tsx bench/extract.ts --baseline <checkout> [--rounds 20] [--warmup 2]
 */
import { SqlClient } from "@effect/sql"
import { ExtractionApi } from "@filings/domain"
import { Extractor } from "@filings/extractor"
import { Parser } from "@filings/filings-parser"
import { Database } from "@filings/storage-sql"
import type { Layer } from "effect"
import { Effect, Redacted } from "effect"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { cpus, loadavg, tmpdir } from "node:os"
import { basename, join, resolve } from "node:path"
import { parseArgs } from "node:util"
import { createDatabase } from "../test/support/postgres.js"
import { load, summarize } from "./support/load.js"
import { compareBuilds, comparisonTable, type CorpusFile, loadBuild } from "./support/pairedExtraction.js"
import { Cleanup, createBenchKey, filingsProgram, repositoryRoot, startListening } from "./support/processes.js"

const { values: argv } = parseArgs({
  options: {
    duration: { type: "string" },
    connections: { type: "string" },
    baseline: { type: "string" },
    rounds: { type: "string" },
    warmup: { type: "string" }
  },
  strict: true
})
const duration = Number(argv.duration ?? 10)
const connections = Number(argv.connections ?? 10)
const rounds = Number(argv.rounds ?? 20)
const warmup = Number(argv.warmup ?? 2)
if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(warmup) || warmup < 1) {
  throw new Error("--rounds and --warmup are whole numbers of at least 1")
}

const cpuMillis = (run: () => void): number => {
  const start = process.cpuUsage()
  run()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000
}
const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0

// --- 1. Extraction against parsing ------------------------------------------------------------

const corpus = join(repositoryRoot, "..", "shared", "corpus", "10-K")

const extractionAgainstParsing = (): Array<string> => {
  if (!existsSync(corpus)) return ["(skipped: ../shared/corpus is absent)"]
  const rows = ["| 10-K | MB | parse ms | extract ms | extract / parse |", "| --- | ---: | ---: | ---: | ---: |"]
  const ratios: Array<number> = []
  for (const file of readdirSync(corpus).filter((name) => name.endsWith(".htm")).sort()) {
    const bytes = new Uint8Array(readFileSync(join(corpus, file)))
    let parsed = Effect.runSync(Parser.parse({ bytes, fileName: file }))
    const parseTimes: Array<number> = []
    const extractTimes: Array<number> = []
    for (let round = 0; round < 5; round++) {
      parseTimes.push(cpuMillis(() => (parsed = Effect.runSync(Parser.parse({ bytes, fileName: file })))))
      extractTimes.push(cpuMillis(() => Effect.runSync(Extractor.extract({ bytes, parsed, publicationId: file }))))
    }
    const [parse, extract] = [median(parseTimes.slice(1)), median(extractTimes.slice(1))]
    ratios.push(extract / parse)
    rows.push(
      `| ${basename(file)} | ${(bytes.length / 1e6).toFixed(2)} | ${parse.toFixed(0)} | ${extract.toFixed(0)} | ${
        (extract / parse).toFixed(2)
      } |`
    )
    process.stderr.write(`${file}: parse ${parse.toFixed(0)} ms, extract ${extract.toFixed(0)} ms\n`)
  }
  rows.push(`| median | | | | ${median(ratios).toFixed(2)} |`)
  return rows
}

// --- 2. The metrics endpoint on 10,000 filings -------------------------------------------------

const companies = 250
const filingsPerCompany = 40
const metricNames = ExtractionApi.MetricNames

/** 10,000 filings (one 10-K and three 10-Qs a year from 2015) with all 13 metrics each, in bulk. */
const seed = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    INSERT INTO documents (publication_id, ticker, company_name, cik, doc_type, title, filing_date, period, sec_url,
      word_count, items)
    SELECT lpad(c::text, 10, '0') || '-' || lpad((15 + f / 4)::text, 2, '0') || '-' || lpad(f::text, 6, '0'),
      'B' || c, 'Bench Company ' || c, lpad(c::text, 10, '0'),
      CASE WHEN f % 4 = 3 THEN '10-K' ELSE '10-Q' END,
      'Bench Company ' || c || ' filing ' || f,
      date '2015-02-01' + f * 91,
      CASE WHEN f % 4 = 3 THEN 'FY ' || (2015 + f / 4) ELSE 'Q' || (f % 4 + 1) || ' ' || (2015 + f / 4) END,
      'https://www.sec.gov/Archives/edgar/data/' || c || '/bench.htm', 1000, '[]'::jsonb
    FROM generate_series(1, ${companies}) c, generate_series(0, ${filingsPerCompany - 1}) f`
  yield* sql`
    INSERT INTO document_metrics (publication_id, position, metric, value, unit, period, yoy_change, source)
    SELECT d.publication_id, m.n::int - 1, m.name, (m.n * 1000003 + length(d.publication_id))::float8,
      CASE WHEN m.name = 'shares_outstanding' THEN 'shares' ELSE 'USD' END, d.period, 0.05, 'us-gaap:Bench'
    FROM documents d, unnest(${sql.literal(`ARRAY[${metricNames.map((name) => `'${name}'`).join(",")}]`)})
      WITH ORDINALITY AS m(name, n)`
  const [counted] = yield* sql<{ readonly rows: number }>`SELECT count(*)::int AS rows FROM document_metrics`
  return counted?.rows ?? 0
})

const query = `/v1/extract/metrics?tickers=${
  Array.from({ length: 10 }, (_, index) => `B${index * 25 + 1}`).join(",")
}&metrics=revenue,net_income,eps,total_assets&start_date=2015-01-01&end_date=2024-12-31`

const measureServer = async (
  name: string,
  env: NodeJS.ProcessEnv,
  cleanup: Cleanup,
  logDir: string
): Promise<string> => {
  const key = await createBenchKey(env)
  const server = await startListening({
    name: `filings serve (${name})`,
    nodeArgs: [filingsProgram, "serve", "--port", "0", "--json"],
    env,
    logFile: join(logDir, `${name}.log`)
  })
  cleanup.add(`stop the ${name} server`, server.stop)
  const headers = { authorization: `Bearer ${key}` }
  const check = await fetch(`${server.url}${query}`, { headers })
  const body = (await check.json()) as { results: Array<{ metrics: { revenue?: { data: Array<unknown> } } }> }
  if (check.status !== 200 || body.results.length !== 10 || body.results[0]?.metrics.revenue?.data.length !== 40) {
    throw new Error(`${name}: unexpected answer ${check.status} ${JSON.stringify(body).slice(0, 300)}`)
  }
  await load({ url: `${server.url}${query}`, headers, connections, duration: 2 })
  const summary = summarize([await load({ url: `${server.url}${query}`, headers, connections, duration })])
  await server.stop()
  process.stderr.write(`${name}: ${summary.requestsPerSecond.toFixed(0)} req/s, p50 ${summary.p50.toFixed(1)} ms\n`)
  return `| ${name} | ${summary.requestsPerSecond.toFixed(0)} | ${summary.p50.toFixed(1)} ms | ${
    summary.p99.toFixed(1)
  } ms |`
}

const withDatabase = <E>(layer: Layer.Layer<SqlClient.SqlClient, E>) =>
  Effect.runPromise(seed.pipe(Effect.provide(layer), Effect.scoped))

// --- 3. Against another build, side by side ------------------------------------------------------

const againstBaseline = async (baseline: string) => {
  if (!existsSync(corpus)) throw new Error("../shared/corpus is absent: nothing to compare on")
  const files: Array<CorpusFile> = readdirSync(corpus)
    .filter((name) => name.endsWith(".htm") || name.endsWith(".txt"))
    .sort()
    .map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(corpus, name))) }))
  const loadAtStart = loadavg()
  const base = await loadBuild(resolve(baseline))
  const candidate = await loadBuild(repositoryRoot)
  const comparisons = compareBuilds({
    files,
    base,
    candidate,
    rounds,
    warmup,
    onFile: ({ candidate: runs, differingMetrics, file }) =>
      process.stderr.write(
        `${file.name}: ${runs.length} rounds each${
          differingMetrics.length === 0 ? "" : `, metrics differ: ${differingMetrics.join(", ")}`
        }\n`
      )
  })
  const differing = comparisons.filter(({ differingMetrics }) => differingMetrics.length > 0)
  const report = [
    "# Parse + extract against another build",
    "",
    `Command: \`node --import tsx bench/extract.ts --baseline <checkout of ${base.commit}> --rounds ${rounds} --warmup ${warmup}\` (both checkouts built with \`npx tsc -b\`). Run ${
      new Date().toISOString()
    } on ${cpus()[0]?.model ?? "unknown CPU"} (${cpus().length} cores), load average ${
      loadAtStart.map((load) => load.toFixed(1)).join(", ")
    } at the start, Node ${process.version}.`,
    "",
    `Base: ${base.commit}. New: ${candidate.commit} (this checkout). \`Parser.parse\` (after splitting a full submission once, as the ingest does) then \`Extractor.extract\` on each corpus 10-K, CPU ms; each file run by base then new in turn, ${warmup} rounds of warm-up then ${rounds} measured. "metrics" says whether both builds found the same metrics.`,
    "",
    ...comparisonTable(comparisons),
    "",
    ...(differing.length === 0 ? [] : [
      `**The builds found different metrics** in ${differing.length} of ${comparisons.length} files: ${
        differing.map(({ differingMetrics, file }) => `${file.name} (${differingMetrics.join(", ")})`).join("; ")
      }.`,
      ""
    ])
  ].join("\n")
  await mkdir(join(repositoryRoot, "bench", "results"), { recursive: true })
  await writeFile(join(repositoryRoot, "bench", "results", "extract-baseline-latest.md"), report)
  process.stdout.write(`${report}\n`)
  // A comparison of builds that disagree is not a like-for-like measure: the run says so by failing.
  if (differing.length > 0) process.exitCode = 1
}

const main = async () => {
  if (argv.baseline !== undefined) return againstBaseline(argv.baseline)
  const cleanup = new Cleanup()
  try {
    const extraction = extractionAgainstParsing()
    const workDir = await mkdtemp(join(tmpdir(), "filings-bench-extract-"))
    cleanup.add("remove the work directory", () => rm(workDir, { recursive: true, force: true }))

    const rows = ["| store | req/s | p50 | p99 |", "| --- | ---: | ---: | ---: |"]
    const dataDir = join(workDir, "data")
    await mkdir(dataDir)
    const seeded = await withDatabase(Database.layerPglite({ dataDir: Database.pgliteDataDir(dataDir) }))
    process.stderr.write(`PGlite: ${seeded} metric values stored\n`)
    const pgliteEnv: NodeJS.ProcessEnv = { ...process.env, FILINGS_DATA_DIR: dataDir, FILINGS_LOG_LEVEL: "WARN" }
    delete pgliteEnv.FILINGS_DATABASE_URL
    rows.push(await measureServer("PGlite", pgliteEnv, cleanup, workDir))

    const admin = process.env.FILINGS_TEST_DATABASE_URL
    if (admin !== undefined && admin !== "") {
      const database = await createDatabase(admin)
      cleanup.add("drop the PostgreSQL database", database.drop)
      const url = new URL(database.url)
      await withDatabase(Database.layerPostgres({ url: Redacted.make(url.toString()) }))
      const postgresEnv: NodeJS.ProcessEnv = {
        ...process.env,
        FILINGS_DATABASE_URL: url.toString(),
        FILINGS_LOG_LEVEL: "WARN"
      }
      rows.push(await measureServer("PostgreSQL", postgresEnv, cleanup, workDir))
    } else {
      rows.push("| PostgreSQL | (skipped: set FILINGS_TEST_DATABASE_URL) | | |")
    }

    const report = [
      "# Extraction benchmark",
      "",
      `Command: \`node --import tsx bench/extract.ts\` (after \`npx tsc -b\`). Run ${new Date().toISOString()} on ${
        cpus()[0]?.model ?? "unknown CPU"
      } (${cpus().length} cores), Node ${process.version}.`,
      "",
      "## Extraction against parsing (CPU ms, median of 4 runs after one warm-up)",
      "",
      ...extraction,
      "",
      `## GET /v1/extract/metrics: 10 tickers, 4 metrics, 10 years (${companies * filingsPerCompany} filings, ${
        companies * filingsPerCompany * metricNames.length
      } metric values stored)`,
      "",
      `\`${query}\`, ${connections} connections, ${duration} s after a 2 s warm-up, through \`filings serve\`.`,
      "",
      ...rows,
      ""
    ].join("\n")
    await mkdir(join(repositoryRoot, "bench", "results"), { recursive: true })
    await writeFile(join(repositoryRoot, "bench", "results", "extract-latest.md"), report)
    process.stdout.write(`${report}\n`)
  } finally {
    await cleanup.run()
  }
}

void main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exitCode = 1
})
