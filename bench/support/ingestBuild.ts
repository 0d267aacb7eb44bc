/**
 * The server's ingestion of one build of this repository, loaded from a checkout's `dist/` by file
 * URL (this checkout, or another commit's in a worktree), so that two builds can be measured side
 * by side in one process. Each run stores the filings into a fresh embedded PGlite database, made
 * before any clock starts.
 */
import type * as DomainPackage from "@filings/domain"
import type * as FeedSummarizerPackage from "@filings/feed-summarizer"
import type * as IngestModule from "@filings/server/ingest/Ingest"
import type * as IngestionModule from "@filings/server/ingest/Ingestion"
import type * as MarketDataModule from "@filings/server/market/MarketData"
import type * as StoragePackage from "@filings/storage"
import type * as StorageSqlPackage from "@filings/storage-sql"
import { join } from "node:path"
import { describeCommit, importBuilt, importEffectOf } from "./builtCheckout.js"

/** A corpus filing to ingest, with what a caller gives for a document without a header. */
export interface Filing {
  readonly name: string
  readonly bytes: Uint8Array
  readonly overrides: { readonly accession?: string; readonly filing_date?: string }
}

/** One filing's ingest by one build: its CPU time, and what it stored. */
export interface IngestedFiling {
  readonly cpuMillis: number
  /** Every document stored by then, as `id title words`, in id order: the filing's and its releases'. */
  readonly documents: ReadonlyArray<string>
}

/** One build of the repository, ready to ingest. */
export interface IngestBuild {
  /** The checkout's commit, as the report names it (never its path on this machine). */
  readonly commit: string
  /** Ingests the filings in order into a fresh database. */
  readonly ingestAll: (filings: ReadonlyArray<Filing>) => Promise<ReadonlyArray<IngestedFiling>>
}

/** Loads the ingestion built in the checkout at `root`, with the Effect its packages resolve. */
export const loadIngestBuild = async (root: string): Promise<IngestBuild> => {
  const server = (path: string) => join(root, "packages/server/dist", path)
  const Ingest = await importBuilt<typeof IngestModule>(server("ingest/Ingest.js"))
  const { Ingestion } = await importBuilt<typeof IngestionModule>(server("ingest/Ingestion.js"))
  const MarketData = await importBuilt<typeof MarketDataModule>(server("market/MarketData.js"))
  const { SummaryModel } = await importBuilt<typeof FeedSummarizerPackage>(
    join(root, "packages/feed-summarizer/dist/index.js")
  )
  const { SqlStorage, TestDatabase } = await importBuilt<typeof StorageSqlPackage>(
    join(root, "packages/storage-sql/dist/index.js")
  )
  const { Effect, Layer, Logger, LogLevel, ManagedRuntime, Schema } = await importEffectOf(root, "server")
  const { DocumentStore } = await importBuilt<typeof StoragePackage>(
    join(root, "packages/storage/dist/index.js")
  )
  const { Admin } = await importBuilt<typeof DomainPackage>(join(root, "packages/domain/dist/index.js"))

  const layer = () =>
    Ingest.layer.pipe(
      Layer.provideMerge(SqlStorage.layer),
      Layer.provideMerge(Layer.merge(SummaryModel.extractiveLayer, MarketData.none)),
      Layer.provide(TestDatabase.layerPglite()),
      // The migrations and each stored filing log; the report is what the benchmark prints.
      Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
    )

  const storedDocuments = Effect.gen(function*() {
    const documents = yield* DocumentStore.DocumentStore
    const page = yield* documents.list({ order: "desc", limit: 1000, offset: 0 })
    return page.documents
      .map((document) => `${document.publicationId} ${document.title} ${document.wordCount}`)
      .sort()
  })

  const ingestAll = async (filings: ReadonlyArray<Filing>) => {
    const runtime = ManagedRuntime.make(layer())
    try {
      // The database is made and migrated before any filing is timed.
      await runtime.runPromise(Effect.void)
      const ingested: Array<IngestedFiling> = []
      for (const filing of filings) {
        const ingest = Effect.flatMap(Ingestion, (ingestion) =>
          ingestion.ingest({
            fileName: filing.name,
            bytes: filing.bytes,
            overrides: Schema.decodeUnknownSync(Admin.IngestMetadata)(filing.overrides)
          }))
        const start = process.cpuUsage()
        await runtime.runPromise(Logger.withMinimumLogLevel(ingest, LogLevel.Warning))
        const used = process.cpuUsage(start)
        ingested.push({
          cpuMillis: (used.user + used.system) / 1000,
          documents: await runtime.runPromise(storedDocuments)
        })
      }
      return ingested
    } finally {
      await runtime.dispose()
    }
  }
  return { commit: describeCommit(root), ingestAll }
}
