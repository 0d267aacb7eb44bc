/**
 * JSON answers put together from parts encoded once (each row's JSON, kept beside it: see
 * `caches/KeptEncodings`). A page is its envelope encoded through its schema with an empty list,
 * the parts spliced into it. The bytes are those the `HttpApi`'s own encoding would send; the parts
 * skip only the second check of rows that were validated when they were written and when they were
 * read.
 */
import { HttpServerResponse } from "@effect/platform"
import { Schema } from "effect"

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
