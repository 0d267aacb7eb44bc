/**
 * `filings webhooks listen` end to end, as the README tells a developer to use it: the listener
 * makes its certificate and prints the variables for the server; a real server started with exactly
 * those delivers a filing's event to it over HTTPS; the listener, restarted with the
 * subscription's secret (the same certificate, reused), verifies the signature and prints the
 * delivery. A server without the trust step (`NODE_EXTRA_CA_CERTS` left out) fails the TLS
 * handshake instead: verification stays on.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { Webhooks } from "@filings/domain"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { request } from "node:https"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  cli,
  createKey,
  exampleEightK,
  repositoryRoot,
  type RunningServer,
  startServer,
  temporaryDataDir
} from "./support/filings.js"
import { jsonOf } from "./support/http.js"
import { eventually } from "./support/waiting.js"

const program = join(repositoryRoot, "packages/server/bin/filings.js")

interface Listening {
  readonly url: string
  readonly certificate: string
  readonly environment: Record<string, string>
  readonly verifies_signatures: boolean
}

interface Delivery {
  readonly delivery_id: string | null
  readonly event_type: string | null
  readonly signature: "verified" | "invalid" | "unchecked"
  readonly status: number
  readonly payload: { readonly event?: string; readonly data?: Record<string, unknown> } | null
}

interface Listener {
  readonly listening: Listening
  readonly deliveries: Array<Delivery>
  readonly stop: () => Promise<void>
}

/** Starts `filings webhooks listen --json` and waits for its "listening" line. */
const startListener = (args: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<Listener> =>
  new Promise((resolve, reject) => {
    const environment: NodeJS.ProcessEnv = { ...process.env, ...env }
    if (env.FILINGS_WEBHOOK_SECRET === undefined) delete environment.FILINGS_WEBHOOK_SECRET
    const child: ChildProcess = spawn(process.execPath, [program, "webhooks", "listen", "--json", ...args], {
      env: environment,
      cwd: repositoryRoot,
      stdio: ["ignore", "pipe", "pipe"]
    })
    const deliveries: Array<Delivery> = []
    let output = ""
    let pending = ""
    const timer = setTimeout(() => reject(new Error(`the listener did not start:\n${output}`)), 30_000)
    const stop = () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done()
        child.once("exit", () => done())
        child.kill("SIGTERM")
      })
    child.stderr?.on("data", (chunk) => (output += chunk))
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk
      pending += chunk
      const lines = pending.split("\n")
      pending = lines.pop() ?? ""
      for (const line of lines) {
        const record = JSON.parse(line) as { readonly event: string }
        if (record.event === "delivery") deliveries.push(record as unknown as Delivery)
        if (record.event === "listening") {
          clearTimeout(timer)
          resolve({ listening: record as unknown as Listening, deliveries, stop })
        }
      }
    })
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`the listener exited with ${code}:\n${output}`))
    })
  })

let certificateDir: string
const servers: Array<RunningServer> = []
const storages: Array<Awaited<ReturnType<typeof temporaryDataDir>>> = []
const listeners: Array<Listener> = []

beforeAll(async () => {
  certificateDir = await mkdtemp(join(tmpdir(), "filings-listener-"))
})

afterAll(async () => {
  for (const server of servers) await server.stop()
  for (const listener of listeners) await listener.stop()
  for (const storage of storages) await storage.remove()
  await rm(certificateDir, { recursive: true, force: true })
})

const serverWith = async (env: Record<string, string>) => {
  const storage = await temporaryDataDir()
  storages.push(storage)
  const server = await startServer(storage, env)
  servers.push(server)
  const key = await createKey(storage, { rateLimit: 10_000 })
  const subscribe = async (url: string) => {
    const response = await fetch(`${server.url}/v1/webhooks`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ url, events: ["filing.new"], filters: { tickers: ["ACME"] } })
    })
    assert.strictEqual(response.status, 201)
    return jsonOf(Webhooks.CreatedWebhook, response)
  }
  const ingestAcme = async () => {
    const ingested = await cli(storage, ["ingest", exampleEightK, "--ticker", "ACME"])
    assert.strictEqual(ingested.exitCode, 0, ingested.stderr)
  }
  const deliveryLog = async (hook: string) =>
    jsonOf(
      Webhooks.WebhookDeliveryList,
      await fetch(`${server.url}/v1/webhooks/${hook}/deliveries`, { headers: { authorization: `Bearer ${key}` } })
    )
  return { server, subscribe, ingestAcme, deliveryLog }
}

/** POSTs `body` to the listener with `signature`, trusting its certificate in this request only. */
const postToListener = (url: string, certificate: string, body: string, signature: string) =>
  new Promise<number>((resolve, reject) => {
    const sent = request(url, {
      method: "POST",
      ca: certificate,
      headers: {
        "content-type": "application/json",
        "x-service-signature": signature,
        "x-service-event": "filing.new",
        "x-service-delivery-id": "dlv_forged"
      }
    }, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    })
    sent.once("error", reject)
    sent.end(body)
  })

describe("filings webhooks listen", () => {
  it(
    "receives a real server's delivery over HTTPS with the printed variables, and verifies its signature",
    async () => {
      const first = await startListener(["--port", "0", "--certificate-dir", certificateDir])
      listeners.push(first)
      const { environment, url } = first.listening
      assert.deepStrictEqual(Object.keys(environment).sort(), ["FILINGS_WEBHOOK_ALLOW_HOSTS", "NODE_EXTRA_CA_CERTS"])
      assert.strictEqual(environment.FILINGS_WEBHOOK_ALLOW_HOSTS, "localhost")
      assert.strictEqual(environment.NODE_EXTRA_CA_CERTS, join(certificateDir, "certificate.pem"))
      assert.isFalse(first.listening.verifies_signatures)
      assert.match(url, /^https:\/\/localhost:\d+\/$/)

      // The server, started with exactly what the listener printed.
      const trusting = await serverWith(environment)
      const hook = await trusting.subscribe(url)

      // Restarted on the same port with the subscription's secret: the same certificate, reused.
      await first.stop()
      const port = new URL(url).port
      const listener = await startListener(["--port", port, "--certificate-dir", certificateDir], {
        FILINGS_WEBHOOK_SECRET: hook.secret
      })
      listeners.push(listener)
      assert.isTrue(listener.listening.verifies_signatures)
      assert.deepStrictEqual(listener.listening.environment, environment)

      await trusting.ingestAcme()
      const delivery = await eventually("a delivery at the listener", async () => listener.deliveries[0], 60_000)
      assert.strictEqual(delivery.signature, "verified")
      assert.strictEqual(delivery.status, 204)
      assert.strictEqual(delivery.event_type, "filing.new")
      assert.strictEqual(delivery.payload?.event, "filing.new")
      assert.strictEqual(delivery.payload?.data?.publication_id, "0000999001-24-000017")
      const log = await eventually("the delivery recorded as delivered", async () => {
        const { deliveries } = await trusting.deliveryLog(hook.id)
        return deliveries.find((entry) => entry.state === "delivered")
      })
      assert.strictEqual(log.id, delivery.delivery_id)

      // A body signed with another secret is refused, and not read.
      const certificate = await readFile(listener.listening.certificate, "utf8")
      const forged = await postToListener(url, certificate, "{\"event\":\"filing.new\"}", `sha256=${"0".repeat(64)}`)
      assert.strictEqual(forged, 401)
      const refused = await eventually(
        "the forged delivery printed",
        async () => listener.deliveries.find((entry) => entry.delivery_id === "dlv_forged")
      )
      assert.deepStrictEqual([refused.signature, refused.payload], ["invalid", null])
    },
    240_000
  )

  it("is not reached by a server that was not told to trust its certificate: the TLS handshake fails", async () => {
    const listener = listeners.at(-1)!
    const delivered = listener.deliveries.length
    const untrusting = await serverWith({ FILINGS_WEBHOOK_ALLOW_HOSTS: "localhost" })
    const hook = await untrusting.subscribe(listener.listening.url)
    await untrusting.ingestAcme()
    const failed = await eventually("a failed attempt in the delivery log", async () => {
      const { deliveries } = await untrusting.deliveryLog(hook.id)
      return deliveries.find((entry) => entry.attempts > 0 && entry.last_error !== null)
    }, 60_000)
    assert.match(failed.last_error ?? "", /^TLS failure \(/)
    assert.notStrictEqual(failed.state, "delivered")
    assert.strictEqual(listener.deliveries.length, delivered, "nothing reached the listener")
  }, 240_000)
})
