/**
 * Named cursors that must survive a restart: how far a poller has read a source (the latest-filings
 * feed, a drop folder), so that after a crash it neither misses nor re-reads much.
 *
 * @module
 */
import { Context, type Effect, type Option } from "effect"
import type { StorageError } from "./StorageError.js"

/** What a cursor store does: one string per name. Fails with `StorageError` only when the backing store does. */
export interface Service {
  /** The value last set under the name; none when it was never set. */
  readonly get: (name: string) => Effect.Effect<Option.Option<string>, StorageError>
  /**
   * Sets the value (any string, the empty one included) under the name, replacing the one before.
   * A durable adapter keeps it across restarts; the in-memory layer, for the life of the process.
   */
  readonly set: (name: string, value: string) => Effect.Effect<void, StorageError>
}

/**
 * The cursor store as an Effect service, provided by `MemoryStorage.cursorStore` or an adapter's
 * layer.
 *
 * @example
 * ```ts
 * const cursors = yield* CursorStore
 * const since = Option.getOrElse(yield* cursors.get("latest-filings"), () => "")
 * // ... read the source from `since` ...
 * yield* cursors.set("latest-filings", newest)
 * ```
 */
export class CursorStore extends Context.Tag("@filings/storage/CursorStore")<CursorStore, Service>() {}
