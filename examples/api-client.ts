/**
 * Calls a running Filings server with the typed client derived from the API definition: the same
 * schemas the server uses decode the responses (the JSON's `publication_id` is `publicationId` once
 * decoded), and API errors come back as tagged errors.
 *
 *   FILINGS_URL=http://127.0.0.1:8080 FILINGS_KEY=fk_... node --import tsx examples/api-client.ts ACME
 */
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Api, Ids } from "@filings/domain"
import { Config, Console, Effect, Redacted } from "effect"

const program = Effect.gen(function*() {
  const url = yield* Config.string("FILINGS_URL").pipe(Config.withDefault("http://127.0.0.1:8080"))
  const key = yield* Config.redacted("FILINGS_KEY")
  const client = yield* HttpApiClient.make(Api.FilingsApi, {
    baseUrl: url,
    transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(Redacted.value(key)))
  })

  const ticker = Ids.Ticker.make(process.argv[2] ?? "ACME")
  const page = yield* client.documents.listDocuments({ urlParams: { tickers: [ticker], limit: 10 } })
  yield* Console.log(`${page.total} documents of ${ticker}`)
  for (const document of page.documents) {
    yield* Console.log(`  ${document.filingDate} ${document.docType} ${document.publicationId} ${document.title}`)
  }

  const first = page.documents[0]
  if (first !== undefined) {
    const full = yield* client.documents.getDocument({
      path: { publication_id: first.publicationId },
      urlParams: { format: "markdown" }
    })
    if ("body" in full) yield* Console.log(`\n${full.body?.slice(0, 500)}`)
  }
})

Effect.runPromise(program.pipe(
  Effect.provide(FetchHttpClient.layer),
  Effect.catchAll((error) => Console.error(`request failed: ${error.message}`))
))
