/**
 * A webhook receiver on plain `node:http`: it checks each delivery's signature on the raw body,
 * answers 401 to anything not signed with the subscription's secret, drops repeated deliveries by
 * their `X-Service-Delivery-Id`, answers 2xx at once and handles the event afterwards.
 *
 *   FILINGS_WEBHOOK_SECRET=whsec_... PORT=8080 node --import tsx examples/webhook-receiver-node.ts
 *
 * Each accepted event is printed as one JSON line. During a secret rotation, set
 * FILINGS_WEBHOOK_SECRET to the new secret and FILINGS_WEBHOOK_PREVIOUS_SECRET to the old one.
 */
import { WebhookDelivery, WebhookSignature } from "@filings/webhook-signer"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"

const secret = process.env.FILINGS_WEBHOOK_SECRET
if (secret === undefined || secret === "") {
  console.error("set FILINGS_WEBHOOK_SECRET to the secret returned when the webhook was created")
  process.exit(1)
}
const secrets = [secret, process.env.FILINGS_WEBHOOK_PREVIOUS_SECRET ?? ""].filter((value) => value !== "")
const port = Number(process.env.PORT ?? "8080")

// Deliveries are small JSON documents; refusing large bodies keeps a stranger from filling memory.
const maxBodyBytes = 1024 * 1024

/**
 * The delivery ids seen lately, oldest first, so the set stays bounded. A receiver that restarts or
 * runs on several machines records them in its database instead (a unique column), in the same
 * transaction as the work the event causes.
 */
const seenDeliveryIds = new Set<string>()
const maxSeenDeliveryIds = 10_000

/** Records `deliveryId`; `false` when it was already there. */
const isFirstDelivery = (deliveryId: string): boolean => {
  if (seenDeliveryIds.has(deliveryId)) return false
  seenDeliveryIds.add(deliveryId)
  if (seenDeliveryIds.size > maxSeenDeliveryIds) {
    for (const oldest of seenDeliveryIds) {
      seenDeliveryIds.delete(oldest)
      break
    }
  }
  return true
}

/** The body exactly as sent, or `undefined` when it is larger than `maxBodyBytes`. */
const readRawBody = async (request: IncomingMessage): Promise<Buffer | undefined> => {
  const chunks: Array<Buffer> = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxBodyBytes) return undefined
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

const headerValue = (request: IncomingMessage, name: string): string | undefined => {
  const value = request.headers[name.toLowerCase()]
  return typeof value === "string" ? value : undefined
}

const answer = (response: ServerResponse, status: number, body?: object) => {
  if (body === undefined) response.writeHead(status).end()
  else response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body))
}

/** The work an event causes; here, one JSON line on stdout. Runs after the 2xx has been sent. */
const handleEvent = (deliveryId: string, rawBody: Buffer) => {
  try {
    const payload = JSON.parse(rawBody.toString("utf8")) as WebhookDelivery.Payload
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

const receive = async (request: IncomingMessage, response: ServerResponse) => {
  if (request.method !== "POST" || request.url !== "/webhooks") return answer(response, 404)
  const rawBody = await readRawBody(request)
  if (rawBody === undefined) return answer(response, 413, { error: "body too large" })

  // Verify the bytes as received, before parsing: re-serialized JSON would not match.
  try {
    await WebhookSignature.verify(secrets, rawBody, headerValue(request, WebhookDelivery.signatureHeader))
  } catch (error) {
    // The message says what was wrong (missing, malformed, not matching) and never holds a secret.
    if (error instanceof WebhookSignature.WebhookSignatureError) {
      return answer(response, 401, { error: error.code, message: error.message })
    }
    throw error
  }

  const deliveryId = headerValue(request, WebhookDelivery.deliveryIdHeader)
  if (deliveryId === undefined) return answer(response, 400, { error: "missing delivery id" })
  // A retry of a delivery already handled: acknowledge it so the sender stops retrying.
  if (!isFirstDelivery(deliveryId)) return answer(response, 200, { duplicate: true })

  // Acknowledge first, work afterwards: a slow handler would make the sender time out and retry.
  answer(response, 202)
  setImmediate(() => handleEvent(deliveryId, rawBody))
}

const server = createServer((request, response) => {
  receive(request, response).catch((error: unknown) => {
    console.error(`the request failed: ${String(error)}`)
    if (!response.headersSent) answer(response, 500)
  })
})

server.listen(port, "127.0.0.1", () => {
  const address = server.address()
  const boundPort = typeof address === "object" && address !== null ? address.port : port
  console.log(`listening on http://127.0.0.1:${boundPort}`)
})
