/**
 * The offline answerer of `POST /v1/chat` (no model configured: the extractive answer), as the
 * server makes it, over the corpus documents of `../search/corpus.ts` stored through the server's
 * own ingestion in a fresh in-memory store.
 */
import { FetchHttpClient } from "@effect/platform"
import type { Chat as ChatSchemas } from "@filings/domain"
import { SummaryModel } from "@filings/feed-summarizer"
import * as Chat from "@filings/server/chat/Chat"
import * as Ingest from "@filings/server/ingest/Ingest"
import * as MarketData from "@filings/server/market/MarketData"
import * as PassageSearch from "@filings/server/search/Search"
import { DocumentStore, MemoryStorage } from "@filings/storage"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime, Option } from "effect"
import { storeCorpus, type StoredEntry } from "../search/corpus.js"

/** The answerer over the stored corpus, and what it answers from. */
export interface CorpusAnswerer {
  /** What storing each corpus file gave, in the corpus's order. */
  readonly stored: ReadonlyArray<StoredEntry>
  /** Every stored passage's text, by citation: `publicationId/chunkId`. */
  readonly passages: ReadonlyMap<string, string>
  /** Answers a request as `POST /v1/chat` would. */
  readonly ask: (request: ChatSchemas.ChatRequest) => Promise<Chat.Answered>
  /** Releases the store. */
  readonly dispose: () => Promise<void>
}

const storedPassages = Effect.gen(function*() {
  const documents = yield* DocumentStore.DocumentStore
  const texts = new Map<string, string>()
  const page = yield* documents.list({ order: "desc", limit: 1000, offset: 0 })
  for (const metadata of page.documents) {
    const document = Option.getOrThrow(yield* documents.findByPublicationId(metadata.publicationId))
    for (const chunk of document.chunks) texts.set(`${document.publicationId}/${chunk.id}`, chunk.text)
  }
  return texts
})

/** Stores the corpus in memory (failing on the first file it cannot store) and makes the answerer over it. */
export const openCorpusAnswerer = async (): Promise<CorpusAnswerer> => {
  const runtime = ManagedRuntime.make(
    Ingest.layer.pipe(
      Layer.provideMerge(Layer.mergeAll(MemoryStorage.layer, MemoryStorage.documentStore)),
      Layer.provideMerge(Layer.merge(SummaryModel.extractiveLayer, MarketData.none)),
      Layer.provideMerge(FetchHttpClient.layer),
      Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
    )
  )
  const run = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    runtime.runPromise(effect.pipe(Logger.withMinimumLogLevel(LogLevel.Warning)) as Effect.Effect<A, E, never>)
  const stored = await run(storeCorpus)
  const search = await run(PassageSearch.make)
  const answerer = await run(Chat.make(Option.none()).pipe(Effect.provideService(PassageSearch.PassageSearch, search)))
  const passages = await run(storedPassages)
  return { stored, passages, ask: (request) => run(answerer.ask(request)), dispose: () => runtime.dispose() }
}
