/**
 * The subscription routes over HTTP: create (201, the secret once), list (no secret), change,
 * delete, reactivate; HTTPS only; and one API key never sees or touches another key's
 * subscriptions.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Webhooks } from "@filings/domain"
import { createKey, type RunningServer, startServer, temporaryDataDir } from "./support/filings.js"
import { errorOf, jsonOf } from "./support/http.js"

let storage: Awaited<ReturnType<typeof temporaryDataDir>>
let server: RunningServer
let alice: string
let bob: string

const call = (key: string, method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

beforeAll(async () => {
  storage = await temporaryDataDir()
  server = await startServer(storage)
  alice = await createKey(storage, { name: "alice", rateLimit: 10_000 })
  bob = await createKey(storage, { name: "bob", rateLimit: 10_000 })
}, 120_000)

afterAll(async () => {
  await server?.stop()
  await storage?.remove()
})

describe("webhook subscriptions", () => {
  it("creates a subscription with a generated secret shown once, and lists it without the secret", async () => {
    const response = await call(alice, "POST", "/v1/webhooks", {
      url: "https://hooks.example.com/filings",
      events: ["filing.new", "filing.8k_material", "filing.new"],
      filters: { tickers: ["aapl"], doc_types: ["8-K"] }
    })
    assert.strictEqual(response.status, 201)
    const created = await jsonOf(Webhooks.CreatedWebhook, response)
    assert.match(created.id, /^wh_[0-9a-f]{24}$/)
    assert.match(created.secret, /^whsec_[A-Za-z0-9_-]{43}$/)
    assert.deepStrictEqual(
      [created.url, created.events, created.filters?.tickers, created.filters?.doc_types, created.status],
      ["https://hooks.example.com/filings", ["filing.new", "filing.8k_material"], ["AAPL"], ["8-K"], "active"]
    )

    const listResponse = await call(alice, "GET", "/v1/webhooks")
    const text = await listResponse.text()
    assert.notInclude(text, created.secret)
    const listed = (JSON.parse(text) as { webhooks: ReadonlyArray<Record<string, unknown>> }).webhooks
    const own = listed.find((webhook) => webhook.id === created.id)
    assert.deepStrictEqual(own, {
      id: created.id,
      url: "https://hooks.example.com/filings",
      events: ["filing.new", "filing.8k_material"],
      filters: { tickers: ["AAPL"], doc_types: ["8-K"] },
      status: "active",
      created_at: created.created_at,
      last_triggered_at: null
    })
  })

  it("keeps a given secret, and refuses http:// URLs and unknown events with a message naming them", async () => {
    const given = await jsonOf(
      Webhooks.CreatedWebhook,
      await call(alice, "POST", "/v1/webhooks", {
        url: "https://hooks.example.com/given",
        events: ["press_release.new"],
        secret: "a-secret-of-my-own-choosing"
      })
    )
    assert.strictEqual(given.secret, "a-secret-of-my-own-choosing")

    const insecure = await call(alice, "POST", "/v1/webhooks", {
      url: "http://hooks.example.com",
      events: ["filing.new"]
    })
    assert.strictEqual(insecure.status, 400)
    const insecureError = await errorOf(insecure)
    assert.strictEqual(insecureError.code, "invalid_request")
    assert.include(insecureError.message, "https://")

    const unknown = await call(alice, "POST", "/v1/webhooks", {
      url: "https://hooks.example.com",
      events: ["filing.old"]
    })
    assert.strictEqual(unknown.status, 400)
    assert.include((await errorOf(unknown)).message, "filing.old")
  })

  it("pauses, resumes and changes a subscription; deletes it with 204", async () => {
    const created = await jsonOf(
      Webhooks.CreatedWebhook,
      await call(alice, "POST", "/v1/webhooks", { url: "https://hooks.example.com/a", events: ["filing.new"] })
    )
    const paused = await jsonOf(
      Webhooks.Webhook,
      await call(alice, "PATCH", `/v1/webhooks/${created.id}`, { status: "paused" })
    )
    assert.strictEqual(paused.status, "paused")
    const changed = await jsonOf(
      Webhooks.Webhook,
      await call(alice, "PATCH", `/v1/webhooks/${created.id}`, {
        status: "active",
        url: "https://hooks.example.com/b",
        events: ["earnings_call.upcoming"]
      })
    )
    assert.deepStrictEqual([changed.status, changed.url, changed.events], [
      "active",
      "https://hooks.example.com/b",
      ["earnings_call.upcoming"]
    ])
    const reactivated = await jsonOf(
      Webhooks.Webhook,
      await call(alice, "POST", `/v1/webhooks/${created.id}/reactivate`)
    )
    assert.strictEqual(reactivated.status, "active")

    const deleted = await call(alice, "DELETE", `/v1/webhooks/${created.id}`)
    assert.strictEqual(deleted.status, 204)
    assert.strictEqual(await deleted.text(), "")
    const again = await call(alice, "DELETE", `/v1/webhooks/${created.id}`)
    assert.strictEqual(again.status, 404)
    assert.strictEqual((await errorOf(again)).code, "webhook_not_found")
  })

  it("never shows or lets another key touch a subscription", async () => {
    const created = await jsonOf(
      Webhooks.CreatedWebhook,
      await call(alice, "POST", "/v1/webhooks", { url: "https://hooks.example.com/private", events: ["filing.new"] })
    )
    const bobsList = await jsonOf(Webhooks.WebhookList, await call(bob, "GET", "/v1/webhooks"))
    assert.notInclude(bobsList.webhooks.map((webhook) => webhook.id), created.id)
    for (
      const response of [
        await call(bob, "PATCH", `/v1/webhooks/${created.id}`, { status: "paused" }),
        await call(bob, "POST", `/v1/webhooks/${created.id}/reactivate`),
        await call(bob, "DELETE", `/v1/webhooks/${created.id}`)
      ]
    ) {
      assert.strictEqual(response.status, 404)
      assert.strictEqual((await errorOf(response)).code, "webhook_not_found")
    }
    const alicesList = await jsonOf(Webhooks.WebhookList, await call(alice, "GET", "/v1/webhooks"))
    assert.strictEqual(alicesList.webhooks.find((webhook) => webhook.id === created.id)?.status, "active")
  })
})
