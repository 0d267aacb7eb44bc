/**
 * Bad requests as a new user writes them, answered clearly. A path parameter of any length gets
 * the answer a short bad value gets on its route, never a 405 naming the very method it refused;
 * an empty path segment is refused as a missing id. Every 400 names the field, what was wrong and
 * what is allowed, once, in the API's words: never the schema library's (`Expected ..., actual`,
 * `Encoded side`) nor a schema's class name.
 */
import { assert, describe, it } from "@effect/vitest"
import { DocType, ExtractionApi, Webhooks } from "@filings/domain"
import { errorOf } from "./support/http.js"
import { serverForSuite } from "./support/suiteServer.js"

const suite = serverForSuite("bad-requests", { rateLimit: 100_000 })

interface Sent {
  readonly method?: string
  /** Sent as it is, with `contentType` (none when undefined). */
  readonly body?: string
  readonly contentType?: string
  readonly admin?: boolean
}

const send = (path: string, sent: Sent = {}) =>
  fetch(`${suite.server.url}${path}`, {
    method: sent.method ?? "GET",
    headers: {
      authorization: `Bearer ${sent.admin === true ? suite.adminToken : suite.key}`,
      ...(sent.contentType === undefined ? {} : { "content-type": sent.contentType })
    },
    ...(sent.body === undefined ? {} : { body: sent.body })
  })

const json = (method: string, value: unknown): Sent => ({
  method,
  body: JSON.stringify(value),
  contentType: "application/json"
})

/** Words of the schema library or names of schemas, which mean nothing to a client. */
const internalWording =
  /Expected|actual|Encoded side|Type side|ReadonlyArray|Unable to decode|Request\b|WebhookFilters|\w\.\d+\b/

describe("a path parameter of any length", () => {
  const long = "a".repeat(300)
  const since = { since: "2024-01-01T00:00:00Z" }
  // [method, path with {id}, body, a short value, the status and code both get]
  const routes: ReadonlyArray<readonly [string, string, Sent, string, number, string]> = [
    ["GET", "/v1/documents/{id}", {}, "abc", 400, "invalid_request"],
    ["GET", "/v1/documents/{id}/sections", {}, "abc", 400, "invalid_request"],
    ["GET", "/v1/documents/{id}/extract", {}, "abc", 400, "invalid_request"],
    ["GET", "/v1/documents/{id}/chunks/c0001", {}, "abc", 400, "invalid_request"],
    ["GET", "/v1/documents/0000320193-24-000123/chunks/{id}", {}, "c9999", 404, "document_not_found"],
    ["GET", "/v1/companies/{id}", {}, "a_b", 400, "invalid_request"],
    ["GET", "/v1/companies/{id}/timeline", {}, "a_b", 400, "invalid_request"],
    ["GET", "/v1/webhooks/{id}", {}, "wh_unknown", 404, "webhook_not_found"],
    ["PATCH", "/v1/webhooks/{id}", json("PATCH", {}), "wh_unknown", 404, "webhook_not_found"],
    ["DELETE", "/v1/webhooks/{id}", {}, "wh_unknown", 404, "webhook_not_found"],
    ["POST", "/v1/webhooks/{id}/reactivate", {}, "wh_unknown", 404, "webhook_not_found"],
    ["POST", "/v1/webhooks/{id}/recover", json("POST", since), "wh_unknown", 404, "webhook_not_found"],
    ["GET", "/v1/webhooks/{id}/deliveries", {}, "wh_unknown", 404, "webhook_not_found"],
    ["POST", "/v1/webhooks/{id}/deliveries/d1/redeliver", {}, "wh_unknown", 404, "webhook_not_found"],
    ["POST", "/v1/webhooks/wh_unknown/deliveries/{id}/redeliver", {}, "d1", 404, "webhook_not_found"],
    ["GET", "/admin/companies/{id}", { admin: true }, "a_b", 400, "invalid_request"],
    ["DELETE", "/admin/keys/{id}", { admin: true }, "key_unknown", 400, "invalid_request"]
  ]

  it.each(routes)("%s %s answers a 300-character value as it answers a short one", async (
    method,
    path,
    sent,
    short,
    status,
    code
  ) => {
    for (const value of [short, long]) {
      const response = await send(path.replace("{id}", value), { ...sent, method })
      assert.strictEqual(response.status, status, `${method} ${path} with ${value.length} characters`)
      assert.strictEqual((await errorOf(response)).code, code, `${method} ${path} with ${value.length} characters`)
    }
  })

  it("still answers 405 with Allow for a method the path does not take, however long its id", async () => {
    const response = await send(`/v1/documents/${long}`, { method: "DELETE" })
    assert.strictEqual(response.status, 405)
    assert.strictEqual(response.headers.get("allow"), "GET")
    assert.match((await errorOf(response)).message, /does not accept DELETE; it accepts GET$/)
  })
})

describe("an empty path segment", () => {
  it.each([
    ["GET", "/v1/webhooks//deliveries", "webhook_id"],
    ["POST", "/v1/webhooks/wh_unknown/deliveries//redeliver", "delivery_id"]
  ])("%s %s is refused as a missing id, not looked up", async (method, path, field) => {
    const response = await send(path, { method })
    assert.strictEqual(response.status, 400)
    const error = await errorOf(response)
    assert.strictEqual(error.code, "invalid_request")
    assert.strictEqual(
      error.message,
      `${field} is missing from the path: nothing stands between the slashes where it goes`
    )
  })
})

describe("the message of a bad request", () => {
  const refused = async (path: string, sent: Sent = {}) => {
    const response = await send(path, sent)
    assert.strictEqual(response.status, 400, `${sent.method ?? "GET"} ${path}`)
    const error = await errorOf(response)
    assert.strictEqual(error.code, "invalid_request")
    assert.notMatch(error.message, internalWording, error.message)
    return error.message
  }
  const oneOf = (field: string, values: ReadonlyArray<string>, actual: string) =>
    `${field} must be one of: ${values.join(", ")}; got ${JSON.stringify(actual)}`

  describe("a body the route cannot read", () => {
    const notJson = "the request body must be JSON sent with Content-Type: application/json, not"
    it.each([
      ["text/plain", "{\"question\":\"What was revenue?\"}"],
      // What `curl -d` sends.
      ["application/x-www-form-urlencoded", "{\"question\":\"What was revenue?\"}"],
      ["text/plain", "What was revenue?"]
    ])("POST /v1/chat with Content-Type %s says the body must be JSON", async (contentType, body) => {
      assert.strictEqual(await refused("/v1/chat", { method: "POST", contentType, body }), `${notJson} ${contentType}`)
    })

    it("says so on every route that reads a JSON body", async () => {
      const body = "{}"
      for (const [method, path] of [["POST", "/v1/feed"], ["POST", "/v1/webhooks"], ["PATCH", "/v1/webhooks/wh_1"]]) {
        assert.strictEqual(
          await refused(path!, { method: method!, contentType: "text/plain", body }),
          `${notJson} text/plain`
        )
      }
    })

    it.each([
      ["", "an empty body"],
      ["[]", "[]"],
      ["\"What was revenue?\"", "\"What was revenue?\""],
      ["null", "null"]
    ])("POST /v1/chat with the JSON %j says the body must be a JSON object", async (body, got) => {
      assert.strictEqual(
        await refused("/v1/chat", { method: "POST", contentType: "application/json", body }),
        `the request body must be a JSON object of named fields, got ${got}`
      )
    })
  })

  describe("a name outside a list of names, said once with every name", () => {
    it.each([
      [
        "/v1/extract/metrics?tickers=AAPL&metrics=happiness",
        "metrics",
        [...ExtractionApi.MetricNames, "eps"],
        "happiness"
      ],
      ["/v1/documents?doc_types=10K", "doc_types", DocType.DocumentTypes, "10K"],
      ["/v1/documents/0000320193-24-000123?format=pdf", "format", ["markdown", "sections", "metadata"], "pdf"],
      ["/v1/documents?tickers=AAPL&sort=newest", "sort", ["filing_date_desc", "filing_date_asc"], "newest"],
      ["/v1/documents/0000320193-24-000123/extract?fields=colours", "fields", [
        "tables",
        "metrics",
        "exhibits",
        "signatures",
        "all"
      ], "colours"],
      ["/v1/extract/metrics?tickers=AAPL&metrics=revenue&frequency=daily", "frequency", [
        "annual",
        "quarterly",
        "all"
      ], "daily"],
      ["/v1/extract/tables?tickers=AAPL&table_type=notes", "table_type", [
        "income_statement",
        "balance_sheet",
        "cash_flow",
        "segment_revenue",
        "all"
      ], "notes"],
      ["/v1/extract/tables?tickers=AAPL&format=xml", "format", ["json", "csv"], "xml"],
      ["/v1/stream?events=filing.old", "events", Webhooks.EventTypes, "filing.old"],
      ["/v1/companies/AAPL/timeline?types=tweet", "types", [
        "filing",
        "press_release",
        "presentation",
        "earnings_call",
        "upcoming_call",
        "news"
      ], "tweet"]
    ])("GET %s", async (path, field, values, actual) => {
      assert.strictEqual(await refused(path), oneOf(field, values, actual))
    })

    it("in a JSON body too, with the path of a nested field", async () => {
      const chat = (fields: object) => json("POST", { question: "What was revenue?", ...fields })
      assert.strictEqual(
        await refused("/v1/chat", chat({ doc_types: ["10K"] })),
        oneOf("doc_types", DocType.DocumentTypes, "10K")
      )
      assert.strictEqual(
        await refused("/v1/chat", chat({ history: [{ role: "bot", content: "Hello" }] })),
        oneOf("history[0].role", ["user", "assistant"], "bot")
      )
      assert.strictEqual(
        await refused("/v1/feed", json("POST", { tickers: ["AAPL"], doc_types: ["S-1"] })),
        oneOf("doc_types", DocType.FeedDocumentTypes, "S-1")
      )
      assert.strictEqual(
        await refused("/v1/webhooks/wh_1", json("PATCH", { status: "asleep" })),
        oneOf("status", ["active", "paused"], "asleep")
      )
    })
  })

  it.each([
    [
      "/v1/extract/metrics?tickers=,,,&metrics=revenue",
      "tickers must list at least one value, comma-separated; got none"
    ],
    ["/v1/documents?doc_types=,", "doc_types must list at least one value, comma-separated; got none"],
    ["/v1/documents?tickers=AAPL&limit=abc", "limit must be a whole number, got \"abc\""],
    ["/v1/documents?tickers=AAPL&limit=", "limit must be a whole number, got \"\""],
    ["/v1/companies?limit=x", "limit must be a whole number, got \"x\""],
    ["/v1/documents/0000320193-24-000123?include_exhibits=yes", "include_exhibits must be true or false, got \"yes\""],
    ["/v1/documents/0000320193-24-000123?exhibit=", "exhibit must not be empty, got \"\""],
    ["/v1/sections?tickers=AAPL&section=", "section must not be empty, got \"\""],
    ["/v1/companies?exchange=", "exchange must name an exchange such as Nasdaq or NYSE, got \"\""],
    [
      "/v1/search?q=revenue&q=income",
      "q must be given once in the query string (a list is one comma-separated value), got [\"revenue\",\"income\"]"
    ],
    [
      "/v1/documents?tickers=AAPL&tickers=MSFT",
      "tickers must be given once in the query string (a list is one comma-separated value), got [\"AAPL\",\"MSFT\"]"
    ]
  ])("GET %s says: %s", async (path, message) => {
    assert.strictEqual(await refused(path), message)
  })

  it.each([
    ["/v1/chat", { question: 5 }, "question must be a string, got 5"],
    ["/v1/chat", { question: "What was revenue?", tickers: "AAPL" }, "tickers must be a list, got \"AAPL\""],
    ["/v1/chat", { question: "What was revenue?", stream: "yes" }, "stream must be true or false, got \"yes\""],
    ["/v1/feed", { tickers: [] }, "tickers must name at least one ticker, such as [\"AAPL\"]; got none"],
    ["/v1/feed", { tickers: ["AAPL"], limit: 0 }, "limit must be a number between 1 and 100, got 0"],
    ["/v1/feed", { tickers: ["AAPL"], limit: "5" }, "limit must be a number, got \"5\""],
    [
      "/v1/feed",
      { tickers: ["AAPL"], end_date: "last week" },
      "end_date must be a date YYYY-MM-DD or an ISO 8601 timestamp, got \"last week\""
    ],
    [
      "/v1/webhooks",
      { url: "https://example.com/hook", events: [] },
      `events must name at least one of: ${Webhooks.EventTypes.join(", ")}; got none`
    ],
    [
      "/v1/webhooks",
      { url: "https://example.com/hook", events: ["filing.new"], filters: "AAPL" },
      "filters must be a JSON object, got \"AAPL\""
    ],
    ["/v1/webhooks/wh_1/recover", { since: 5 }, "since must be an ISO 8601 timestamp, got 5"]
  ])("POST %s with %j says: %s", async (path, body, message) => {
    assert.strictEqual(await refused(path, json("POST", body)), message)
  })
})
