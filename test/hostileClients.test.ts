/**
 * Clients that misbehave on the wire, against a real `filings serve`: bodies over the limit (with
 * a `Content-Length`, or chunked without one), many of them at once, headers and bodies that
 * trickle in, and stream clients that stop reading. The server must answer or let go in bounded
 * time and memory. Timeouts are short here, set through the operator's variables.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { filingEvents } from "@filings/server/ingest/FilingEvents"
import { sampleDocument } from "@filings/storage/testing"
import { type EventRecorder, openEventRecorder } from "./support/eventRecorder.js"
import { createKey, type RunningServer, startServer, temporaryDataDir } from "./support/filings.js"
import { adminUrl, createDatabase, type TemporaryDatabase, titleNeedingPostgres } from "./support/postgres.js"
import { openRawClient, type RawClient, residentBytes, responseIn } from "./support/rawClient.js"
import { holdsSoon, sleep } from "./support/waiting.js"

const MiB = 1024 * 1024
/** The default limit of a request body. */
const maxBodyBytes = 262_144

const postHead = (path: string, key: string, headers: Record<string, string>) =>
  `POST ${path} HTTP/1.1\r\nhost: filings.test\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\n` +
  Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("") + "\r\n"

/** Sends up to `total` bytes of `chunk`s as fast as the connection takes them, until it is closed. */
const sendUntilClosed = async (client: RawClient, total: number, chunk: Uint8Array) => {
  while (client.sent() < total && !client.isClosed()) {
    if (!client.send(chunk)) break
    if (client.socket.writableNeedDrain) {
      await Promise.race([new Promise((drained) => client.socket.once("drain", drained)), client.closed])
    }
  }
}

/** The largest resident memory of `pid` seen while `work` runs, sampled every 20 ms. */
const peakResidentDuring = async (pid: number, work: Promise<unknown>) => {
  let peak = await residentBytes(pid)
  let done = false
  const sampling = (async () => {
    while (!done) {
      peak = Math.max(peak, await residentBytes(pid))
      await sleep(20)
    }
  })()
  try {
    await work
  } finally {
    done = true
    await sampling
  }
  return Math.max(peak, await residentBytes(pid))
}

describe("request bodies over the limit, and clients that send slowly", () => {
  let server: RunningServer
  let key: string
  let removeDataDir: () => Promise<void>

  beforeAll(async () => {
    const { dataDir, remove } = await temporaryDataDir()
    removeDataDir = remove
    key = await createKey({ dataDir }, { name: "hostile", rateLimit: 100_000 })
    server = await startServer({ dataDir }, { FILINGS_HEADERS_TIMEOUT: "1", FILINGS_REQUEST_TIMEOUT: "2" })
  })

  afterAll(async () => {
    await server?.stop()
    await removeDataDir?.()
  })

  it("a Content-Length over the limit is answered 413 payload_too_large at once, and the connection closed before the body is sent", async () => {
    const client = await openRawClient(server.url)
    const started = Date.now()
    client.send(postHead("/v1/chat", key, { "content-length": String(40 * MiB) }))
    // The client goes on sending, slowly: the answer must not wait for the 40 MB announced.
    const trickle = setInterval(() => client.send(new Uint8Array(16 * 1024).fill(0x61)), 100)
    try {
      await holdsSoon(() => assert.isDefined(responseIn(client.received())), 3_000)
      const answered = Date.now()
      const response = responseIn(client.received())!
      assert.strictEqual(response.status, 413)
      assert.deepStrictEqual(response.body, {
        error: {
          code: "payload_too_large",
          message: `POST /v1/chat takes a body of at most ${maxBodyBytes} bytes; this one is ${40 * MiB} bytes`
        }
      })
      assert.isBelow(client.sent(), MiB, "answered long before the body was sent")
      assert.isBelow(answered - started, 3_000)
      assert.match(client.received(), /\r\nconnection: close\r\n/i)
      const closedAt = await Promise.race([client.closed, sleep(3_000).then(() => undefined)])
      assert.isDefined(closedAt, "the server closed the connection rather than read the rest")
    } finally {
      clearInterval(trickle)
      client.socket.destroy()
    }
  })

  it("a chunked body is answered 413 once it passes the limit, without the rest being read", async () => {
    const client = await openRawClient(server.url)
    client.send(postHead("/v1/chat", key, { "transfer-encoding": "chunked" }))
    const chunk = `10000\r\n${"a".repeat(0x10000)}\r\n`
    // Up to 4 MiB, 64 KiB at a time, stopping at the answer.
    for (let sent = 0; sent < 64 && responseIn(client.received()) === undefined && !client.isClosed(); sent++) {
      client.send(chunk)
      await sleep(10)
    }
    await holdsSoon(() => assert.isDefined(responseIn(client.received())), 3_000)
    const response = responseIn(client.received())!
    assert.strictEqual(response.status, 413)
    assert.deepStrictEqual(response.body, {
      error: {
        code: "payload_too_large",
        message: `POST /v1/chat takes a body of at most ${maxBodyBytes} bytes; this one is longer`
      }
    })
    assert.isBelow(client.sent(), 2 * MiB, "answered soon after the limit was passed")
    assert.isDefined(await Promise.race([client.closed, sleep(3_000).then(() => undefined)]))
    client.socket.destroy()
  })

  it("a chunked body within the limit is read as any body", async () => {
    const client = await openRawClient(server.url)
    const body = JSON.stringify({ question: "What was revenue?" })
    client.send(postHead("/v1/chat", key, { "transfer-encoding": "chunked" }))
    client.send(`${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`)
    await holdsSoon(() => assert.isDefined(responseIn(client.received())), 10_000)
    const response = responseIn(client.received())!
    assert.strictEqual(response.status, 200, client.received())
    assert.property(response.body, "answer")
    client.socket.destroy()
  })

  it("many clients sending 40 MB bodies at once leave the server's memory flat", async () => {
    const clients = 8
    const announced = 40 * MiB
    const before = await residentBytes(server.pid)
    const chunk = new Uint8Array(MiB).fill(0x61)
    const requests = Array.from({ length: clients }, async () => {
      const client = await openRawClient(server.url)
      client.send(postHead("/v1/chat", key, { "content-length": String(announced) }))
      await sendUntilClosed(client, announced, chunk)
      await Promise.race([client.closed, sleep(10_000)])
      const response = responseIn(client.received())
      client.socket.destroy()
      return response?.status
    })
    let statuses: Array<number | undefined> = []
    const peak = await peakResidentDuring(server.pid, Promise.all(requests).then((all) => (statuses = all)))
    // A client still writing when the server closes may have its next write fail, and its socket
    // closed, before it reads the answer: the reset is its own race. No request got another answer.
    assert.isTrue(statuses.every((status) => status === 413 || status === undefined), String(statuses))
    assert.isAtLeast(statuses.filter((status) => status === 413).length, clients / 2, String(statuses))
    const grown = peak - before
    assert.isBelow(grown, 48 * MiB, `the server grew by ${Math.round(grown / MiB)} MiB for ${clients * 40} MiB sent`)
  }, 120_000)

  /**
   * Sends `head`, then `byte` every 100 ms, and checks that the server answers 408 and closes the
   * connection within `withinMs` of the start (waiting `giveUpMs` at most).
   */
  const assertTrickleCutOff = async (head: string, byte: string, withinMs: number, giveUpMs: number) => {
    const client = await openRawClient(server.url)
    const started = Date.now()
    client.send(head)
    const trickle = setInterval(() => client.send(byte), 100)
    try {
      const closedAt = await Promise.race([client.closed, sleep(giveUpMs).then(() => undefined)])
      assert.isDefined(closedAt, `the connection is still open ${giveUpMs / 1000} s later`)
      assert.isBelow(closedAt! - started, withinMs)
      assert.match(client.received(), /^HTTP\/1\.1 408 /)
    } finally {
      clearInterval(trickle)
      client.socket.destroy()
    }
  }

  it("a client that sends its headers a byte at a time is answered 408 and cut off after FILINGS_HEADERS_TIMEOUT", () =>
    assertTrickleCutOff("GET /healthz HTTP/1.1\r\nhost: filings.test\r\nx-slow: ", "a", 4_000, 6_000))

  it("a client that sends its body a byte at a time is answered 408 and cut off after FILINGS_REQUEST_TIMEOUT", () =>
    assertTrickleCutOff(postHead("/v1/chat", key, { "content-length": "1000" }), " ", 5_000, 8_000))
})

const streamTitle = titleNeedingPostgres("stream clients that stop reading")

describe.skipIf(adminUrl === undefined)(streamTitle, () => {
  let database: TemporaryDatabase
  let server: RunningServer
  let recorder: EventRecorder
  let key: string

  beforeAll(async () => {
    database = await createDatabase(adminUrl!)
    const storage = { databaseUrl: database.url }
    key = await createKey(storage, { name: "listener", rateLimit: 100_000 })
    server = await startServer(storage, {
      FILINGS_STREAM_HEARTBEAT: "1",
      FILINGS_STREAM_STALL_TIMEOUT: "2",
      FILINGS_STREAMS_PER_KEY: "5"
    })
    recorder = openEventRecorder(database.url)
  }, 180_000)

  afterAll(async () => {
    await server?.stop()
    await recorder?.close()
    await database?.drop()
  })

  const openStream = async () => {
    const client = await openRawClient(server.url)
    client.send(`GET /v1/stream HTTP/1.1\r\nhost: filings.test\r\nauthorization: Bearer ${key}\r\n\r\n`)
    await holdsSoon(() => assert.include(client.received(), ": listening"), 10_000)
    return client
  }

  it(
    "is disconnected after FILINGS_STREAM_STALL_TIMEOUT, its slot given back, while a reading client keeps its stream",
    async () => {
      const stalled = await Promise.all([openStream(), openStream(), openStream()])
      for (const client of stalled) client.socket.pause()
      const reading = await openStream()
      const before = await residentBytes(server.pid)

      // 12 MB of events, far more than the kernel buffers of a connection hold.
      const title = "x".repeat(4_000)
      const recording = (async () => {
        for (let batch = 0; batch < 30; batch++) {
          await recorder.record(
            Array.from({ length: 100 }, (_, n) =>
              filingEvents(
                sampleDocument({ ticker: "STAL" as never, docType: "10-Q", title }),
                new Date(Date.UTC(2026, 0, 1, 0, batch, n % 60)).toISOString()
              )).flat()
          )
        }
      })()
      const peak = await peakResidentDuring(
        server.pid,
        recording.then(() =>
          holdsSoon(() => assert.strictEqual(reading.received().split("event: filing.new").length - 1, 3_000), 60_000)
        )
      )

      // The stalled clients read again: each gets what the kernel held for it, then the end.
      await sleep(3_000)
      for (const client of stalled) client.socket.resume()
      for (const client of stalled) {
        const closedAt = await Promise.race([client.closed, sleep(15_000).then(() => undefined)])
        assert.isDefined(closedAt, "a stalled stream is still open")
        assert.isBelow(client.received().split("event: filing.new").length - 1, 3_000)
      }
      assert.isFalse(reading.isClosed(), "the reading client's stream was closed")
      const readSoFar = reading.received().length
      await holdsSoon(() => assert.isAbove(reading.received().length, readSoFar), 5_000)

      // The stalled streams' slots are free again: the key holds one stream of its five.
      const more = await Promise.all([openStream(), openStream(), openStream(), openStream()])
      for (const client of more) assert.match(client.received(), /^HTTP\/1\.1 200 /)
      for (const client of [reading, ...more]) client.socket.destroy()

      const grown = peak - before
      assert.isBelow(grown, 160 * MiB, `the server grew by ${Math.round(grown / MiB)} MiB`)
    },
    180_000
  )
})
