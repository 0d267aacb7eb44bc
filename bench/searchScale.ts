/**
 * Search at scale: many synthetic passages stored in a database, then `GET /v1/search` asked of
 * `filings serve` on it by `--connections` clients at once (autocannon), one kind of query at a
 * time and then all kinds mixed, reporting p50 and p99 per kind, over everything and within one
 * company, with how long indexing took and how large the index is against the text.
 *
 *   node --import tsx bench/searchScale.ts [--passages 100000] [--engine pglite|postgres]
 *     [--connections 10] [--duration 10] [--database-url URL | --data-dir DIR] [--output FILE]
 *
 * PostgreSQL: `--database-url` names a database to use (it is seeded when it holds no passage, and
 * kept, so a second run measures at once); without it, FILINGS_TEST_DATABASE_URL (an
 * administrator's URL) gives a database created for the run and dropped after it. PGlite:
 * `--data-dir` is kept the same way; without it, a temporary directory. The passages are 250 words
 * drawn from a Zipf-distributed vocabulary of 50,000 made-up words (`w1` the most frequent), in
 * sentences of 25, 100
 * to a document, 2,000 companies, one filing date per document over 15 years; they are written
 * straight into the tables (terms from the same analyzer the document store uses, counts summed
 * once at the end, the GIN index built after the rows) rather than through `DocumentStore.save`,
 * which would take hours for a million.
 */
import { SqlClient } from "@effect/sql"
import { Database, TestDatabase } from "@filings/storage-sql"
import { Effect, Exit, Layer, Logger, LogLevel, Redacted, Scope } from "effect"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { jsonb } from "../packages/storage-sql/src/internal/jsonb.js"
import { analyzePassage } from "../packages/storage-sql/src/internal/sqlSearchWrites.js"
import { load, summarize, type Summary } from "./support/load.js"
import { Cleanup, createBenchKey, filingsEnvironment, startFilingsServe } from "./support/processes.js"

const { values: argv } = parseArgs({
  options: {
    passages: { type: "string", default: "100000" },
    engine: { type: "string", default: "pglite" },
    connections: { type: "string", default: "10" },
    duration: { type: "string", default: "10" },
    "database-url": { type: "string" },
    "data-dir": { type: "string" },
    output: { type: "string" }
  },
  strict: true
})
const passageCount = Number(argv.passages)
const connections = Number(argv.connections)
const duration = Number(argv.duration)
const engine = argv.engine === "postgres" ? "postgres" : "pglite"
const perDocument = 100
const companies = 2_000
const vocabulary = 50_000
const wordsPerPassage = 250

// A seeded generator (mulberry32), so every run stores the same passages.
let state = 20_261_127
const random = () => {
  state = (state + 0x6d2b79f5) | 0
  let t = Math.imul(state ^ (state >>> 15), 1 | state)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
}
const cumulative: Array<number> = []
let weightSum = 0
for (let rank = 1; rank <= vocabulary; rank++) cumulative.push(weightSum += 1 / rank)
const word = () => {
  const target = random() * weightSum
  let low = 0
  let high = vocabulary - 1
  while (low < high) {
    const middle = (low + high) >> 1
    if (cumulative[middle]! < target) low = middle + 1
    else high = middle
  }
  return `w${low + 1}`
}
/** Sentences of `wordsPerSentence` words, so that a passage reads as prose does (chat answers in sentences). */
const wordsPerSentence = 25
const passageText = () =>
  Array.from({ length: wordsPerPassage }, (_, index) => {
    const made = word()
    const first = index % wordsPerSentence === 0
    const last = index % wordsPerSentence === wordsPerSentence - 1 || index === wordsPerPassage - 1
    return `${first ? made.toUpperCase() : made}${last ? "." : ""}`
  }).join(" ")

const ticker = (company: number) => `T${company}`

const seed = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP INDEX document_chunks_terms`
  yield* sql`DROP INDEX document_chunks_newest`
  const counts = new Map<string, number>()
  let termTotal = 0
  const documents = Math.ceil(passageCount / perDocument)
  const started = performance.now()
  for (let index = 0; index < documents; index++) {
    const id = `0000000001-20-${String(index).padStart(6, "0")}`
    const company = index % companies
    const context = { ticker: ticker(company), companyName: `Company ${company}`, docType: "10-K" }
    const filingDate = `${2010 + (index % 15)}-03-01`
    yield* sql`
      INSERT INTO documents (publication_id, ticker, company_name, cik, doc_type, title, filing_date, period,
        sec_url, word_count)
      VALUES (${id}, ${context.ticker}, ${context.companyName}, '0000000001', '10-K', 'Annual report',
        ${filingDate}::date, ${`FY ${2009 + (index % 15)}`}, '', ${perDocument * wordsPerPassage})`
    const texts = Array.from({ length: Math.min(perDocument, passageCount - index * perDocument) }, passageText)
    yield* sql`INSERT INTO document_bodies (publication_id, body, exhibits) VALUES (${id}, ${texts.join("\n")}, '[]')`
    const rows = texts.map((text, position) => {
      const analyzed = analyzePassage(context, text)
      termTotal += analyzed.termCount
      for (const term of analyzed.terms) counts.set(term, (counts.get(term) ?? 0) + 1)
      const row = {
        chunk_id: `c${String(position + 1).padStart(4, "0")}`,
        position,
        text,
        page_start: 1 + Math.floor(position / 4),
        page_end: 1 + Math.floor(position / 4),
        terms: analyzed.vector,
        term_count: analyzed.termCount
      }
      return row
    })
    yield* sql`
      INSERT INTO document_chunks (publication_id, chunk_id, position, text, page_start, page_end, terms, term_count,
        filing_date)
      SELECT ${id}, r.chunk_id, r.position, r.text, r.page_start, r.page_end, r.terms::tsvector, r.term_count,
        ${filingDate}::date
      FROM jsonb_to_recordset(${jsonb(rows)}::jsonb) AS r(chunk_id text, position int, text text, page_start int,
        page_end int, terms text, term_count int)`
  }
  const stored = performance.now()
  const termRows = [...counts].map(([term, passages]) => ({ term, passages }))
  for (let index = 0; index < termRows.length; index += 20_000) {
    yield* sql`
      INSERT INTO search_terms (term, passages)
      SELECT term, passages FROM jsonb_to_recordset(${jsonb(termRows.slice(index, index + 20_000))}::jsonb)
        AS r(term text, passages int)`
  }
  yield* sql`UPDATE search_totals SET passages = ${passageCount}, terms = ${termTotal}`
  yield* sql`CREATE INDEX document_chunks_terms ON document_chunks USING gin (terms)`
  yield* sql`
    CREATE INDEX document_chunks_newest ON document_chunks (filing_date DESC, publication_id COLLATE "C" DESC, position)`
  yield* sql`ANALYZE`
  const indexed = performance.now()
  return { storeSeconds: (stored - started) / 1000, indexSeconds: (indexed - stored) / 1000 }
})

/**
 * The size of what is stored, in bytes: the documents' text, the passages' own copies of it (as
 * stored, compressed), their term vectors and the GIN index; and the database's buffer cache.
 */
const sizes = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [size] = yield* sql<
    {
      readonly passages: number
      readonly text: number
      readonly copies: number
      readonly terms: number
      readonly gin: number
      readonly shared_buffers: string
    }
  >`
    SELECT (SELECT passages::float8 FROM search_totals) AS passages,
      (SELECT sum(octet_length(body))::float8 FROM document_bodies) AS text,
      (SELECT sum(pg_column_size(text))::float8 FROM document_chunks) AS copies,
      (SELECT sum(pg_column_size(terms))::float8 FROM document_chunks) AS terms,
      pg_relation_size('document_chunks_terms')::float8 AS gin,
      current_setting('shared_buffers') AS shared_buffers`
  return size!
})

/** Seeds the database when it holds no passage yet; answers how long that took (zero when it was seeded before). */
const prepare = Effect.gen(function*() {
  const before = yield* sizes
  if (before.passages > 0) {
    if (before.passages !== passageCount) {
      console.error(`the database holds ${before.passages} passages, not ${passageCount}: measuring those`)
    }
    return { seeded: undefined, size: before }
  }
  console.error(`storing ${passageCount} passages on ${engine} ...`)
  const seeded = yield* seed
  return { seeded, size: yield* sizes }
})

/** The kinds of query asked: words by how common they are in the vocabulary. */
const queryKinds: ReadonlyArray<{ readonly name: string; readonly words: () => string }> = [
  { name: "three words, one rare", words: () => `w${pick(2, 50)} w${pick(100, 1_000)} w${pick(5_000, 40_000)}` },
  { name: "two mid-frequency words", words: () => `w${pick(50, 300)} w${pick(300, 2_000)}` },
  { name: "one common word", words: () => `w${pick(1, 20)}` },
  { name: "a phrase of two common words", words: () => `"w${pick(1, 30)} w${pick(1, 30)}"` },
  { name: "five words of a question", words: () => Array.from({ length: 5 }, () => `w${pick(10, 20_000)}`).join(" ") }
]
const pick = (low: number, high: number) => low + Math.floor(random() * (high - low))

/** Distinct requests of each kind and scope, asked in turn. */
const requestsPerKind = 200

const searchPath = (words: string, company: number | undefined) =>
  `/v1/search?${
    new URLSearchParams({
      q: words,
      limit: "10",
      ...(company === undefined ? {} : { tickers: ticker(company) })
    }).toString()
  }`

const storageEnvironment = (workDir: string, databaseUrl: string | undefined): NodeJS.ProcessEnv => {
  const env = filingsEnvironment(workDir, "warn")
  return databaseUrl === undefined ? env : { ...env, FILINGS_DATABASE_URL: databaseUrl }
}

/** Every kind over everything and within one company, then all of them mixed, through the server. */
const throughServer = async (env: NodeJS.ProcessEnv, workDir: string, cleanup: Cleanup) => {
  const key = await createBenchKey(env)
  const server = await startFilingsServe({ name: "filings serve", env, logFile: join(workDir, "serve.log") })
  cleanup.add("stop the server", server.stop)
  const headers = { authorization: `Bearer ${key}` }
  const runs: Array<{ readonly kind: string; readonly over: string; readonly summary: Summary }> = []
  const mixed: Array<string> = []
  for (const kind of queryKinds) {
    for (const scope of ["everything", "one company"] as const) {
      const paths = Array.from(
        { length: requestsPerKind },
        () => searchPath(kind.words(), scope === "everything" ? undefined : pick(0, companies))
      )
      mixed.push(...paths)
      // A few unmeasured requests warm the server and the database's cache for these.
      await Promise.all(
        paths.slice(0, connections).map(async (path) => {
          const response = await fetch(`${server.url}${path}`, { headers })
          if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
        })
      )
      runs.push({
        kind: kind.name,
        over: scope,
        summary: summarize([await load({ url: server.url, headers, connections, duration, paths, timeout: 60 })])
      })
      console.error(`${kind.name}, ${scope}: done`)
    }
  }
  // Every kind's requests in a shuffled order, as a server would see them from many users.
  const shuffled = [...mixed]
  for (let index = shuffled.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1))
    ;[shuffled[index], shuffled[other]] = [shuffled[other]!, shuffled[index]!]
  }
  runs.push({
    kind: "all of the above, mixed",
    over: "both",
    summary: summarize([
      await load({ url: server.url, headers, connections, duration: duration * 2, paths: shuffled, timeout: 60 })
    ])
  })
  await server.stop()
  return runs
}

const databaseUrl = async (cleanup: Cleanup): Promise<string | undefined> => {
  if (engine === "pglite") return undefined
  if (argv["database-url"] !== undefined) return argv["database-url"]
  const admin = process.env["FILINGS_TEST_DATABASE_URL"]
  if (admin === undefined) throw new Error("--engine postgres needs --database-url or FILINGS_TEST_DATABASE_URL")
  // A scope kept open until the cleanup closes it: the database is dropped then.
  const scope = Effect.runSync(Scope.make())
  cleanup.add("drop the database", () => Effect.runPromise(Scope.close(scope, Exit.void)))
  const url = await Effect.runPromise(TestDatabase.createPostgresDatabase(admin).pipe(Scope.extend(scope)))
  return Redacted.value(url)
}

const main = async () => {
  const cleanup = new Cleanup()
  try {
    const workDir = await mkdtemp(join(tmpdir(), "filings-search-scale-"))
    cleanup.add("remove the work directory", () => rm(workDir, { recursive: true, force: true }))
    const dataDir = argv["data-dir"] ?? workDir
    const url = await databaseUrl(cleanup)
    const database = url === undefined
      ? Database.layer({ dataDir })
      : Database.layer({ url: Redacted.make(url), maxConnections: 2 })
    // The seeding process closes the database before the server opens it (PGlite allows one process).
    const { seeded, size } = await Effect.runPromise(prepare.pipe(
      Effect.provide(database.pipe(Layer.orDie)),
      Logger.withMinimumLogLevel(LogLevel.Warning)
    ))
    console.error("asking ...")
    const runs = await throughServer(storageEnvironment(dataDir, url), workDir, cleanup)
    const report = [
      `# Search at scale: ${size.passages.toLocaleString("en-US")} passages on ${engine}`,
      "",
      `\`node --import tsx bench/searchScale.ts --passages ${passageCount} --engine ${engine} --connections ${connections} --duration ${duration}\``,
      "",
      seeded === undefined
        ? "Stored by an earlier run."
        : `Stored in ${seeded.storeSeconds.toFixed(0)} s; counts and GIN index in ${seeded.indexSeconds.toFixed(0)} s.`,
      `Against the passages' text (${(size.text / 1e6).toFixed(0)} MB): the passages' copies ${
        (size.copies / size.text).toFixed(2)
      }, terms ${(size.terms / size.text).toFixed(2)}, ` +
      `GIN index ${(size.gin / size.text).toFixed(2)}. The database's \`shared_buffers\`: ${size.shared_buffers}.`,
      "",
      `\`GET /v1/search\` through \`filings serve\`, ${connections} connections, ${duration} s per kind ` +
      `(${requestsPerKind} distinct requests each, asked in turn), 10 results each (ms):`,
      "",
      "| Query | Over | Requests | p50 | p99 |",
      "| --- | --- | ---: | ---: | ---: |",
      ...runs.map(({ kind, over, summary }) =>
        `| ${kind} | ${over} | ${summary.responses} | ${summary.p50.toFixed(1)} | ${summary.p99.toFixed(1)} |`
      )
    ].join("\n")
    console.log(report)
    if (argv.output !== undefined) await writeFile(argv.output, `${report}\n`)
  } finally {
    await cleanup.run()
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
