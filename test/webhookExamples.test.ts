/**
 * The two example webhook receivers run as real programs: each is started with a secret on a free
 * port and sent deliveries signed here with `node:crypto` (independently of `@filings/webhook-signer`):
 * a good one is acknowledged and printed, its retry acknowledged but not printed again, and a bad or
 * missing signature is answered 401.
 */
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { createHmac, randomBytes } from "node:crypto"
import { join } from "node:path"
import { repositoryRoot } from "./support/filings.js"

interface RunningExample {
  readonly url: string
  /** The lines printed so far on stdout. */
  readonly lines: () => ReadonlyArray<string>
  /** Resolves with the first printed line that satisfies `test`, waiting for it up to 10 s. */
  readonly waitForLine: (test: (line: string) => boolean) => Promise<string>
  readonly stop: () => Promise<void>
}

/**
 * Starts `examples/<file>` and waits for its `listening on` line. `TSX_TSCONFIG_PATH` points tsx at
 * the test configuration, whose `paths` resolve `@filings/webhook-signer` to its sources, so the test
 * runs the current code without a build.
 */
const startExample = (file: string, secret: string): Promise<RunningExample> =>
  new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", join(repositoryRoot, "examples", file)], {
      cwd: repositoryRoot,
      env: {
        ...process.env,
        PORT: "0",
        FILINGS_WEBHOOK_SECRET: secret,
        TSX_TSCONFIG_PATH: join(repositoryRoot, "tsconfig.test.json")
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    const lines = () => stdout.split("\n").slice(0, -1)
    const waiters = new Set<() => void>()
    const stop = () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done()
        child.once("exit", () => done())
        child.kill("SIGTERM")
      })
    const waitForLine = (test: (line: string) => boolean) =>
      new Promise<string>((found, fail) => {
        const check = () => {
          const line = lines().find(test)
          if (line === undefined) return
          clearTimeout(timer)
          waiters.delete(check)
          found(line)
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          fail(new Error(`no such line within 10 s; stdout:\n${stdout}\nstderr:\n${stderr}`))
        }, 10_000)
        waiters.add(check)
        check()
      })
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`${file} did not start within 30 s:\n${stdout}${stderr}`))
    }, 30_000)
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk))
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk
      for (const waiter of [...waiters]) waiter()
      const listening = lines().map((line) => /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line)).find(Boolean)
      if (listening?.[1] === undefined) return
      clearTimeout(timer)
      resolve({ url: listening[1], lines, waitForLine, stop })
    })
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`${file} exited with ${code} before listening:\n${stdout}${stderr}`))
    })
  })

const signatureOf = (secret: string, body: string) =>
  `sha256=${createHmac("sha256", Buffer.from(secret, "utf8")).update(body, "utf8").digest("hex")}`

const delivery = (deliveryId: string, ticker: string) => ({
  deliveryId,
  body: JSON.stringify({
    event: "filing.new",
    timestamp: "2024-11-05T21:05:00.000Z",
    data: { publication_id: "0000999001-24-000017", ticker, doc_type: "8-K", note: "café 株式会社" }
  })
})

const post = (url: string, body: string, headers: Record<string, string>) =>
  fetch(`${url}/webhooks`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-service-event": "filing.new", ...headers },
    body
  })

const linesOf = (example: RunningExample, deliveryId: string) =>
  example.lines().filter((line) => line.includes(`"delivery_id":"${deliveryId}"`))

for (const file of ["webhook-receiver-node.ts", "webhook-receiver-hono.ts"]) {
  describe(`examples/${file}`, () => {
    const secret = `whsec_${randomBytes(32).toString("base64url")}`
    let example: RunningExample

    beforeAll(async () => {
      example = await startExample(file, secret)
    })
    afterAll(async () => {
      await example?.stop()
    })

    /** Posts a delivery to the example, signed with the secret as the service signs it. */
    const postSigned = (sent: ReturnType<typeof delivery>) =>
      post(example.url, sent.body, {
        "x-service-signature": signatureOf(secret, sent.body),
        "x-service-delivery-id": sent.deliveryId
      })

    it("acknowledges a signed delivery and prints its event once, even when it is delivered again", async () => {
      const first = delivery(`dlv_${randomBytes(8).toString("hex")}`, "ACME")
      const accepted = await postSigned(first)
      assert.isTrue(accepted.ok, `status ${accepted.status}`)
      const line = await example.waitForLine((printed) => printed.includes(first.deliveryId))
      assert.deepStrictEqual(JSON.parse(line), { delivery_id: first.deliveryId, ...JSON.parse(first.body) })

      const retry = await postSigned(first)
      assert.isTrue(retry.ok, `status ${retry.status}`)

      // Events are handled in the order they arrive, so once a later delivery is printed a
      // duplicate of the first would have been printed too.
      const second = delivery(`dlv_${randomBytes(8).toString("hex")}`, "BETA")
      const secondResponse = await postSigned(second)
      assert.isTrue(secondResponse.ok, `status ${secondResponse.status}`)
      await example.waitForLine((printed) => printed.includes(second.deliveryId))
      assert.lengthOf(linesOf(example, first.deliveryId), 1)
    })

    it("answers 401 to a bad, missing or re-serialized signature and prints nothing", async () => {
      const forged = delivery(`dlv_${randomBytes(8).toString("hex")}`, "EVIL")
      const attempts: ReadonlyArray<Record<string, string>> = [
        { "x-service-signature": signatureOf("whsec_not-the-secret", forged.body) },
        { "x-service-signature": signatureOf(secret, `${forged.body} `) },
        { "x-service-signature": signatureOf(secret, JSON.stringify(JSON.parse(forged.body), null, 2)) },
        { "x-service-signature": signatureOf(secret, forged.body).toUpperCase() },
        {}
      ]
      for (const signature of attempts) {
        const response = await post(example.url, forged.body, {
          ...signature,
          "x-service-delivery-id": forged.deliveryId
        })
        assert.strictEqual(response.status, 401, JSON.stringify(signature))
        await response.arrayBuffer()
      }

      // The forged id was not recorded: the genuine delivery with that id still goes through.
      const genuine = await postSigned(forged)
      assert.isTrue(genuine.ok, `status ${genuine.status}`)
      await example.waitForLine((printed) => printed.includes(forged.deliveryId))
      assert.lengthOf(linesOf(example, forged.deliveryId), 1)
    })
  })
}
