/**
 * Records events straight into a PostgreSQL database through the real SQL event store, as another
 * instance of the server would: what a stream served elsewhere must see.
 */
import { Document } from "@filings/domain"
import { filingEvents } from "@filings/server/ingest/FilingEvents"
import { EventStore } from "@filings/storage"
import { Database, SqlStorage } from "@filings/storage-sql"
import { Effect, Layer, ManagedRuntime, Redacted, Schema } from "effect"

export interface EventRecorder {
  readonly record: (events: ReadonlyArray<EventStore.NewEvent>) => Promise<ReadonlyArray<EventStore.StoredEvent>>
  readonly latestSequence: () => Promise<number>
  readonly after: (sequence: number, limit: number) => Promise<ReadonlyArray<EventStore.StoredEvent>>
  readonly close: () => Promise<void>
}

export const openEventRecorder = (url: string): EventRecorder => {
  const runtime = ManagedRuntime.make(
    SqlStorage.eventStore.pipe(Layer.provide(Database.layerPostgres({ url: Redacted.make(url), maxConnections: 2 })))
  )
  return {
    record: (events) => runtime.runPromise(Effect.flatMap(EventStore.EventStore, (store) => store.record(events))),
    latestSequence: () => runtime.runPromise(Effect.flatMap(EventStore.EventStore, (store) => store.latestSequence)),
    after: (sequence, limit) =>
      runtime.runPromise(Effect.flatMap(EventStore.EventStore, (store) => store.after(sequence, limit))),
    close: () => runtime.dispose()
  }
}

/**
 * The events of a synthetic filing, as ingestion records them (`filing.new`, and
 * `filing.8k_material` for an 8-K reporting a material item): filing `n` of a burst.
 */
export const syntheticFilingEvents = (
  n: number,
  filing: { readonly ticker: string; readonly docType: "8-K" | "10-Q" | "10-K"; readonly items?: ReadonlyArray<string> }
): ReadonlyArray<EventStore.NewEvent> => {
  const accession = `0009${String(n % 1_000_000).padStart(6, "0")}-26-${
    String(Math.floor(Math.random() * 1e6)).padStart(6, "0")
  }`
  const metadata = Schema.decodeUnknownSync(Document.DocumentMetadata)({
    publication_id: accession,
    ticker: filing.ticker,
    company_name: `${filing.ticker} Corp`,
    cik: "0000999999",
    doc_type: filing.docType,
    title: `${filing.ticker} ${filing.docType} ${n}`,
    filing_date: "2026-01-02",
    period: filing.docType === "10-K" ? "FY 2025" : "Q4 2025",
    sec_url: `https://www.sec.gov/Archives/edgar/data/999999/${accession.replaceAll("-", "")}/filing.htm`,
    word_count: 1_000,
    items: filing.items ?? []
  })
  return filingEvents(metadata, new Date().toISOString())
}
