/**
 * JSON answers put together from parts encoded once. A stored row's API form depends on that row
 * alone, and the SQL stores hand out the same object for a row as long as it is unchanged (see
 * `versionedRows` in `@filings/storage-sql`), so its encoded JSON is kept beside that object (in a
 * `WeakMap`: it goes when the object goes, and a changed row is a new object). A page is its
 * envelope encoded through its schema with an empty list, the kept parts spliced into it. The
 * bytes are those the `HttpApi`'s own encoding would send; the parts skip only the second check
 * of rows that were validated when they were written and when they were read.
 */
import { HttpServerResponse } from "@effect/platform"
import { Schema } from "effect"

/** The JSON of a stored row's API form, encoded on the first request that needs it and kept beside the row. */
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

/**
 * A page answer: `envelope` (its list field empty) encoded through `schema`, with the already
 * encoded `parts` as the list. The list field must be the envelope's first field.
 */
export const pageAnswer = <A, I>(schema: Schema.Schema<A, I>, listField: string) => {
  const encode = Schema.encodeSync(schema)
  const emptyList = `{${JSON.stringify(listField)}:[]`
  return (envelope: A, parts: ReadonlyArray<string>): HttpServerResponse.HttpServerResponse => {
    const json = JSON.stringify(encode(envelope))
    if (!json.startsWith(emptyList)) throw new Error(`the page's first field is not an empty ${listField}`)
    return HttpServerResponse.text(
      `{${JSON.stringify(listField)}:[${parts.join(",")}]${json.slice(emptyList.length)}`,
      { contentType: "application/json" }
    )
  }
}
