/**
 * How a failed request to a third party (a quote provider, a news feed) is told in the log: what
 * failed and the system's own words underneath, never the error's own message, which names the
 * request's URL and so any credentials it carries.
 */
import type { HttpClientError } from "@effect/platform"

/** What went wrong underneath a transport failure: undici wraps the system error that explains it. */
const innermostMessageOf = (cause: unknown): string | undefined => {
  let innermost: Error | undefined
  for (let current = cause, depth = 0; current instanceof Error && depth < 8; current = current.cause, depth++) {
    innermost = current
  }
  return innermost?.message
}

/** `the request failed (Transport): connect ECONNREFUSED 127.0.0.1:9`, without the URL. */
export const describeHttpError = (error: HttpClientError.HttpClientError): string => {
  const detail = error._tag === "RequestError" ? innermostMessageOf(error.cause) : error.description
  const what = error._tag === "RequestError" ? "the request failed" : "the answer could not be read"
  return `${what} (${error.reason})${detail === undefined || detail === "" ? "" : `: ${detail}`}`
}
