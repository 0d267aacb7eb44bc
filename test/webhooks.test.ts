/**
 * The subscription routes over HTTP: create (201, the secret once), list and get (no secret),
 * change, rotate the secret, delete, reactivate; HTTPS only; at most 100 per key; and one API key
 * never sees or touches another key's subscriptions.
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

/** A subscription of Alice's key, as `POST /v1/webhooks` with `body` created it. */
const subscribe = async (body: unknown) =>
  jsonOf(Webhooks.CreatedWebhook, await call(alice, "POST", "/v1/webhooks", body))

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
    const given = await subscribe({
      url: "https://hooks.example.com/given",
      events: ["press_release.new"],
      secret: "a-secret-of-my-own-choosing"
    })
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
    const created = await subscribe({ url: "https://hooks.example.com/a", events: ["filing.new"] })
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
    const created = await subscribe({ url: "https://hooks.example.com/private", events: ["filing.new"] })
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
    const bobsGet = await call(bob, "GET", `/v1/webhooks/${created.id}`)
    assert.strictEqual(bobsGet.status, 404)
    assert.strictEqual((await errorOf(bobsGet)).code, "webhook_not_found")
  })

  it("GET /v1/webhooks/{id} returns one subscription as listed, without its secret; an unknown id is 404", async () => {
    const created = await subscribe({
      url: "https://hooks.example.com/one",
      events: ["earnings_call.new"],
      filters: { doc_types: ["EARNINGS_CALL"] }
    })
    const response = await call(alice, "GET", `/v1/webhooks/${created.id}`)
    assert.strictEqual(response.status, 200)
    const text = await response.text()
    assert.notInclude(text, created.secret)
    assert.deepStrictEqual(JSON.parse(text), {
      id: created.id,
      url: "https://hooks.example.com/one",
      events: ["earnings_call.new"],
      filters: { tickers: [], doc_types: ["EARNINGS_CALL"] },
      status: "active",
      created_at: created.created_at,
      last_triggered_at: null
    })
    const unknown = await call(alice, "GET", "/v1/webhooks/wh_000000000000000000000000")
    assert.strictEqual(unknown.status, 404)
    const error = await errorOf(unknown)
    assert.strictEqual(error.code, "webhook_not_found")
    assert.include(error.message, "wh_000000000000000000000000")
  })

  it("a filters object always lists both tickers and doc_types, empty when they do not filter", async () => {
    const unfiltered = await subscribe({ url: "https://hooks.example.com/all", events: ["filing.new"] })
    assert.deepStrictEqual(unfiltered.filters, { tickers: [], doc_types: [] })
    const byTicker = await subscribe({
      url: "https://hooks.example.com/msft",
      events: ["filing.new"],
      filters: { tickers: ["msft"] }
    })
    assert.deepStrictEqual(byTicker.filters, { tickers: ["MSFT"], doc_types: [] })
    const changed = await jsonOf(
      Webhooks.Webhook,
      await call(alice, "PATCH", `/v1/webhooks/${byTicker.id}`, { filters: { doc_types: ["10-K"] } })
    )
    assert.deepStrictEqual(changed.filters, { tickers: [], doc_types: ["10-K"] })
    const listed = await jsonOf(Webhooks.WebhookList, await call(alice, "GET", "/v1/webhooks"))
    for (const webhook of listed.webhooks) {
      assert.deepStrictEqual(Object.keys(webhook.filters).sort(), ["doc_types", "tickers"], webhook.id)
    }
  })

  it("PATCH with a secret rotates it, and a secret too short is refused with 400 naming the field", async () => {
    const created = await subscribe({ url: "https://hooks.example.com/rotate", events: ["filing.new"] })
    const short = await call(alice, "PATCH", `/v1/webhooks/${created.id}`, { secret: "too-short" })
    assert.strictEqual(short.status, 400)
    const error = await errorOf(short)
    assert.strictEqual(error.code, "invalid_request")
    assert.include(error.message, "secret")
    assert.notInclude(error.message, "too-short")
    const notText = await call(alice, "PATCH", `/v1/webhooks/${created.id}`, { secret: 1234567890123456 })
    assert.strictEqual(notText.status, 400)
    assert.include((await errorOf(notText)).message, "secret")

    const rotated = await call(alice, "PATCH", `/v1/webhooks/${created.id}`, { secret: "a-brand-new-secret-of-mine" })
    assert.strictEqual(rotated.status, 200)
    const body = await rotated.text()
    assert.notInclude(body, "a-brand-new-secret-of-mine")
    assert.strictEqual(JSON.parse(body).id, created.id)
    // Deliveries signed with the new secret: test/webhookDelivery.test.ts.
  })

  it("an API key has at most 100 subscriptions: the 101st is refused with 400, and deleting one makes room", async () => {
    const carol = await createKey(storage, { name: "carol", rateLimit: 10_000 })
    const create = (index: number) =>
      call(carol, "POST", "/v1/webhooks", { url: `https://hooks.example.com/carol/${index}`, events: ["filing.new"] })
    const statuses: Array<number> = []
    for (let index = 0; index < Webhooks.MaxSubscriptionsPerKey; index++) statuses.push((await create(index)).status)
    assert.deepStrictEqual(statuses, Array.from({ length: 100 }, () => 201))

    const refused = await create(100)
    assert.strictEqual(refused.status, 400)
    const error = await errorOf(refused)
    assert.strictEqual(error.code, "invalid_request")
    assert.include(error.message, "100")
    const listed = await jsonOf(Webhooks.WebhookList, await call(carol, "GET", "/v1/webhooks"))
    assert.strictEqual(listed.webhooks.length, 100)
    // Other keys are not counted against it.
    assert.strictEqual(
      (await call(bob, "POST", "/v1/webhooks", { url: "https://hooks.example.com/bob", events: ["filing.new"] }))
        .status,
      201
    )

    assert.strictEqual((await call(carol, "DELETE", `/v1/webhooks/${listed.webhooks[0]!.id}`)).status, 204)
    assert.strictEqual((await create(101)).status, 201)
    assert.strictEqual((await create(102)).status, 400)
  })
})
