/**
 * The one failure of the EDGAR response readers: a response that is not what was asked for. EDGAR
 * answers an over-eager client, an unknown company or a page past the end with an HTML page and an
 * ordinary-looking status, so a reader must say "this is not a feed" rather than return nothing.
 *
 * @module
 */
import { Either, ParseResult, Schema } from "effect"

/** A response that could not be read as the document asked for (`what`), and why. */
export class UnreadableResponse extends Schema.TaggedError<UnreadableResponse>()("UnreadableResponse", {
  what: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `${this.what} could not be read: ${this.reason}`
  }
}

/** Every error of the readers: only `UnreadableResponse`, kept as a union so that more can join. */
export type EdgarResponseError = UnreadableResponse

const htmlTitle = /<title[^<>]*>([^<]*)<\/title>/i

/**
 * Says what an HTML page is, by its title: the SEC's error pages ("Request Rate Threshold Exceeded",
 * "Your Request Originates from an Undeclared Automated Tool") name the problem there.
 */
export const describeHtmlPage = (title: string | undefined): string => {
  const name = title?.replace(/\s+/g, " ").trim()
  return name ? `the response is an HTML page ("${name}")` : "the response is an HTML page"
}

const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.map((key, index) => typeof key === "number" ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`).join(
    ""
  )

/** The first issue of a failed decoding as one line: where it is and what was expected. */
const firstIssue = (error: ParseResult.ParseError): string => {
  const [issue] = ParseResult.ArrayFormatter.formatErrorSync(error)
  if (issue === undefined) return "the document does not have the expected shape"
  const at = formatPath(issue.path)
  return at === "" ? issue.message : `at ${at}: ${issue.message}`
}

/**
 * Decodes a JSON response with `schema`, as the readers of this package do: text that is no JSON
 * (an HTML error page, a response cut short) and JSON of another shape fail with `UnreadableResponse`
 * naming `what` and the first problem found. Never throws.
 */
export const decodeJsonResponse = <A, I>(what: string, schema: Schema.Schema<A, I, never>) => {
  const decode = Schema.decodeUnknownEither(schema)
  return (json: string): Either.Either<A, UnreadableResponse> => {
    const start = json.trimStart()
    if (start === "") return Either.left(new UnreadableResponse({ what, reason: "the response is empty" }))
    if (start.startsWith("<")) {
      return Either.left(
        new UnreadableResponse({ what, reason: `${describeHtmlPage(htmlTitle.exec(start)?.[1])}, not JSON` })
      )
    }
    let value: unknown
    try {
      value = JSON.parse(json)
    } catch (cause) {
      // JSON.parse says where the text stops being JSON; a response cut short ends mid-value.
      const detail = cause instanceof Error ? cause.message : String(cause)
      return Either.left(new UnreadableResponse({ what, reason: `the response is not valid JSON (${detail})` }))
    }
    return Either.mapLeft(decode(value), (error) => new UnreadableResponse({ what, reason: firstIssue(error) }))
  }
}
