/**
 * The event store: what happened (`filing.new`, `press_release.new`, ...), recorded durably, each
 * event once, in the order it was recorded. Webhook delivery reads it in that order; a producer
 * that crashed and runs again records nothing twice, because every event carries a key that names
 * it (`filing.new:0000320193-24-000123`).
 *
 * @module
 */
import { Context, type Effect, type Option } from "effect"
import type { StorageError } from "./StorageError.js"

export interface NewEvent {
  /** The event type: `filing.new`, `filing.8k_material`, ... */
  readonly type: string
  /** Names the event for good: recording a known key again adds nothing. */
  readonly key: string
  /** The JSON payload as it will be delivered. */
  readonly payload: unknown
}

export interface StoredEvent {
  /** Position in the log: increasing in the order events were recorded, without gaps seen by readers. */
  readonly sequence: number
  /** `evt_` and a random part; stable for the event. */
  readonly id: string
  readonly type: string
  readonly key: string
  readonly payload: unknown
  readonly recordedAtMillis: number
}

export interface Service {
  /**
   * Records the events whose keys are new, in the given order, all or none; returns those recorded
   * by this call. Concurrent callers are serialized, so a reader that has seen sequence `n` never
   * later finds an event below `n` it had not seen.
   */
  readonly record: (events: ReadonlyArray<NewEvent>) => Effect.Effect<ReadonlyArray<StoredEvent>, StorageError>
  /** Events recorded after `sequence` (0 for all), oldest first, at most `limit`. */
  readonly after: (sequence: number, limit: number) => Effect.Effect<ReadonlyArray<StoredEvent>, StorageError>
  readonly findByKey: (key: string) => Effect.Effect<Option.Option<StoredEvent>, StorageError>
  /** The sequence of the newest event, 0 when there is none: "from now on" for a new reader. */
  readonly latestSequence: Effect.Effect<number, StorageError>
}

export class EventStore extends Context.Tag("@filings/storage/EventStore")<EventStore, Service>() {}
