/**
 * Scale-out on PostgreSQL: several server processes on one database serve the same documents and
 * share one rate limit per API key.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { cliJson, createKey, type RunningServer, startServer, temporaryDataDir } from "./support/filings.js"
import { documentOf } from "./support/http.js"
import { adminUrl, createDatabase, type TemporaryDatabase, titleNeedingPostgres } from "./support/postgres.js"
import { awaitFreshRateWindow } from "./support/rateWindow.js"
import { writeSubmission } from "./support/syntheticFilings.js"

const title = titleNeedingPostgres("two servers on one PostgreSQL")

describe.skipIf(adminUrl === undefined)(title, () => {
  let database: TemporaryDatabase
  let servers: ReadonlyArray<RunningServer> = []
  let key: string
  let scratch: { readonly dataDir: string; readonly remove: () => Promise<void> }

  beforeAll(async () => {
    database = await createDatabase(adminUrl!)
    scratch = await temporaryDataDir()
    const storage = { databaseUrl: database.url }
    key = await createKey(storage, { name: "shared", rateLimit: 10 })
    // Both start at once: migrations must serialise between them.
    servers = await Promise.all([startServer(storage), startServer(storage)])
    const file = await writeSubmission(scratch.dataDir, "filing.txt", {
      accession: "0000999999-24-000042",
      form: "8-K",
      filedAsOf: "2024-05-02",
      periodOfReport: "2024-05-01"
    })
    const ingested = await cliJson<{ stored: number }>(storage, ["ingest", file, "--ticker", "CTC"])
    assert.strictEqual(ingested.stored, 1)
  }, 180_000)

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()))
    await database?.drop()
    await scratch?.remove()
  })

  const get = (server: RunningServer, path: string) =>
    fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } })

  it("both servers serve what the CLI stored in the shared database", async () => {
    for (const server of servers) {
      const document = await documentOf(await get(server, "/v1/documents/0000999999-24-000042?format=metadata"))
      assert.deepStrictEqual([document.ticker, document.doc_type], ["CTC", "8-K"])
    }
  })

  it("a key's limit is one budget across both servers", async () => {
    await awaitFreshRateWindow()
    const first = await get(servers[0]!, "/v1/documents?tickers=CTC")
    // Earlier requests of this key in this minute have used part of the budget; count from here.
    const left = Number(first.headers.get("x-ratelimit-remaining"))
    assert.strictEqual(first.headers.get("x-ratelimit-limit"), "10")
    const remaining: Array<number> = []
    for (let request = 0; request < left; request++) {
      const response = await get(servers[request % 2]!, "/v1/documents?tickers=CTC")
      assert.strictEqual(response.status, 200)
      remaining.push(Number(response.headers.get("x-ratelimit-remaining")))
    }
    assert.deepStrictEqual(remaining, Array.from({ length: left }, (_, index) => left - 1 - index))
    for (const server of servers) {
      const limited = await get(server, "/v1/documents?tickers=CTC")
      assert.strictEqual(limited.status, 429)
      assert.isNotNull(limited.headers.get("retry-after"))
    }
  })
})
