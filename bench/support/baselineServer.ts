/**
 * The baseline of the HTTP benchmark: a bare `node:http` server that answers each recorded request
 * target with the status, headers and body bytes the real server gave for it, held as constants.
 * What it costs per request is what Node's HTTP stack costs, so the real server's distance from it
 * is the cost of everything Filings does (routing, auth, rate limit, query, encoding).
 *
 * Run as its own process: `node --import tsx bench/support/baselineServer.ts ROUTES.json`. It
 * prints `{"event":"listening","url":...}` like `filings serve --json`, and stops on SIGTERM.
 */
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { decodeRecordedResponses, type RecordedResponse } from "./recordedResponse.js"

interface ConstantResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string | number>>
  readonly body: Buffer
}

const routesFile = process.argv[2]
if (routesFile === undefined) {
  process.stderr.write("usage: baselineServer.ts ROUTES.json\n")
  process.exit(2)
}

const toConstant = (recorded: RecordedResponse): ConstantResponse => {
  const body = Buffer.from(recorded.bodyBase64, "base64")
  return { status: recorded.status, headers: { ...recorded.headers, "content-length": body.length }, body }
}

const routes = new Map(
  decodeRecordedResponses(readFileSync(routesFile, "utf8")).map((recorded) => [recorded.target, toConstant(recorded)])
)
const notFound = Buffer.from("not a recorded target\n")

const server = createServer((request, response) => {
  const route = routes.get(request.url ?? "")
  if (route === undefined) {
    response.writeHead(404, { "content-type": "text/plain", "content-length": notFound.length }).end(notFound)
    return
  }
  response.writeHead(route.status, route.headers).end(route.body)
})

server.listen(0, "127.0.0.1", () => {
  const { address, port } = server.address() as AddressInfo
  process.stdout.write(`${JSON.stringify({ event: "listening", url: `http://${address}:${port}` })}\n`)
})

process.once("SIGTERM", () => {
  server.close(() => process.exit(0))
  server.closeAllConnections()
})
