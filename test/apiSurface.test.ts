/**
 * The surface of the API over HTTP, checked black-box on the real `filings` program: paging of
 * `/v1/extract/tables`, exhibit reference urls that resolve (or are null), rate-limit headers on
 * answers no route gave (404, 405), the OpenAPI document (one error schema, typed parameters,
 * declared headers, no 501) and the docs page (everything served by the server itself, bearer auth
 * chosen), the last in headless Chromium when the machine has it.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Document, ExtractionApi } from "@filings/domain"
import { Schema } from "effect"
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { cli, createKey, type RunningServer, startServer, temporaryDataDir } from "./support/filings.js"
import { chromiumPath, loadPage } from "./support/headlessChromium.js"
import { errorOf, jsonOf } from "./support/http.js"
import { awaitFreshRateWindow } from "./support/rateWindow.js"
import { tenKDocument, tenKSubmission } from "./support/syntheticTenK.js"

let storage: Awaited<ReturnType<typeof temporaryDataDir>>
let server: RunningServer
let key: string

const submitted = {
  accession: "0000999998-24-000001",
  cik: "0000999998",
  companyName: "TABLE TEST CORP",
  filedAsOf: "2024-06-03",
  tableCount: 60
}
const primaryOnly = {
  accession: "0000999997-24-000001",
  cik: "0000999997",
  companyName: "PRIMARY ONLY CORP",
  filedAsOf: "2024-06-03",
  tableCount: 2
}

const get = (path: string, token: string | null = key, method = "GET") =>
  fetch(`${server.url}${path}`, { method, headers: token === null ? {} : { authorization: `Bearer ${token}` } })

beforeAll(async () => {
  storage = await temporaryDataDir()
  server = await startServer(storage)
  key = await createKey(storage, { name: "surface", rateLimit: 100_000 })
  const submission = join(storage.dataDir, "submission.txt")
  await writeFile(submission, tenKSubmission(submitted))
  const primary = join(storage.dataDir, "primary-10k.htm")
  await writeFile(primary, tenKDocument(primaryOnly))
  for (
    const args of [
      ["ingest", submission, "--ticker", "TTC"],
      ["ingest", primary, "--ticker", "TTP", "--cik", primaryOnly.cik, "--company-name", primaryOnly.companyName]
        .concat(["--form", "10-K", "--accession", primaryOnly.accession, "--filing-date", primaryOnly.filedAsOf])
    ]
  ) {
    const result = await cli(storage, args)
    if (result.exitCode !== 0) throw new Error(`filings ${args.join(" ")} failed: ${result.stderr}`)
  }
}, 180_000)

afterAll(async () => {
  await server?.stop()
  await storage?.remove()
})

describe("GET /v1/extract/tables pages like the other lists", () => {
  // 60 schedules and the exhibit index.
  const total = 61
  const tables = (query: string) => get(`/v1/extract/tables?tickers=TTC${query}`)
  const pageOf = async (query: string) => jsonOf(ExtractionApi.CompanyTables, await tables(query))
  const idsOf = (page: typeof ExtractionApi.CompanyTables.Encoded) => page.tables.map((table) => table.id)

  it("returns 50 tables by default, with total, limit and offset echoed", async () => {
    const page = await pageOf("")
    assert.deepStrictEqual([page.tables.length, page.total, page.limit, page.offset], [50, total, 50, 0])
  })

  it("pages exactly: every table once, in one order, until offset + limit >= total", async () => {
    const all = await pageOf("&limit=100")
    assert.deepStrictEqual([all.tables.length, all.total, all.limit, all.offset], [total, total, 100, 0])
    const paged: Array<string> = []
    for (let offset = 0; offset < total; offset += 25) {
      const page = await pageOf(`&limit=25&offset=${offset}`)
      assert.deepStrictEqual([page.limit, page.offset, page.total], [25, offset, total])
      paged.push(...idsOf(page))
    }
    assert.deepStrictEqual(paged, idsOf(all))
    assert.strictEqual(new Set(paged).size, total)
    const past = await pageOf(`&offset=${total}`)
    assert.deepStrictEqual([past.tables.length, past.total, past.offset], [0, total, total])
  })

  it("refuses a limit above 100 or below 1 with 400 naming the field", async () => {
    for (const limit of ["101", "1000", "0", "ten"]) {
      const response = await tables(`&limit=${limit}`)
      assert.strictEqual(response.status, 400, `limit=${limit}`)
      const error = await errorOf(response)
      assert.strictEqual(error.code, "invalid_request")
      assert.include(error.message, "limit")
    }
  })
})

describe("exhibit reference urls", () => {
  const exhibitsOf = async (publicationId: string) =>
    (await jsonOf(ExtractionApi.ExtractionResult, await get(`/v1/documents/${publicationId}/extract?fields=exhibits`)))
      .exhibits ?? []

  it("a url serves its exhibit; an exhibit the filing does not carry has url null", async () => {
    const exhibits = await exhibitsOf(submitted.accession)
    assert.deepStrictEqual(exhibits.map(({ number, url }) => [number, url]), [
      ["3.1", null],
      ["10.1", `/v1/documents/${submitted.accession}?exhibit=10.1`],
      ["31.1", `/v1/documents/${submitted.accession}?exhibit=31.1`],
      ["104", null]
    ])
    for (const exhibit of exhibits) {
      if (exhibit.url === null) continue
      const served = await jsonOf(Document.ExhibitDocument, await get(exhibit.url))
      assert.strictEqual(served.exhibit_number, exhibit.number)
      assert.isAbove(served.content.length, 0)
    }
    // What a null stands for: the route has nothing under those numbers.
    for (const number of ["3.1", "104"]) {
      const missing = await get(`/v1/documents/${submitted.accession}?exhibit=${number}`)
      assert.strictEqual(missing.status, 404)
      assert.strictEqual((await errorOf(missing)).code, "exhibit_not_found")
    }
  })

  it("a filing stored from its primary document alone lists its exhibits, each with url null", async () => {
    const exhibits = await exhibitsOf(primaryOnly.accession)
    assert.deepStrictEqual(exhibits.map(({ number, url }) => [number, url]), [
      ["3.1", null],
      ["10.1", null],
      ["31.1", null],
      ["104", null]
    ])
    const missing = await get(`/v1/documents/${primaryOnly.accession}?exhibit=10.1`)
    assert.strictEqual(missing.status, 404)
  })
})

describe("rate-limit headers on answers no route gave", () => {
  const assertRateHeaders = (response: Response, limit: string) => {
    assert.strictEqual(response.headers.get("x-ratelimit-limit"), limit)
    assert.match(response.headers.get("x-ratelimit-remaining") ?? "", /^\d+$/)
    const reset = Number(response.headers.get("x-ratelimit-reset"))
    const now = Date.now() / 1000
    assert.isTrue(reset > now - 1 && reset <= now + 61, `reset ${reset} is within the minute`)
  }

  it("404 for an unknown route and 405 for a wrong method carry them when the key is valid", async () => {
    const unknown = await get("/v1/nothing-here")
    assert.strictEqual(unknown.status, 404)
    assert.strictEqual((await errorOf(unknown)).code, "not_found")
    assertRateHeaders(unknown, "100000")

    const wrongMethod = await get(`/v1/documents/${submitted.accession}`, key, "DELETE")
    assert.strictEqual(wrongMethod.status, 405)
    assert.strictEqual(wrongMethod.headers.get("allow"), "GET")
    assert.strictEqual((await errorOf(wrongMethod)).code, "method_not_allowed")
    assertRateHeaders(wrongMethod, "100000")

    // Both were charged to the key, as any request is.
    const [first, second] = [unknown, wrongMethod].map((response) =>
      Number(response.headers.get("x-ratelimit-remaining"))
    )
    assert.isBelow(second!, first!)
  })

  it("a missing or unknown key gets the 404 without them, and charges nothing", async () => {
    for (const token of [null, "fk_not-a-key"]) {
      const response = await get("/v1/nothing-here", token)
      assert.strictEqual(response.status, 404)
      assert.strictEqual((await errorOf(response)).code, "not_found")
      assert.isNull(response.headers.get("x-ratelimit-limit"))
    }
  })

  it("a key over its limit gets 429 with Retry-After on an unknown route too", async () => {
    const small = await createKey(storage, { name: "small", rateLimit: 2 })
    await awaitFreshRateWindow(10)
    for (let request = 0; request < 2; request++) {
      const response = await get("/v1/nothing-here", small)
      assert.strictEqual(response.status, 404)
      assert.strictEqual(response.headers.get("x-ratelimit-remaining"), String(1 - request))
    }
    const limited = await get("/v1/nothing-here", small)
    assert.strictEqual(limited.status, 429)
    assert.strictEqual((await errorOf(limited)).code, "rate_limit_exceeded")
    assertRateHeaders(limited, "2")
    const retryAfter = Number(limited.headers.get("retry-after"))
    assert.isTrue(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`)
  })
})

const Parameter = Schema.Struct({
  name: Schema.String,
  schema: Schema.Record({ key: Schema.String, value: Schema.Unknown })
})
const Response = Schema.Struct({
  description: Schema.String,
  content: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Struct({ schema: Schema.Unknown }) })),
  headers: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
})
const Operation = Schema.Struct({
  parameters: Schema.optional(Schema.Array(Parameter)),
  security: Schema.optional(Schema.Array(Schema.Record({ key: Schema.String, value: Schema.Unknown }))),
  responses: Schema.Record({ key: Schema.String, value: Response })
})
const OpenApiDocument = Schema.Struct({
  paths: Schema.Record({ key: Schema.String, value: Schema.Record({ key: Schema.String, value: Operation }) }),
  components: Schema.Struct({
    schemas: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
    headers: Schema.Record({ key: Schema.String, value: Schema.Unknown })
  })
})

describe("the OpenAPI document", () => {
  const documentOf = async () => jsonOf(OpenApiDocument, await fetch(`${server.url}/openapi.json`))
  const operationsOf = (spec: typeof OpenApiDocument.Encoded) =>
    Object.entries(spec.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ path, method, operation }))
    )

  it("declares no 501 on any route: every route in it is built", async () => {
    const spec = await documentOf()
    const with501 = operationsOf(spec).filter(({ operation }) => "501" in operation.responses)
    assert.deepStrictEqual(with501.map(({ method, path }) => `${method} ${path}`), [])
    assert.notInclude(JSON.stringify(spec), "not_implemented")
    assert.property(spec.paths["/v1/webhooks/{webhook_id}"], "get")
  })

  it("types limit, offset and before as integers and include_exhibits as a boolean", async () => {
    const parameters = operationsOf(await documentOf()).flatMap(({ method, operation, path }) =>
      (operation.parameters ?? []).map((parameter) => ({ at: `${method} ${path} ${parameter.name}`, ...parameter }))
    )
    const paging = parameters.filter((parameter) => ["limit", "offset", "before"].includes(parameter.name))
    assert.isAtLeast(paging.length, 8)
    for (const parameter of paging) assert.strictEqual(parameter.schema.type, "integer", parameter.at)
    const limits = paging.filter((parameter) => parameter.name === "limit").map((parameter) => parameter.schema)
    assert.isTrue(limits.every((schema) => schema.minimum === 1 && schema.maximum === 100), JSON.stringify(limits))
    const flags = parameters.filter((parameter) => parameter.name === "include_exhibits")
    assert.strictEqual(flags.length, 1)
    assert.strictEqual(flags[0]!.schema.type, "boolean")
  })

  it("names one ApiError schema, and every error response refers to it", async () => {
    const spec = await documentOf()
    const apiError = spec.components.schemas.ApiError as {
      properties: { error: { properties: { code: { enum: Array<string> }; message: unknown } } }
      required: Array<string>
    }
    assert.deepStrictEqual(apiError.required, ["error"])
    const codes = apiError.properties.error.properties.code.enum
    for (const code of ["invalid_request", "unauthorized", "document_not_found", "rate_limit_exceeded", "not_found"]) {
      assert.include(codes, code)
    }
    let errorResponses = 0
    for (const { method, operation, path } of operationsOf(spec)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue
        errorResponses++
        assert.deepStrictEqual(response.content, {
          "application/json": { schema: { $ref: "#/components/schemas/ApiError" } }
        }, `${method} ${path} ${status}`)
      }
    }
    assert.isAbove(errorResponses, 50)
    // No other schema describes an error envelope of its own.
    const envelopes = Object.entries(spec.components.schemas).filter(([, schema]) =>
      JSON.stringify(schema).includes("\"error\"")
    )
    assert.deepStrictEqual(envelopes.map(([name]) => name), ["ApiError"])
  })

  it("declares the X-RateLimit headers on the answers of authenticated routes, and Retry-After on 429", async () => {
    const spec = await documentOf()
    assert.includeMembers(Object.keys(spec.components.headers), [
      "X-RateLimit-Limit",
      "X-RateLimit-Remaining",
      "X-RateLimit-Reset",
      "Retry-After"
    ])
    const authenticated = operationsOf(spec).filter(({ operation }) =>
      (operation.security ?? []).some((requirement) => "apiKey" in requirement)
    )
    assert.isAtLeast(authenticated.length, 15)
    for (const { method, operation, path } of authenticated) {
      assert.property(operation.responses, "429", `${method} ${path}`)
      for (const [status, response] of Object.entries(operation.responses)) {
        if (status === "401") continue
        const at = `${method} ${path} ${status}`
        assert.includeMembers(Object.keys(response.headers ?? {}), [
          "X-RateLimit-Limit",
          "X-RateLimit-Remaining",
          "X-RateLimit-Reset"
        ], at)
        if (status === "429") assert.property(response.headers ?? {}, "Retry-After", at)
      }
    }
  })
})

describe("the docs page", () => {
  it("is one page from this server: no script, style, font or image from anywhere else", async () => {
    const response = await fetch(`${server.url}/docs`)
    assert.strictEqual(response.status, 200)
    const html = await response.text()
    // Outside the inlined script and the spec, any src or href would be a request the page makes.
    const markup = html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "")
    assert.notMatch(markup, /\b(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i)
    assert.notMatch(html, /<script\b[^>]*\bsrc=/i)
    assert.notMatch(html, /<link\b[^>]*\bhref=["']?(?:https?:)?\/\//i)
    // The page's settings: no web fonts (they come from fonts.scalar.com), bearer auth chosen.
    const configuration = /dataset\.configuration = JSON\.stringify\((\{.*?\})\)/.exec(html)?.[1]
    assert.isDefined(configuration)
    const settings = JSON.parse(configuration!) as Record<string, unknown>
    assert.strictEqual(settings.withDefaultFonts, false)
    assert.deepStrictEqual(settings.authentication, { preferredSecurityScheme: "apiKey" })
  })

  it.skipIf(chromiumPath === undefined)(
    "loads in Chromium asking nothing of other hosts, with no failed request, and bearer auth chosen",
    async () => {
      const page = await loadPage(`${server.url}/docs`, {
        expression: "document.body.innerText",
        settleMs: 3_000
      })
      const elsewhere = page.requests.filter((request) =>
        !request.url.startsWith(`${server.url}/`) && !request.url.startsWith("data:")
      )
      assert.deepStrictEqual(elsewhere, [])
      const failed = page.requests.filter((request) =>
        request.failure !== undefined || (request.status !== undefined && request.status >= 400)
      )
      assert.deepStrictEqual(failed, [])
      const text = String(page.evaluated)
      assert.include(text, "Filings API")
      assert.include(text, "Bearer Token")
      assert.notInclude(text, "No authentication selected")
    },
    90_000
  )
})
