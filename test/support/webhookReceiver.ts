/**
 * A customer's webhook receiver for tests: a real HTTPS server on loopback with a fresh self-signed
 * certificate for `localhost` and `127.0.0.1`. It records every request and answers as the test
 * says: a status (with headers, for redirects), or no answer at all until released (a slow
 * receiver). It can go down (stop listening, so connections are refused) and come back on the
 * same port.
 */
import { execFileSync } from "node:child_process"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import type { IncomingHttpHeaders, ServerResponse } from "node:http"
import { createServer } from "node:https"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

export interface ReceivedRequest {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
  /** Wall-clock time it arrived. */
  readonly atMillis: number
}

/** How to answer one request: a status and headers, or `"hold"` to keep it waiting until released. */
export type Answer = { readonly status: number; readonly headers?: Record<string, string> } | "hold"

export interface WebhookReceiver {
  readonly port: number
  /** `https://localhost:<port><path>`. */
  readonly url: (path: string) => string
  /** The PEM file of its certificate, for `NODE_EXTRA_CA_CERTS`. */
  readonly certificateFile: string
  /** The PEM text of its certificate, for a client in this process. */
  readonly certificate: string
  readonly received: Array<ReceivedRequest>
  /** Sets how requests are answered from now on (204 by default). */
  readonly answerWith: (answer: (request: ReceivedRequest) => Answer) => void
  /** Answers every held request with `status`. */
  readonly releaseHeld: (status: number) => void
  /** Stops listening and drops open connections: connections are refused until `up`. */
  readonly down: () => Promise<void>
  readonly up: () => Promise<void>
  readonly close: () => Promise<void>
}

export const startWebhookReceiver = async (): Promise<WebhookReceiver> => {
  const directory = await mkdtemp(join(tmpdir(), "filings-receiver-"))
  const keyFile = join(directory, "key.pem")
  const certificateFile = join(directory, "cert.pem")
  execFileSync("openssl", [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "1",
    "-subj",
    "/CN=localhost",
    "-addext",
    "subjectAltName=DNS:localhost,IP:127.0.0.1",
    "-keyout",
    keyFile,
    "-out",
    certificateFile
  ], { stdio: "ignore" })
  const certificate = await readFile(certificateFile, "utf8")

  const received: Array<ReceivedRequest> = []
  const held: Array<ServerResponse> = []
  let answer: (request: ReceivedRequest) => Answer = () => ({ status: 204 })

  const server = createServer({ key: await readFile(keyFile), cert: certificate }, (request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const arrived: ReceivedRequest = {
        path: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        atMillis: Date.now()
      }
      received.push(arrived)
      const given = answer(arrived)
      if (given === "hold") held.push(response)
      else response.writeHead(given.status, given.headers).end()
    })
  })
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject)
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject)
        resolve((server.address() as AddressInfo).port)
      })
    })
  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  const port = await listen(0)

  return {
    port,
    url: (path) => `https://localhost:${port}${path}`,
    certificateFile,
    certificate,
    received,
    answerWith: (next) => {
      answer = next
    },
    releaseHeld: (status) => {
      for (const response of held.splice(0)) if (!response.writableEnded) response.writeHead(status).end()
    },
    down: async () => {
      held.splice(0)
      await stopListening()
    },
    up: async () => {
      await listen(port)
    },
    close: async () => {
      held.splice(0)
      if (server.listening) await stopListening()
      await rm(directory, { recursive: true, force: true })
    }
  }
}
