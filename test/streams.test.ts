/**
 * `GET /v1/stream` over real HTTP, on PostgreSQL: two `filings serve` processes on one database,
 * events recorded by this process through the SQL event store (a third instance), and clients
 * that are the `eventsource` package and raw `fetch`. A proxy in front of the servers cuts the
 * connection in the middle of a burst and sends the reconnection to the other server.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Webhooks } from "@filings/domain"
import { filingEvents } from "@filings/server/ingest/FilingEvents"
import type { EventStore } from "@filings/storage"
import { sampleDocument } from "@filings/storage/testing"
import { EventSource } from "eventsource"
import { spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { join } from "node:path"
import { type CuttableProxy, startCuttableProxy } from "./support/cuttableProxy.js"
import { type EventRecorder, openEventRecorder } from "./support/eventRecorder.js"
import {
  cliJson,
  createKey,
  repositoryRoot,
  type RunningServer,
  startServer,
  temporaryDataDir
} from "./support/filings.js"
import { chromiumPath, loadPage } from "./support/headlessChromium.js"
import { errorOf } from "./support/http.js"
import { adminUrl, createDatabase, type TemporaryDatabase, titleNeedingPostgres } from "./support/postgres.js"
import { writeSubmission } from "./support/syntheticFilings.js"
import { holdsSoon, sleep } from "./support/waiting.js"

const title = titleNeedingPostgres("GET /v1/stream")

/** An event as a client received it. */
interface Received {
  readonly id: number
  readonly type: string
  readonly payload: unknown
}

/** Listens with the `eventsource` package, the key in the Authorization header, to every event type. */
const listen = (url: string, key: string) => {
  const received: Array<Received> = []
  let opened = 0
  const source = new EventSource(url, {
    fetch: (input, init) => {
      opened++
      return fetch(input, { ...init, headers: { ...init.headers, authorization: `Bearer ${key}` } })
    }
  })
  for (const type of Webhooks.EventTypes) {
    source.addEventListener(type, (event) => {
      received.push({ id: Number(event.lastEventId), type: event.type, payload: JSON.parse(event.data) })
    })
  }
  return { received, source, opened: () => opened }
}

/** Reads a raw stream until `until` holds for what was read, or `timeoutMs` passes. */
const readStream = async (response: Response, until: (text: string) => boolean, timeoutMs = 10_000) => {
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let text = ""
  const deadline = Date.now() + timeoutMs
  try {
    while (!until(text) && Date.now() < deadline) {
      const next = await Promise.race([reader.read(), sleep(deadline - Date.now()).then(() => undefined)])
      if (next === undefined || next.done) break
      text += decoder.decode(next.value, { stream: true })
    }
  } finally {
    await reader.cancel().catch(() => undefined)
  }
  return text
}

/** Runs `examples/<file>` with `args` and `env`, as a user would, with tsx resolving the workspace's sources. */
const runExample = (file: string, args: ReadonlyArray<string>, env: Record<string, string>) => {
  const child = spawn(process.execPath, ["--import", "tsx", join(repositoryRoot, "examples", file), ...args], {
    cwd: repositoryRoot,
    env: { ...process.env, ...env, TSX_TSCONFIG_PATH: join(repositoryRoot, "tsconfig.test.json") },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk))
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk))
  return {
    stdout: () => stdout,
    waitFor: (test: (stdout: string, stderr: string) => boolean) =>
      holdsSoon(() => assert.isTrue(test(stdout, stderr), `stdout:\n${stdout}\nstderr:\n${stderr}`), 30_000),
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done()
        child.once("exit", () => done())
        child.kill("SIGTERM")
      })
  }
}

/** The `id:` lines of a raw stream. */
const idsIn = (text: string) => [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]))

let counter = 0
/** `filing.new` (and `filing.8k_material` for a material 8-K) of a new document. */
const eventsOfFiling = (overrides: Parameters<typeof sampleDocument>[0] = {}) => {
  counter++
  return filingEvents(
    sampleDocument({ ticker: "STRM" as never, docType: "10-Q", ...overrides }),
    new Date(Date.UTC(2026, 0, 1, 0, 0, counter)).toISOString()
  )
}

describe.skipIf(adminUrl === undefined)(title, () => {
  let database: TemporaryDatabase
  let servers: ReadonlyArray<RunningServer> = []
  let recorder: EventRecorder
  let proxy: CuttableProxy
  let key: string

  beforeAll(async () => {
    database = await createDatabase(adminUrl!)
    const storage = { databaseUrl: database.url }
    key = await createKey(storage, { name: "listener", rateLimit: 100_000 })
    const env = { FILINGS_STREAM_HEARTBEAT: "1", FILINGS_STREAMS_PER_KEY: "5" }
    servers = await Promise.all([startServer(storage, env), startServer(storage, env)])
    recorder = openEventRecorder(database.url)
    proxy = await startCuttableProxy(servers[0]!.url)
  }, 180_000)

  afterAll(async () => {
    await proxy?.close()
    await Promise.all(servers.map((server) => server.stop()))
    await recorder?.close()
    await database?.drop()
  })

  const get = (server: RunningServer, path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } })

  it(
    "an EventSource gets every event of a burst of 1,000 filings in order, across a cut connection and another server, none lost and none twice",
    async () => {
      const start = await recorder.latestSequence()
      const listener = listen(`${proxy.url}/v1/stream`, key)
      await holdsSoon(() => assert.strictEqual(listener.source.readyState, EventSource.OPEN))
      const recorded: Array<EventStore.StoredEvent> = []
      for (let filing = 0; filing < 1_000; filing += 20) {
        // Every third filing an 8-K reporting a material item: two events for one filing.
        const batch = Array.from(
          { length: 20 },
          (_, n) => eventsOfFiling((filing + n) % 3 === 0 ? { docType: "8-K", items: ["Item 1.01", "Item 9.01"] } : {})
        ).flat()
        recorded.push(...await recorder.record(batch))
        if (filing === 500) {
          // The connection drops; the client reconnects with Last-Event-ID, this time to the other server.
          proxy.retarget(servers[1]!.url)
          assert.strictEqual(proxy.cut(), 1)
        }
        await sleep(10)
      }
      assert.strictEqual(recorded.length, 1_000 + 334)
      await holdsSoon(() => assert.strictEqual(listener.received.length, recorded.length), 20_000)
      listener.source.close()
      assert.isAtLeast(listener.opened(), 2)
      assert.deepStrictEqual(
        listener.received.map(({ id, type }) => ({ id, type })),
        recorded.map(({ sequence, type }) => ({ id: sequence, type }))
      )
      assert.deepStrictEqual(listener.received.map((event) => event.payload), recorded.map((event) => event.payload))
      assert.isTrue(recorded[0]!.sequence > start)
    },
    120_000
  )

  it.skipIf(chromiumPath === undefined)(
    "Chromium's own EventSource, with the key in api_key, gets every event in order across a cut connection",
    async () => {
      proxy.retarget(servers[0]!.url)
      const start = await recorder.latestSequence()
      const types = JSON.stringify(Webhooks.EventTypes)
      const expression = `new Promise((resolve) => {
        const got = []
        let opens = 0
        const source = new EventSource("/v1/stream?after=${start}&api_key=${key}")
        source.onopen = () => opens++
        for (const type of ${types}) {
          source.addEventListener(type, (event) => {
            got.push([Number(event.lastEventId), event.type])
            if (got.length === 400) {
              source.close()
              resolve({ got, opens })
            }
          })
        }
      })`
      const headsBefore = proxy.requestHeads().length
      const page = loadPage(`${proxy.url}/docs`, { expression, awaitPromise: true, settleMs: 0, timeoutMs: 60_000 })
      const streamRequests = () =>
        proxy.requestHeads().slice(headsBefore).filter((head) => head.startsWith("GET /v1/stream"))
      await holdsSoon(() => assert.isAtLeast(streamRequests().length, 1), 30_000)
      const recorded: Array<EventStore.StoredEvent> = []
      for (let batch = 0; batch < 20; batch++) {
        recorded.push(...await recorder.record(Array.from({ length: 20 }, () => eventsOfFiling()[0]!)))
        if (batch === 10) {
          await sleep(300)
          proxy.retarget(servers[1]!.url)
          assert.isAtLeast(proxy.cut(), 1)
        }
        await sleep(20)
      }
      const { evaluated } = await page
      const { got, opens } = evaluated as { got: ReadonlyArray<[number, string]>; opens: number }
      assert.deepStrictEqual(got, recorded.map((event) => [event.sequence, event.type]))
      assert.isAtLeast(opens, 2)
      // The reconnection said where the page was: the browser sends Last-Event-ID by itself.
      assert.isTrue(
        streamRequests().slice(1).some((head) => /^last-event-id: \d+$/im.test(head)),
        streamRequests().join("\n\n")
      )
    },
    120_000
  )

  it("carries only the events the filters let through, as a webhook subscription would", async () => {
    const after = await recorder.latestSequence()
    const recorded = await recorder.record([
      ...eventsOfFiling({ ticker: "AAA" as never, docType: "8-K", items: ["Item 2.01"] }),
      ...eventsOfFiling({ ticker: "BBB" as never, docType: "8-K", items: ["Item 2.01"] }),
      ...eventsOfFiling({ ticker: "AAA" as never, docType: "10-K" }),
      {
        type: "press_release.new",
        key: `pr:${after}`,
        payload: { event: "press_release.new", data: { ticker: "AAA" } }
      }
    ])
    const read = async (query: string, count: number) =>
      idsIn(
        await readStream(await get(servers[0]!, `/v1/stream?after=${after}&${query}`), (t) =>
          idsIn(t).length >= count, 3_000)
      )
    const sequenceOf = (type: string, ticker: string, docType?: string) =>
      recorded.filter((event) => {
        const data = (event.payload as { data: { ticker: string; doc_type?: string } }).data
        return event.type === type && data.ticker === ticker && (docType === undefined || data.doc_type === docType)
      }).map((event) => event.sequence)
    assert.deepStrictEqual(await read("events=filing.8k_material", 2), [
      ...sequenceOf("filing.8k_material", "AAA"),
      ...sequenceOf("filing.8k_material", "BBB")
    ])
    assert.deepStrictEqual(
      await read("tickers=AAA&events=filing.new,press_release.new", 3),
      [
        ...sequenceOf("filing.new", "AAA", "8-K"),
        ...sequenceOf("filing.new", "AAA", "10-K"),
        ...sequenceOf("press_release.new", "AAA")
      ]
    )
    // Press releases have no doc_type in their payload; their kind is PRESS_RELEASE, as for webhooks.
    assert.deepStrictEqual(await read("doc_types=PRESS_RELEASE", 1), sequenceOf("press_release.new", "AAA"))
    assert.deepStrictEqual(await read("doc_types=10-K&tickers=AAA", 1), sequenceOf("filing.new", "AAA", "10-K"))
  })

  it("starts after Last-Event-ID, after `after`, at `since`, or from now on; a position beyond the log is refused", async () => {
    const before = await recorder.latestSequence()
    const [first, second] = await recorder.record([...eventsOfFiling(), ...eventsOfFiling()])
    const sinceSecond = new Date(second!.recordedAtMillis).toISOString()
    const firstIds = async (path: string, headers: Record<string, string> = {}) =>
      idsIn(await readStream(await get(servers[1]!, path, headers), (t) => idsIn(t).length >= 2, 2_000))
    assert.deepStrictEqual(await firstIds(`/v1/stream`, { "last-event-id": String(before) }), [
      first!.sequence,
      second!.sequence
    ])
    assert.deepStrictEqual(await firstIds(`/v1/stream?after=${first!.sequence}`), [second!.sequence])
    // The header wins over the query: it is where a reconnecting EventSource says where it was.
    assert.deepStrictEqual(
      await firstIds(`/v1/stream?after=0`, { "last-event-id": String(first!.sequence) }),
      [second!.sequence]
    )
    const since = await firstIds(`/v1/stream?since=${encodeURIComponent(sinceSecond)}`)
    assert.strictEqual(since[since.length - 1], second!.sequence)
    assert.isTrue(since.every((id) => id >= first!.sequence))
    // From now on: nothing recorded before the connection.
    const fresh = await get(servers[0]!, "/v1/stream")
    await sleep(300)
    const [later] = await recorder.record(eventsOfFiling())
    assert.deepStrictEqual(idsIn(await readStream(fresh, (t) => idsIn(t).length >= 1, 5_000)), [later!.sequence])

    const beyond = await get(servers[0]!, "/v1/stream", { "last-event-id": String(later!.sequence + 1000) })
    assert.strictEqual(beyond.status, 400)
    assert.match((await errorOf(beyond)).message, /Last-Event-ID is \d+, beyond the newest event/)
    for (
      const query of [
        "after=-1",
        "after=x",
        "since=yesterday",
        "events=filing.old",
        "tickers=not%20a%20ticker",
        "doc_types=10K"
      ]
    ) {
      const refused = await get(servers[0]!, `/v1/stream?${query}`)
      assert.strictEqual(refused.status, 400, query)
      assert.strictEqual((await errorOf(refused)).code, "invalid_request", query)
    }
    const badHeader = await get(servers[0]!, "/v1/stream", { "last-event-id": "evt_1" })
    assert.strictEqual(badHeader.status, 400)
  })

  it("takes the key from Authorization or from api_key, and refuses a request with neither", async () => {
    const anonymous = await fetch(`${servers[0]!.url}/v1/stream`)
    assert.strictEqual(anonymous.status, 401)
    assert.match((await errorOf(anonymous)).message, /api_key=<key>/)
    const wrong = await fetch(`${servers[0]!.url}/v1/stream?api_key=fk_nope`)
    assert.strictEqual(wrong.status, 401)
    await wrong.body?.cancel()
    // A server that logs every request: the key never reaches its log.
    const logging = await startServer({ databaseUrl: database.url }, { FILINGS_LOG_LEVEL: "INFO" })
    try {
      const byQuery = await fetch(`${logging.url}/v1/stream?tickers=AAPL&api_key=${key}`)
      assert.strictEqual(byQuery.status, 200)
      assert.strictEqual(byQuery.headers.get("content-type"), "text/event-stream")
      assert.isNotNull(byQuery.headers.get("x-ratelimit-remaining"))
      assert.match(await readStream(byQuery, (t) => t.includes(": listening")), /^retry: \d+\n: listening\n\n/)
      await holdsSoon(() => assert.include(logging.output(), "/v1/stream?tickers=AAPL&api_key=REDACTED"))
      assert.notInclude(logging.output(), key)
    } finally {
      await logging.stop()
    }
  })

  it("sends a heartbeat comment while idle, holds at most 5 streams per key, and frees a slot when one closes", async () => {
    const streams = await Promise.all(Array.from({ length: 5 }, () => get(servers[0]!, "/v1/stream")))
    assert.deepStrictEqual(streams.map((response) => response.status), [200, 200, 200, 200, 200])
    const sixth = await get(servers[0]!, "/v1/stream")
    assert.strictEqual(sixth.status, 429)
    assert.strictEqual((await errorOf(sixth)).code, "rate_limit_exceeded")
    // The other server counts its own streams.
    const elsewhere = await get(servers[1]!, "/v1/stream")
    assert.strictEqual(elsewhere.status, 200)
    await elsewhere.body?.cancel()
    const heartbeat = await readStream(streams[0]!, (t) => t.includes(": heartbeat"), 5_000)
    assert.include(heartbeat, ": heartbeat\n\n")
    await Promise.all(streams.slice(1).map((response) => response.body?.cancel()))
    await holdsSoon(async () => {
      const again = await get(servers[0]!, "/v1/stream")
      assert.strictEqual(again.status, 200)
      await again.body?.cancel()
    })
  })

  it("a client that never reads holds back only itself", async () => {
    const stalled = await get(servers[0]!, "/v1/stream?after=0")
    assert.strictEqual(stalled.status, 200)
    const after = await recorder.latestSequence()
    const big = { note: "x".repeat(20_000) }
    const recorded = await recorder.record(
      Array.from(
        { length: 300 },
        (_, n) => ({
          type: "filing.new",
          key: `big:${after}:${n}`,
          payload: { event: "filing.new", data: { ticker: "BIG", ...big } }
        })
      )
    )
    const reader = await get(servers[0]!, `/v1/stream?after=${after}&tickers=BIG`)
    const ids = idsIn(await readStream(reader, (t) => idsIn(t).length >= 300, 20_000))
    assert.deepStrictEqual(ids, recorded.map((event) => event.sequence))
    const health = await fetch(`${servers[0]!.url}/healthz`)
    assert.strictEqual(health.status, 200)
    await stalled.body?.cancel()
  })

  it("examples/stream-listener.ts prints the events it listens to, and after a restart only those it had not", async () => {
    const state = await temporaryDataDir()
    const statePath = join(state.dataDir, "last-event-id")
    const run = () =>
      runExample("stream-listener.ts", ["tickers=EXM"], {
        FILINGS_URL: servers[0]!.url,
        FILINGS_KEY: key,
        FILINGS_STREAM_STATE: statePath
      })
    const exampleEvent = (n: number, ticker = "EXM"): EventStore.NewEvent => ({
      type: "filing.new",
      key: `example:${statePath}:${n}`,
      payload: { event: "filing.new", data: { ticker, n } }
    })
    try {
      const first = run()
      await first.waitFor((_, stderr) => stderr.includes("listening to"))
      const recorded = await recorder.record([exampleEvent(1), exampleEvent(2, "OTHER"), exampleEvent(3)])
      await first.waitFor((stdout) => stdout.trim().split("\n").length >= 2 && stdout.endsWith("\n"))
      await first.stop()
      const printed = (text: string) => text.trim().split("\n").map((line) => JSON.parse(line) as Received)
      assert.deepStrictEqual(
        printed(first.stdout()),
        [recorded[0]!, recorded[2]!].map((event) => ({
          id: event.sequence,
          type: "filing.new",
          payload: event.payload
        }))
      )
      // Recorded while the listener was down: the next run starts after the last event it printed.
      const missed = await recorder.record([exampleEvent(4), exampleEvent(5)])
      const second = run()
      await second.waitFor((stdout) => stdout.trim().split("\n").length >= 2 && stdout.endsWith("\n"))
      await sleep(300)
      await second.stop()
      assert.deepStrictEqual(printed(second.stdout()).map((event) => event.id), missed.map((event) => event.sequence))
    } finally {
      await state.remove()
    }
  })

  it("ends its streams cleanly when the server shuts down", async () => {
    const storage = { databaseUrl: database.url }
    const server = await startServer(storage)
    const open = await fetch(`${server.url}/v1/stream`, { headers: { authorization: `Bearer ${key}` } })
    assert.strictEqual(open.status, 200)
    const reading = readStream(open, () => false, 15_000)
    await sleep(200)
    const stopping = Date.now()
    await server.stop()
    // The body ended (the read returned before its deadline) rather than being cut with an error.
    const text = await reading
    assert.isBelow(Date.now() - stopping, 10_000)
    assert.match(text, /^retry: \d+\n: listening\n\n/)
  })
})

describe.skipIf(adminUrl === undefined)(`${title}: a filing ingested by the server`, () => {
  let database: TemporaryDatabase
  let server: RunningServer
  let key: string
  let scratch: { readonly dataDir: string; readonly remove: () => Promise<void> }
  const adminToken = randomBytes(16).toString("hex")

  beforeAll(async () => {
    database = await createDatabase(adminUrl!)
    scratch = await temporaryDataDir()
    const storage = { databaseUrl: database.url }
    key = await createKey(storage, { name: "listener", rateLimit: 100_000 })
    server = await startServer(storage, { FILINGS_ADMIN_TOKEN: adminToken })
  }, 180_000)

  afterAll(async () => {
    await server?.stop()
    await database?.drop()
    await scratch?.remove()
  })

  it("reaches a listener with the payload a webhook delivery of it carries", async () => {
    const listener = listen(`${server.url}/v1/stream?tickers=CTC`, key)
    await holdsSoon(() => assert.strictEqual(listener.source.readyState, EventSource.OPEN))
    const file = await writeSubmission(scratch.dataDir, "filing.txt", {
      accession: "0000999999-24-000077",
      form: "8-K",
      filedAsOf: "2024-05-02",
      periodOfReport: "2024-05-01"
    })
    const storage = { databaseUrl: database.url }
    const ingested = await cliJson<{ stored: number }>(storage, ["ingest", file, "--ticker", "CTC"])
    assert.strictEqual(ingested.stored, 1)
    await holdsSoon(() => assert.isAtLeast(listener.received.length, 1), 10_000)
    const first = listener.received[0]!
    assert.strictEqual(first.type, "filing.new")
    assert.deepInclude(first.payload as object, { event: "filing.new" })
    assert.strictEqual(
      (first.payload as { data: { publication_id: string } }).data.publication_id,
      "0000999999-24-000077"
    )
    // The payload is the event's as recorded: what its webhook deliveries carry, byte for byte.
    const log = await fetch(`${server.url}/admin/events?after=0`, {
      headers: { authorization: `Bearer ${adminToken}` }
    })
    const { events } = (await log.json()) as {
      events: ReadonlyArray<{ sequence: number; type: string; payload: unknown }>
    }
    await holdsSoon(() => assert.strictEqual(listener.received.length, events.length))
    listener.source.close()
    assert.deepStrictEqual(
      listener.received.map(({ id, payload, type }) => ({ sequence: id, type, payload })),
      events.map(({ payload, sequence, type }) => ({ sequence, type, payload }))
    )
  })
})
