/**
 * The NUL character (`\u0000`) in any request value that reaches storage: no stored text can hold
 * it, so every route refuses it as a bad request (400 `invalid_request`, naming the field), never
 * as a storage failure (503), and stores nothing.
 */
import { assert, describe, it } from "@effect/vitest"
import { errorOf } from "./support/http.js"
import { serverForSuite } from "./support/suiteServer.js"

describe("a NUL character in a request", () => {
  const suite = serverForSuite("nul", { rateLimit: 100_000 })

  const send = (path: string, init: { method?: string; body?: unknown; admin?: boolean } = {}) =>
    fetch(`${suite.server.url}${path}`, {
      method: init.method ?? "GET",
      headers: {
        authorization: `Bearer ${init.admin === true ? suite.adminToken : suite.key}`,
        ...(init.body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
    })

  const refusedNaming = async (response: Response, field: string) => {
    assert.strictEqual(response.status, 400, `${response.url}: ${response.status}`)
    const error = await errorOf(response)
    assert.strictEqual(error.code, "invalid_request")
    assert.include(error.message, field)
  }

  it.each([
    ["/v1/search?q=revenue&section=%00Risk", "section"],
    ["/v1/sections?tickers=AAPL&section=Risk%00", "section"],
    ["/v1/documents/0000320193-24-000123/sections?section=%00", "section"],
    ["/v1/companies?exchange=NYSE%00", "exchange"],
    ["/v1/documents/0000320193-24-000123/chunks/c0001%00", "chunk_id"],
    ["/v1/webhooks/wh_1%00", "webhook_id"],
    ["/v1/webhooks/wh_1%00/deliveries", "webhook_id"]
  ])("GET %s answers 400 naming %s", async (path, field) => {
    await refusedNaming(await send(path), field)
  })

  it("refuses a callback address with NUL, and stores no subscription", async () => {
    const body = { url: "https://example.com/hook\u0000", events: ["filing.new"] }
    await refusedNaming(await send("/v1/webhooks", { method: "POST", body }), "url")
    const listed = (await (await send("/v1/webhooks")).json()) as { webhooks: ReadonlyArray<unknown> }
    assert.deepStrictEqual(listed.webhooks, [])
  })

  it("refuses an API key name or key id with NUL on the admin routes", async () => {
    await refusedNaming(
      await send("/admin/keys", { method: "POST", body: { name: "desk\u0000" }, admin: true }),
      "name"
    )
    await refusedNaming(await send("/admin/keys/key%00", { method: "DELETE", admin: true }), "key_id")
  })

  it("still finds nothing, with 200, for a search or company query whose words hold NUL", async () => {
    const search = await send("/v1/search?q=reve%00nue")
    assert.strictEqual(search.status, 200)
    const companies = await send("/v1/companies?q=app%00le")
    assert.strictEqual(companies.status, 200)
  })
})
