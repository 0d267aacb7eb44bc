/**
 * The one failure every storage port may report: the backing store could not do what was asked
 * (unreachable, timed out, rejected the statement). The server answers it with 503.
 *
 * @module
 */
import { Schema } from "effect"

/**
 * The backing store could not do what was asked. Something absent is never this error: ports
 * answer it with an absent value (`Option.none()`, false, an empty list).
 *
 * @example
 * ```ts
 * new StorageError({ operation: "DocumentStore.save", reason: "connection terminated" }).message
 * // "DocumentStore.save failed: connection terminated"
 * ```
 */
export class StorageError extends Schema.TaggedError<StorageError>()("StorageError", {
  /** The port operation that failed, such as `DocumentStore.save`. */
  operation: Schema.String,
  /** What the backing store said, for logs; never sent to API clients. */
  reason: Schema.String
}) {
  override get message(): string {
    return `${this.operation} failed: ${this.reason}`
  }
}

/**
 * A value the store will never take, however often it is retried: text holding a NUL character,
 * which PostgreSQL refuses in text and JSON. It names what was being stored and why, so the one
 * document at fault is reported (422 at the HTTP edge) instead of a transient outage (503).
 */
export class UnstorableValue extends Schema.TaggedError<UnstorableValue>()("UnstorableValue", {
  /** The port operation that refused it, such as `DocumentStore.save`. */
  operation: Schema.String,
  /** What was being stored: `document 0000320193-19-000010`. */
  subject: Schema.String,
  /** Why, in the store's terms but without its internals: `its text holds a NUL character (U+0000)`. */
  reason: Schema.String
}) {
  override get message(): string {
    return `${this.subject} cannot be stored: ${this.reason}`
  }
}

/** Whether text holds a character no store takes (NUL, U+0000): what `UnstorableValue` reports. */
export const holdsNul = (text: string): boolean => text.includes("\u0000")

/** The reason of an `UnstorableValue` for text with a NUL character, the same from every store. */
export const nulReason = "its text holds a NUL character (U+0000), which the database cannot store"
