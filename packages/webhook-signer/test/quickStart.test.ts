/**
 * The quick start of README.md, run for real so it cannot drift: the block between the markers
 * below must appear verbatim under the README's "Quick start" heading, and is run here on a
 * delivery signed with a known secret, then on a forged and an unsigned one.
 */
import { assert, describe, it } from "@effect/vitest"
import { itShowsQuickStart } from "../../../test/support/quickStart.js"

// README:promise:start
import { WebhookDelivery, WebhookSignature } from "@filings/webhook-signer"

// rawBody: the body's bytes as received, before any JSON parsing; headers: the request's Headers
export const verifiedPayload = async (secret: string, rawBody: Uint8Array, headers: Headers) => {
  await WebhookSignature.verify(secret, rawBody, headers.get(WebhookDelivery.signatureHeader)) // or rejects: 401
  return JSON.parse(new TextDecoder().decode(rawBody)) as WebhookDelivery.Payload // { event, timestamp, data }
}
// README:promise:end

const secret = "whsec_quick-start-example"
const payload = {
  event: "filing.new",
  timestamp: "2026-03-02T14:05:00Z",
  data: { publication_id: "0000320193-24-000123" }
}
const rawBody = new TextEncoder().encode(JSON.stringify(payload))

describe("README quick start", () => {
  itShowsQuickStart(import.meta.url, ["promise"])

  it("resolves with the payload of a delivery signed with the secret", async () => {
    const headers = new Headers({ [WebhookDelivery.signatureHeader]: await WebhookSignature.sign(secret, rawBody) })
    assert.deepStrictEqual(await verifiedPayload(secret, rawBody, headers), payload)
  })

  it("rejects a delivery whose body was changed, and one without a signature", async () => {
    const headers = new Headers({ [WebhookDelivery.signatureHeader]: await WebhookSignature.sign(secret, rawBody) })
    const forged = new TextEncoder().encode(JSON.stringify({ ...payload, event: "filing.updated" }))
    const mismatch = await verifiedPayload(secret, forged, headers).catch((error: unknown) => error)
    assert.instanceOf(mismatch, WebhookSignature.SignatureMismatchError)
    const unsigned = await verifiedPayload(secret, rawBody, new Headers()).catch((error: unknown) => error)
    assert.instanceOf(unsigned, WebhookSignature.MalformedSignatureError)
    assert.strictEqual((unsigned as WebhookSignature.MalformedSignatureError).reason, "missing")
  })
})
