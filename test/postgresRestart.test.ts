/**
 * Following EDGAR through an outage of PostgreSQL: the database stops for ten seconds in the middle
 * of a burst of filings and starts again. The server must ride it out in the same process: while
 * the database is down it answers every request within seconds with `503 service_unavailable` and a
 * `Retry-After`, and afterwards every filing ends up served with each of its events recorded once:
 * nothing lost to a write that failed, nothing repeated by a job that was retried after it had
 * half-succeeded, no job run more often than it was taken.
 *
 * The test owns a private PostgreSQL cluster (see `support/throwawayPostgres.ts`), since it has to
 * stop the database under the server; it skips only where PostgreSQL's programs are not installed.
 */
import { assert, describe, it } from "@effect/vitest"
import { Document } from "@filings/domain"
import { randomBytes } from "node:crypto"
import pg from "pg"
import { afterAll, beforeAll } from "vitest"
import { loggedEvents } from "./support/adminEvents.js"
import { type EdgarReplay, followEnv, type ReplayFiling, startEdgarReplay } from "./support/edgarReplay.js"
import { createKey, type RunningServer, startServer } from "./support/filings.js"
import { jsonOf } from "./support/http.js"
import { eightKsOf, type SyntheticEightK } from "./support/syntheticEightK.js"
import {
  startThrowawayPostgres,
  type ThrowawayPostgres,
  throwawayPostgresAvailable
} from "./support/throwawayPostgres.js"
import { eventually, sleep } from "./support/waiting.js"

const acme = eightKsOf({ cik: "0000999303", ticker: "ACMR", name: "ACME RESTART CORP" })

/** Every other filing reports a material agreement (Item 1.01), so `filing.8k_material` is checked too. */
const batch = (size: number) =>
  Array.from({ length: size }, (_, index) => acme(index % 2 === 0 ? ["1.01", "9.01"] : ["2.02", "9.01"]))

const eventsExpected = (filing: SyntheticEightK) =>
  filing.items.includes("1.01") ? ["filing.new", "filing.8k_material"] : ["filing.new"]

const title = throwawayPostgresAvailable()
  ? "following EDGAR while PostgreSQL stops and starts again"
  : "following EDGAR while PostgreSQL stops and starts again (skipped: initdb and pg_ctl are not installed)"

/** How long the database stays down, and how soon a request must be answered meanwhile. */
const outageMs = 10_000
const answerWithinMs = 5_000

interface OutageAnswer {
  readonly path: string
  readonly status: number
  readonly retryAfter: string | null
  readonly code: string | undefined
  readonly elapsedMs: number
}

interface FilingJobRow {
  readonly unique_key: string
  readonly state: string
  readonly attempts: number
  readonly last_error: string | null
}

describe.skipIf(!throwawayPostgresAvailable())(title, () => {
  const adminToken = randomBytes(24).toString("base64url")
  let replay: EdgarReplay | undefined
  let postgres: ThrowawayPostgres | undefined
  let server: RunningServer
  let key: string

  const alive = () => server.isRunning()
  const get = (path: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } })
  const statusOf = async (id: string) => (await get(`/v1/documents/${id}`)).status
  const served = (id: string) =>
    eventually(() => `${id} to be served; the server said:\n${server.output()}`, async () => {
      const response = await get(`/v1/documents/${id}`)
      return response.status === 200 ? jsonOf(Document.Document, response) : undefined
    })
  const events = () => loggedEvents(server.url, adminToken)
  const submissionFetches = (filing: ReplayFiling) =>
    replay!.requests.filter((request) => request.path.endsWith(`/${filing.accessionNumber}.txt`)).length

  /** One request while the database is down: what came back, and how long it took. */
  const askDuringOutage = async (path: string, authorization: string | undefined): Promise<OutageAnswer> => {
    const started = Date.now()
    try {
      const response = await fetch(`${server.url}${path}`, {
        headers: authorization === undefined ? {} : { authorization: `Bearer ${authorization}` },
        signal: AbortSignal.timeout(answerWithinMs * 4)
      })
      const body = await response.text()
      const code = response.headers.get("content-type")?.includes("json")
        ? (JSON.parse(body) as { error?: { code?: string } }).error?.code
        : undefined
      return {
        path,
        status: response.status,
        retryAfter: response.headers.get("retry-after"),
        code,
        elapsedMs: Date.now() - started
      }
    } catch (error) {
      return { path, status: 0, retryAfter: null, code: String(error), elapsedMs: Date.now() - started }
    }
  }

  beforeAll(async () => {
    replay = await startEdgarReplay({
      companyTickers: [{ cik: "0000999303", ticker: "ACMR", name: "ACME RESTART CORP" }]
    })
    postgres = await startThrowawayPostgres()
    // The operator token for /admin is given here: startServer clears the developer's own.
    server = await startServer({ databaseUrl: postgres.url }, {
      ...followEnv(replay),
      FILINGS_ADMIN_TOKEN: adminToken
    })
    // The CLI works on the database directly: with PostgreSQL there is no local server to hand over
    // to. A high limit, since polling twenty filings every 100 ms would spend a standard key's 100
    // requests a minute in a second, and a 429 would look like a filing not yet served.
    key = await createKey({ databaseUrl: postgres.url }, { rateLimit: 100_000 })
  }, 120_000)

  // Each step runs whatever failed before it, so no cluster or process outlives the test.
  afterAll(async () => {
    await server?.stop().catch(() => undefined)
    await replay?.close().catch(() => undefined)
    await postgres?.remove()
  })

  it("answers 503 with Retry-After while PostgreSQL is down, then stores and announces every filing once", async () => {
    const pid = server.pid
    const first = batch(4)
    for (const filing of first) replay!.publish(filing)
    for (const filing of first) await served(filing.accessionNumber)

    // The burst: a filing every 400 ms for eight seconds; the database stops once a few of them are
    // in, so filings are published before, during and after the outage, and some are being fetched
    // and stored when it starts.
    const burst = batch(20)
    const published = replay!.publishOnTimeline(burst.map((filing, index) => ({ afterMs: index * 400, filing })))
    await eventually("the burst's ingestion to start", async () => {
      const fetched = burst.filter((filing) => submissionFetches(filing) > 0)
      return fetched.length >= 3 ? fetched : undefined
    })

    await postgres!.stop()
    const stoppedAt = Date.now()
    // Requests of every kind, twice a second, until the outage ends; the database starts again only
    // once every one of them has been answered, so each answer is one given without it.
    const asked: Array<Promise<OutageAnswer>> = []
    // A filing not stored yet: the answer must not be a 404, which would say it does not exist.
    const unstoredId = burst.at(-1)!.accessionNumber
    while (Date.now() - stoppedAt < outageMs - answerWithinMs) {
      asked.push(
        askDuringOutage(`/v1/documents/${unstoredId}`, key),
        askDuringOutage("/v1/documents?tickers=ACMR", key),
        askDuringOutage("/healthz", undefined),
        askDuringOutage("/v1/no-such-route", key)
      )
      await sleep(500)
    }
    const answers = await Promise.all(asked)
    await sleep(Math.max(0, outageMs - (Date.now() - stoppedAt)))
    assert.isTrue(alive(), `the server died while PostgreSQL was down:\n${server.output()}`)
    await postgres!.start()
    await published

    for (const answer of answers) {
      const said = `${JSON.stringify(answer)} among\n${answers.map((each) => JSON.stringify(each)).join("\n")}`
      assert.isBelow(answer.elapsedMs, answerWithinMs, said)
      // A path no route matches needs the database only to charge the key, which a recent charge
      // may spare it: 404 is a true answer there, and it is the only one that may come without it.
      if (answer.path === "/v1/no-such-route" && answer.status === 404) continue
      assert.strictEqual(answer.status, 503, said)
      assert.strictEqual(answer.retryAfter, "5", said)
      if (answer.path !== "/healthz") assert.strictEqual(answer.code, "service_unavailable", said)
    }

    // One deadline for the lot: whatever the outage broke has had time to be retried.
    let unserved = new Map(burst.map((filing) => [filing.accessionNumber, 0]))
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
    assert.strictEqual((await fetch(`${server.url}/healthz`)).status, 200)

    // Leave time for a late duplicate: a retried job that would record its events a second time.
    await sleep(1_500)
    const logged = await events()
    for (const filing of [...first, ...burst]) {
      const own = logged.filter((event) => event.payload.data.publication_id === filing.accessionNumber)
      assert.deepStrictEqual(own.map((event) => event.type), eventsExpected(filing), filing.accessionNumber)
      const release = logged.filter((event) => event.payload.data.source_publication_id === filing.accessionNumber)
      assert.deepStrictEqual(release.map((event) => event.type), ["press_release.new"], filing.accessionNumber)
    }
    const sequences = logged.map((event) => event.sequence)
    assert.strictEqual(new Set(sequences).size, sequences.length, "an event sequence number was given twice")

    // One job per filing, each done; no submission fetched more often than its job was taken (a job
    // taken once and fetched twice ran twice at once), and a job the outage did not touch fetched once.
    const database = new pg.Client({ connectionString: postgres!.url })
    await database.connect()
    const jobs = await database.query<FilingJobRow>(
      "SELECT unique_key, state, attempts, last_error FROM jobs WHERE queue = 'edgar.filings'"
    ).finally(() => database.end())
    const jobOf = new Map(jobs.rows.map((row) => [row.unique_key, row]))
    assert.strictEqual(jobs.rows.length, first.length + burst.length)
    for (const filing of [...first, ...burst]) {
      const job = jobOf.get(filing.accessionNumber)
      const fetches = submissionFetches(filing)
      const said = `${filing.accessionNumber}: ${JSON.stringify(job)}, fetched ${fetches} times`
      assert.strictEqual(job?.state, "done", said)
      assert.isAtLeast(fetches, 1, said)
      assert.isAtMost(fetches, job!.attempts, said)
      if (job!.attempts === 1) assert.strictEqual(fetches, 1, said)
    }
    // The outage was really met: part of the burst was published while the database was down.
    const publishedDuringOutage = burst.filter((filing) => {
      const at = replay!.publishedAt.get(filing.accessionNumber)!
      return at >= stoppedAt && at < stoppedAt + outageMs
    })
    assert.isAtLeast(publishedDuringOutage.length, 5)

    // The same process served before, during and after the outage.
    assert.isTrue(alive(), `the server died after PostgreSQL came back:\n${server.output()}`)
    assert.strictEqual(server.pid, pid)
  }, 120_000)
})
