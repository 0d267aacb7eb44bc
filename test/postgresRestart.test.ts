/**
 * Following EDGAR through a restart of PostgreSQL: the database goes away while filings are being
 * ingested and comes back a few seconds later. The server must ride it out in the same process, and
 * every filing must end up served with each of its events recorded once: nothing lost to a write
 * that failed, nothing repeated by a job that was retried after it had half-succeeded.
 *
 * The test owns a private PostgreSQL cluster (see `support/throwawayPostgres.ts`), since it has to
 * stop the database under the server; it skips where PostgreSQL's programs are not installed.
 */
import { assert, describe, it } from "@effect/vitest"
import { Document } from "@filings/domain"
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll } from "vitest"
import { type EdgarReplay, followEnv, type ReplayFiling, startEdgarReplay } from "./support/edgarReplay.js"
import { createKey, repositoryRoot } from "./support/filings.js"
import { jsonOf } from "./support/http.js"
import { eightKSubmission, type SyntheticEightK } from "./support/syntheticEightK.js"
import {
  startThrowawayPostgres,
  type ThrowawayPostgres,
  throwawayPostgresAvailable
} from "./support/throwawayPostgres.js"
import { eventually, sleep } from "./support/waiting.js"

interface LoggedEvent {
  readonly sequence: number
  readonly type: string
  readonly payload: { readonly event: string; readonly data: Record<string, unknown> }
}

const today = new Date().toISOString().slice(0, 10)
let accessionSerial = 0
const acme = (items: ReadonlyArray<string>): SyntheticEightK & ReplayFiling => {
  const accession = `0000999303-26-${String(++accessionSerial).padStart(6, "0")}`
  const filing: SyntheticEightK = {
    accession,
    cik: "0000999303",
    companyName: "ACME RESTART CORP",
    ticker: "ACMR",
    filedAsOf: today,
    items
  }
  return {
    ...filing,
    accessionNumber: accession,
    form: "8-K",
    submission: eightKSubmission(filing),
    filedDate: today
  }
}

/** Every other filing reports a material agreement (Item 1.01), so `filing.8k_material` is checked too. */
const batch = (size: number) =>
  Array.from({ length: size }, (_, index) => acme(index % 2 === 0 ? ["1.01", "9.01"] : ["2.02", "9.01"]))

const eventsExpected = (filing: SyntheticEightK) =>
  filing.items.includes("1.01") ? ["filing.new", "filing.8k_material"] : ["filing.new"]

interface Server {
  readonly url: string
  readonly process: ChildProcess
  readonly output: () => string
  readonly stop: () => Promise<void>
}

/**
 * `filings serve` on PostgreSQL with an operator token for `/admin`. The shared `startServer` helper
 * clears `FILINGS_ADMIN_TOKEN` (it is made for PGlite, whose server leaves its token in
 * `server.json`), so this test starts the process itself; holding the child also lets it tell
 * whether the process that answers after the outage is the one that was there before it.
 */
const startServerWithAdminToken = (databaseUrl: string, env: Record<string, string>) =>
  new Promise<Server>((resolve, reject) => {
    const inherited = { ...process.env }
    for (const name of ["FILINGS_DATA_DIR", "FILINGS_SERVER_URL", "FILINGS_ADMIN_TOKEN"]) delete inherited[name]
    const child = spawn(
      process.execPath,
      [`${repositoryRoot}packages/server/bin/filings.js`, "serve", "--port", "0", "--json"],
      {
        env: { ...inherited, FILINGS_LOG_LEVEL: "WARN", ...env, FILINGS_DATABASE_URL: databaseUrl },
        cwd: repositoryRoot,
        stdio: ["ignore", "pipe", "pipe"]
      }
    )
    let output = ""
    const stop = () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done()
        child.once("exit", () => done())
        child.kill("SIGTERM")
      })
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`the server did not start within 60 s:\n${output}`))
    }, 60_000)
    child.stderr.on("data", (chunk) => (output += chunk))
    child.stdout.on("data", (chunk) => {
      output += chunk
      const listening = output.split("\n").find((line) => line.startsWith("{\"event\":\"listening\""))
      if (listening === undefined) return
      clearTimeout(timer)
      resolve({ url: (JSON.parse(listening) as { url: string }).url, process: child, output: () => output, stop })
    })
    child.once("exit", (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`the server exited (${code ?? signal}) before listening:\n${output}`))
    })
  })

const title = throwawayPostgresAvailable()
  ? "following EDGAR while PostgreSQL restarts"
  : "following EDGAR while PostgreSQL restarts (skipped: no PostgreSQL binaries to start a private server)"

describe.skipIf(!throwawayPostgresAvailable())(title, () => {
  const adminToken = randomBytes(24).toString("base64url")
  let replay: EdgarReplay | undefined
  let postgres: ThrowawayPostgres | undefined
  let server: Server
  let key: string

  const alive = () => server.process.exitCode === null && server.process.signalCode === null
  const get = (path: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } })
  const statusOf = async (id: string) => (await get(`/v1/documents/${id}`)).status
  const served = (id: string) =>
    eventually(() => `${id} to be served; the server said:\n${server.output()}`, async () => {
      const response = await get(`/v1/documents/${id}`)
      return response.status === 200 ? jsonOf(Document.Document, response) : undefined
    })
  const events = async (): Promise<ReadonlyArray<LoggedEvent>> => {
    const response = await fetch(`${server.url}/admin/events?limit=1000`, {
      headers: { authorization: `Bearer ${adminToken}` }
    })
    assert.strictEqual(response.status, 200)
    return ((await response.json()) as { events: ReadonlyArray<LoggedEvent> }).events
  }

  beforeAll(async () => {
    replay = await startEdgarReplay({
      companyTickers: [{ cik: "0000999303", ticker: "ACMR", name: "ACME RESTART CORP" }]
    })
    postgres = await startThrowawayPostgres()
    server = await startServerWithAdminToken(postgres.url, {
      ...followEnv(replay),
      FILINGS_ADMIN_TOKEN: adminToken
    })
    // The CLI works on the database directly: with PostgreSQL there is no local server to hand over
    // to. A high limit, since polling ten filings every 100 ms would spend a standard key's 100
    // requests a minute in a second, and a 429 would look like a filing not yet served.
    key = await createKey({ databaseUrl: postgres.url }, { rateLimit: 100_000 })
  }, 120_000)

  // Each step runs whatever failed before it, so no cluster or process outlives the test.
  afterAll(async () => {
    await server?.stop().catch(() => undefined)
    await replay?.close().catch(() => undefined)
    await postgres?.remove()
  })

  it("serves every filing and records each event once when the database goes away mid-ingestion", async () => {
    const pid = server.process.pid
    const first = batch(5)
    for (const filing of first) replay!.publish(filing)
    for (const filing of first) await served(filing.accessionNumber)

    const second = batch(10)
    // Slow bodies keep some fetches going through the outage, so their writes come after it and
    // their jobs are in the hands of workers while the database is down.
    for (const filing of second.slice(6)) {
      replay!.injectFault(new RegExp(`${filing.accessionNumber}\\.txt$`), { kind: "slow", bytesPerSecond: 1_500 }, 1)
    }
    for (const filing of second) replay!.publish(filing)
    await eventually("the second batch's ingestion to start", async () => {
      const fetched = second.filter((filing) =>
        replay!.requests.some((request) => request.path.endsWith(`${filing.accessionNumber}.txt`))
      )
      return fetched.length > 0 ? fetched : undefined
    })
    const servedBeforeOutage = (await Promise.all(second.map((filing) => statusOf(filing.accessionNumber))))
      .filter((status) => status === 200).length

    await postgres!.stop()
    await sleep(2_500)
    // Without its database the server is unhealthy but still up, and says so.
    const healthDuringOutage = await fetch(`${server.url}/healthz`).then((response) => response.status)
    assert.isTrue(alive(), `the server died while PostgreSQL was down:\n${server.output()}`)
    await postgres!.start()

    // One deadline for the lot: whatever the outage broke has had time to be retried.
    let unserved = new Map(second.map((filing) => [filing.accessionNumber, 0]))
    await eventually(
      () =>
        `every filing to be served; still answered ${JSON.stringify(Object.fromEntries(unserved))};` +
        ` the server said:\n${server.output()}`,
      async () => {
        const ids = [...unserved.keys()]
        const statuses = await Promise.all(ids.map(statusOf))
        unserved = new Map(
          ids.map((id, index) => [id, statuses[index]!] as const).filter(([, status]) => status !== 200)
        )
        return unserved.size === 0 ? true : undefined
      },
      60_000
    )
    for (const filing of [...first, ...second]) await served(filing.accessionNumber)
    // The ingestion was really cut: part of the batch had still to be stored when the database stopped.
    assert.isBelow(servedBeforeOutage, second.length, "the outage came after the whole batch was stored")
    assert.strictEqual(healthDuringOutage, 503)
    assert.strictEqual((await fetch(`${server.url}/healthz`)).status, 200)

    // Leave time for a late duplicate: a retried job that would record its events a second time.
    await sleep(1_500)
    const logged = await events()
    for (const filing of [...first, ...second]) {
      const own = logged.filter((event) => event.payload.data.publication_id === filing.accessionNumber)
      assert.deepStrictEqual(own.map((event) => event.type), eventsExpected(filing), filing.accessionNumber)
      const release = logged.filter((event) => event.payload.data.source_publication_id === filing.accessionNumber)
      assert.deepStrictEqual(release.map((event) => event.type), ["press_release.new"], filing.accessionNumber)
    }
    const sequences = logged.map((event) => event.sequence)
    assert.strictEqual(new Set(sequences).size, sequences.length, "an event sequence number was given twice")

    // The same process served before, during and after the outage.
    assert.isTrue(alive(), `the server died after PostgreSQL came back:\n${server.output()}`)
    assert.strictEqual(server.process.pid, pid)
  }, 90_000)
})
