/**
 * The quick start of README.md, run for real so it cannot drift: the block between the markers
 * below must appear verbatim under the README's "Quick start" heading, and is run here through
 * `FetchHttpClient` with a `fetch` that plays EDGAR: a one-filing feed, and, where the shared corpus
 * is present, the recorded feed page of 2025-12-12.
 */
import { FetchHttpClient } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { corpusMissing, corpusUrl } from "../../../test/support/corpus.js"
import { itShowsQuickStart } from "../../../test/support/quickStart.js"

// README:effect:start
import { EdgarClient, EdgarConfig, FairAccess, LatestFilings } from "@filings/edgar"
import { Effect, Layer, Option } from "effect"

// EDGAR asks every automated client to declare a name and a contact e-mail in its User-Agent
const edgar = EdgarClient.layer.pipe(
  Layer.provideMerge(FairAccess.layer),
  Layer.provideMerge(EdgarConfig.layer({ userAgent: Option.some("Acme Research ops@acme.example") }))
)
export const latestFilings = Effect.gen(function*() {
  const client = yield* EdgarClient.EdgarClient
  const xml = yield* client.getText({ path: LatestFilings.latestFilingsPath() })
  const feed = yield* LatestFilings.readLatestFilings(xml)
  return LatestFilings.filingsOf(feed.entries) // [{ accessionNumber, form: "8-K", companyName, cik, ... }]
}).pipe(Effect.provide(edgar))
// Effect.runPromise(latestFilings.pipe(Effect.provide(FetchHttpClient.layer))), from @effect/platform
// README:effect:end

interface Request {
  readonly url: string
  readonly userAgent: string | null
}

/** Runs the quick start with a `fetch` that answers every request with `feed`, and the requests it saw. */
const runWithFeed = (feed: string) =>
  Effect.gen(function*() {
    const requests: Array<Request> = []
    const fetchFeed: typeof globalThis.fetch = async (input, init) => {
      const request = new Request(input, init)
      requests.push({ url: request.url, userAgent: request.headers.get("user-agent") })
      return new Response(feed, { headers: { "content-type": "application/atom+xml" } })
    }
    const filings = yield* latestFilings.pipe(
      Effect.provide(FetchHttpClient.layer),
      Effect.provide(Layer.succeed(FetchHttpClient.Fetch, fetchFeed))
    )
    return { filings, requests }
  })

const oneFilingFeed = [
  `<?xml version="1.0" encoding="ISO-8859-1" ?>`,
  `<feed xmlns="http://www.w3.org/2005/Atom">`,
  "<title>Latest Filings</title>",
  "<updated>2025-12-12T18:03:31-05:00</updated>",
  "<entry>",
  "<title>8-K - Apple Inc. (0000320193) (Filer)</title>",
  `<link rel="alternate" type="text/html" href="https://www.sec.gov/Archives/edgar/data/320193/000032019325000079/0000320193-25-000079-index.htm"/>`,
  `<summary type="html"> &lt;b&gt;Filed:&lt;/b&gt; 2025-10-30 &lt;b&gt;AccNo:&lt;/b&gt; 0000320193-25-000079 &lt;b&gt;Size:&lt;/b&gt; 10 KB`,
  `&lt;br&gt;Item 2.02: Results of Operations and Financial Condition</summary>`,
  "<updated>2025-10-30T16:30:41-04:00</updated>",
  `<category scheme="https://www.sec.gov/" label="form type" term="8-K"/>`,
  "<id>urn:tag:sec.gov,2008:accession-number=0000320193-25-000079</id>",
  "</entry>",
  "</feed>"
].join("\n")

const corpusFeed = new URL("feeds/getcurrent-all-2025-12-12-p1.atom.xml", corpusUrl)

describe("README quick start", () => {
  itShowsQuickStart(import.meta.url, ["effect"])

  it.effect("asks EDGAR for the latest filings, declaring the User-Agent, and reads the feed", () =>
    Effect.gen(function*() {
      const { filings, requests } = yield* runWithFeed(oneFilingFeed)
      assert.deepStrictEqual(requests, [{
        url: "https://www.sec.gov/cgi-bin/browse-edgar?action=getcurrent&output=atom",
        userAgent: "Acme Research ops@acme.example"
      }])
      assert.deepStrictEqual(filings.map((filing) => [filing.accessionNumber, filing.form, filing.companyName]), [
        ["0000320193-25-000079", "8-K", "Apple Inc."]
      ])
      assert.deepStrictEqual(filings[0]?.items, ["2.02"])
    }))

  it.effect.skipIf(corpusMissing)(
    "reads the recorded feed page of 2025-12-12 (shared corpus)",
    () =>
      Effect.gen(function*() {
        const { filings } = yield* runWithFeed(readFileSync(corpusFeed, "latin1"))
        assert.strictEqual(filings.length, 50)
        assert.strictEqual(filings[0]?.companyName, "Hinge Health, Inc.")
      })
  )
})
