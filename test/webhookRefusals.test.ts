/**
 * Callback safety end to end, on a server whose operator opened nothing
 * (`FILINGS_WEBHOOK_ALLOW_HOSTS` unset): addresses that can never be delivered to are refused when
 * the subscription is made or changed, and a name that resolves to one is refused at every delivery
 * attempt, with the reason in the delivery log. A real HTTPS receiver listens on loopback, trusted
 * through `NODE_EXTRA_CA_CERTS`, so a request that slipped through would arrive.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Webhooks } from "@filings/domain"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { cli, createKey, type RunningServer, startServer, temporaryDataDir } from "./support/filings.js"
import { errorOf, jsonOf } from "./support/http.js"
import { eightKSubmission } from "./support/syntheticEightK.js"
import { eventually, sleep } from "./support/waiting.js"
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhookReceiver.js"

let receiver: WebhookReceiver
let files: string
let storage: Awaited<ReturnType<typeof temporaryDataDir>>
let server: RunningServer
let key: string

beforeAll(async () => {
  receiver = await startWebhookReceiver()
  files = await mkdtemp(join(tmpdir(), "filings-refusals-"))
  storage = await temporaryDataDir()
  server = await startServer(storage, { NODE_EXTRA_CA_CERTS: receiver.certificateFile })
  key = await createKey(storage, { rateLimit: 10_000 })
}, 120_000)

afterAll(async () => {
  await server?.stop()
  await receiver?.close()
  await storage?.remove()
  await rm(files, { recursive: true, force: true })
})

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

/** The error of a refused subscription, checked to be a 400 `invalid_request`. */
const refused = async (response: Response) => {
  assert.strictEqual(response.status, 400)
  const error = await errorOf(response)
  assert.strictEqual(error.code, "invalid_request")
  return error.message
}

describe("webhook callback safety", () => {
  it("refuses http://, and loopback, metadata, private and IPv4-mapped addresses, when subscribing", async () => {
    const cases: ReadonlyArray<readonly [url: string, reason: RegExp]> = [
      [`http://localhost:${receiver.port}/hooks`, /must be an https:\/\/ URL/],
      [`https://127.0.0.1:${receiver.port}/hooks`, /127\.0\.0\.1 is a loopback address/],
      ["https://169.254.169.254/latest/meta-data/", /169\.254\.169\.254 is a metadata address/],
      ["https://10.1.2.3/hooks", /10\.1\.2\.3 is a private address/],
      [`https://[::ffff:127.0.0.1]:${receiver.port}/hooks`, /is an IPv4-mapped address/],
      ["https://[::1]/hooks", /::1 is a loopback address/]
    ]
    for (const [url, reason] of cases) {
      assert.match(await refused(await call("POST", "/v1/webhooks", { url, events: ["filing.new"] })), reason, url)
    }
    const listed = await jsonOf(Webhooks.WebhookList, await call("GET", "/v1/webhooks"))
    assert.deepStrictEqual(listed.webhooks, [], "nothing refused was stored")
  })

  it("refuses changing a subscription's URL to a blocked address, and keeps the old one", async () => {
    const created = await call("POST", "/v1/webhooks", { url: "https://hooks.example/filings", events: ["filing.new"] })
    assert.strictEqual(created.status, 201)
    const hook = await jsonOf(Webhooks.CreatedWebhook, created)
    assert.match(
      await refused(await call("PATCH", `/v1/webhooks/${hook.id}`, { url: "https://169.254.169.254/" })),
      /169\.254\.169\.254 is a metadata address/
    )
    const listed = await jsonOf(Webhooks.WebhookList, await call("GET", "/v1/webhooks"))
    assert.strictEqual(listed.webhooks.find((webhook) => webhook.id === hook.id)?.url, "https://hooks.example/filings")
    assert.strictEqual((await call("DELETE", `/v1/webhooks/${hook.id}`)).status, 204)
  })

  it("refuses a host name that resolves to loopback at every attempt, and sends it nothing", async () => {
    // A name is accepted when subscribing (what it resolves to may change) and judged at delivery.
    const created = await call("POST", "/v1/webhooks", {
      url: receiver.url("/hooks/private"),
      events: ["filing.new"],
      filters: { tickers: ["ACMP"] }
    })
    assert.strictEqual(created.status, 201)
    const hook = await jsonOf(Webhooks.CreatedWebhook, created)

    const file = join(files, "acmp-8k.txt")
    await writeFile(
      file,
      eightKSubmission({
        accession: "0000999102-26-000001",
        cik: "0000999102",
        companyName: "ACME PRIVATE CORP",
        ticker: "ACMP",
        filedAsOf: new Date().toISOString().slice(0, 10),
        items: ["8.01"]
      })
    )
    const ingested = await cli(storage, ["ingest", file, "--ticker", "ACMP"])
    assert.strictEqual(ingested.exitCode, 0, ingested.stderr)

    const attempt = await eventually("the refused attempt in the delivery log", async () => {
      const log = await jsonOf(Webhooks.WebhookDeliveryList, await call("GET", `/v1/webhooks/${hook.id}/deliveries`))
      return log.deliveries[0]?.attempts === 1 ? log.deliveries[0] : undefined
    })
    assert.deepStrictEqual([attempt.event_type, attempt.state, attempt.last_status], ["filing.new", "pending", null])
    assert.match(
      attempt.last_error ?? "",
      /^https:\/\/localhost:\d+\/hooks\/private is refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address$/
    )
    assert.strictEqual(Date.parse(attempt.next_attempt_at!) - Date.parse(attempt.last_attempt_at!), 60_000)
    await sleep(1_000)
    assert.deepStrictEqual(receiver.received, [], "the receiver was never reached")
  })
})
