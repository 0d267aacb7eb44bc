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
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { cli, createKey, exampleEightK, type RunningServer, startServer, temporaryDataDir } from "./support/filings.js"
import { jsonOf } from "./support/http.js"
import { ingestEightK } from "./support/syntheticEightK.js"
import { eventually, sleep } from "./support/waiting.js"
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhookReceiver.js"

let receiver: WebhookReceiver
let files: string
let storage: Awaited<ReturnType<typeof temporaryDataDir>>
let server: RunningServer
let key: string
let deliveredHook: string

beforeAll(async () => {
  receiver = await startWebhookReceiver()
  files = await mkdtemp(join(tmpdir(), "filings-webhook-files-"))
  storage = await temporaryDataDir()
  server = await startServer(storage, {
    NODE_EXTRA_CA_CERTS: receiver.certificateFile,
    FILINGS_WEBHOOK_ALLOW_HOSTS: "localhost"
  })
  key = await createKey(storage, { rateLimit: 10_000 })
}, 120_000)

afterAll(async () => {
  await server?.stop()
  await receiver?.close()
  await storage?.remove()
  await rm(files, { recursive: true, force: true })
})

/**
 * Stores a synthetic 8-K of `ticker` filed today through the CLI, which records its events. Each
 * ticker is a company of its own, with a key of its own (from the accession's last digits): one key
 * under two tickers is refused.
 */
const ingestEightKOf = (ticker: string, accession: string) =>
  ingestEightK(storage, files, {
    accession,
    cik: `0000999${accession.slice(-3)}`,
    companyName: `${ticker} CORP`,
    ticker,
    filedAsOf: new Date().toISOString().slice(0, 10),
    items: ["8.01"]
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
  it("delivers each subscribed event once, signed, with the specification's headers", async () => {
    const hook = await subscribe({
      url: receiver.url("/hooks/filings"),
      events: ["filing.new", "press_release.new"],
      filters: { tickers: ["ACME"] }
    })
    deliveredHook = hook.id
    const ingested = await cli(storage, ["ingest", exampleEightK, "--ticker", "ACME"])
    assert.strictEqual(ingested.exitCode, 0, ingested.stderr)

    const deadline = Date.now() + 30_000
    while (receiver.received.length < 2 && Date.now() < deadline) await sleep(100)
    await sleep(1_500)
    assert.deepStrictEqual(receiver.received.map((delivery) => delivery.headers["x-service-event"]).sort(), [
      "filing.new",
      "press_release.new"
    ])
    for (const delivery of receiver.received) {
      const signature = String(delivery.headers["x-service-signature"])
      assert.match(signature, /^sha256=[0-9a-f]{64}$/)
      assert.isTrue(await octokitVerify(hook.secret, delivery.body, signature), "verified by an outside verifier")
      assert.strictEqual(delivery.headers["content-type"], "application/json")
      assert.match(String(delivery.headers["x-service-delivery-id"]), /^dlv_[0-9a-f]{24}$/)
      const payload = JSON.parse(delivery.body) as { event: string; timestamp: string; data: Record<string, unknown> }
      assert.strictEqual(payload.event, delivery.headers["x-service-event"])
      assert.strictEqual(payload.data.ticker, "ACME")
    }
    const filing = JSON.parse(
      receiver.received.find((delivery) => delivery.headers["x-service-event"] === "filing.new")!.body
    )
    assert.strictEqual(filing.data.publication_id, "0000999001-24-000017")
    assert.deepStrictEqual(filing.data.items, ["Item 2.02", "Item 9.01"])
    // Distinct deliveries, each once.
    assert.strictEqual(new Set(receiver.received.map((delivery) => delivery.headers["x-service-delivery-id"])).size, 2)

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
      url: receiver.url("/hooks/paused"),
      events: ["filing.new"],
      filters: { tickers: ["ACMF"] }
    })
    assert.strictEqual((await call("PATCH", `/v1/webhooks/${hook.id}`, { status: "paused" })).status, 200)

    await ingestEightKOf("ACMF", "0000999101-26-000900")
    await sleep(2_500)
    const atPaused = () => receiver.received.filter((delivery) => delivery.path === "/hooks/paused")
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

    const original = log.deliveries.find((delivery) => delivery.event_type === "filing.new")!
    const before =
      receiver.received.filter((delivery) => delivery.headers["x-service-delivery-id"] === original.id).length
    const redelivered = await fetch(`${server.url}/v1/webhooks/${deliveredHook}/deliveries/${original.id}/redeliver`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` }
    })
    assert.strictEqual(redelivered.status, 200)
    const deadline = Date.now() + 15_000
    const copies = () =>
      receiver.received.filter((delivery) => delivery.headers["x-service-delivery-id"] === original.id).length
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

  it("a secret rotated with PATCH signs every delivery after it, and the old one no longer verifies", async () => {
    const hook = await subscribe({
      url: receiver.url("/hooks/rotated"),
      events: ["filing.new"],
      filters: { tickers: ["ACMS"] }
    })
    const newSecret = "rotated-secret-chosen-by-the-customer"
    const rotated = await fetch(`${server.url}/v1/webhooks/${hook.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ secret: newSecret })
    })
    assert.strictEqual(rotated.status, 200)

    await ingestEightKOf("ACMS", "0000999101-26-000902")
    const atRotated = () => receiver.received.filter((delivery) => delivery.path === "/hooks/rotated")
    const deadline = Date.now() + 15_000
    while (atRotated().length === 0 && Date.now() < deadline) await sleep(100)
    assert.strictEqual(atRotated().length, 1)
    const delivery = atRotated()[0]!
    const signature = String(delivery.headers["x-service-signature"])
    assert.isTrue(await octokitVerify(newSecret, delivery.body, signature), "signed with the new secret")
    assert.isFalse(await octokitVerify(hook.secret, delivery.body, signature), "not with the old one")
  })

  it("follows no redirect: a 3xx is a failed attempt, and its target is never asked", async () => {
    // A receiver can point a redirect anywhere, the metadata address included; following none is the
    // only answer that needs no second check. The target here is on the same receiver, so a request
    // that followed would be seen.
    receiver.answerWith((request) =>
      request.path === "/hooks/moved"
        ? { status: 302, headers: { location: receiver.url("/hooks/redirect-target") } }
        : { status: 204 }
    )
    const hook = await subscribe({
      url: receiver.url("/hooks/moved"),
      events: ["filing.new"],
      filters: { tickers: ["ACMR"] }
    })
    await ingestEightKOf("ACMR", "0000999101-26-000901")

    const log = await eventually("the redirected attempt in the delivery log", async () => {
      const listed = await jsonOf(
        Webhooks.WebhookDeliveryList,
        await fetch(`${server.url}/v1/webhooks/${hook.id}/deliveries`, { headers: { authorization: `Bearer ${key}` } })
      )
      return listed.deliveries[0]?.attempts === 1 ? listed.deliveries[0] : undefined
    })
    assert.deepStrictEqual([log.state, log.last_status, log.last_error], [
      "pending",
      302,
      "HTTP 302: redirects are not followed"
    ])
    assert.strictEqual(Date.parse(log.next_attempt_at!) - Date.parse(log.last_attempt_at!), 60_000)
    await sleep(1_000)
    assert.strictEqual(receiver.received.filter((request) => request.path === "/hooks/moved").length, 1)
    assert.deepStrictEqual(receiver.received.filter((request) => request.path === "/hooks/redirect-target"), [])
  })
})
