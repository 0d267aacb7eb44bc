/**
 * The `DocumentSink` as the service runs it, over the document, company, extraction, event and feed
 * stores: each step of storing a document is one function here, run in the order `DocumentSink`
 * describes.
 */
import { Extractor } from "@filings/extractor"
import type { SummaryModel } from "@filings/feed-summarizer"
import {
  CompanyStore,
  DocumentStore,
  type EventStore,
  ExtractionStore,
  type FeedStore,
  type JobQueue
} from "@filings/storage"
import { Effect, Layer, Option } from "effect"
import { writeFeedItem } from "../feed/FeedWriter.js"
import type { MarketData } from "../market/MarketData.js"
import { announce } from "./Announcements.js"
import { type CompanyRecord, DocumentSink, type StoreRequest } from "./DocumentSink.js"
import { UnknownCik } from "./IngestMetadata.js"
import { toStoredExtraction } from "./StoredForms.js"

export const make = Effect.gen(function*() {
  const documents = yield* DocumentStore.DocumentStore
  const companies = yield* CompanyStore.CompanyStore
  const extractions = yield* ExtractionStore.ExtractionStore
  // What the feed and what follows a document need, captured once so `store` needs nothing more.
  const context = yield* Effect.context<
    | DocumentStore.DocumentStore
    | ExtractionStore.ExtractionStore
    | EventStore.EventStore
    | JobQueue.JobQueue
    | FeedStore.FeedStore
    | SummaryModel.SummaryModel
    | MarketData
  >()

  /** Keeps the document's company as `record` says; a new company without a key is not kept. */
  const keepCompany = (document: DocumentStore.StoredDocument, record: CompanyRecord) => {
    const { cik, companyName: name, filingDate, ticker } = document
    if (record._tag === "new" && cik === UnknownCik) return Effect.void
    return record._tag === "filer"
      ? companies.upsert({
        cik,
        ticker,
        name,
        asOf: filingDate,
        ...(record.tickers.length === 0 ? {} : { tickers: record.tickers })
      })
      : companies.upsert({ cik, ticker, name })
  }

  /** The company's name now, as the company store has it; the document's for a company it does not keep. */
  const currentNameOf = (document: DocumentStore.StoredDocument) =>
    document.cik === UnknownCik
      ? Effect.succeed(document.companyName)
      : Effect.map(
        companies.findByCik(document.cik),
        (company) => Option.getOrElse(Option.map(company, ({ name }) => name), () => document.companyName)
      )

  const saveExtraction = (document: DocumentStore.StoredDocument, input: NonNullable<StoreRequest["extraction"]>) =>
    Extractor.extract({ ...input, publicationId: document.publicationId }).pipe(
      Effect.flatMap((extraction) => extractions.save(document.publicationId, toStoredExtraction(extraction)))
    )

  const store = (request: StoreRequest) =>
    Effect.gen(function*() {
      const { document } = request
      // The document is stored first: an extraction that fails to save is redone by storing again.
      const status = yield* documents.save(document)
      if (request.company !== undefined) yield* keepCompany(document, request.company)
      const currentName = request.currentName ?? (yield* currentNameOf(document))
      if (request.extraction !== undefined) yield* saveExtraction(document, request.extraction)
      // What speaks of the company now (its feed item, its events) uses its current name.
      yield* writeFeedItem({ ...document, companyName: currentName }, request.publishedAt, request.feedItems)
      if (request.follow !== undefined) {
        const { body: _body, chunks: _chunks, exhibits: _exhibits, sections: _sections, ...metadata } = document
        // An 8-K's releases and decks are stored through this same sink.
        yield* announce({ ...request.follow, document: metadata, currentName }).pipe(
          Effect.provideService(DocumentSink, sink)
        )
      }
      return { status, currentName }
    }).pipe(Effect.provide(context), Effect.withSpan("DocumentSink.store"))

  const sink = DocumentSink.of({ store })
  return sink
})

export const layer = Layer.effect(DocumentSink, make)
