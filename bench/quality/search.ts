/**
 * Search quality and speed: the development set (`search/dev-questions.json`) over the corpus
 * documents of `search/corpus.ts`, stored through the server's ingestion into the memory storage
 * and into embedded PGlite, asked of four systems side by side in one run:
 *
 * - our `SearchIndex`, memory adapter and SQL adapter (they rank alike, so they should agree);
 * - MiniSearch (BM25, default tokenizer, no stemming) over the same passages;
 * - MiniSearch over whole pages of the same documents (the parser's blocks by page): the
 *   baseline of the issue's hidden evaluation.
 *
 * Each question is asked twice: restricted to its company's documents (the ticker filter) and
 * over everything stored. A result is a hit when it is of the evidence document and its pages
 * include an evidence page. Reports recall@5 and MRR@10, by kind of question and rendition, the
 * time to store and index, the SQL index's size against the stored text, and query latency.
 *
 *   node --import tsx bench/quality/search.ts [--output bench/results/search-latest.md] [--misses FILE.json]
 */
import { SqlClient } from "@effect/sql"
import { SummaryModel } from "@filings/feed-summarizer"
import { Blocks, Parser, SgmlSubmission } from "@filings/filings-parser"
import * as Ingest from "@filings/server/ingest/Ingest"
import * as MarketData from "@filings/server/market/MarketData"
import { DocumentStore, MemoryStorage, NamedCompanies, SearchIndex, SearchText } from "@filings/storage"
import { SqlStorage, TestDatabase } from "@filings/storage-sql"
import { Effect, Either, Layer, Logger, LogLevel, ManagedRuntime, Option } from "effect"
import MiniSearch from "minisearch"
import { readFileSync, writeFileSync } from "node:fs"
import { cpus } from "node:os"
import { basename, join } from "node:path"
import { parseArgs } from "node:util"
import { repositoryRoot } from "../support/processes.js"
import { corpusDir, corpusEntries, corpusPresent, storeCorpus, type StoredEntry } from "./search/corpus.js"
import { type DevQuestion, readDevSet } from "./search/devSet.js"

const { values: argv } = parseArgs({
  options: { output: { type: "string" }, misses: { type: "string" } },
  strict: true
})
const output = argv.output ?? join(repositoryRoot, "bench/results/search-latest.md")

if (!corpusPresent()) {
  console.log("skipped: ../shared/corpus is absent, and the development set is asked of its documents")
  process.exit(0)
}

const depth = 10
const cutoff = 5

// --- Storing ---------------------------------------------------------------------------------------

/** A stored passage as the baselines see it. */
interface Passage {
  readonly id: string
  readonly document: string
  readonly ticker: string
  readonly pageStart: number
  readonly pageEnd: number
  readonly text: string
}

const quiet = Logger.withMinimumLogLevel(LogLevel.Warning)
const withIngestion = <R>(storage: Layer.Layer<R, unknown>) =>
  Ingest.layer.pipe(
    Layer.provideMerge(storage),
    Layer.provideMerge(Layer.merge(SummaryModel.extractiveLayer, MarketData.none)),
    // Building the storage logs its migrations; the report is what this prints.
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )

/** Every stored document's passages, read back from the document store. */
const storedPassages = Effect.gen(function*() {
  const documents = yield* DocumentStore.DocumentStore
  const page = yield* documents.list({ order: "desc", limit: 1000, offset: 0 })
  const passages: Array<Passage> = []
  for (const metadata of page.documents) {
    const document = Option.getOrThrow(yield* documents.findByPublicationId(metadata.publicationId))
    for (const chunk of document.chunks) {
      passages.push({
        id: `${document.publicationId}#${chunk.id}`,
        document: document.publicationId,
        ticker: document.ticker,
        pageStart: chunk.pageStart,
        pageEnd: chunk.pageEnd,
        text: chunk.text
      })
    }
  }
  return passages
})

const timedMs = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const start = performance.now()
    const value = yield* effect
    return { value, ms: performance.now() - start }
  })

// --- Systems ---------------------------------------------------------------------------------------

/** A result: which document and pages. */
interface Found {
  readonly document: string
  readonly pageStart: number
  readonly pageEnd: number
}

type Ask = (query: string, ticker: string | undefined) => Promise<ReadonlyArray<Found>>

// The index as the server asks it: a word naming a stored company weighs more (see `NamedCompanies`).
const indexAsk = (
  run: <A, E>(effect: Effect.Effect<A, E, SearchIndex.SearchIndex | DocumentStore.DocumentStore>) => Promise<A>
): Ask => {
  let known: NamedCompanies.CompanyTerms | undefined
  return async (query, ticker) => {
    const parsed = SearchText.parseQuery(query)
    if (Either.isLeft(parsed)) return []
    known ??= await run(
      Effect.map(
        Effect.flatMap(DocumentStore.DocumentStore, (store) => store.companyNames),
        NamedCompanies.companyTerms
      )
    )
    const page = await run(Effect.flatMap(SearchIndex.SearchIndex, (index) =>
      index.search({
        query: NamedCompanies.favoring(parsed.right, NamedCompanies.namedIn(query, known!)),
        ...(ticker === undefined ? {} : { tickers: [ticker as never] }),
        limit: depth,
        offset: 0
      })))
    return page.hits.map((hit) => ({
      document: hit.document.publicationId,
      pageStart: hit.chunk.pageStart,
      pageEnd: hit.chunk.pageEnd
    }))
  }
}

/** MiniSearch with its defaults (BM25+, lower-cased words, no stemming), over passages or pages. */
const miniSearchOf = (items: ReadonlyArray<Passage>) => {
  const search = new MiniSearch<Passage>({
    fields: ["text"],
    storeFields: ["document", "ticker", "pageStart", "pageEnd"]
  })
  const start = performance.now()
  search.addAll(items as Array<Passage>)
  const ms = performance.now() - start
  const ask: Ask = (query, ticker) =>
    Promise.resolve(
      search.search(query, ticker === undefined ? {} : { filter: (result) => result.ticker === ticker })
        .slice(0, depth)
        .map((result) => ({
          document: result.document as string,
          pageStart: result.pageStart as number,
          pageEnd: result.pageEnd as number
        }))
    )
  return { ask, ms }
}

/**
 * Whole pages of every stored document: its source parsed as ingestion parses it, blocks grouped
 * by page; a document made of an exhibit of a submission takes the exhibit's blocks.
 */
const pagesOf = async (stored: ReadonlyArray<StoredEntry>, passages: ReadonlyArray<Passage>) => {
  const pages: Array<Passage> = []
  const covered = new Set<string>()
  const add = (document: string, ticker: string, blocks: ReadonlyArray<Blocks.Block>) => {
    const texts = new Map<number, Array<string>>()
    for (const block of blocks) {
      const list = texts.get(block.page)
      if (list === undefined) texts.set(block.page, [Blocks.blockText(block)])
      else list.push(Blocks.blockText(block))
    }
    for (const [page, text] of texts) {
      pages.push({ id: `${document}@${page}`, document, ticker, pageStart: page, pageEnd: page, text: text.join("\n") })
    }
    covered.add(document)
  }
  const documents = new Set(passages.map((passage) => passage.document))
  for (const entry of stored) {
    const source = corpusEntries.find((candidate) => candidate.file === entry.file)!
    const bytes = new Uint8Array(readFileSync(join(corpusDir, entry.file)))
    const submission = SgmlSubmission.looksLikeSubmission(bytes)
      ? Either.getRight(Effect.runSync(Effect.either(SgmlSubmission.parseBytes(bytes))))
      : Option.none()
    const parsed = await Effect.runPromise(Parser.parse({
      bytes,
      fileName: basename(entry.file),
      ...(source.form === undefined ? {} : { form: source.form as never }),
      submission: Option.getOrUndefined(submission)
    }))
    add(entry.publicationId, entry.ticker, parsed.blocks)
    for (const exhibit of parsed.exhibits) {
      const id = `${entry.publicationId}-ex${exhibit.exhibitNumber}`
      if (documents.has(id)) add(id, entry.ticker, exhibit.blocks)
    }
  }
  // Anything stored another way (none expected): its passages, each on its first page.
  for (const passage of passages) {
    if (!covered.has(passage.document)) pages.push({ ...passage, pageEnd: passage.pageStart })
  }
  return pages
}

// --- Scoring ---------------------------------------------------------------------------------------

interface Target {
  readonly question: DevQuestion
  readonly document: string
}

const isHit = (target: Target, found: Found): boolean =>
  found.document === target.document &&
  target.question.pages.some((page) => page >= found.pageStart && page <= found.pageEnd)

interface Outcome {
  readonly id: string
  /** 1-based rank of the first hit within `depth`, or 0. */
  readonly rank: number
  readonly ms: number
}

const runAll = async (ask: Ask, targets: ReadonlyArray<Target>, restricted: boolean) => {
  const outcomes: Array<Outcome> = []
  for (const target of targets) {
    const start = performance.now()
    const found = await ask(target.question.question, restricted ? target.question.ticker : undefined)
    const ms = performance.now() - start
    const index = found.findIndex((result) => isHit(target, result))
    outcomes.push({ id: target.question.id, rank: index + 1, ms })
  }
  return outcomes
}

const recall = (outcomes: ReadonlyArray<Outcome>) =>
  outcomes.length === 0 ? 0 : outcomes.filter((o) => o.rank > 0 && o.rank <= cutoff).length / outcomes.length
const mrr = (outcomes: ReadonlyArray<Outcome>) =>
  outcomes.length === 0 ? 0 : outcomes.reduce((sum, o) => sum + (o.rank > 0 ? 1 / o.rank : 0), 0) / outcomes.length
const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0
}

// --- Run -------------------------------------------------------------------------------------------

const questions = readDevSet()
console.error(`${questions.length} questions; storing ${corpusEntries.length} corpus files in memory ...`)

const memoryLayer = withIngestion(Layer.mergeAll(MemoryStorage.layer, MemoryStorage.documentStore))
const memoryRuntime = ManagedRuntime.make(memoryLayer)
const runMemory = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  memoryRuntime.runPromise(effect.pipe(quiet) as Effect.Effect<A, E, never>)
const memoryStored = await runMemory(timedMs(storeCorpus))
const passages = await runMemory(storedPassages)
const storedText = passages.reduce((sum, passage) => sum + Buffer.byteLength(passage.text), 0)

// The analyzer's share of indexing: every passage's terms and positions, as the memory index makes them.
const analyzeStart = performance.now()
for (const passage of passages) {
  SearchText.termPositions(
    SearchText.passageTokens({ ticker: passage.ticker, companyName: "", docType: "" }, passage.text)
  )
}
const analyzeMs = performance.now() - analyzeStart

console.error(`stored ${passages.length} passages (${(storedText / 1e6).toFixed(1)} MB); storing on PGlite ...`)
const sqlLayer = withIngestion(SqlStorage.layer.pipe(Layer.provideMerge(TestDatabase.layerPglite())))
const sqlRuntime = ManagedRuntime.make(sqlLayer)
const runSql = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  sqlRuntime.runPromise(effect.pipe(quiet) as Effect.Effect<A, E, never>)
const sqlStored = await runSql(timedMs(storeCorpus))

// Which stored document each question's evidence is, and whether its pages are stored.
const documentOf = new Map(memoryStored.value.map((entry) => [entry.file, entry.publicationId]))
const targets: Array<Target> = []
const unplaced: Array<string> = []
for (const question of questions) {
  const primary = documentOf.get(question.file)
  const document = primary === undefined
    ? undefined
    : question.exhibit === undefined
    ? primary
    : `${primary}-ex${question.exhibit}`
  const onPages = passages.some((passage) =>
    passage.document === document && question.pages.some((page) => page >= passage.pageStart && page <= passage.pageEnd)
  )
  if (document === undefined || !onPages) unplaced.push(question.id)
  else targets.push({ question, document })
}
if (unplaced.length > 0) console.error(`left out, evidence not stored: ${unplaced.join(", ")}`)

console.error("building the baselines ...")
const passageBaseline = miniSearchOf(passages)
const pages = await pagesOf(memoryStored.value, passages)
const pageBaseline = miniSearchOf(pages)

// Sizes on PGlite: the terms column and any index on it, the term statistics, against the text.
const sizes = await runSql(Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [column] = yield* sql<{ terms: number; text: number }>`
    SELECT COALESCE(sum(pg_column_size(c.terms)), 0)::float8 AS terms,
      COALESCE(sum(octet_length(c.text)), 0)::float8 AS text
    FROM document_chunks c`
  const indexes = yield* sql<{ name: string; bytes: number; definition: string }>`
    SELECT indexname AS name, pg_relation_size(indexname::regclass)::float8 AS bytes, indexdef AS definition
    FROM pg_indexes WHERE tablename = 'document_chunks' AND indexdef ILIKE '%terms%'`
  const [statistics] = yield* sql<{ bytes: number }>`
    SELECT (pg_total_relation_size('search_terms') + pg_total_relation_size('search_totals'))::float8 AS bytes`
  return { terms: column?.terms ?? 0, text: column?.text ?? 0, indexes, statistics: statistics?.bytes ?? 0 }
}))
const ginIndexes = sizes.indexes.filter((index) => /using gin/i.test(index.definition))

const systems: ReadonlyArray<{ name: string; ask: Ask }> = [
  { name: "SearchIndex, memory", ask: indexAsk(runMemory) },
  { name: "SearchIndex, PGlite", ask: indexAsk(runSql) },
  { name: "MiniSearch, passages", ask: passageBaseline.ask },
  { name: "MiniSearch, whole pages (baseline)", ask: pageBaseline.ask }
]
const modes = [{ name: "company", restricted: true }, { name: "everything", restricted: false }] as const

const results: Array<{ system: string; mode: string; outcomes: ReadonlyArray<Outcome> }> = []
for (const system of systems) {
  for (const mode of modes) {
    console.error(`asking ${system.name}, ${mode.name} ...`)
    // One unmeasured pass first, so latency is not the first query's compilation and caches.
    await runAll(system.ask, targets.slice(0, 20), mode.restricted)
    results.push({ system: system.name, mode: mode.name, outcomes: await runAll(system.ask, targets, mode.restricted) })
  }
}

// --- Report ----------------------------------------------------------------------------------------

const f3 = (value: number) => value.toFixed(3)
const outcomesOf = (system: string, mode: string) =>
  results.find((r) => r.system === system && r.mode === mode)!.outcomes
const baselineName = systems[3]!.name
const groups: ReadonlyArray<{ name: string; has: (question: DevQuestion) => boolean }> = [
  { name: "all", has: () => true },
  { name: "XBRL-generated", has: (question) => question.kind === "xbrl" },
  { name: "hand-written", has: (question) => question.kind === "hand" },
  { name: "HTML", has: (question) => question.format === "html" },
  { name: "PDF", has: (question) => question.format === "pdf" },
  { name: "transcript", has: (question) => question.format === "transcript" }
]
const questionById = new Map(targets.map((target) => [target.question.id, target.question]))
const inGroup = (outcomes: ReadonlyArray<Outcome>, has: (question: DevQuestion) => boolean) =>
  outcomes.filter((outcome) => has(questionById.get(outcome.id)!))

const mainTable = [
  "| System | Company: recall@5 | Company: MRR@10 | Everything: recall@5 | Everything: MRR@10 |",
  "| --- | ---: | ---: | ---: | ---: |",
  ...systems.map(({ name }) => {
    const company = outcomesOf(name, "company")
    const everything = outcomesOf(name, "everything")
    return `| ${name} | ${f3(recall(company))} | ${f3(mrr(company))} | ${f3(recall(everything))} | ${
      f3(mrr(everything))
    } |`
  })
]
const deltaLine = modes.map(({ name }) => {
  const ours = recall(outcomesOf(systems[0]!.name, name))
  return `${name}: ${ours - recall(outcomesOf(baselineName, name)) >= 0 ? "+" : ""}${
    f3(ours - recall(outcomesOf(baselineName, name)))
  } against whole pages, ${ours - recall(outcomesOf(systems[2]!.name, name)) >= 0 ? "+" : ""}${
    f3(ours - recall(outcomesOf(systems[2]!.name, name)))
  } against MiniSearch on passages`
}).join("; ")
const agree = modes.every(({ name }) => {
  const memory = outcomesOf(systems[0]!.name, name)
  const sql = outcomesOf(systems[1]!.name, name)
  return memory.every((outcome, index) => outcome.rank === sql[index]!.rank)
})

const breakdown = modes.flatMap(({ name: mode }) => [
  "",
  `Recall@5 by kind and rendition, ${
    mode === "company" ? "restricted to the company's documents" : "over everything stored"
  }:`,
  "",
  `| Questions | n | ${systems.map(({ name }) => name).join(" | ")} |`,
  `| --- | ---: | ${systems.map(() => "---:").join(" | ")} |`,
  ...groups.map((group) => {
    const n = targets.filter((target) => group.has(target.question)).length
    return `| ${group.name} | ${n} | ${
      systems.map(({ name }) => f3(recall(inGroup(outcomesOf(name, mode), group.has)))).join(" | ")
    } |`
  })
])

const latencyRows = systems.map(({ name }) => {
  const times = modes.flatMap(({ name: mode }) => outcomesOf(name, mode).map((o) => o.ms))
  return `| ${name} | ${percentile(times, 0.5).toFixed(2)} | ${percentile(times, 0.95).toFixed(2)} |`
})

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`
const ratio = (bytes: number) => (bytes / sizes.text).toFixed(2)
const sizeRows = [
  `| passages' stored text | ${mb(sizes.text)} | 1.00 |`,
  `| terms column (tsvector) | ${mb(sizes.terms)} | ${ratio(sizes.terms)} |`,
  ...(ginIndexes.length === 0
    ? ["| GIN index on the terms | none: migration 0011 creates none | — |"]
    : ginIndexes.map((index) => `| index ${index.name} | ${mb(index.bytes)} | ${ratio(index.bytes)} |`)),
  `| term statistics (search_terms, search_totals) | ${mb(sizes.statistics)} | ${ratio(sizes.statistics)} |`
]

const documents = new Set(passages.map((passage) => passage.document)).size
const report = [
  "# Search benchmark",
  "",
  `${new Date().toISOString().slice(0, 10)}, Node.js ${process.versions.node}, ${
    cpus()[0]?.model ?? "cpu"
  } × ${cpus().length}. \`node --import tsx bench/quality/search.ts\` (after \`npx tsc -b\`).`,
  "",
  `${targets.length} questions of the development set (\`bench/quality/search/dev-questions.json\`: ${
    targets.filter((t) => t.question.kind === "xbrl").length
  } from XBRL facts, ${targets.filter((t) => t.question.kind === "hand").length} written by hand${
    unplaced.length > 0 ? `; ${unplaced.length} left out, their evidence not stored` : ""
  }) over ${documents} stored documents (${corpusEntries.length} corpus files and the releases they furnish): ${passages.length} passages, ${pages.length} pages, ${
    mb(storedText)
  } of passage text. A result is a hit when it is of the evidence document and on an evidence page; recall@5 is the share of questions with a hit in the top 5, MRR@10 the mean of 1/rank of the first hit in the top 10.`,
  "",
  ...mainTable,
  "",
  `Our index against the baselines, recall@5: ${deltaLine}. Memory and PGlite ${
    agree ? "rank every question's first hit alike" : "DISAGREE on some questions"
  }.`,
  ...breakdown,
  "",
  "## Building",
  "",
  "| Step | Time |",
  "| --- | ---: |",
  `| store every corpus file in memory (parse, extract, save, index) | ${(memoryStored.ms / 1000).toFixed(1)} s |`,
  `| the same on PGlite | ${(sqlStored.ms / 1000).toFixed(1)} s |`,
  `| the analyzer alone over every passage (terms and positions) | ${(analyzeMs / 1000).toFixed(2)} s |`,
  `| MiniSearch over the passages | ${(passageBaseline.ms / 1000).toFixed(2)} s |`,
  `| MiniSearch over the pages | ${(pageBaseline.ms / 1000).toFixed(2)} s |`,
  "",
  "On PGlite, against the passages' stored text:",
  "",
  "| What | Size | Ratio to the text |",
  "| --- | ---: | ---: |",
  ...sizeRows,
  "",
  "## Query latency",
  "",
  `Per question, both modes, ${depth} results, in this process (ms):`,
  "",
  "| System | p50 | p95 |",
  "| --- | ---: | ---: |",
  ...latencyRows,
  ""
].join("\n")

writeFileSync(output, report)
console.log(report)
if (argv.misses !== undefined) {
  writeFileSync(
    argv.misses,
    JSON.stringify(
      targets.map((target) => ({
        ...target.question,
        document: target.document,
        ranks: Object.fromEntries(
          results.map((r) => [`${r.system} / ${r.mode}`, r.outcomes.find((o) => o.id === target.question.id)!.rank])
        )
      })),
      null,
      1
    )
  )
}
await sqlRuntime.dispose()
await memoryRuntime.dispose()
