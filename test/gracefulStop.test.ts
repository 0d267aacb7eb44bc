/**
 * A stop with SIGTERM, end to end on the real `filings serve` following the EDGAR replay: a request
 * still arriving is answered and stored, a filing under way is finished within
 * `FILINGS_SHUTDOWN_GRACE` or given back and finished after the restart, never lost and never
 * stored or announced twice, and the process exits 0.
 */
import { assert, describe, it } from "@effect/vitest"
import { Document } from "@filings/domain"
import { request } from "node:http"
import { afterAll, beforeAll } from "vitest"
import { adminTokenOf, loggedEvents } from "./support/adminEvents.js"
import { type EdgarReplay, followEnv, type ReplayFiling, startEdgarReplay } from "./support/edgarReplay.js"
import { createKey, type RunningServer, startServer, temporaryDataDir } from "./support/filings.js"
import { jsonOf } from "./support/http.js"
import { replayEightK } from "./support/syntheticEightK.js"
import { eventually, sleep } from "./support/waiting.js"

const company = { cik: "0000999303", ticker: "ACMS", name: "ACME STOP CORP" }
let serial = 0
const filing = (): ReplayFiling => replayEightK(company, ++serial, ["8.01"])

/**
 * Sends a JSON request whose body arrives in two parts, with `between` run after the first; resolves
 * with the status. Its own connection (no keep-alive agent), closed after the answer.
 */
const postInTwoParts = (url: string, key: string, body: string, between: () => Promise<void>) =>
  new Promise<number>((resolve, reject) => {
    const bytes = Buffer.from(body)
    const sending = request(url, {
      method: "POST",
      agent: false,
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        "content-length": String(bytes.length),
        connection: "close"
      }
    }, (response) => {
      response.resume()
      response.on("end", () => resolve(response.statusCode ?? 0))
    })
    sending.on("error", reject)
    sending.write(bytes.subarray(0, 10))
    between().then(() => sending.end(bytes.subarray(10)), reject)
  })

describe("a stop with SIGTERM", () => {
  let replay: EdgarReplay
  let storage: Awaited<ReturnType<typeof temporaryDataDir>>
  let server: RunningServer
  let key: string

  const start = (grace: number) =>
    startServer(storage, {
      ...followEnv(replay),
      // Long enough for the slow bodies below: a fetch cut short by its own time-out would be retried.
      FILINGS_EDGAR_REQUEST_TIMEOUT: "60",
      FILINGS_SHUTDOWN_GRACE: String(grace),
      FILINGS_WEBHOOK_ALLOW_HOSTS: "127.0.0.1"
    })
  const get = (path: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } })
  const served = (id: string) =>
    eventually(`${id} to be served`, async () => {
      const response = await get(`/v1/documents/${id}`)
      return response.status === 200 ? jsonOf(Document.Document, response) : undefined
    })
  const eventsOf = async (id: string) =>
    (await loggedEvents(server.url, await adminTokenOf(storage.dataDir)))
      .filter((event) => event.payload.data.publication_id === id)
      .map((event) => event.type)
  const fetchesOf = (accession: string) =>
    replay.requests.filter((logged) => logged.path.endsWith(`${accession}.txt`)).length
  /** Waits until the filing is served, then checks it was announced once and fetched `fetches` times. */
  const assertServedOnce = async (accession: string, fetches: number) => {
    await served(accession)
    // Time for an event or a fetch too many to show.
    await sleep(1_000)
    assert.deepStrictEqual(await eventsOf(accession), ["filing.new"])
    assert.strictEqual(fetchesOf(accession), fetches)
  }
  /** Publishes a filing whose submission trickles in over about `seconds`, and waits for its fetch to start. */
  const publishSlow = async (seconds: number) => {
    const slow = filing()
    replay.injectFault(
      new RegExp(`${slow.accessionNumber}\\.txt$`),
      { kind: "slow", bytesPerSecond: Math.ceil(slow.submission.byteLength / seconds) },
      1
    )
    replay.publish(slow)
    await eventually("the fetch to start", async () => (fetchesOf(slow.accessionNumber) > 0 ? true : undefined))
    return slow
  }

  beforeAll(async () => {
    replay = await startEdgarReplay({ companyTickers: [{ cik: "0000999303", ticker: "ACMS", name: "ACME STOP CORP" }] })
    storage = await temporaryDataDir()
    server = await start(10)
    key = await createKey(storage)
  }, 120_000)

  afterAll(async () => {
    await server?.stop()
    await replay?.close()
    await storage?.remove()
  })

  it("answers a request still arriving when the stop comes, and exits 0", async () => {
    let stopped: Promise<void> | undefined
    const status = await postInTwoParts(
      `${server.url}/v1/webhooks`,
      key,
      JSON.stringify({ url: "https://127.0.0.1:9/hook", events: ["filing.new"] }),
      async () => {
        // Once the server has the request (its headers and the first part of the body): a
        // connection that has not sent a request yet when the stop comes is closed.
        await sleep(300)
        stopped = server.stop()
        await sleep(500)
      }
    )
    assert.strictEqual(status, 201)
    await stopped
    assert.strictEqual(server.exitCode(), 0, server.output())
    server = await start(10)
    const listed = (await (await get("/v1/webhooks")).json()) as { webhooks: ReadonlyArray<{ url: string }> }
    assert.deepStrictEqual(listed.webhooks.map((subscription) => subscription.url), ["https://127.0.0.1:9/hook"])
  }, 60_000)

  it("finishes a filing under way within the grace: stored and announced once, fetched once", async () => {
    const slow = await publishSlow(2)
    await server.stop()
    assert.strictEqual(server.exitCode(), 0, server.output())
    server = await start(10)
    await assertServedOnce(slow.accessionNumber, 1)
  }, 120_000)

  it(
    "gives back a filing the grace cannot wait for: fetched again after the restart, stored and announced once",
    async () => {
      await server.stop()
      server = await start(1)
      const slow = await publishSlow(20)
      const stopping = Date.now()
      await server.stop()
      assert.isBelow(Date.now() - stopping, 10_000, "the grace bounds the stop")
      assert.strictEqual(server.exitCode(), 0, server.output())
      server = await start(1)
      await assertServedOnce(slow.accessionNumber, 2)
    },
    120_000
  )
})
