/**
 * Named cursors that must survive a restart: how far a poller has read a source (the latest-filings
 * feed, a drop folder), so that after a crash it neither misses nor re-reads much.
 *
 * @module
 */
import { Context, type Effect, type Option } from "effect"
import type { StorageError } from "./StorageError.js"

export interface Service {
  readonly get: (name: string) => Effect.Effect<Option.Option<string>, StorageError>
  readonly set: (name: string, value: string) => Effect.Effect<void, StorageError>
}

export class CursorStore extends Context.Tag("@filings/storage/CursorStore")<CursorStore, Service>() {}
