/**
 * Several instances following EDGAR on one PostgreSQL database: three `filings serve` processes
 * draw every request to the regulator from one budget, one of them (the holder of a lease) reads
 * the latest-filings feed, and all of them work the one queue. In the middle of a burst of 300
 * filings the instance reading the feed is killed as a crash would end it; the two left take the
 * feed over and finish the work, within the regulator's limit, each filing stored and announced
 * once and soon after its publication.
 */
import { assert, describe, it } from "@effect/vitest"
import { randomBytes } from "node:crypto"
import pg from "pg"
import { afterAll, beforeAll } from "vitest"
import { adminUrlVariable } from "./support/adminUrl.js"
import { type EdgarReplay, followEnv, type ReplayRequest, startEdgarReplay } from "./support/edgarReplay.js"
import { createKey, type RunningServer, startServer } from "./support/filings.js"
import { adminUrl, createDatabase, type TemporaryDatabase, titleNeedingPostgres } from "./support/postgres.js"
import { replayEightK } from "./support/syntheticEightK.js"
import { eventually, sleep } from "./support/waiting.js"

const title = titleNeedingPostgres("three instances following EDGAR on one PostgreSQL")
if (adminUrl === undefined) {
  console.warn(`Skipping the multi-instance test: set ${adminUrlVariable} to a PostgreSQL admin URL`)
}

const instanceCount = 3
const filingCount = 300
/** A few companies share the filings, so the company directory's work stays small beside them. */
const companyCount = 10
/**
 * The burst's filings appear evenly over this time. At 10 requests a second, one of them the feed
 * poll, the regulator lets the instances fetch at most about eight filings a second, so 300 filings
 * take at least 35 s to fetch; published faster than that, a queue builds up and drains afterwards.
 */
const burstMillis = 30_000
/** The regulator's limit, which the instances must keep together. */
const maxRequestsPerSecond = 10
/** From publication to the recorded `filing.new`, for 99% of the filings. */
const p99LimitMillis = 20_000
/** Short, so that a killed holder's work is taken over within seconds. */
const followLeaseSeconds = 2
/** Once a second: the feed's polls take a tenth of the budget, the rest goes to the filings. */
const pollIntervalSeconds = 1
/** A survivor takes the feed over within the lease plus one poll interval; this covers our own polling and a busy machine. */
const takeoverSlackMillis = 1_000
const discoveryLease = "edgar.latest-filings"

const companies = Array.from({ length: companyCount }, (_, index) => {
  const letter = String.fromCharCode(65 + index)
  return {
    cik: String(999_401 + index).padStart(10, "0"),
    ticker: `MULT${letter}`,
    name: `MULTI INSTANCE ${letter} CORP`
  }
})

/** The burst's filing number `serial`, by one of the companies in turn. */
const filingOf = (serial: number) => replayEightK(companies[serial % companyCount]!, serial)

/** The process id in a lease holder's name (`host:pid:random`). */
const pidOf = (holder: string): number => Number(holder.split(":").at(-2))

/** Nearest-rank percentile. */
const percentile = (values: ReadonlyArray<number>, p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
}

/** The requests that arrived within the busiest `windowMillis` of the log, in order of arrival. */
const busiestWindow = (requests: ReadonlyArray<ReplayRequest>, windowMillis: number): ReadonlyArray<ReplayRequest> => {
  const arrivals = [...requests].sort((a, b) => a.at - b.at)
  let busiest: ReadonlyArray<ReplayRequest> = []
  for (let last = 0, first = 0; last < arrivals.length; last++) {
    while (arrivals[last]!.at - arrivals[first]!.at >= windowMillis) first++
    if (last - first + 1 > busiest.length) busiest = arrivals.slice(first, last + 1)
  }
  return busiest
}

interface LoggedEvent {
  readonly sequence: number
  readonly type: string
  readonly recorded_at: string
  readonly payload: { readonly data: { readonly publication_id?: unknown } }
}

describe.skipIf(adminUrl === undefined)(title, () => {
  let database: TemporaryDatabase
  let db: pg.Client
  let replay: EdgarReplay
  const servers: Array<RunningServer> = []
  let key: string
  const adminToken = randomBytes(24).toString("hex")

  /** The last lines each instance printed, for failure messages. */
  const outputs = () =>
    servers.map((server, index) => `--- instance ${index} (pid ${server.pid}):\n${server.output().slice(-4_000)}`)
      .join("\n")

  /** Who holds the feed's lease now, if anyone. */
  const feedReader = async (): Promise<string | undefined> => {
    const { rows } = await db.query<{ holder: string }>(
      "SELECT holder FROM leases WHERE name = $1 AND expires_at_ms > $2",
      [discoveryLease, Date.now()]
    )
    return rows[0]?.holder
  }

  /** Every recorded event, through one instance's `/admin/events`. */
  const recordedEvents = async (server: RunningServer): Promise<ReadonlyArray<LoggedEvent>> => {
    const events: Array<LoggedEvent> = []
    for (let after = 0;;) {
      const response = await fetch(`${server.url}/admin/events?after=${after}&limit=1000`, {
        headers: { authorization: `Bearer ${adminToken}` }
      })
      assert.strictEqual(response.status, 200)
      const page = (await response.json()) as { events: ReadonlyArray<LoggedEvent>; next_after: number }
      events.push(...page.events)
      if (page.events.length < 1000) return events
      after = page.next_after
    }
  }

  beforeAll(async () => {
    database = await createDatabase(adminUrl!)
    db = new pg.Client({ connectionString: database.url })
    await db.connect()
    replay = await startEdgarReplay({ companyTickers: companies })
    const storage = { databaseUrl: database.url }
    // The key's creation migrates the fresh database before any instance starts.
    key = await createKey(storage, { name: "multi-instance", rateLimit: 100_000 })
    const env = {
      ...followEnv(replay),
      FILINGS_EDGAR_POLL_INTERVAL: String(pollIntervalSeconds),
      FILINGS_EDGAR_FOLLOW_LEASE: String(followLeaseSeconds),
      FILINGS_ADMIN_TOKEN: adminToken,
      // Stopping at the end must not wait long for work cut short by a failed run.
      FILINGS_SHUTDOWN_GRACE: "2"
    }
    // One after the other, so that each started one is known to the clean-up even when a later one fails.
    for (let instance = 0; instance < instanceCount; instance++) servers.push(await startServer(storage, env))
  }, 180_000)

  afterAll(async () => {
    await Promise.allSettled(servers.map((server) => server.stop()))
    await db?.end().catch(() => undefined)
    await replay?.close()
    await database?.drop()
  })

  it(
    "share the regulator's budget and the queue, and take the feed over when its reader is killed mid-burst",
    async () => {
      // Publish only once the feed is read, so that the instances' start-up does not count as latency.
      await eventually(
        () => `an instance to read the feed\n${outputs()}`,
        async () =>
          replay.requests.some((request) => request.path.includes("action=getcurrent") && request.status === 200) &&
            (await feedReader()) !== undefined
            ? true
            : undefined,
        60_000
      )

      const filings = Array.from({ length: filingCount }, (_, serial) => filingOf(serial + 1))
      const publishing = replay.publishOnTimeline(
        filings.map((filing, index) => ({ afterMs: (index * burstMillis) / filingCount, filing }))
      )

      await eventually(
        "half the burst to be published",
        async () => replay.publishedAt.size >= filingCount / 2 ? true : undefined,
        burstMillis * 2
      )
      const holder = await feedReader()
      assert.isDefined(holder, "nobody held the feed's lease in the middle of the burst")
      const killed = servers.find((server) => server.pid === pidOf(holder!))
      assert.isDefined(killed, `the feed's lease is held by ${holder}, none of the instances`)
      await killed!.kill()
      const killedAt = Date.now()
      const survivors = servers.filter((server) => server !== killed)

      const takenOverBy = await eventually(
        () => `a survivor to take the feed's lease over\n${outputs()}`,
        async () => {
          const now = await feedReader()
          return now !== undefined && survivors.some((server) => server.pid === pidOf(now)) ? now : undefined
        },
        30_000
      )
      const takeoverMillis = Date.now() - killedAt

      await publishing
      let announcedSoFar = 0
      await eventually(
        () => `every filing's filing.new to be recorded (${announcedSoFar} of ${filingCount} were)\n${outputs()}`,
        async () => {
          const { rows } = await db.query<{ announced: number }>(
            "SELECT count(*)::int AS announced FROM events WHERE type = 'filing.new'"
          )
          announcedSoFar = rows[0]!.announced
          return announcedSoFar >= filingCount ? true : undefined
        },
        120_000
      )
      // Anything announced twice would be recorded by now.
      await sleep(2_000)

      const busiest = busiestWindow(replay.requests, 1_000)
      const announced = new Map<string, Array<LoggedEvent>>()
      for (const event of await recordedEvents(survivors[0]!)) {
        if (event.type !== "filing.new") continue
        const id = String(event.payload.data.publication_id)
        announced.set(id, [...(announced.get(id) ?? []), event])
      }
      const latencies = filings.flatMap((filing) => {
        const first = announced.get(filing.accessionNumber)?.[0]
        return first === undefined
          ? []
          : [Date.parse(first.recorded_at) - replay.publishedAt.get(filing.accessionNumber)!]
      })
      const p99 = percentile(latencies, 99)
      const fetches = replay.requests.filter((request) => request.path.endsWith(".txt"))
      const fetchedAgain = new Set(
        fetches.map((request) => request.path).filter((path, index, all) => all.indexOf(path) !== index)
      )
      console.info([
        `${filingCount} filings over ${burstMillis / 1000} s on ${instanceCount} instances`,
        `peak ${busiest.length} requests/s, ${replay.requests.length} requests to the regulator`,
        `${fetches.length} submission fetches (${fetchedAgain.size} filings fetched again)`,
        `publication to filing.new: p50 ${percentile(latencies, 50)} ms, p99 ${p99} ms`,
        `the feed's lease passed from ${holder} to ${takenOverBy} within ${takeoverMillis} ms of the kill`
      ].join("; "))

      // 1. Together, within the regulator's limit, every request declaring who is asking.
      assert.isAtMost(
        busiest.length,
        maxRequestsPerSecond,
        `${busiest.length} requests arrived within one second:\n${
          busiest.map((request) => `+${request.at - busiest[0]!.at} ms ${request.path} ${request.status}`).join("\n")
        }`
      )
      assert.strictEqual(replay.peakRequestsPerSecond(), busiest.length)
      const { FILINGS_SEC_USER_AGENT: userAgent } = followEnv(replay)
      assert.deepStrictEqual(
        replay.requests.filter((request) => request.userAgent !== userAgent).map((request) => request.path),
        []
      )

      // 2. Every filing stored once and announced once.
      for (let index = 0; index < filings.length; index++) {
        const filing = filings[index]!
        const server = survivors[index % survivors.length]!
        const response = await fetch(`${server.url}/v1/documents/${filing.accessionNumber}?format=metadata`, {
          headers: { authorization: `Bearer ${key}` }
        })
        await response.arrayBuffer()
        assert.strictEqual(response.status, 200, `${filing.accessionNumber} on ${server.url}`)
      }
      const accessions = filings.map((filing) => filing.accessionNumber).sort()
      const { rows: stored } = await db.query<{ publication_id: string }>(
        "SELECT publication_id FROM documents WHERE doc_type = '8-K' ORDER BY publication_id"
      )
      assert.deepStrictEqual(stored.map((row) => row.publication_id), accessions)
      assert.deepStrictEqual([...announced.keys()].sort(), accessions)
      assert.deepStrictEqual(
        [...announced].filter(([, events]) => events.length !== 1).map(([id, events]) => `${id}: ${events.length}`),
        []
      )

      // 3. Soon after publication, the crash and the queue it left included.
      assert.isBelow(p99, p99LimitMillis, `p99 from publication to filing.new: ${p99} ms`)

      // 4. The feed passed to a survivor as soon as the lease ran out, and stays with one.
      assert.isAtMost(takeoverMillis, (followLeaseSeconds + pollIntervalSeconds) * 1000 + takeoverSlackMillis)
      const reader = await feedReader()
      assert.isDefined(reader, "nobody holds the feed's lease")
      assert.include(survivors.map((server) => server.pid), pidOf(reader!), `the feed's lease is held by ${reader}`)
    },
    240_000
  )
})
