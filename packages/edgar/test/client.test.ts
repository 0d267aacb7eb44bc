/**
 * The EDGAR HTTP layer against a real local `node:http` server that plays the regulator: statuses,
 * error pages, broken bodies, slow bodies, gzip, and the arrival times of requests, measured where
 * the SEC would measure them. Nothing in the HTTP client is mocked. Timeouts and backoff are shrunk
 * through `EdgarClient.layerWith`, so the whole file runs in a few seconds of real time; the limiter's
 * own arithmetic is also checked on the TestClock.
 *
 * The regulator's error pages come from the shared corpus (`../shared/corpus/feeds`, see its
 * CATALOGUE.md); the tests that serve them are skipped where the corpus is absent.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import {
  Cause,
  Config,
  ConfigProvider,
  Context,
  Duration,
  Effect,
  Exit,
  Fiber,
  Layer,
  List,
  Logger,
  Metric,
  Option,
  Ref,
  TestClock
} from "effect"
import { readFileSync } from "node:fs"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { performance } from "node:perf_hooks"
import { gzipSync } from "node:zlib"
import { corpusMissing, corpusUrl } from "../../../test/support/corpus.js"
import * as EdgarClient from "../src/EdgarClient.js"
import * as EdgarConfig from "../src/EdgarConfig.js"
import {
  EdgarNotFound,
  EdgarRefused,
  EdgarUnavailable,
  MissingUserAgent,
  MissingUserAgentMessage
} from "../src/EdgarError.js"
import * as EdgarMetrics from "../src/EdgarMetrics.js"
import * as FairAccess from "../src/FairAccess.js"
import { classifyErrorPage } from "../src/internal/errorPages.js"

const corpus = new URL("feeds/", corpusUrl)
const corpusPage = (name: string): string => readFileSync(new URL(name, corpus), "utf8")

const userAgent = "Acme Research ops@acme.example"

// ---------------------------------------------------------------------------------------------------
// A stand-in for SEC.gov

interface Hit {
  readonly path: string
  /** performance.now() when the request reached the server. */
  readonly at: number
  /** 1 for the first request to this path, 2 for the second… */
  readonly nth: number
  readonly headers: IncomingMessage["headers"]
}

type Handler = (request: IncomingMessage, response: ServerResponse, hit: Hit) => void

interface TestServer {
  readonly url: string
  readonly hits: Array<Hit>
  readonly hitsTo: (path: string) => ReadonlyArray<Hit>
}

const startServer = (handler: Handler) =>
  Effect.acquireRelease(
    Effect.async<{ readonly server: Server; readonly testServer: TestServer }>((resume) => {
      const hits: Array<Hit> = []
      const server = createServer((request, response) => {
        const path = request.url ?? "/"
        const hit: Hit = {
          path,
          at: performance.now(),
          nth: hits.filter((earlier) => earlier.path === path).length + 1,
          headers: request.headers
        }
        hits.push(hit)
        handler(request, response, hit)
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({
          server,
          testServer: {
            url: `http://127.0.0.1:${port}`,
            hits,
            hitsTo: (path) => hits.filter((hit) => hit.path === path)
          }
        }))
      })
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ testServer }) => testServer))

const sendText = (response: ServerResponse, status: number, body: string | Uint8Array, contentType = "text/plain") => {
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body
  response.writeHead(status, { "content-type": contentType, "content-length": bytes.byteLength })
  response.end(bytes)
}

// ---------------------------------------------------------------------------------------------------
// The client under test, wired to a server with fast timings

const fastOptions: EdgarClient.Options = {
  headersTimeout: Duration.millis(500),
  bodyTimeout: Duration.millis(500),
  maxAttempts: 4,
  backoffBase: Duration.millis(10),
  backoffCap: Duration.millis(50),
  rateThresholdPause: Duration.millis(700),
  maxRetryAfter: Duration.seconds(2)
}

const clientLayer = (
  server: TestServer,
  overrides: { readonly config?: Partial<EdgarConfig.Settings>; readonly options?: EdgarClient.Options } = {}
) =>
  EdgarClient.layerWith({ ...fastOptions, ...overrides.options }).pipe(
    Layer.provide(Layer.mergeAll(FairAccess.layer, NodeHttpClient.layerUndici)),
    Layer.provide(EdgarConfig.layer({
      baseUrl: server.url,
      dataBaseUrl: `${server.url}/data-host`,
      userAgent: Option.some(userAgent),
      ...overrides.config
    }))
  )

/** The client, its layer built in the test's scope, so the HTTP connection pool lives as long as the test. */
const makeClient = (server: TestServer, overrides: Parameters<typeof clientLayer>[1] = {}) =>
  Effect.map(Layer.build(clientLayer(server, overrides)), (context) => Context.get(context, EdgarClient.EdgarClient))

/** Warnings logged while `effect` runs, with their annotations, so a test can check what retries said. */
const captureWarnings = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const warnings = yield* Ref.make<ReadonlyArray<{ message: string; annotations: Record<string, unknown> }>>([])
    const logger = Logger.make(({ annotations, logLevel, message }) => {
      if (logLevel._tag !== "Warning") return
      const text = List.toArray(message as List.List<unknown>).join(" ")
      Effect.runSync(
        Ref.update(warnings, (all) => [...all, { message: text, annotations: Object.fromEntries(annotations) }])
      )
    })
    const result = yield* Effect.provide(effect, Logger.replace(Logger.defaultLogger, logger))
    return { result, warnings: yield* Ref.get(warnings) }
  })

const failureOf = <A, E>(exit: Exit.Exit<A, E>): E => {
  if (Exit.isSuccess(exit)) return assert.fail("expected a failure, got a success")
  const failure = Cause.failureOption(exit.cause)
  return Option.isSome(failure) ? failure.value : assert.fail(`expected a typed failure: ${Cause.pretty(exit.cause)}`)
}

/** The largest number of arrivals within any window of `windowMillis` starting at an arrival. */
const busiestWindow = (arrivals: ReadonlyArray<number>, windowMillis: number): number => {
  const sorted = [...arrivals].sort((a, b) => a - b)
  return Math.max(0, ...sorted.map((start) => sorted.filter((t) => t >= start && t < start + windowMillis).length))
}

// ---------------------------------------------------------------------------------------------------

describe("EdgarClient against a local server", () => {
  it.scopedLive("a 200 text response comes back as text, with status and headers", () =>
    Effect.gen(function*() {
      const server = yield* startServer((_request, response) => sendText(response, 200, "EDGAR says hello"))
      const client = yield* makeClient(server)
      const response = yield* client.get({ path: "/Archives/edgar/hello.txt" })
      assert.strictEqual(response.status, 200)
      assert.strictEqual(response.url, `${server.url}/Archives/edgar/hello.txt`)
      assert.strictEqual(response.headers["content-type"], "text/plain")
      assert.strictEqual(yield* client.getText({ path: "/Archives/edgar/hello.txt" }), "EDGAR says hello")
      assert.strictEqual(server.hits.length, 2)
    }))

  it.scopedLive("the User-Agent arrives as configured, with Accept-Encoding, and host data goes to dataBaseUrl", () =>
    Effect.gen(function*() {
      const server = yield* startServer((_request, response) => sendText(response, 200, "{}", "application/json"))
      const client = yield* makeClient(server)
      yield* client.get({ path: "/cgi-bin/browse-edgar?action=getcurrent" })
      yield* client.get({ path: "/submissions/CIK0000320193.json", host: "data" })
      const [www, data] = server.hits
      assert.strictEqual(www?.path, "/cgi-bin/browse-edgar?action=getcurrent")
      assert.strictEqual(www?.headers["user-agent"], userAgent)
      assert.strictEqual(www?.headers["accept-encoding"], "gzip, deflate")
      assert.strictEqual(www?.headers["host"], server.url.replace("http://", ""))
      assert.strictEqual(www?.headers["traceparent"], undefined)
      assert.strictEqual(data?.path, "/data-host/submissions/CIK0000320193.json")
      assert.strictEqual(data?.headers["user-agent"], userAgent)
    }))

  it.scopedLive("404 fails with EdgarNotFound at once, without retrying", () =>
    Effect.gen(function*() {
      const server = yield* startServer((_request, response) => sendText(response, 404, "Not Found"))
      const client = yield* makeClient(server)
      const error = failureOf(yield* Effect.exit(client.get({ path: "/Archives/missing.txt" })))
      assert.instanceOf(error, EdgarNotFound)
      assert.strictEqual(error.url, `${server.url}/Archives/missing.txt`)
      assert.strictEqual(server.hits.length, 1)
    }))

  it.scopedLive("503 twice then 200: retried, logged with url and reason, and it succeeds", () =>
    Effect.gen(function*() {
      const server = yield* startServer((_request, response, hit) =>
        hit.nth <= 2 ? sendText(response, 503, "busy") : sendText(response, 200, "finally")
      )
      const client = yield* makeClient(server)
      const { result, warnings } = yield* captureWarnings(client.getText({ path: "/flaky" }))
      assert.strictEqual(result, "finally")
      assert.strictEqual(server.hits.length, 3)
      assert.strictEqual(warnings.length, 2)
      for (const warning of warnings) {
        assert.strictEqual(warning.annotations["url"], `${server.url}/flaky`)
        assert.strictEqual(warning.annotations["reason"], "HTTP 503")
        assert.notInclude(warning.message, "busy")
      }
    }))

  it.scopedLive("each attempt is counted by outcome in EdgarMetrics, and a 429 as a throttle", () =>
    Effect.gen(function*() {
      const server = yield* startServer((request, response, hit) => {
        if (request.url === "/missing") return sendText(response, 404, "Not Found")
        if (hit.nth === 1) {
          response.writeHead(429, { "retry-after": "0", "content-length": 0 })
          return response.end()
        }
        return hit.nth === 2 ? sendText(response, 503, "busy") : sendText(response, 200, "finally")
      })
      const client = yield* makeClient(server)
      const outcomes = ["ok", "too-many", "transient", "not-found"] as const
      const counted = Effect.all([
        ...outcomes.map((outcome) => Metric.value(Metric.tagged(EdgarMetrics.requests, "outcome", outcome))),
        Metric.value(Metric.tagged(EdgarMetrics.throttles, "kind", "too-many"))
      ]).pipe(Effect.map((states) => states.map((state) => state.count)))
      const before = yield* counted
      yield* captureWarnings(client.getText({ path: "/flaky" }))
      yield* Effect.exit(client.get({ path: "/missing" }))
      const after = yield* counted
      assert.deepStrictEqual(after.map((count, index) => Number(count) - Number(before[index])), [1, 1, 1, 1, 1])
    }))

  it.scopedLive("a server error on every attempt ends in EdgarUnavailable after maxAttempts", () =>
    Effect.gen(function*() {
      const server = yield* startServer((_request, response) => sendText(response, 502, "bad gateway"))
      const client = yield* makeClient(server)
      const error = failureOf(yield* Effect.exit(client.get({ path: "/down" })))
      assert.instanceOf(error, EdgarUnavailable)
      assert.strictEqual(error.status, 502)
      assert.strictEqual(error.errorPage, undefined)
      assert.strictEqual(server.hits.length, fastOptions.maxAttempts)
    }))

  it.scopedLive("EdgarClient.layerConfig takes its options from the Configs the caller names", () =>
    Effect.gen(function*() {
      const server = yield* startServer((_request, response) => sendText(response, 502, "bad gateway"))
      const configured = EdgarClient.layerConfig({
        maxAttempts: Config.integer("EDGAR_ATTEMPTS"),
        backoffBase: Config.succeed(Duration.millis(10))
      }).pipe(
        Layer.provide(Layer.mergeAll(FairAccess.layer, NodeHttpClient.layerUndici)),
        Layer.provide(EdgarConfig.layer({ baseUrl: server.url, userAgent: Option.some(userAgent) })),
        Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["EDGAR_ATTEMPTS", "2"]]))))
      )
      const client = Context.get(yield* Layer.build(configured), EdgarClient.EdgarClient)
      const error = failureOf(yield* Effect.exit(client.get({ path: "/down" })))
      assert.instanceOf(error, EdgarUnavailable)
      assert.strictEqual(server.hits.length, 2)
    }))

  it.scopedLive("Retry-After in seconds is honoured instead of the (much shorter) backoff", () =>
    Effect.gen(function*() {
      const server = yield* startServer((_request, response, hit) => {
        if (hit.nth === 1) {
          response.writeHead(429, { "retry-after": "1", "content-length": 0 })
          response.end()
        } else {
          sendText(response, 200, "ok")
        }
      })
      const client = yield* makeClient(server)
      assert.strictEqual(yield* client.getText({ path: "/slow-down" }), "ok")
      const [first, second] = server.hits
      assert.isAtLeast(second!.at - first!.at, 990)
    }))

  it.scopedLive("a body cut short (Content-Length 1000, 10 bytes, socket destroyed) is retried", () =>
    Effect.gen(function*() {
      const full = Buffer.alloc(1000, "x")
      const server = yield* startServer((_request, response, hit) => {
        if (hit.nth === 1) {
          response.writeHead(200, { "content-type": "text/plain", "content-length": 1000 })
          response.write(full.subarray(0, 10), () => response.socket?.destroy())
        } else {
          sendText(response, 200, full)
        }
      })
      const client = yield* makeClient(server)
      const { result, warnings } = yield* captureWarnings(client.get({ path: "/truncated" }))
      assert.strictEqual(result.body.byteLength, 1000)
      assert.strictEqual(server.hits.length, 2)
      assert.include(String(warnings[0]?.annotations["reason"]), "cut short")
    }))

  it.scopedLive("a trickling body that outlasts the body timeout fails as EdgarUnavailable", () =>
    Effect.gen(function*() {
      const server = yield* startServer((_request, response) => {
        response.writeHead(200, { "content-type": "text/plain", "content-length": 1000 })
        const trickle = setInterval(() => response.write("x"), 50)
        response.on("close", () => clearInterval(trickle))
      })
      const client = yield* makeClient(server, { options: { bodyTimeout: Duration.millis(300), maxAttempts: 2 } })
      const started = performance.now()
      const error = failureOf(yield* Effect.exit(client.get({ path: "/trickle" })))
      assert.instanceOf(error, EdgarUnavailable)
      assert.include(error.reason, "did not arrive within")
      assert.strictEqual(server.hits.length, 2)
      // Two attempts of ~300 ms each, not 1000 bytes × 50 ms.
      assert.isBelow(performance.now() - started, 2_000)
    }))

  it.scopedLive("no response headers within the headers timeout is retried, then EdgarUnavailable", () =>
    Effect.gen(function*() {
      const server = yield* startServer(() => {
        // Never answers.
      })
      const client = yield* makeClient(server, { options: { headersTimeout: Duration.millis(200), maxAttempts: 2 } })
      const error = failureOf(yield* Effect.exit(client.get({ path: "/silent" })))
      assert.instanceOf(error, EdgarUnavailable)
      assert.include(error.reason, "no response headers")
      assert.strictEqual(server.hits.length, 2)
    }))

  it.scopedLive("a refused connection is retried, then EdgarUnavailable", () =>
    Effect.gen(function*() {
      const server = yield* startServer((_request, response) => sendText(response, 200, "unused"))
      // A port that was just free: bind, note it, close, and point the client at it.
      const closed = yield* Effect.scoped(startServer(() => {}))
      const client = yield* makeClient(server, { config: { baseUrl: closed.url }, options: { maxAttempts: 2 } })
      const error = failureOf(yield* Effect.exit(client.get({ path: "/nobody-home" })))
      assert.instanceOf(error, EdgarUnavailable)
      assert.strictEqual(error.reason, "the connection failed")
    }))

  it.scopedLive("a gzip-encoded body is decompressed; an ISO-8859-1 charset is honoured", () =>
    Effect.gen(function*() {
      const text = "<feed>Société Générale ".repeat(200) + "</feed>"
      const server = yield* startServer((request, response) => {
        if (request.url === "/latin1") {
          sendText(response, 200, Buffer.from("Société", "latin1"), "text/html; charset=ISO-8859-1")
          return
        }
        const gzipped = gzipSync(Buffer.from(text, "utf8"))
        response.writeHead(200, {
          "content-type": "application/atom+xml",
          "content-encoding": "gzip",
          "content-length": gzipped.byteLength
        })
        response.end(gzipped)
      })
      const client = yield* makeClient(server)
      assert.strictEqual(yield* client.getText({ path: "/feed.atom" }), text)
      assert.strictEqual(yield* client.getText({ path: "/latin1" }), "Société")
    }))

  it.scopedLive("redirects are followed within EDGAR's hosts only", () =>
    Effect.gen(function*() {
      const server = yield* startServer((request, response) => {
        if (request.url === "/moved") {
          response.writeHead(301, { location: "/new-home", "content-length": 0 })
          response.end()
        } else if (request.url === "/elsewhere") {
          response.writeHead(302, { location: "http://localhost:1/steal", "content-length": 0 })
          response.end()
        } else {
          sendText(response, 200, "new home")
        }
      })
      const client = yield* makeClient(server)
      const moved = yield* client.get({ path: "/moved" })
      assert.strictEqual(moved.url, `${server.url}/new-home`)
      const error = failureOf(yield* Effect.exit(client.get({ path: "/elsewhere" })))
      assert.instanceOf(error, EdgarUnavailable)
      assert.strictEqual(error.reason, "redirected away from EDGAR")
      assert.deepStrictEqual(server.hits.map((hit) => hit.path), ["/moved", "/new-home", "/elsewhere"])
    }))

  it.scopedLive("without a User-Agent: MissingUserAgent, and the server sees no request", () =>
    Effect.gen(function*() {
      const server = yield* startServer((_request, response) => sendText(response, 200, "unused"))
      const unset = yield* makeClient(server, { config: { userAgent: Option.none() } })
      const unsetError = failureOf(yield* Effect.exit(unset.get({ path: "/anything" })))
      assert.instanceOf(unsetError, MissingUserAgent)
      assert.strictEqual(unsetError.message, MissingUserAgentMessage)
      assert.strictEqual(
        unsetError.message,
        "the User-Agent sent to EDGAR must name you and a contact e-mail, e.g. \"Acme Research ops@acme.example\" (the SEC's fair-access policy)"
      )
      const noEmail = yield* makeClient(server, { config: { userAgent: Option.some("Acme Research") } })
      const noEmailError = failureOf(yield* Effect.exit(noEmail.get({ path: "/anything" })))
      assert.instanceOf(noEmailError, MissingUserAgent)
      assert.strictEqual(noEmailError.problem, "no contact e-mail")
      assert.strictEqual(server.hits.length, 0)
    }))

  it.scopedLive("25 concurrent requests: never more than 10 arrive in any 1000 ms window", () =>
    Effect.gen(function*() {
      const server = yield* startServer((_request, response) => sendText(response, 200, "ok"))
      const client = yield* makeClient(server, { config: { maxRequestsPerSecond: 10 } })
      const bodies = yield* Effect.forEach(
        Array.from({ length: 25 }, (_, index) => index),
        (index) => client.getText({ path: `/burst/${index}` }),
        { concurrency: "unbounded" }
      )
      assert.strictEqual(bodies.length, 25)
      assert.strictEqual(server.hits.length, 25)
      const arrivals = server.hits.map((hit) => hit.at)
      assert.isAtMost(busiestWindow(arrivals, 1_000), 10)
      // And the limiter is not simply slow: the first ten go at once.
      assert.isBelow(arrivals[9]! - arrivals[0]!, 500)
    }))
})

describe.skipIf(corpusMissing)("the regulator's error pages from ../shared/corpus/feeds", () => {
  it("classifyErrorPage tells the three pages apart, whatever status carries the rate page", () => {
    const rate = corpusPage("sec-error-rate-exceeded.html")
    const undeclared = corpusPage("sec-error-undeclared-automated-tool.html")
    const pastEnd = corpusPage("sec-error-getcurrent-503-past-end.html")
    assert.strictEqual(classifyErrorPage(403, rate), "rate-threshold")
    assert.strictEqual(classifyErrorPage(429, rate), "rate-threshold")
    assert.strictEqual(classifyErrorPage(503, rate), "rate-threshold")
    assert.strictEqual(classifyErrorPage(200, rate), "rate-threshold")
    assert.strictEqual(classifyErrorPage(403, undeclared), "undeclared-tool")
    assert.strictEqual(classifyErrorPage(503, pastEnd), "unavailable")
    assert.strictEqual(classifyErrorPage(403, "<html><title>Forbidden</title></html>"), undefined)
    assert.strictEqual(classifyErrorPage(503, "Service Unavailable"), undefined)
    // A document that quotes the phrase in passing is not the page.
    assert.strictEqual(
      classifyErrorPage(200, "<html><title>Comment letter</title>… Request Rate Threshold Exceeded …"),
      undefined
    )
  })

  it.scopedLive("403 with the undeclared-tool page: EdgarRefused at once, telling the operator to fix the agent", () =>
    Effect.gen(function*() {
      const page = corpusPage("sec-error-undeclared-automated-tool.html")
      const server = yield* startServer((_request, response) => sendText(response, 403, page, "text/html"))
      const client = yield* makeClient(server)
      const error = failureOf(yield* Effect.exit(client.get({ path: "/Archives/edgar/data/320193/" })))
      assert.instanceOf(error, EdgarRefused)
      assert.strictEqual(error.reason, "undeclared automated tool")
      assert.include(error.message, "declare your organisation and a contact e-mail as the User-Agent")
      assert.notInclude(error.message, "Reference ID")
      assert.strictEqual(server.hits.length, 1)
    }))

  it.scopedLive("the rate-threshold page pauses every request in the process, then the request succeeds", () =>
    Effect.gen(function*() {
      const page = corpusPage("sec-error-rate-exceeded.html")
      let rateLimitedSentAt = Number.NaN
      let signalRateLimitedSent: () => void = () => {}
      const rateLimitedSent = new Promise<void>((resolve) => signalRateLimitedSent = resolve)
      const server = yield* startServer((request, response, hit) => {
        if (request.url === "/limited" && hit.nth === 1) {
          response.on("finish", () => {
            rateLimitedSentAt = performance.now()
            signalRateLimitedSent()
          })
          sendText(response, 403, page, "text/html")
        } else {
          sendText(response, 200, "ok")
        }
      })
      const client = yield* makeClient(server)
      const limited = yield* Effect.fork(client.getText({ path: "/limited" }))
      yield* Effect.promise(() => rateLimitedSent)
      // Let the client read the page and start the pause, then other fibers try their luck.
      yield* Effect.sleep(Duration.millis(50))
      const others = yield* Effect.forEach(
        [1, 2, 3, 4, 5],
        (index) => client.getText({ path: `/other/${index}` }),
        { concurrency: "unbounded" }
      )
      assert.deepStrictEqual(others, ["ok", "ok", "ok", "ok", "ok"])
      assert.strictEqual(yield* Fiber.join(limited), "ok")

      const pauseMillis = Duration.toMillis(fastOptions.rateThresholdPause!)
      const afterThePage = server.hits.filter((hit) => hit.at > rateLimitedSentAt)
      assert.strictEqual(afterThePage.length, 6) // the retry and the five others
      for (const hit of afterThePage) assert.isAtLeast(hit.at - rateLimitedSentAt, pauseMillis - 5, hit.path)
      assert.strictEqual(server.hitsTo("/limited").length, 2)
    }))

  it.scopedLive("the 503 'temporarily unavailable' page (getcurrent past the end) is marked on EdgarUnavailable", () =>
    Effect.gen(function*() {
      const page = corpusPage("sec-error-getcurrent-503-past-end.html")
      const server = yield* startServer((_request, response) => sendText(response, 503, page, "text/html"))
      const client = yield* makeClient(server, { options: { maxAttempts: 2 } })
      const error = failureOf(
        yield* Effect.exit(client.get({ path: "/cgi-bin/browse-edgar?action=getcurrent&start=5100&output=atom" }))
      )
      assert.instanceOf(error, EdgarUnavailable)
      assert.strictEqual(error.status, 503)
      assert.strictEqual(error.errorPage, "unavailable")
      assert.notInclude(error.message, "maintenance")
      assert.strictEqual(server.hits.length, 2)
    }))
})

describe("FairAccess on the TestClock", () => {
  it.effect("25 concurrent permits: at most 10 starts in any 1000 ms window, and all 25 start", () =>
    Effect.gen(function*() {
      const fairAccess = yield* FairAccess.make({ maxRequestsPerSecond: 10, window: Duration.seconds(1) })
      const starts: Array<number> = []
      const recordStart = Effect.map(TestClock.currentTimeMillis, (now) => void starts.push(now))
      const all = yield* Effect.fork(
        Effect.forEach(Array.from({ length: 25 }), () => fairAccess.withPermit(recordStart), {
          concurrency: "unbounded"
        })
      )
      for (let step = 0; step < 40; step++) yield* TestClock.adjust(Duration.millis(100))
      yield* Fiber.join(all)
      assert.strictEqual(starts.length, 25)
      assert.strictEqual(busiestWindow(starts, 1_000), 10)
      // Ten at once, the next ten a window later, the last five a window after that.
      assert.deepStrictEqual([...new Set(starts)], [0, 1_000, 2_000])
    }))

  it.effect("pause stops every start until it is over", () =>
    Effect.gen(function*() {
      const fairAccess = yield* FairAccess.make({ maxRequestsPerSecond: 10 })
      yield* fairAccess.pause(Duration.minutes(10))
      const started = yield* Effect.fork(fairAccess.withPermit(TestClock.currentTimeMillis))
      yield* TestClock.adjust(Duration.minutes(9))
      assert.isTrue(Option.isNone(yield* Fiber.poll(started)))
      yield* TestClock.adjust(Duration.minutes(1))
      assert.strictEqual(yield* Fiber.join(started), Duration.toMillis(Duration.minutes(10)))
    }))

  it.effect("a rate above the regulator's ceiling is held to 10 per window", () =>
    Effect.gen(function*() {
      const fairAccess = yield* FairAccess.make({ maxRequestsPerSecond: 50, window: Duration.seconds(1) })
      const starts: Array<number> = []
      const all = yield* Effect.fork(
        Effect.forEach(
          Array.from({ length: 20 }),
          () => fairAccess.withPermit(Effect.map(TestClock.currentTimeMillis, (now) => void starts.push(now))),
          { concurrency: "unbounded" }
        )
      )
      yield* TestClock.adjust(Duration.seconds(2))
      yield* Fiber.join(all)
      assert.strictEqual(busiestWindow(starts, 1_000), 10)
    }))
})

describe("FairAccess shared between processes", () => {
  // What a database gives the instances of a server: one sliding log of starts, and one pause.
  const sharedBudget = (): FairAccess.SharedStarts & { readonly starts: Array<number> } => {
    const starts: Array<number> = []
    let pausedUntil = 0
    return {
      starts,
      take: (limit, window) =>
        Effect.map(TestClock.currentTimeMillis, (now) => {
          if (pausedUntil > now) return pausedUntil - now
          const recent = starts.filter((start) => start > now - Duration.toMillis(window))
          if (recent.length >= limit) return recent[recent.length - limit]! + Duration.toMillis(window) - now
          starts.push(now)
          return 0
        }),
      pause: (duration) =>
        Effect.map(TestClock.currentTimeMillis, (now) => {
          pausedUntil = Math.max(pausedUntil, now + Duration.toMillis(duration))
        })
    }
  }

  it.effect("three gates on one budget start at most 10 requests in any window between them, and all start", () =>
    Effect.gen(function*() {
      const shared = sharedBudget()
      const gates = yield* Effect.all(
        Array.from(
          { length: 3 },
          () => FairAccess.make({ maxRequestsPerSecond: 10, window: Duration.seconds(1), shared })
        )
      )
      const starts: Array<number> = []
      const recordStart = Effect.map(TestClock.currentTimeMillis, (now) => void starts.push(now))
      const all = yield* Effect.fork(
        Effect.forEach(
          gates.flatMap((gate) => Array.from({ length: 15 }, () => gate)),
          (gate) => gate.withPermit(recordStart),
          {
            concurrency: "unbounded"
          }
        )
      )
      for (let step = 0; step < 60; step++) yield* TestClock.adjust(Duration.millis(100))
      yield* Fiber.join(all)
      assert.strictEqual(starts.length, 45)
      assert.strictEqual(busiestWindow(starts, 1_000), 10)
      assert.deepStrictEqual(starts, shared.starts, "every start was taken from the shared budget")
    }))

  it.effect("a shared start that comes back late is left unused, and the request goes on a fresh one", () =>
    Effect.gen(function*() {
      const shared = sharedBudget()
      let answers = 0
      // The first answer takes 80 ms to come back, more than the default window's 50 ms of room.
      const slow: FairAccess.SharedStarts = {
        take: (limit, window) =>
          Effect.tap(shared.take(limit, window), () => (answers++ === 0 ? Effect.sleep("80 millis") : Effect.void)),
        pause: shared.pause
      }
      const gate = yield* FairAccess.make({ maxRequestsPerSecond: 10, shared: slow })
      const started = yield* Effect.fork(gate.withPermit(TestClock.currentTimeMillis))
      yield* TestClock.adjust(Duration.millis(80))
      assert.strictEqual(yield* Fiber.join(started), 80)
      assert.deepStrictEqual(shared.starts, [0, 80], "the late start stays counted")
    }))

  it.effect("a pause on one gate stops the others", () =>
    Effect.gen(function*() {
      const shared = sharedBudget()
      const [paused, other] = yield* Effect.all([
        FairAccess.make({ maxRequestsPerSecond: 10, shared }),
        FairAccess.make({ maxRequestsPerSecond: 10, shared })
      ])
      yield* paused!.pause(Duration.minutes(10))
      const started = yield* Effect.fork(other!.withPermit(TestClock.currentTimeMillis))
      yield* TestClock.adjust(Duration.minutes(9))
      assert.isTrue(Option.isNone(yield* Fiber.poll(started)))
      yield* TestClock.adjust(Duration.minutes(1))
      assert.strictEqual(yield* Fiber.join(started), Duration.toMillis(Duration.minutes(10)))
    }))
})

describe("EdgarConfig.layer and layerConfig", () => {
  const load = (
    config: Parameters<typeof EdgarConfig.layerConfig>[0],
    env: Record<string, string> = {}
  ) =>
    Effect.exit(
      Effect.provide(EdgarConfig.EdgarConfig, EdgarConfig.layerConfig(config)).pipe(
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))
      )
    )

  it.effect("defaults: www.sec.gov, data.sec.gov, no agent, 2 s polling, 10 requests per second", () =>
    Effect.gen(function*() {
      for (const settings of [yield* EdgarConfig.EdgarConfig, yield* Effect.flatten(load({}))]) {
        assert.strictEqual(settings.baseUrl, "https://www.sec.gov")
        assert.strictEqual(settings.dataBaseUrl, "https://data.sec.gov")
        assert.isTrue(Option.isNone(settings.userAgent))
        assert.isTrue(Duration.equals(settings.pollInterval, Duration.seconds(2)))
        assert.strictEqual(settings.maxRequestsPerSecond, 10)
      }
    }).pipe(Effect.provide(EdgarConfig.layer())))

  it.effect("layer takes the settings given in code", () =>
    Effect.gen(function*() {
      const settings = yield* EdgarConfig.EdgarConfig
      assert.strictEqual(settings.baseUrl, "http://127.0.0.1:9")
      assert.strictEqual(settings.maxRequestsPerSecond, 4)
      assert.strictEqual(settings.dataBaseUrl, "https://data.sec.gov")
    }).pipe(Effect.provide(EdgarConfig.layer({ baseUrl: "http://127.0.0.1:9", maxRequestsPerSecond: 4 }))))

  it.effect("layerConfig reads the Configs the caller names, beside fixed ones; the agent is checked later", () =>
    Effect.gen(function*() {
      const settings = yield* Effect.flatten(load({
        baseUrl: Config.string("EDGAR_URL"),
        dataBaseUrl: Config.succeed("http://127.0.0.1:10"),
        userAgent: Config.option(Config.string("AGENT")),
        pollInterval: Config.number("POLL").pipe(Config.map(Duration.seconds)),
        maxRequestsPerSecond: Config.integer("RPS")
      }, {
        EDGAR_URL: "http://127.0.0.1:9",
        AGENT: userAgent,
        POLL: "0.5",
        RPS: "4",
        FILINGS_EDGAR_MAX_RPS: "7"
      }))
      assert.strictEqual(settings.baseUrl, "http://127.0.0.1:9")
      assert.strictEqual(settings.dataBaseUrl, "http://127.0.0.1:10")
      assert.isTrue(Duration.equals(settings.pollInterval, Duration.millis(500)))
      assert.strictEqual(settings.maxRequestsPerSecond, 4)
      assert.strictEqual(
        yield* Effect.provideService(EdgarConfig.requireUserAgent, EdgarConfig.EdgarConfig, settings),
        userAgent
      )
    }))

  it.effect("layerConfig: an optional setting left unset keeps its default", () =>
    Effect.gen(function*() {
      const settings = yield* Effect.flatten(load({
        baseUrl: Config.option(Config.string("EDGAR_URL")).pipe(Config.map(Option.getOrUndefined))
      }))
      assert.strictEqual(settings.baseUrl, "https://www.sec.gov")
    }))

  it.effect("layerConfig: a rate above 10 (or below 1, or not whole) or a zero poll interval is a configuration error", () =>
    Effect.gen(function*() {
      for (const rate of ["11", "0", "2.5"]) {
        const exit = yield* load({ maxRequestsPerSecond: Config.number("RPS") }, { RPS: rate })
        assert.isTrue(Exit.isFailure(exit), rate)
        assert.include(String(exit), EdgarConfig.maxRequestsPerSecondRule, rate)
      }
      const zero = yield* load({ pollInterval: Config.succeed(Duration.zero) })
      assert.isTrue(Exit.isFailure(zero))
      assert.include(String(zero), EdgarConfig.pollIntervalRule)
    }))

  it.effect("requireUserAgent wants a contact e-mail in the agent", () =>
    Effect.gen(function*() {
      const check = (agent: string) =>
        Effect.flip(Effect.provide(EdgarConfig.requireUserAgent, EdgarConfig.layer({ userAgent: Option.some(agent) })))
      assert.strictEqual((yield* check("python-requests/2.31")).problem, "no contact e-mail")
      assert.strictEqual((yield* check("   ")).problem, "unset")
      assert.strictEqual(
        yield* Effect.provide(
          EdgarConfig.requireUserAgent,
          EdgarConfig.layer({ userAgent: Option.some("Jane Doe jane.doe@example.org") })
        ),
        "Jane Doe jane.doe@example.org"
      )
    }))
})
