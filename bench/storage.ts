/**
 * What keeping each document's blocks costs on disk: the corpus documents of
 * `bench/quality/search/corpus.ts` are stored through the server's own ingestion into a fresh
 * embedded PGlite database; the document tables are measured as stored, then with every chunk's
 * `blocks` set to NULL (as rows stored before migration 22 are) and the tables rewritten, in the
 * same run. The report gives both sizes and their ratio, and the JSON the blocks take beside the
 * chunks' Markdown.
 *
 *   node --import tsx bench/storage.ts [--output bench/results/storage-latest.md]   (after `npx tsc -b`)
 */
import { SqlClient } from "@effect/sql"
import { SummaryModel } from "@filings/feed-summarizer"
import * as Ingest from "@filings/server/ingest/Ingest"
import * as MarketData from "@filings/server/market/MarketData"
import { SqlStorage, TestDatabase } from "@filings/storage-sql"
import { Effect, Layer, Logger, LogLevel } from "effect"
import { execFileSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { cpus } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { corpusPresent, storeCorpus } from "./quality/search/corpus.js"
import { repositoryRoot } from "./support/processes.js"

const { values: argv } = parseArgs({ options: { output: { type: "string" } }, strict: true })
const output = argv.output ?? join(repositoryRoot, "bench/results/storage-latest.md")

/** The tables a document is stored in, with their indexes and compressed out-of-line values. */
const documentTables = ["documents", "document_bodies", "document_sections", "document_chunks"] as const

interface Sizes {
  readonly tables: Record<(typeof documentTables)[number], number>
  /** Bytes of the chunks' Markdown and of their blocks' JSON, as written and as stored. */
  readonly chunkText: number
  readonly blocksJson: number
  readonly blocksStored: number
}

const measure = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CHECKPOINT`
  const tables = {} as Record<(typeof documentTables)[number], number>
  for (const table of documentTables) {
    const [row] = yield* sql<{ readonly size: number }>`SELECT pg_total_relation_size(${table})::float8 AS size`
    tables[table] = row?.size ?? 0
  }
  const [chunks] = yield* sql<{ readonly text: number; readonly json: number; readonly stored: number }>`
    SELECT coalesce(sum(octet_length(text)), 0)::float8 AS text,
      coalesce(sum(octet_length(blocks::text)), 0)::float8 AS json,
      coalesce(sum(pg_column_size(blocks)), 0)::float8 AS stored
    FROM document_chunks`
  return { tables, chunkText: chunks?.text ?? 0, blocksJson: chunks?.json ?? 0, blocksStored: chunks?.stored ?? 0 }
})

const withoutBlocks = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE document_chunks SET blocks = NULL`
  for (const table of documentTables) yield* sql`VACUUM FULL ${sql(table)}`
})

const rewritten = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Both measurements are of freshly written tables, so neither counts dead rows.
  for (const table of documentTables) yield* sql`VACUUM FULL ${sql(table)}`
})

const main = async () => {
  if (!corpusPresent()) throw new Error("the corpus (../shared/corpus) is not there to store")
  const layer = Ingest.layer.pipe(
    Layer.provideMerge(Layer.mergeAll(SqlStorage.layer, SummaryModel.extractiveLayer, MarketData.none)),
    Layer.provideMerge(TestDatabase.layerPglite()),
    Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
  )
  const { after, before, documents } = await Effect.runPromise(
    Effect.gen(function*() {
      const stored = yield* storeCorpus
      yield* rewritten
      const after = yield* measure
      yield* withoutBlocks
      const before = yield* measure
      return { after, before, documents: stored.length }
    }).pipe(Effect.provide(layer), Effect.scoped)
  )
  const total = (sizes: Sizes) => documentTables.reduce((sum, table) => sum + sizes.tables[table], 0)
  const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(2)
  const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: repositoryRoot, encoding: "utf8" }).trim()
  const report = [
    "# Storage: a document's blocks beside its Markdown",
    "",
    `Commit \`${commit}\`, ${new Date().toISOString().slice(0, 10)}, Node.js ${process.versions.node}, ${
      cpus()[0]?.model ?? "cpu"
    } × ${cpus().length}. \`node --import tsx bench/storage.ts\` (after \`npx tsc -b\`): ${documents} corpus`,
    "documents stored by the server's ingestion into PGlite; the same tables measured with every chunk's",
    "blocks, then without them (set to NULL, as rows stored before migration 22), each freshly rewritten.",
    "",
    "| table | with blocks (MB) | without (MB) | ratio |",
    "| --- | ---: | ---: | ---: |",
    ...documentTables.map((table) =>
      `| ${table} | ${megabytes(after.tables[table])} | ${megabytes(before.tables[table])} | ${
        (after.tables[table] / Math.max(1, before.tables[table])).toFixed(2)
      } |`
    ),
    `| all of them | ${megabytes(total(after))} | ${megabytes(total(before))} | ${
      (total(after) / Math.max(1, total(before))).toFixed(2)
    } |`,
    "",
    `The chunks' Markdown: ${megabytes(after.chunkText)} MB. Their blocks: ${
      megabytes(after.blocksJson)
    } MB of JSON as the column reads (${
      (after.blocksJson / Math.max(1, after.chunkText)).toFixed(2)
    } times the Markdown), ${megabytes(after.blocksStored)} MB as PostgreSQL stores it, compressed (${
      (after.blocksStored / Math.max(1, after.chunkText)).toFixed(2)
    }).`,
    ""
  ].join("\n")
  writeFileSync(output, report)
  console.log(report)
}

await main()
