/**
 * Agreement with independent implementations: Node's OpenSSL-backed `createHmac` on random
 * secrets and bodies, and `@octokit/webhooks-methods` (GitHub's `X-Hub-Signature-256` uses the
 * same `sha256=<hex>` scheme) in both directions.
 */
import { assert, describe, it } from "@effect/vitest"
import { WebhookSignature } from "@filings/webhook-signer"
import { sign as octokitSign, verify as octokitVerify } from "@octokit/webhooks-methods"
import { createHmac } from "node:crypto"

// A seeded generator, so a failing case can be reproduced from its index.
const generator = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
const random = generator(20241105)
const integer = (below: number) => Math.floor(random() * below)
const randomBytes = (length: number) => Uint8Array.from({ length }, () => integer(256))

// Code points from every UTF-8 length (1 to 4 bytes), surrogates excluded so strings are well formed.
const randomText = (length: number) => {
  let text = ""
  for (let index = 0; index < length; index++) {
    const range = integer(4)
    const codePoint = range === 0
      ? 0x20 + integer(0x5f)
      : range === 1
      ? 0x80 + integer(0x780)
      : range === 2
      ? 0xe000 + integer(0x2000)
      : 0x10000 + integer(0xfffff)
    text += String.fromCodePoint(codePoint)
  }
  return text
}

const randomSecret = () =>
  random() < 0.5
    ? `whsec_${Buffer.from(randomBytes(32 + integer(16))).toString("base64url")}`
    : randomText(1 + integer(80))

const nodeSignature = (secret: string, body: Uint8Array) =>
  `sha256=${createHmac("sha256", Buffer.from(secret, "utf8")).update(body).digest("hex")}`

describe("agreement with node:crypto createHmac", () => {
  it("signs and verifies 200 random (secret, body) pairs as createHmac does", async () => {
    for (let index = 0; index < 200; index++) {
      const secret = randomSecret()
      const bytes = random() < 0.3 ? new TextEncoder().encode(randomText(integer(300))) : randomBytes(integer(2000))
      const expected = nodeSignature(secret, bytes)
      const body = index % 3 === 0 ? bytes : index % 3 === 1 ? bytes.slice().buffer : Buffer.from(bytes)
      assert.strictEqual(await WebhookSignature.sign(secret, body), expected, `case ${index}`)
      await WebhookSignature.verify(secret, body, expected)
      if (bytes.length > 0) {
        const tampered = bytes.slice()
        const position = integer(tampered.length)
        tampered[position] = tampered[position]! ^ (1 << integer(8))
        assert.isFalse(await WebhookSignature.isValid(secret, tampered, expected), `case ${index} tampered`)
      }
    }
  })
})

describe("agreement with @octokit/webhooks-methods", () => {
  const cases = Array.from({ length: 50 }, (_, index) => ({
    secret: randomSecret(),
    // octokit takes non-empty string payloads only
    payload: index === 0 ? "{\"event\":\"filing.new\"}" : randomText(1 + integer(400))
  }))

  it("octokit verifies what we sign", async () => {
    for (const { payload, secret } of cases) {
      const signature = await WebhookSignature.sign(secret, payload)
      assert.isTrue(await octokitVerify(secret, payload, signature))
      assert.isFalse(await octokitVerify(secret, `${payload} `, signature))
    }
  })

  it("we verify what octokit signs", async () => {
    for (const { payload, secret } of cases) {
      const signature = await octokitSign(secret, payload)
      await WebhookSignature.verify(secret, payload, signature)
      assert.isFalse(await WebhookSignature.isValid(`${secret}x`, payload, signature))
    }
  })
})
