/**
 * Asks a Filings server a question and prints the answer as it is written: `POST /v1/chat` with
 * `stream: true` answers with Server-Sent Events (`sources`, then each checked `sentence`, then
 * `done`), read here with nothing but `fetch`. Each sentence is printed with the numbers of the
 * sources it cites, and the sources are listed at the end.
 *
 *   FILINGS_URL=http://127.0.0.1:8080 FILINGS_KEY=fk_... \
 *     node --import tsx examples/chat.ts "What did 3M spend on capital expenditure in 2018?" MMM
 */

interface Source {
  readonly publication_id: string
  readonly chunk_id: string
  readonly ticker: string
  readonly doc_type: string
  readonly filing_date: string
  readonly section: string | null
  readonly page_start: number
  readonly page_end: number
}
interface Sentence {
  readonly text: string
  readonly citations: ReadonlyArray<{ readonly source: string; readonly chunk_id: string }>
}
interface Answer {
  readonly model: string
  readonly corrections: ReadonlyArray<string>
}

const url = process.env.FILINGS_URL ?? "http://127.0.0.1:8080"
const key = process.env.FILINGS_KEY
const [question, tickers] = process.argv.slice(2)
if (key === undefined || key === "" || question === undefined) {
  console.error("usage: FILINGS_KEY=fk_... examples/chat.ts QUESTION [TICKER,TICKER]")
  process.exit(1)
}

/** Each event of a Server-Sent Events body, as it arrives: its name and its parsed data. */
async function* eventsOf(body: ReadableStream<Uint8Array>): AsyncGenerator<{ name: string; data: unknown }> {
  let buffered = ""
  for await (const text of body.pipeThrough(new TextDecoderStream())) {
    buffered += text
    let end: number
    while ((end = buffered.indexOf("\n\n")) !== -1) {
      const block = buffered.slice(0, end)
      buffered = buffered.slice(end + 2)
      const name = /^event: (.*)$/m.exec(block)?.[1]
      const data = /^data: (.*)$/m.exec(block)?.[1]
      if (name !== undefined && data !== undefined) yield { name, data: JSON.parse(data) }
    }
  }
}

const response = await fetch(`${url}/v1/chat`, {
  method: "POST",
  headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
  body: JSON.stringify({
    question,
    ...(tickers === undefined ? {} : { tickers: tickers.split(",") }),
    stream: true
  })
})
if (!response.ok || response.body === null) {
  // Errors are JSON: {"error": {"code", "message"}}.
  console.error(`${response.status}: ${await response.text()}`)
  process.exit(1)
}

let sources: ReadonlyArray<Source> = []
for await (const event of eventsOf(response.body)) {
  if (event.name === "sources") sources = event.data as ReadonlyArray<Source>
  if (event.name === "sentence") {
    const sentence = event.data as Sentence
    const numbers = sentence.citations.map((citation) =>
      sources.findIndex((source) => source.publication_id === citation.source && source.chunk_id === citation.chunk_id)
    ).filter((index) => index >= 0).map((index) => `[${index + 1}]`)
    console.log(numbers.length === 0 ? sentence.text : `${sentence.text} ${numbers.join("")}`)
  }
  if (event.name === "done") {
    const answer = event.data as Answer
    console.log("")
    sources.forEach((source, index) => {
      const pages = source.page_start === source.page_end
        ? `p. ${source.page_start}`
        : `pp. ${source.page_start}-${source.page_end}`
      console.log(
        `[${index + 1}] ${source.ticker} ${source.doc_type} ${source.filing_date} ${pages}` +
          ` ${source.publication_id}/${source.chunk_id}`
      )
    })
    console.log(`answered by ${answer.model}`)
    for (const correction of answer.corrections) console.log(`corrected: ${correction}`)
  }
}
