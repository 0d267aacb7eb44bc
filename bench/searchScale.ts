/**
 * Search at scale: many synthetic passages stored in a throwaway database, then a mix of queries
 * asked of the SQL `SearchIndex` by several callers at once, reporting p50 and p99 per kind of
 * query, unfiltered and within one company, and how long indexing took and how large the index is.
 *
 *   node --import tsx bench/searchScale.ts [--passages 100000] [--engine pglite|postgres]
 *     [--connections 10] [--rounds 20]
 *
 * PostgreSQL needs FILINGS_TEST_DATABASE_URL (an administrator's URL): a database is created for
 * the run and dropped after it. The passages are 250 words drawn from a Zipf-distributed
 * vocabulary of 50,000 made-up words (`w1` the most frequent), 100 to a document, 2,000 companies;
 * they are written straight into the tables (terms from the same analyzer the document store
 * uses, counts summed once at the end, the GIN index built after the rows) rather than through
 * `DocumentStore.save`, which would take hours for a million. Queries go through the store in this
 * process, not over HTTP.
 */
import { SqlClient } from "@effect/sql"
import { SearchText } from "@filings/storage"
import { Database, TestDatabase } from "@filings/storage-sql"
import { Effect, Either, Layer, Logger, LogLevel, Redacted } from "effect"
import { parseArgs } from "node:util"
import { jsonb } from "../packages/storage-sql/src/internal/jsonb.js"
import { makeSearchIndex } from "../packages/storage-sql/src/internal/sqlSearch.js"
import { analyzePassage } from "../packages/storage-sql/src/internal/sqlSearchWrites.js"

const { values: argv } = parseArgs({
  options: {
    passages: { type: "string", default: "100000" },
    engine: { type: "string", default: "pglite" },
    connections: { type: "string", default: "10" },
    rounds: { type: "string", default: "20" }
  },
  strict: true
})
const passageCount = Number(argv.passages)
const connections = Number(argv.connections)
const rounds = Number(argv.rounds)
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
const passageText = () => Array.from({ length: wordsPerPassage }, word).join(" ")

const ticker = (company: number) => `T${company}`

const seed = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP INDEX document_chunks_terms`
  const counts = new Map<string, number>()
  let termTotal = 0
  const documents = Math.ceil(passageCount / perDocument)
  const started = performance.now()
  for (let index = 0; index < documents; index++) {
    const id = `0000000001-20-${String(index).padStart(6, "0")}`
    const company = index % companies
    const context = { ticker: ticker(company), companyName: `Company ${company}`, docType: "10-K" }
    yield* sql`
      INSERT INTO documents (publication_id, ticker, company_name, cik, doc_type, title, filing_date, period,
        sec_url, word_count)
      VALUES (${id}, ${context.ticker}, ${context.companyName}, '0000000001', '10-K', 'Annual report',
        ${`${2010 + (index % 15)}-03-01`}::date, ${`FY ${2009 + (index % 15)}`}, '', ${perDocument * wordsPerPassage})`
    const texts = Array.from({ length: Math.min(perDocument, passageCount - index * perDocument) }, passageText)
    yield* sql`INSERT INTO document_bodies (publication_id, body, exhibits) VALUES (${id}, ${texts.join("\n")}, '[]')`
    let start = 0
    const rows = texts.map((text, position) => {
      const analyzed = analyzePassage(context, text)
      termTotal += analyzed.termCount
      for (const term of analyzed.terms) counts.set(term, (counts.get(term) ?? 0) + 1)
      const row = {
        chunk_id: `c${String(position + 1).padStart(4, "0")}`,
        position,
        body_start: start,
        body_length: text.length,
        page_start: 1 + Math.floor(position / 4),
        page_end: 1 + Math.floor(position / 4),
        terms: analyzed.vector,
        term_count: analyzed.termCount
      }
      start += text.length + 1
      return row
    })
    yield* sql`
      INSERT INTO document_chunks (publication_id, chunk_id, position, body_start, body_length, page_start, page_end,
        terms, term_count)
      SELECT ${id}, r.chunk_id, r.position, r.body_start, r.body_length, r.page_start, r.page_end, r.terms::tsvector,
        r.term_count
      FROM jsonb_to_recordset(${jsonb(rows)}::jsonb) AS r(chunk_id text, position int, body_start int,
        body_length int, page_start int, page_end int, terms text, term_count int)`
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
  yield* sql`ANALYZE`
  const indexed = performance.now()
  const [size] = yield* sql<{ readonly text: number; readonly terms: number; readonly gin: number }>`
    SELECT (SELECT sum(octet_length(body))::float8 FROM document_bodies) AS text,
      (SELECT sum(pg_column_size(terms))::float8 FROM document_chunks) AS terms,
      pg_relation_size('document_chunks_terms')::float8 AS gin`
  return { storeSeconds: (stored - started) / 1000, indexSeconds: (indexed - stored) / 1000, size: size! }
})

/** The kinds of query asked: words by how common they are in the vocabulary. */
const queryKinds: ReadonlyArray<{ readonly name: string; readonly words: () => string }> = [
  { name: "three words, one rare", words: () => `w${pick(2, 50)} w${pick(100, 1_000)} w${pick(5_000, 40_000)}` },
  { name: "two mid-frequency words", words: () => `w${pick(50, 300)} w${pick(300, 2_000)}` },
  { name: "one common word", words: () => `w${pick(1, 20)}` },
  { name: "a phrase of two words", words: () => `"w${pick(1, 30)} w${pick(1, 30)}"` },
  { name: "five words of a question", words: () => Array.from({ length: 5 }, () => `w${pick(10, 20_000)}`).join(" ") }
]
const pick = (low: number, high: number) => low + Math.floor(random() * (high - low))

const percentile = (sorted: ReadonlyArray<number>, share: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!

const measure = Effect.gen(function*() {
  const index = yield* makeSearchIndex
  const lines: Array<string> = []
  for (const kind of queryKinds) {
    for (const filtered of [false, true]) {
      const queries = Array.from({ length: rounds * connections }, () => ({
        query: Either.getOrThrow(SearchText.parseQuery(kind.words())),
        tickers: filtered ? [ticker(pick(0, companies)) as never] : undefined
      }))
      // One unmeasured pass, then every query, `connections` at a time.
      yield* Effect.forEach(queries.slice(0, connections), (q) => index.search({ ...q, limit: 10, offset: 0 }), {
        concurrency: connections
      })
      const times = yield* Effect.forEach(queries, (q) =>
        Effect.gen(function*() {
          const start = performance.now()
          yield* index.search({ ...q, limit: 10, offset: 0 })
          return performance.now() - start
        }), { concurrency: connections })
      const sorted = [...times].sort((a, b) => a - b)
      lines.push(
        `| ${kind.name} | ${filtered ? "one company" : "everything"} | ${percentile(sorted, 0.5).toFixed(1)} | ${
          percentile(sorted, 0.99).toFixed(1)
        } |`
      )
    }
  }
  return lines
})

const database = engine === "postgres"
  ? Layer.unwrapScoped(Effect.gen(function*() {
    const admin = process.env["FILINGS_TEST_DATABASE_URL"]
    if (admin === undefined) return yield* Effect.dieMessage("--engine postgres needs FILINGS_TEST_DATABASE_URL")
    const url = yield* TestDatabase.createPostgresDatabase(admin)
    return Database.layerPostgres({ url: Redacted.make(Redacted.value(url)), maxConnections: connections })
  }))
  : TestDatabase.layerPglite()

const program = Effect.gen(function*() {
  console.error(`storing ${passageCount} passages on ${engine} ...`)
  const seeded = yield* seed
  console.error("asking ...")
  const lines = yield* measure
  const { size } = seeded
  console.log([
    `# Search at scale: ${passageCount.toLocaleString("en-US")} passages on ${engine}`,
    "",
    `\`node --import tsx bench/searchScale.ts --passages ${passageCount} --engine ${engine} --connections ${connections} --rounds ${rounds}\``,
    "",
    `Stored in ${seeded.storeSeconds.toFixed(0)} s; counts and GIN index in ${seeded.indexSeconds.toFixed(0)} s. ` +
    `Against the passages' text (${(size.text / 1e6).toFixed(0)} MB): terms ${(size.terms / size.text).toFixed(2)}, ` +
    `GIN index ${(size.gin / size.text).toFixed(2)}.`,
    "",
    `${rounds * connections} queries of each kind, ${connections} at a time, 10 results each (ms):`,
    "",
    "| Query | Over | p50 | p99 |",
    "| --- | --- | ---: | ---: |",
    ...lines
  ].join("\n"))
})

Effect.runPromise(program.pipe(
  Effect.provide(database.pipe(Layer.orDie)),
  Effect.scoped,
  Logger.withMinimumLogLevel(LogLevel.Warning)
)).catch((error) => {
  console.error(error)
  process.exit(1)
})
