/**
 * The webhook receiver of `webhook-receiver-node.ts` written with Hono, whose handlers take a
 * Fetch `Request`: the same handler runs on Cloudflare Workers, Deno or Bun. Here it is served by
 * `node:http` through a small adapter, so the example needs nothing beyond `hono`.
 *
 *   FILINGS_WEBHOOK_SECRET=whsec_... PORT=8080 node --import tsx examples/webhook-receiver-hono.ts
 *
 * Each accepted event is printed as one JSON line.
 */
import { WebhookDelivery, WebhookSignature } from "@filings/webhook-signer"
import { Hono } from "hono"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"

const secret = process.env.FILINGS_WEBHOOK_SECRET
if (secret === undefined || secret === "") {
  console.error("set FILINGS_WEBHOOK_SECRET to the secret returned when the webhook was created")
  process.exit(1)
}
const port = Number(process.env.PORT ?? "8080")
const maxBodyBytes = 1024 * 1024

/** Delivery ids seen lately, bounded; production code keeps them in its database (a unique column). */
const seenDeliveryIds = new Set<string>()
const isFirstDelivery = (deliveryId: string): boolean => {
  if (seenDeliveryIds.has(deliveryId)) return false
  seenDeliveryIds.add(deliveryId)
  if (seenDeliveryIds.size > 10_000) seenDeliveryIds.delete(seenDeliveryIds.values().next().value ?? deliveryId)
  return true
}

/** The work an event causes; here, one JSON line on stdout. Runs after the 2xx has been sent. */
const handleEvent = (deliveryId: string, rawBody: Uint8Array) => {
  try {
    const payload = JSON.parse(new TextDecoder().decode(rawBody)) as WebhookDelivery.Payload
    console.log(JSON.stringify({
      delivery_id: deliveryId,
      event: payload.event,
      timestamp: payload.timestamp,
      data: payload.data
    }))
  } catch (error) {
    console.error(`delivery ${deliveryId}: the body is not the expected JSON: ${String(error)}`)
  }
}

const app = new Hono()

app.post("/webhooks", async (c) => {
  // The raw bytes, not `c.req.json()`: the signature covers the body exactly as sent.
  const rawBody = new Uint8Array(await c.req.arrayBuffer())
  if (!(await WebhookSignature.isValid(secret, rawBody, c.req.header(WebhookDelivery.signatureHeader)))) {
    return c.json({ error: "invalid signature" }, 401)
  }
  const deliveryId = c.req.header(WebhookDelivery.deliveryIdHeader)
  if (deliveryId === undefined) return c.json({ error: "missing delivery id" }, 400)
  if (!isFirstDelivery(deliveryId)) return c.json({ duplicate: true }, 200)
  // On Cloudflare Workers, hand this to `c.executionCtx.waitUntil` instead.
  setImmediate(() => handleEvent(deliveryId, rawBody))
  return c.body(null, 202)
})

// --- serving a Fetch handler with node:http ---

/** The Node request as a Fetch `Request`, its body read in full (and bounded) first. */
const toRequest = async (request: IncomingMessage): Promise<Request | undefined> => {
  const chunks: Array<Buffer> = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBodyBytes) return undefined
    chunks.push(chunk)
  }
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === "string") headers.set(name, value)
    else for (const item of value ?? []) headers.append(name, item)
  }
  const hasBody = request.method !== "GET" && request.method !== "HEAD"
  return new Request(new URL(request.url ?? "/", `http://${request.headers.host ?? "127.0.0.1"}`), {
    method: request.method ?? "GET",
    headers,
    ...(hasBody ? { body: Buffer.concat(chunks) } : {})
  })
}

const send = async (fetchResponse: Response, response: ServerResponse) => {
  response.writeHead(fetchResponse.status, Object.fromEntries(fetchResponse.headers))
  response.end(Buffer.from(await fetchResponse.arrayBuffer()))
}

const server = createServer((request, response) => {
  toRequest(request)
    .then((fetchRequest) => fetchRequest === undefined ? new Response(null, { status: 413 }) : app.fetch(fetchRequest))
    .then((fetchResponse) => send(fetchResponse, response))
    .catch((error: unknown) => {
      console.error(`the request failed: ${String(error)}`)
      if (!response.headersSent) response.writeHead(500).end()
    })
})

server.listen(port, "127.0.0.1", () => {
  const address = server.address()
  const boundPort = typeof address === "object" && address !== null ? address.port : port
  console.log(`listening on http://127.0.0.1:${boundPort}`)
})
