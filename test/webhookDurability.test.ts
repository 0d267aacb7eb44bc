/**
 * Webhook delivery loses nothing: a server killed with SIGKILL while its receiver is still
 * answering completes every delivery after a restart (a receiver may see one delivery twice, only
 * ever under the same delivery id), and two servers on one PostgreSQL deliver each event once per
 * subscription. A real HTTPS receiver on loopback is trusted through `NODE_EXTRA_CA_CERTS`.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Webhooks } from "@filings/domain"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createKey, type RunningServer, startServer, type Storage, temporaryDataDir } from "./support/filings.js"
import { jsonOf } from "./support/http.js"
import { adminUrl, createDatabase, type TemporaryDatabase, titleNeedingPostgres } from "./support/postgres.js"
import { ingestEightK } from "./support/syntheticEightK.js"
import { eventually, sleep } from "./support/waiting.js"
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhookReceiver.js"

let receiver: WebhookReceiver
let files: string

beforeAll(async () => {
  receiver = await startWebhookReceiver()
  files = await mkdtemp(join(tmpdir(), "filings-durability-"))
})

afterAll(async () => {
  await receiver?.close()
  await rm(files, { recursive: true, force: true })
})

const deliveryEnv = () => ({
  NODE_EXTRA_CA_CERTS: receiver.certificateFile,
  FILINGS_WEBHOOK_ALLOW_HOSTS: "localhost",
  // A killed instance's attempts are taken again after 3 s rather than the default two minutes.
  FILINGS_WEBHOOK_LEASE: "3"
})

let serial = 0
/** Stores `count` synthetic 8-Ks of `ticker` through the CLI; each records one `filing.new`. */
const ingestEightKs = async (storage: Storage, ticker: string, count: number) => {
  for (let index = 0; index < count; index++) {
    await ingestEightK(storage, files, {
      accession: `0000999104-26-${String(++serial).padStart(6, "0")}`,
      cik: "0000999104",
      companyName: `${ticker} CORP`,
      ticker,
      filedAsOf: new Date().toISOString().slice(0, 10),
      items: ["8.01"]
    })
  }
}

const subscribe = async (server: RunningServer, key: string, path: string, ticker: string) => {
  const response = await fetch(`${server.url}/v1/webhooks`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ url: receiver.url(path), events: ["filing.new"], filters: { tickers: [ticker] } })
  })
  assert.strictEqual(response.status, 201)
  return jsonOf(Webhooks.CreatedWebhook, response)
}

const deliveryLog = async (server: RunningServer, key: string, hookId: string) =>
  (await jsonOf(
    Webhooks.WebhookDeliveryList,
    await fetch(`${server.url}/v1/webhooks/${hookId}/deliveries`, { headers: { authorization: `Bearer ${key}` } })
  )).deliveries

const deliveryIdsAt = (path: string) =>
  receiver.received.filter((request) => request.path === path).map((request) =>
    String(request.headers["x-service-delivery-id"])
  )

describe("webhook delivery survives a crash", () => {
  it("completes every delivery after SIGKILL mid-delivery; a repeat carries the same delivery id", async () => {
    const storage = await temporaryDataDir()
    let server = await startServer(storage, deliveryEnv())
    try {
      const key = await createKey(storage, { rateLimit: 10_000 })
      const hook = await subscribe(server, key, "/hooks/crash", "ACMK")
      // The receiver takes the requests and does not answer: the attempts are in flight when the server dies.
      receiver.answerWith((request) => (request.path === "/hooks/crash" ? "hold" : { status: 204 }))
      await ingestEightKs(storage, "ACMK", 3)
      await eventually("two attempts in flight", async () => deliveryIdsAt("/hooks/crash").length >= 2 || undefined)
      const inFlight = deliveryIdsAt("/hooks/crash")

      await server.kill()
      receiver.answerWith(() => ({ status: 204 }))
      server = await startServer(storage, deliveryEnv())

      const log = await eventually(
        () => `all three delivered after the restart; received ${deliveryIdsAt("/hooks/crash").length}`,
        async () => {
          const deliveries = await deliveryLog(server, key, hook.id)
          return deliveries.length === 3 && deliveries.every((delivery) => delivery.state === "delivered")
            ? deliveries
            : undefined
        }
      )
      await sleep(1_000)
      const ids = deliveryIdsAt("/hooks/crash")
      // Every delivery arrived; the ones cut off by the kill arrived again under the same id; nothing else.
      assert.sameMembers([...new Set(ids)], log.map((delivery) => delivery.id))
      for (const id of inFlight) assert.isAtLeast(ids.filter((each) => each === id).length, 2, `${id} sent again`)
      assert.strictEqual(ids.length, 3 + inFlight.length)
      // The attempt the kill cut off was never recorded: each delivery counts the one that arrived.
      assert.deepStrictEqual(log.map((delivery) => [delivery.attempts, delivery.last_status]), [[1, 204], [1, 204], [
        1,
        204
      ]])
    } finally {
      await server.stop()
      await storage.remove()
    }
  }, 120_000)
})

const title = titleNeedingPostgres("webhook delivery from two servers on one PostgreSQL")

describe.skipIf(adminUrl === undefined)(title, () => {
  let database: TemporaryDatabase
  let servers: ReadonlyArray<RunningServer> = []

  beforeAll(async () => {
    database = await createDatabase(adminUrl!)
  })

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()))
    await database?.drop()
  })

  it("delivers each event once per subscription", async () => {
    const storage = { databaseUrl: database.url }
    const key = await createKey(storage, { rateLimit: 10_000 })
    servers = await Promise.all([startServer(storage, deliveryEnv()), startServer(storage, deliveryEnv())])
    const paths = ["/hooks/shared-a", "/hooks/shared-b", "/hooks/shared-c"]
    const hooks = []
    for (const [index, path] of paths.entries()) hooks.push(await subscribe(servers[index % 2]!, key, path, "ACMS"))
    receiver.answerWith(() => ({ status: 204 }))

    const filings = 8
    await ingestEightKs(storage, "ACMS", filings)
    await eventually(
      () =>
        `${filings * paths.length} deliveries; received ${paths.map((path) => deliveryIdsAt(path).length).join(", ")}`,
      async () => paths.every((path) => deliveryIdsAt(path).length >= filings) || undefined
    )
    // Both dispatchers and both sets of workers have had time to send anything twice.
    await sleep(3_000)
    for (const [index, path] of paths.entries()) {
      const ids = deliveryIdsAt(path)
      assert.strictEqual(ids.length, filings, `${path}: each event once`)
      assert.strictEqual(new Set(ids).size, filings)
      const log = await deliveryLog(servers[0]!, key, hooks[index]!.id)
      assert.sameMembers(log.map((delivery) => delivery.id), ids)
      assert.isTrue(log.every((delivery) => delivery.state === "delivered" && delivery.attempts === 1))
    }
  }, 120_000)
})
