/**
 * Reads response bodies in contract tests: each body is checked against the schema of the
 * contract (a body that does not match fails the test), then returned as the raw JSON.
 */
import { Document } from "@filings/domain"
import { Schema } from "effect"

export const jsonOf = async <S extends Schema.Schema.AnyNoContext>(
  schema: S,
  response: Response
): Promise<Schema.Schema.Encoded<S>> => {
  const body: unknown = await response.json()
  Schema.decodeUnknownSync(schema)(body)
  return body as Schema.Schema.Encoded<S>
}

const ErrorEnvelope = Schema.Struct({
  error: Schema.Struct({ code: Schema.String, message: Schema.String })
})

/** The `{error:{code,message}}` of an error response. */
export const errorOf = async (response: Response) => (await jsonOf(ErrorEnvelope, response)).error

export const documentOf = (response: Response) => jsonOf(Document.Document, response)
export const listOf = (response: Response) => jsonOf(Document.DocumentList, response)
