/**
 * What an operator watches: `GET /metrics` in the Prometheus text format, closed to all but the
 * admin token's holder when one is set, whose series move with the work a real server does
 * (following the EDGAR replay through a 429, delivering webhooks to a receiver that keeps them
 * waiting, answering searches and a chat whose model fails); and traces sent to a local collector
 * over OTLP/HTTP, with the server's spans, a job's trace and its SQL, and no key in them.
 */
import { assert, describe, it } from "@effect/vitest"
import { randomBytes } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll } from "vitest"
import { type EdgarReplay, followEnv, startEdgarReplay } from "./support/edgarReplay.js"
import { createKey, type RunningServer, startServer, temporaryDataDir } from "./support/filings.js"
import { replayEightK } from "./support/syntheticEightK.js"
import { eventually } from "./support/waiting.js"
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhookReceiver.js"

const company = { cik: "0000999501", ticker: "OBSV", name: "OBSERVED INSTRUMENTS CORP" }

/** One sample of an exposition: its metric name, labels and value. */
interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

/** The samples of a Prometheus text exposition (comments skipped). */
const samplesOf = (text: string): ReadonlyArray<Sample> =>
  text.split("\n").flatMap((line) => {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (match === null) return []
    const labels = Object.fromEntries(
      [...(match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [
        key!,
        value!
      ])
    )
    return [{ name: match[1]!, labels, value: Number(match[3]) }]
  })

/** The sum of the samples of `name` that carry every label of `labels`. */
const total = (samples: ReadonlyArray<Sample>, name: string, labels: Record<string, string> = {}): number =>
  samples.filter((sample) =>
    sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value)
  ).reduce((sum, sample) => sum + sample.value, 0)

interface ExportedSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly attributes?: ReadonlyArray<{ readonly key: string; readonly value: Record<string, unknown> }>
}

describe("observability: /metrics and traces", () => {
  let replay: EdgarReplay
  let receiver: WebhookReceiver
  let scratch: Awaited<ReturnType<typeof temporaryDataDir>>
  let server: RunningServer
  let failingModel: Server
  let collector: Server
  let key: string
  const adminToken = randomBytes(24).toString("hex")
  /** Every body the collector received at `/v1/traces`, with its content type. */
  const exports: Array<{ readonly contentType: string | undefined; readonly body: string }> = []

  const listen = async (server: Server) => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }

  const scrape = async (): Promise<ReadonlyArray<Sample>> => {
    const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${adminToken}` } })
    assert.strictEqual(response.status, 200)
    return samplesOf(await response.text())
  }

  const asKey = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }
    })

  beforeAll(async () => {
    replay = await startEdgarReplay({ companyTickers: [company] })
    receiver = await startWebhookReceiver()
    // A model that always fails: every chat answer falls back to the extractive model.
    failingModel = createServer((_request, response) => response.writeHead(500).end())
    collector = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        if (request.url === "/v1/traces") {
          exports.push({ contentType: request.headers["content-type"], body: Buffer.concat(chunks).toString("utf8") })
        }
        response.writeHead(200, { "content-type": "application/json" }).end("{}")
      })
    })
    const modelUrl = `${await listen(failingModel)}/v1`
    const collectorUrl = await listen(collector)
    scratch = await temporaryDataDir()
    const storage = { dataDir: scratch.dataDir }
    key = await createKey(storage, { name: "observability", rateLimit: 100_000 })
    server = await startServer(storage, {
      ...followEnv(replay),
      NODE_EXTRA_CA_CERTS: receiver.certificateFile,
      FILINGS_WEBHOOK_ALLOW_HOSTS: "localhost",
      FILINGS_ADMIN_TOKEN: adminToken,
      FILINGS_CHAT_MODEL_URL: modelUrl,
      FILINGS_CHAT_MODEL: "failing-model",
      FILINGS_CHAT_MODEL_TIMEOUT: "2",
      OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "filings-under-test"
    })
  }, 120_000)

  afterAll(async () => {
    receiver?.releaseHeld(204)
    await server?.stop()
    await replay?.close()
    await receiver?.close()
    failingModel?.close()
    collector?.close()
    await scratch?.remove()
  })

  it("answers /metrics only with the admin token, in the Prometheus text format", async () => {
    const without = await fetch(`${server.url}/metrics`)
    assert.strictEqual(without.status, 401)
    assert.strictEqual(((await without.json()) as { error: { code: string } }).error.code, "unauthorized")
    const withKey = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${key}` } })
    assert.strictEqual(withKey.status, 401, "an API key is not the admin token")
    await withKey.arrayBuffer()

    const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${adminToken}` } })
    assert.strictEqual(response.status, 200)
    assert.strictEqual(response.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8")
    const text = await response.text()
    assert.include(text, "# TYPE filings_http_request_duration_seconds histogram")
    assert.include(text, "target_info{service_name=\"filings\"")
    assert.notInclude(text, adminToken)
    assert.notInclude(text, key)
  })

  it("moves its series with the work: requests, queues, EDGAR, webhooks, the model and search", async () => {
    const before = await scrape()
    const subscribed = await asKey("/v1/webhooks", {
      method: "POST",
      body: JSON.stringify({ url: receiver.url("/hooks"), events: ["filing.new"], filters: { tickers: ["OBSV"] } })
    })
    assert.strictEqual(subscribed.status, 201)
    // The receiver keeps the deliveries waiting, so they show as running jobs.
    receiver.answerWith(() => "hold")
    // The first submission fetched is refused with a 429: a throttle, then a retry.
    replay.injectFault(/\.txt$/, { kind: "status", status: 429, body: "Too Many Requests" }, 1)
    const filings = [replayEightK(company, 1), replayEightK(company, 2)]
    for (const published of filings) replay.publish(published)

    const whileHeld = await eventually("both deliveries to be held by the receiver", async () => {
      if (receiver.received.length < 2) return undefined
      const samples = await scrape()
      return total(samples, "filings_queue_jobs", { queue: "webhooks.deliveries", state: "running" }) >= 2
        ? samples
        : undefined
    }, 60_000)
    assert.isAtLeast(total(whileHeld, "filings_queue_oldest_due_age_seconds", { queue: "webhooks.deliveries" }), 0)
    receiver.answerWith(() => ({ status: 204 }))
    receiver.releaseHeld(204)

    for (const published of filings) {
      const response = await asKey(`/v1/documents/${published.accessionNumber}?format=metadata`)
      assert.strictEqual(response.status, 200)
      await response.arrayBuffer()
    }
    const missing = await asKey("/v1/documents/0000999501-26-999999")
    assert.strictEqual(missing.status, 404)
    await missing.arrayBuffer()
    const searched = await asKey("/v1/search?q=revenue&tickers=OBSV")
    assert.strictEqual(searched.status, 200)
    await searched.arrayBuffer()
    const chat = await asKey("/v1/chat", {
      method: "POST",
      body: JSON.stringify({ question: "What did Observed Instruments report?", tickers: ["OBSV"] })
    })
    assert.strictEqual(chat.status, 200)
    assert.notStrictEqual(((await chat.json()) as { model: string }).model, "failing-model")

    const after = await eventually("the deliveries to be recorded as delivered", async () => {
      const samples = await scrape()
      const delivered = total(samples, "filings_webhook_attempts_total", { outcome: "delivered" }) -
        total(before, "filings_webhook_attempts_total", { outcome: "delivered" })
      return delivered >= 2 &&
          total(samples, "filings_queue_jobs", { queue: "webhooks.deliveries", state: "running" }) === 0
        ? samples
        : undefined
    }, 30_000)
    const grew = (name: string, labels: Record<string, string> = {}) =>
      total(after, name, labels) - total(before, name, labels)

    assert.strictEqual(grew("filings_webhook_attempts_total", { outcome: "delivered" }), 2)
    assert.isAtLeast(
      grew("filings_http_request_duration_seconds_count", {
        method: "GET",
        route: "/v1/documents/:publication_id",
        status: "200"
      }),
      2
    )
    assert.strictEqual(
      grew("filings_http_request_duration_seconds_count", {
        method: "GET",
        route: "/v1/documents/:publication_id",
        status: "404"
      }),
      1
    )
    assert.strictEqual(
      grew("filings_http_request_duration_seconds_count", { method: "GET", route: "/v1/search", status: "200" }),
      1
    )
    assert.strictEqual(
      grew("filings_http_request_duration_seconds_count", { method: "POST", route: "/v1/chat", status: "200" }),
      1
    )
    assert.isAtLeast(grew("filings_edgar_requests_total", { outcome: "ok" }), 3, "the feed and both submissions")
    assert.strictEqual(grew("filings_edgar_requests_total", { outcome: "too-many" }), 1)
    assert.strictEqual(grew("filings_edgar_throttles_total", { kind: "too-many" }), 1)
    assert.strictEqual(grew("filings_edgar_lag_seconds_count"), 2)
    assert.strictEqual(grew("filings_model_answers_total", { use: "chat", outcome: "fallback" }), 1)
    assert.isAtLeast(grew("filings_search_duration_seconds_count"), 1)
    // No series names a raw path: routes are patterns.
    assert.deepStrictEqual(
      after.filter((sample) => sample.labels["route"]?.includes("0000999501") === true).map((sample) => sample.name),
      []
    )
  }, 120_000)

  it("sends traces to the collector: HTTP requests, jobs with their SQL, and no key", async () => {
    const spans = await eventually("a job's trace to reach the collector", async () => {
      const all = exports.flatMap(({ body }) =>
        (JSON.parse(body) as {
          resourceSpans: ReadonlyArray<{
            resource: { attributes: ReadonlyArray<{ key: string; value: { stringValue?: string } }> }
            scopeSpans: ReadonlyArray<{ spans: ReadonlyArray<ExportedSpan> }>
          }>
        }).resourceSpans.flatMap((resource) =>
          resource.scopeSpans.flatMap((scope) =>
            scope.spans.map((span) => ({
              ...span,
              service: resource.resource.attributes.find((attribute) => attribute.key === "service.name")?.value
                .stringValue
            }))
          )
        )
      )
      return all.some((span) => span.name === "job edgar.filings") ? all : undefined
    }, 30_000)
    assert.isTrue(exports.every((exported) => exported.contentType === "application/json"))
    assert.deepStrictEqual([...new Set(spans.map((span) => span.service))], ["filings-under-test"])
    assert.isTrue(spans.some((span) => span.name.startsWith("http.server")), "a span of an HTTP request")
    const job = spans.find((span) => span.name === "job edgar.filings")!
    const inTheJob = spans.filter((span) => span.traceId === job.traceId).map((span) => span.name)
    assert.include(inTheJob, "FilingProcessor.processFiling")
    assert.isTrue(inTheJob.some((name) => name.startsWith("sql.")), `the job's SQL: ${inTheJob.join(", ")}`)
    assert.isTrue(inTheJob.includes("EdgarClient.get"), `the job's request to EDGAR: ${inTheJob.join(", ")}`)
    for (const { body } of exports) {
      assert.notInclude(body, key)
      assert.notInclude(body, adminToken)
    }
  }, 60_000)
})
