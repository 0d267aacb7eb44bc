/**
 * Recognises the regulator's own error pages. SEC.gov answers problems with HTML pages whose status
 * code alone is ambiguous: its "Request Rate Threshold Exceeded" page arrives as 403 (sometimes 429 or
 * 503, and it has been seen in place of a filing), the same 403 also means "undeclared automated
 * tool", and a 503 "File Unavailable" page is both real maintenance and what the `getcurrent` Atom
 * feed returns for a page past its end. The client needs to tell these apart to decide between
 * pausing everything, giving up at once, or retrying.
 */

export type ErrorPageKind = "rate-threshold" | "undeclared-tool" | "unavailable"

// The pages are identified by their titles and headings, which have been stable for years; the
// body copy around them changes more often. The apostrophe in "SEC’s" is typographic on the live page.
const rateThreshold = [/Request Rate Threshold Exceeded/i, /Exceeded the SEC.s Traffic Limit/i]
const rateThresholdTitle = [/<title>[^<]*Request Rate Threshold Exceeded/i]
const undeclaredTool = [/Undeclared Automated Tool/i]
const unavailable = [/<title>[^<]*File Unavailable/i, /This page is temporarily unavailable/i]

// The identifying parts sit in the head and first heading; a filing that merely quotes the phrase
// deep in its text must not be mistaken for the page itself.
const inspectedPrefixLength = 16_384

const matchesAny = (patterns: ReadonlyArray<RegExp>, text: string): boolean =>
  patterns.some((pattern) => pattern.test(text))

/**
 * Which of the regulator's error pages this response is, if any. Pass the start of the body decoded
 * as text; a longer body is fine, only its first 16 KiB are looked at.
 */
export const classifyErrorPage = (status: number, bodyText: string): ErrorPageKind | undefined => {
  const head = bodyText.slice(0, inspectedPrefixLength)
  // Checked at any status: the rate page has come with 403, 429, 503 and even 200 in place of a
  // document; on a success status only its exact title counts, so a document quoting it is not taken for it.
  if (matchesAny(status >= 400 ? rateThreshold : rateThresholdTitle, head)) return "rate-threshold"
  if (status >= 400 && matchesAny(undeclaredTool, head)) return "undeclared-tool"
  if (status >= 500 && matchesAny(unavailable, head)) return "unavailable"
  return undefined
}
