/**
 * Listens to a Filings server's event stream (`GET /v1/stream`) with the `eventsource` package and
 * prints each event as one JSON line. EventSource reconnects by itself and resumes after the last
 * event it received; with FILINGS_STREAM_STATE naming a file, the listener also remembers that
 * event across restarts, so stopping it loses nothing.
 *
 *   FILINGS_URL=http://127.0.0.1:8080 FILINGS_KEY=fk_... FILINGS_STREAM_STATE=./last-event-id \
 *     node --import tsx examples/stream-listener.ts "events=filing.8k_material&tickers=AAPL,MSFT"
 */
import { EventSource } from "eventsource"
import { readFileSync, writeFileSync } from "node:fs"

const url = process.env.FILINGS_URL ?? "http://127.0.0.1:8080"
const key = process.env.FILINGS_KEY
if (key === undefined || key === "") {
  console.error("set FILINGS_KEY to an API key")
  process.exit(1)
}
const statePath = process.env.FILINGS_STREAM_STATE
const eventTypes = [
  "filing.new",
  "filing.8k_material",
  "earnings_call.new",
  "earnings_call.upcoming",
  "press_release.new"
]

/** The sequence of the last event handled in an earlier run, if one was recorded. */
const lastHandled = (): string | undefined => {
  if (statePath === undefined) return undefined
  try {
    const text = readFileSync(statePath, "utf8").trim()
    return /^\d+$/.test(text) ? text : undefined
  } catch {
    return undefined
  }
}

const query = new URLSearchParams(process.argv[2] ?? "")
const resumeAfter = lastHandled()
if (resumeAfter !== undefined) query.set("after", resumeAfter)
const streamUrl = `${url}/v1/stream${query.size > 0 ? `?${query}` : ""}`

const source = new EventSource(streamUrl, {
  // Node's EventSource can send headers, so the key goes in Authorization rather than the URL.
  fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, authorization: `Bearer ${key}` } })
})

const handle = (event: MessageEvent) => {
  console.log(
    JSON.stringify({ id: Number(event.lastEventId), type: event.type, payload: JSON.parse(String(event.data)) })
  )
  // Recorded after the event is handled: a crash in between handles it again rather than never.
  if (statePath !== undefined) writeFileSync(statePath, event.lastEventId)
}
for (const type of eventTypes) source.addEventListener(type, handle)

source.addEventListener("open", () => console.error(`listening to ${streamUrl.replace(/api_key=[^&]*/, "api_key=…")}`))
source.addEventListener("error", (error) => {
  // A refusal (401, 400, 429) closes the source for good; anything else is retried by itself.
  if (source.readyState === EventSource.CLOSED) {
    console.error(`the stream was refused: ${error.message ?? "see the server's answer"}`)
    process.exit(1)
  }
})

const stop = () => {
  source.close()
  process.exit(0)
}
process.on("SIGINT", stop)
process.on("SIGTERM", stop)
