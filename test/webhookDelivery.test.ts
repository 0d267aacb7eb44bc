/**
 * Webhook delivery end to end: a real HTTPS receiver on loopback, with a self-signed certificate
 * the server trusts through `NODE_EXTRA_CA_CERTS` and opened through
 * `FILINGS_WEBHOOK_ALLOW_HOSTS`. A filing stored by the CLI becomes events; each subscribed
 * event arrives signed (checked by `@octokit/webhooks-methods`, an outside verifier), with the
 * headers of the specification, once.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Webhooks } from "@filings/domain"
import { verify as octokitVerify } from "@octokit/webhooks-methods"
import { execFileSync } from "node:child_process"
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { createServer, type Server } from "node:https"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { cli, createKey, repositoryRoot, type RunningServer, startServer, temporaryDataDir } from "./support/filings.js"
import { jsonOf } from "./support/http.js"
import { eightKSubmission } from "./support/syntheticEightK.js"
import { sleep } from "./support/waiting.js"

interface Received {
  readonly path: string
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: string
}

let certificates: string
let receiver: Server
let receiverPort: number
const received: Array<Received> = []
let storage: Awaited<ReturnType<typeof temporaryDataDir>>
let server: RunningServer
let key: string
let deliveredHook: string
let refusedHook: string

beforeAll(async () => {
  certificates = await mkdtemp(join(tmpdir(), "filings-webhook-tls-"))
  execFileSync("openssl", [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "1",
    "-subj",
    "/CN=localhost",
    "-addext",
    "subjectAltName=DNS:localhost,IP:127.0.0.1",
    "-keyout",
    join(certificates, "key.pem"),
    "-out",
    join(certificates, "cert.pem")
  ], { stdio: "ignore" })
  receiver = createServer({
    key: await readFile(join(certificates, "key.pem")),
    cert: await readFile(join(certificates, "cert.pem"))
  }, (request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      received.push({ path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString("utf8") })
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
  receiverPort = (receiver.address() as AddressInfo).port

  storage = await temporaryDataDir()
  server = await startServer(storage, {
    NODE_EXTRA_CA_CERTS: join(certificates, "cert.pem"),
    FILINGS_WEBHOOK_ALLOW_HOSTS: "localhost"
  })
  key = await createKey(storage, { rateLimit: 10_000 })
}, 120_000)

afterAll(async () => {
  await server?.stop()
  await new Promise((resolve) => receiver?.close(resolve))
  await storage?.remove()
  await rm(certificates, { recursive: true, force: true })
})

const subscribe = async (body: unknown) => {
  const response = await fetch(`${server.url}/v1/webhooks`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  assert.strictEqual(response.status, 201)
  return jsonOf(Webhooks.CreatedWebhook, response)
}

describe("webhook delivery", () => {
  it("delivers each subscribed event once, signed, with the specification's headers; refuses loopback by address", async () => {
    const hook = await subscribe({
      url: `https://localhost:${receiverPort}/hooks/filings`,
      events: ["filing.new", "press_release.new"],
      filters: { tickers: ["ACME"] }
    })
    deliveredHook = hook.id
    // Loopback by address is not on the allow-list: never delivered to.
    refusedHook =
      (await subscribe({ url: `https://127.0.0.1:${receiverPort}/hooks/refused`, events: ["filing.new"] })).id
    const ingested = await cli(storage, [
      "ingest",
      join(repositoryRoot, "examples/filings/acme-8k-2024-11-05.txt"),
      "--ticker",
      "ACME"
    ])
    assert.strictEqual(ingested.exitCode, 0, ingested.stderr)

    const deadline = Date.now() + 30_000
    while (received.length < 2 && Date.now() < deadline) await sleep(100)
    await sleep(1_500)
    assert.deepStrictEqual(received.map((delivery) => delivery.headers["x-service-event"]).sort(), [
      "filing.new",
      "press_release.new"
    ])
    for (const delivery of received) {
      const signature = String(delivery.headers["x-service-signature"])
      assert.match(signature, /^sha256=[0-9a-f]{64}$/)
      assert.isTrue(await octokitVerify(hook.secret, delivery.body, signature), "verified by an outside verifier")
      assert.strictEqual(delivery.headers["content-type"], "application/json")
      assert.match(String(delivery.headers["x-service-delivery-id"]), /^dlv_[0-9a-f]{24}$/)
      const payload = JSON.parse(delivery.body) as { event: string; timestamp: string; data: Record<string, unknown> }
      assert.strictEqual(payload.event, delivery.headers["x-service-event"])
      assert.strictEqual(payload.data.ticker, "ACME")
    }
    const filing = JSON.parse(received.find((delivery) => delivery.headers["x-service-event"] === "filing.new")!.body)
    assert.strictEqual(filing.data.publication_id, "0000999001-24-000017")
    assert.deepStrictEqual(filing.data.items, ["Item 2.02", "Item 9.01"])
    // Distinct deliveries, each once: nothing reached the refused subscription's path.
    assert.strictEqual(new Set(received.map((delivery) => delivery.headers["x-service-delivery-id"])).size, 2)

    const listed = await jsonOf(
      Webhooks.WebhookList,
      await fetch(`${server.url}/v1/webhooks`, { headers: { authorization: `Bearer ${key}` } })
    )
    assert.isNotNull(listed.webhooks.find((webhook) => webhook.id === hook.id)?.last_triggered_at)
  })

  it("records what a paused subscription misses as skipped, and recovers it on request", async () => {
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    const hook = await subscribe({
      url: `https://localhost:${receiverPort}/hooks/paused`,
      events: ["filing.new"],
      filters: { tickers: ["ACMF"] }
    })
    assert.strictEqual((await call("PATCH", `/v1/webhooks/${hook.id}`, { status: "paused" })).status, 200)

    const today = new Date().toISOString().slice(0, 10)
    const file = join(certificates, "acmf-8k.txt")
    await writeFile(
      file,
      eightKSubmission({
        accession: "0000999101-26-000900",
        cik: "0000999101",
        companyName: "ACME FOLLOW CORP",
        ticker: "ACMF",
        filedAsOf: today,
        items: ["8.01"]
      })
    )
    const ingested = await cli(storage, ["ingest", file, "--ticker", "ACMF"])
    assert.strictEqual(ingested.exitCode, 0, ingested.stderr)
    await sleep(2_500)
    const atPaused = () => received.filter((delivery) => delivery.path === "/hooks/paused")
    assert.deepStrictEqual(atPaused(), [], "nothing is sent while paused")

    assert.strictEqual((await call("PATCH", `/v1/webhooks/${hook.id}`, { status: "active" })).status, 200)
    await sleep(1_500)
    assert.deepStrictEqual(atPaused(), [], "resuming does not send what was skipped")

    const since = new Date(Date.now() - 3_600_000).toISOString()
    const recovered = await call("POST", `/v1/webhooks/${hook.id}/recover`, { since })
    assert.deepStrictEqual(await recovered.json(), { requeued: 1 })
    const deadline = Date.now() + 15_000
    while (atPaused().length === 0 && Date.now() < deadline) await sleep(100)
    await sleep(1_000)
    assert.strictEqual(atPaused().length, 1)
    const payload = JSON.parse(atPaused()[0]!.body) as { data: Record<string, unknown> }
    assert.strictEqual(payload.data.publication_id, "0000999101-26-000900")
    assert.isTrue(
      await octokitVerify(hook.secret, atPaused()[0]!.body, String(atPaused()[0]!.headers["x-service-signature"]))
    )
  })

  it("keeps a delivery log per subscription, and sends one delivery again with the same id", async () => {
    const get = (path: string, as = key) =>
      fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${as}` } })
    const log = await jsonOf(Webhooks.WebhookDeliveryList, await get(`/v1/webhooks/${deliveredHook}/deliveries`))
    assert.deepStrictEqual(
      log.deliveries.map((delivery) => [delivery.event_type, delivery.state, delivery.attempts, delivery.last_status])
        .sort(),
      [["filing.new", "delivered", 1, 204], ["press_release.new", "delivered", 1, 204]]
    )
    assert.isNull(log.next_before)

    // It wants every filing.new (both tests' filings): each attempt was refused, the next due a minute later.
    const refused = await jsonOf(Webhooks.WebhookDeliveryList, await get(`/v1/webhooks/${refusedHook}/deliveries`))
    assert.strictEqual(refused.deliveries.length, 2)
    for (const attempt of refused.deliveries) {
      assert.deepStrictEqual([attempt.state, attempt.attempts, attempt.last_status], ["pending", 1, null])
      assert.match(attempt.last_error ?? "", /127\.0\.0\.1.*loopback/)
      assert.strictEqual(Date.parse(attempt.next_attempt_at!) - Date.parse(attempt.last_attempt_at!), 60_000)
    }

    const original = log.deliveries.find((delivery) => delivery.event_type === "filing.new")!
    const before = received.filter((delivery) => delivery.headers["x-service-delivery-id"] === original.id).length
    const redelivered = await fetch(`${server.url}/v1/webhooks/${deliveredHook}/deliveries/${original.id}/redeliver`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` }
    })
    assert.strictEqual(redelivered.status, 200)
    const deadline = Date.now() + 15_000
    const copies = () => received.filter((delivery) => delivery.headers["x-service-delivery-id"] === original.id).length
    while (copies() === before && Date.now() < deadline) await sleep(100)
    assert.strictEqual(copies(), before + 1)

    const unknown = await fetch(`${server.url}/v1/webhooks/${deliveredHook}/deliveries/dlv_nope/redeliver`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` }
    })
    assert.strictEqual(unknown.status, 404)
    assert.strictEqual(((await unknown.json()) as { error: { code: string } }).error.code, "delivery_not_found")
    const stranger = await createKey(storage, { name: "stranger" })
    assert.strictEqual((await get(`/v1/webhooks/${deliveredHook}/deliveries`, stranger)).status, 404)
  })
})
