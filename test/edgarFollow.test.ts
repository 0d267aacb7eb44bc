/**
 * Following EDGAR end to end: the replay server publishes filings the way the regulator does
 * (latest-filings feed, archive, company list), and the real server discovers them, stores them,
 * serves them over `/v1` and records their events, each once, through faults of the regulator and
 * a crash of its own.
 */
import { assert, describe, it } from "@effect/vitest"
import { Document, ExtractionApi } from "@filings/domain"
import pg from "pg"
import { afterAll, beforeAll } from "vitest"
import { adminTokenOf, loggedEvents } from "./support/adminEvents.js"
import { corpusMissing } from "./support/corpus.js"
import {
  corpusFiling,
  type EdgarReplay,
  followEnv,
  type ReplayFiling,
  startEdgarReplay
} from "./support/edgarReplay.js"
import { cli, createKey, type RunningServer, startServer, temporaryDataDir } from "./support/filings.js"
import { jsonOf } from "./support/http.js"
import { adminUrl, createDatabase } from "./support/postgres.js"
import { eightKsOf } from "./support/syntheticEightK.js"
import { eventually, sleep } from "./support/waiting.js"

const today = new Date().toISOString().slice(0, 10)
const acme = eightKsOf({ cik: "0000999101", ticker: "ACMF", name: "ACME FOLLOW CORP" })

/** A filing by a company the regulator lists without a ticker: not followed. */
const unlisted = (): ReplayFiling => {
  const filing = acme(["2.02"])
  const submission = new TextDecoder().decode(filing.submission).replaceAll("0000999101", "0000999202")
  const accessionNumber = filing.accessionNumber.replace("0000999101", "0000999202")
  return {
    accessionNumber,
    cik: "0000999202",
    form: "8-K",
    companyName: "UNLISTED HOLDINGS",
    submission: new TextEncoder().encode(submission.replaceAll(filing.accessionNumber, accessionNumber)),
    filedDate: today
  }
}

describe("following EDGAR", () => {
  let replay: EdgarReplay
  let storage: Awaited<ReturnType<typeof temporaryDataDir>>
  let server: RunningServer
  let key: string

  const get = (path: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } })
  const served = (id: string) =>
    eventually(`${id} to be served`, async () => {
      const response = await get(`/v1/documents/${id}`)
      return response.status === 200 ? jsonOf(Document.Document, response) : undefined
    })
  const events = async () => loggedEvents(server.url, await adminTokenOf(storage.dataDir))
  const eventsOf = async (id: string) =>
    (await events()).filter((event) => event.payload.data.publication_id === id).map((event) => event.type)

  beforeAll(async () => {
    replay = await startEdgarReplay({
      companyTickers: [
        { cik: "0000999101", ticker: "ACMF", name: "ACME FOLLOW CORP" },
        { cik: "0000796343", ticker: "ADBE", name: "ADOBE INC." }
      ]
    })
    storage = await temporaryDataDir()
    server = await startServer(storage, followEnv(replay))
    key = await createKey(storage)
  }, 120_000)

  afterAll(async () => {
    await server?.stop()
    await replay?.close()
    await storage?.remove()
  })

  it("discovers a new 8-K, serves it with its press release, and records its events once", async () => {
    const callAt = new Date(Date.now() + 6 * 3_600_000)
    const filing = acme(["1.01", "2.02", "9.01"], callAt)
    replay.publish(filing)

    const document = await served(filing.accessionNumber)
    assert.deepStrictEqual(
      [document.ticker, document.company_name, document.doc_type, document.filing_date],
      ["ACMF", "ACME FOLLOW CORP", "8-K", today]
    )
    const sections = await (await get(`/v1/documents/${filing.accessionNumber}/sections`)).json() as {
      sections: ReadonlyArray<{ name: string }>
    }
    assert.deepStrictEqual(sections.sections.map((section) => section.name), [
      "Item 1.01. Entry into a Material Definitive Agreement",
      "Item 2.02. Results of Operations and Financial Condition",
      "Item 9.01. Financial Statements and Exhibits",
      "Signatures"
    ])
    const extraction = await jsonOf(
      ExtractionApi.ExtractionResult,
      await get(`/v1/documents/${filing.accessionNumber}/extract?fields=exhibits,signatures`)
    )
    assert.deepStrictEqual(extraction.signatures?.signers, [{ name: "Pat Example", title: "Chief Financial Officer" }])

    const releaseId = `${filing.accessionNumber}-ex99.1`
    const release = await served(releaseId)
    assert.deepStrictEqual(
      [release.doc_type, release.title, release.ticker],
      ["PRESS_RELEASE", "ACME FOLLOW CORP Reports Results and Signs a Supply Agreement", "ACMF"]
    )

    const logged = await eventually("the filing's events", async () => {
      const all = await events()
      return all.some((event) => event.type === "earnings_call.upcoming") ? all : undefined
    })
    const own = logged.filter((event) =>
      event.payload.data.publication_id === filing.accessionNumber ||
      event.payload.data.source_publication_id === filing.accessionNumber ||
      event.payload.data.source_publication_id === releaseId
    )
    assert.deepStrictEqual(own.map((event) => event.type), [
      "filing.new",
      "filing.8k_material",
      "press_release.new",
      "earnings_call.upcoming"
    ])
    const material = own[1]!.payload.data
    assert.deepStrictEqual(material.items, ["Item 1.01", "Item 2.02", "Item 9.01"])
    assert.deepStrictEqual(material.material_items, ["Item 1.01"])
    assert.strictEqual(material.url, `/v1/documents/${filing.accessionNumber}`)
    assert.strictEqual(own[2]!.payload.data.source_publication_id, filing.accessionNumber)
    assert.strictEqual(
      own[3]!.payload.data.scheduled_at,
      new Date(Math.floor(callAt.getTime() / 60_000) * 60_000).toISOString()
    )
    // In order, each once.
    const sequences = own.map((event) => event.sequence)
    assert.deepStrictEqual(sequences, [...sequences].sort((a, b) => a - b))
  })

  it("keeps only followed companies and kept forms", async () => {
    const other = unlisted()
    const followed = acme(["8.01"])
    replay.publish(other)
    replay.publish(followed)
    await served(followed.accessionNumber)
    assert.strictEqual((await get(`/v1/documents/${other.accessionNumber}`)).status, 404)
    assert.deepStrictEqual(await eventsOf(other.accessionNumber), [])
  })

  it("survives the regulator's refusals, error pages, truncated and slow bodies, losing and repeating nothing", async () => {
    replay.injectFault(/action=getcurrent/, { kind: "status", status: 503, body: "unavailable" }, 2)
    replay.injectFault(/action=getcurrent/, { kind: "status", status: 403, body: "rate-threshold" }, 1)
    const filings = [acme(["2.02"]), acme(["8.01"]), acme(["7.01"])]
    replay.injectFault(new RegExp(`${filings[0]!.accessionNumber}\\.txt$`), { kind: "truncated" }, 2)
    replay.injectFault(new RegExp(`${filings[1]!.accessionNumber}\\.txt$`), { kind: "status", status: 500 }, 2)
    replay.injectFault(new RegExp(`${filings[2]!.accessionNumber}\\.txt$`), { kind: "slow", bytesPerSecond: 4_000 }, 1)
    for (const filing of filings) replay.publish(filing)
    for (const filing of filings) await served(filing.accessionNumber)
    await sleep(1_000)
    for (const filing of filings) {
      assert.deepStrictEqual(await eventsOf(filing.accessionNumber), ["filing.new"], filing.accessionNumber)
    }
    // Every fault was met: the feed refused three times, each submission failed before it came.
    const answered = (path: RegExp) => replay.requests.filter((request) => path.test(request.path))
    const feedStatuses = answered(/action=getcurrent/).map((request) => request.status)
    assert.includeMembers(feedStatuses, [503, 503, 403])
    assert.isAtLeast(answered(new RegExp(`${filings[0]!.accessionNumber}\\.txt$`)).length, 3)
    assert.includeMembers(
      answered(new RegExp(`${filings[1]!.accessionNumber}\\.txt$`)).map((request) => request.status),
      [500, 500, 200]
    )
    assert.isAtMost(replay.peakRequestsPerSecond(), 10)
  })

  it("loses and repeats nothing when the server is killed in the middle of an ingestion", async () => {
    const filing = acme(["2.02"])
    // A slow body keeps the fetch going while the process is killed.
    replay.injectFault(new RegExp(`${filing.accessionNumber}\\.txt$`), { kind: "slow", bytesPerSecond: 500 }, 1)
    replay.publish(filing)
    await eventually(
      "the fetch to start",
      async () =>
        replay.requests.some((request) => request.path.endsWith(`${filing.accessionNumber}.txt`)) ? true : undefined
    )
    await server.kill()
    server = await startServer(storage, followEnv(replay))
    await served(filing.accessionNumber)
    await sleep(1_000)
    assert.deepStrictEqual(await eventsOf(filing.accessionNumber), ["filing.new"])
    // Fetched before the kill and again after it: the job outlived the process that held it.
    const fetches = replay.requests.filter((request) => request.path.endsWith(`${filing.accessionNumber}.txt`))
    assert.strictEqual(fetches.length, 2)
  })
})

describe("filings edgar backfill", () => {
  it("loads a company's filings since a date as history: stored with their press releases, no events", async () => {
    const replay = await startEdgarReplay({
      companyTickers: [{ cik: "0000999101", ticker: "ACMF", name: "ACME FOLLOW CORP" }]
    })
    const storage = await temporaryDataDir()
    try {
      const filings = [acme(["2.02", "9.01"]), acme(["1.01"]), acme(["8.01"])]
      for (const filing of filings) replay.publish(filing)
      const env = followEnv(replay)
      const result = await cli(storage, ["edgar", "backfill", "--tickers", "ACMF", "--since", today, "--json"], env)
      assert.strictEqual(result.exitCode, 0, result.stderr)
      const summary = JSON.parse(result.stdout) as Record<string, unknown>
      assert.deepStrictEqual(summary, { planned: 3, stored: 3, failed: 0, failures: [] })
      assert.match(result.stderr, /\[3\/3\] ACMF 8-K/)

      const unknown = await cli(storage, ["edgar", "backfill", "--tickers", "NOPE", "--since", today], env)
      assert.strictEqual(unknown.exitCode, 1)
      assert.match(unknown.stderr, /the regulator lists no company with the ticker NOPE/)

      // Served afterwards by a server that does not follow EDGAR; history records no events.
      const server = await startServer(storage)
      try {
        const key = await createKey(storage)
        for (const filing of filings) {
          const response = await fetch(`${server.url}/v1/documents/${filing.accessionNumber}-ex99.1`, {
            headers: { authorization: `Bearer ${key}` }
          })
          assert.strictEqual(response.status, 200, filing.accessionNumber)
        }
        const adminToken = await adminTokenOf(storage.dataDir)
        const log = await fetch(`${server.url}/admin/events`, { headers: { authorization: `Bearer ${adminToken}` } })
        assert.strictEqual(log.status, 200)
        assert.deepStrictEqual(((await log.json()) as { events: ReadonlyArray<unknown> }).events, [])
      } finally {
        await server.stop()
      }
    } finally {
      await replay.close()
      await storage.remove()
    }
  })
})

describe.skipIf(adminUrl === undefined)("filings edgar backfill on PostgreSQL", () => {
  it("takes its requests from the budget the servers share: a pause one of them set holds it back", async () => {
    const replay = await startEdgarReplay({
      companyTickers: [{ cik: "0000999101", ticker: "ACMF", name: "ACME FOLLOW CORP" }]
    })
    const database = await createDatabase(adminUrl!)
    const client = new pg.Client({ connectionString: database.url })
    try {
      const storage = { databaseUrl: database.url }
      const filings = [acme(["2.02", "9.01"]), acme(["1.01"])]
      for (const filing of filings) replay.publish(filing)
      // Creates the tables; then a pause as a server sets on the regulator's "rate threshold" page.
      assert.strictEqual((await cli(storage, ["keys", "list"])).exitCode, 0)
      await client.connect()
      const pausedUntil = Date.now() + 3_000
      await client.query(
        "INSERT INTO request_budget_pauses (budget, paused_until_ms) VALUES ('edgar.requests', $1)",
        [pausedUntil]
      )

      const result = await cli(storage, ["edgar", "backfill", "--tickers", "ACMF", "--since", today, "--json"], {
        ...followEnv(replay)
      })
      assert.strictEqual(result.exitCode, 0, result.stderr)
      assert.deepStrictEqual(JSON.parse(result.stdout), { planned: 2, stored: 2, failed: 0, failures: [] })
      assert.isAtLeast(replay.requests.length, 4)
      for (const request of replay.requests) assert.isAtLeast(request.at, pausedUntil, request.path)
      // Every request was a start of the shared budget, stamped after the pause.
      const { rows } = await client.query<{ started: number }>(
        "SELECT count(*)::int AS started FROM request_budget_slots WHERE budget = 'edgar.requests' AND started_at_ms >= $1",
        [pausedUntil]
      )
      assert.strictEqual(rows[0]!.started, Math.min(10, replay.requests.length))
    } finally {
      await client.end().catch(() => undefined)
      await database.drop()
      await replay.close()
    }
  })
})

describe.skipIf(corpusMissing)("following EDGAR with real filings from the corpus", () => {
  it("a real 8-K earnings release: the filing, its EX-99.1 as a press release, and the release's metrics", async () => {
    const replay = await startEdgarReplay({
      companyTickers: [{ cik: "0000796343", ticker: "ADBE", name: "ADOBE INC." }]
    })
    const storage = await temporaryDataDir()
    const server = await startServer(storage, followEnv(replay))
    try {
      const key = await createKey(storage)
      const get = (path: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } })
      const filing = corpusFiling("8-K/adbe-8k-2023-03-15-full-submission.txt")
      replay.publish(filing)
      const releaseId = `${filing.accessionNumber}-ex99.1`
      const release = await eventually("the press release", async () => {
        const response = await get(`/v1/documents/${releaseId}`)
        return response.status === 200 ? jsonOf(Document.Document, response) : undefined
      })
      assert.strictEqual(release.title, "Adobe Reports Record Revenue in Q1 Fiscal 2023")
      const extraction = await jsonOf(
        ExtractionApi.ExtractionResult,
        await get(`/v1/documents/${releaseId}/extract?fields=metrics`)
      )
      assert.deepStrictEqual(
        [extraction.metrics?.revenue?.value, extraction.metrics?.revenue?.period],
        [4_655_000_000, "Q1 2023"]
      )
    } finally {
      await server.stop()
      await replay.close()
      await storage.remove()
    }
  })
})
