/**
 * The event store: what happened (`filing.new`, `press_release.new`, ...), recorded durably, each
 * event once, in the order it was recorded. Webhook delivery reads it in that order; a producer
 * that crashed and runs again records nothing twice, because every event carries a key that names
 * it (`filing.new:0000320193-24-000123`).
 *
 * @module
 */
import { Context, type Effect, type Option, Schema } from "effect"
import type { StorageError } from "./StorageError.js"

/** An event to record: its type, the key that names it, and its payload. */
export interface NewEvent {
  /** The event type: `filing.new`, `filing.8k_material`, ... */
  readonly type: string
  /** Names the event for good: recording a known key again adds nothing. */
  readonly key: string
  /** The JSON payload as it will be delivered. */
  readonly payload: unknown
}

/**
 * An event as recorded: the new event with its place in the log, its id and when it was recorded.
 * Encoded, its keys are the SQL columns' (`recorded_at_ms`); a payload absent there is JSON null.
 */
export const StoredEvent = Schema.Struct({
  /** Position in the log: increasing in the order events were recorded, without gaps seen by readers. */
  sequence: Schema.Number,
  /** `evt_` and a random part; stable for the event. */
  id: Schema.String,
  type: Schema.String,
  key: Schema.String,
  /** The payload, read back as the JSON it was recorded as. */
  payload: Schema.optionalWith(Schema.Unknown, {
    /** A payload of JSON null, which a row read with its NULL columns dropped no longer holds. */
    default: () => null
  }),
  /** When it was recorded, from the Effect `Clock`. */
  recordedAtMillis: Schema.Finite.pipe(Schema.propertySignature, Schema.fromKey("recorded_at_ms"))
})
export type StoredEvent = typeof StoredEvent.Type

/** What an event store does. Fails with `StorageError` only when the backing store does. */
export interface Service {
  /**
   * Records the events whose keys are new, in the given order, all or none; returns those recorded
   * by this call. Concurrent callers are serialized, so a reader that has seen sequence `n` never
   * later finds an event below `n` it had not seen.
   */
  readonly record: (events: ReadonlyArray<NewEvent>) => Effect.Effect<ReadonlyArray<StoredEvent>, StorageError>
  /** Events recorded after `sequence` (0 for all), oldest first, at most `limit`. */
  readonly after: (sequence: number, limit: number) => Effect.Effect<ReadonlyArray<StoredEvent>, StorageError>
  /**
   * The events of one type about one company, oldest first: those whose payload's `data.ticker`
   * (where every event of the API names its company) is one of `tickers`, the tickers the company
   * has had (none: no event).
   */
  readonly ofCompany: (
    query: { readonly type: string; readonly tickers: ReadonlyArray<string> }
  ) => Effect.Effect<ReadonlyArray<StoredEvent>, StorageError>
  /** The event recorded under the key; none when no event has it. */
  readonly findByKey: (key: string) => Effect.Effect<Option.Option<StoredEvent>, StorageError>
  /** The sequence of the newest event, 0 when there is none: "from now on" for a new reader. */
  readonly latestSequence: Effect.Effect<number, StorageError>
  /**
   * Where a reader starts to get every event recorded at or after `timeMillis`: the sequence just
   * before the first of them (by sequence), or `latestSequence` when none was recorded since then.
   */
  readonly positionAt: (timeMillis: number) => Effect.Effect<number, StorageError>
}

/**
 * The event store as an Effect service, provided by `MemoryStorage.eventStore` or an adapter's layer.
 *
 * @example
 * ```ts
 * const events = yield* EventStore
 * yield* events.record([{ type: "filing.new", key: `filing.new:${publicationId}`, payload }])
 * const next = yield* events.after(lastSeenSequence, 100)
 * ```
 */
export class EventStore extends Context.Tag("@filings/storage/EventStore")<EventStore, Service>() {}

/** The company an event's payload names in `data.ticker`, the place every event of the API has it. */
export const tickerOf = (payload: unknown): string | undefined => {
  if (typeof payload !== "object" || payload === null || !("data" in payload)) return undefined
  const data = payload.data
  if (typeof data !== "object" || data === null || !("ticker" in data)) return undefined
  return typeof data.ticker === "string" ? data.ticker : undefined
}
