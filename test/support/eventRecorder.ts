/**
 * Records events straight into a PostgreSQL database through the real SQL event store, as another
 * instance of the server would: what a stream served elsewhere must see.
 */
import { EventStore } from "@filings/storage"
import { Database, SqlStorage } from "@filings/storage-sql"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"

export interface EventRecorder {
  readonly record: (events: ReadonlyArray<EventStore.NewEvent>) => Promise<ReadonlyArray<EventStore.StoredEvent>>
  readonly latestSequence: () => Promise<number>
  readonly close: () => Promise<void>
}

export const openEventRecorder = (url: string): EventRecorder => {
  const runtime = ManagedRuntime.make(
    SqlStorage.eventStore.pipe(Layer.provide(Database.layerPostgres({ url: Redacted.make(url), maxConnections: 2 })))
  )
  return {
    record: (events) => runtime.runPromise(Effect.flatMap(EventStore.EventStore, (store) => store.record(events))),
    latestSequence: () => runtime.runPromise(Effect.flatMap(EventStore.EventStore, (store) => store.latestSequence)),
    close: () => runtime.dispose()
  }
}
