/**
 * The one failure every storage port may report: the backing store could not do what was asked
 * (unreachable, timed out, rejected the statement). The server answers it with 503.
 */
import { Schema } from "effect"

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
