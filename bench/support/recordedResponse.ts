/**
 * A response recorded from the real server, as the benchmark hands it to the baseline server: the
 * request target it answers, and the status, headers and body bytes to send back.
 */
export interface RecordedResponse {
  /** Path and query, exactly as the client sends them (`/v1/documents?tickers=BNCH&limit=50`). */
  readonly target: string
  readonly status: number
  /** The headers that describe the response; per-connection ones (date, keep-alive) are left out. */
  readonly headers: Readonly<Record<string, string>>
  readonly bodyBase64: string
}

/** Headers Node's HTTP server writes by itself on every response, for the baseline as for the real server. */
const perConnectionHeaders = new Set(["date", "connection", "keep-alive", "content-length", "transfer-encoding"])

/** Records one response, keeping its body bytes as they came over the wire. */
export const recordResponse = async (target: string, response: Response): Promise<RecordedResponse> => ({
  target,
  status: response.status,
  headers: Object.fromEntries(
    [...response.headers.entries()].filter(([name]) => !perConnectionHeaders.has(name.toLowerCase()))
  ),
  bodyBase64: Buffer.from(await response.arrayBuffer()).toString("base64")
})

export const encodeRecordedResponses = (responses: ReadonlyArray<RecordedResponse>): string => JSON.stringify(responses)

const isRecordedResponse = (value: unknown): value is RecordedResponse => {
  if (typeof value !== "object" || value === null) return false
  const record = value as Record<string, unknown>
  return typeof record.target === "string" && typeof record.status === "number" &&
    typeof record.headers === "object" && record.headers !== null && typeof record.bodyBase64 === "string"
}

export const decodeRecordedResponses = (json: string): ReadonlyArray<RecordedResponse> => {
  const parsed: unknown = JSON.parse(json)
  if (!Array.isArray(parsed) || !parsed.every(isRecordedResponse)) {
    throw new Error("the routes file is not a list of recorded responses")
  }
  return parsed
}
