/**
 * The JSON of a stored row's API form, encoded on the first request that needs it and kept beside
 * the object the store returned for the row (in a `WeakMap`: it goes when the object goes).
 *
 * What makes it right: a store never changes an object it has returned; a row stored or changed
 * again comes back as a new object (`DocumentStore.list`, `FeedStore.query`), so a kept encoding is
 * never stale. What makes it worth it: the SQL stores return the same object for a row as long as it
 * is unchanged (rows kept by row version, `versionedRows` in `@filings/storage-sql`), so a list page
 * encodes only the rows that changed. A store that returns a new object every time (the memory
 * stores' `list`) only makes every request encode afresh.
 */
import { Schema } from "effect"

/** `toApiForm` then `schema`'s JSON of a stored row, kept beside the row's object. */
export const keptEncoding = <Stored extends object, A, I>(
  schema: Schema.Schema<A, I>,
  toApiForm: (stored: Stored) => A
): (stored: Stored) => string => {
  const encode = Schema.encodeSync(schema)
  const kept = new WeakMap<Stored, string>()
  return (stored) => {
    let json = kept.get(stored)
    if (json === undefined) {
      json = JSON.stringify(encode(toApiForm(stored)))
      kept.set(stored, json)
    }
    return json
  }
}
