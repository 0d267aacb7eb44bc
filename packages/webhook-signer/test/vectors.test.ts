/**
 * Fixed vectors: (secret, body) pairs with their signatures computed once outside this library and
 * written down here, so a change in encoding (of the key, of a string body) cannot go unnoticed.
 *
 * They were obtained with OpenSSL 3.0 and cross-checked with Node's `createHmac`:
 *
 *   printf '%s' "$BODY" | openssl dgst -sha256 -hmac "$SECRET"      # text bodies, UTF-8 shell
 *   openssl dgst -sha256 -hmac binary-body-secret bytes-00-ff.bin    # the 256 bytes 0x00..0xff
 *
 * The `Jefe` case is RFC 4231's test case 2, published with its HMAC-SHA256.
 */
import { assert, describe, it } from "@effect/vitest"
import { WebhookSignature } from "@filings/webhook-signer"

const generatedSecret = "whsec_q3Jm8vX0cPz4YkL2nR7tWb9eHs1aUf6iGd5oQx3ZyC0"
const allByteValues = Uint8Array.from({ length: 256 }, (_, index) => index)

const vectors: ReadonlyArray<{
  readonly name: string
  readonly secret: string
  readonly body: string | Uint8Array
  readonly hex: string
}> = [
  {
    name: "a delivery envelope with a generated whsec_ secret (the prefix is part of the key)",
    secret: generatedSecret,
    body:
      "{\"event\":\"filing.new\",\"timestamp\":\"2024-11-05T21:05:00.000Z\",\"data\":{\"publication_id\":\"0000999001-24-000017\",\"ticker\":\"ACME\",\"doc_type\":\"8-K\"}}",
    hex: "2ef997f871ffae11d451bf8272a4e1dcd8535d8ef1da70a02e86d0d205c81e60"
  },
  {
    name: "a unicode body and a unicode secret, both UTF-8 encoded",
    secret: "s3cr3t-ключ",
    body: "{\"company\":\"Société Générale — 株式会社\",\"note\":\"🚀 résultats\"}",
    hex: "19da90cce125c1562e2c4777ae2881cbde23372cbfe83fa58953f0af8d85869a"
  },
  {
    name: "an empty body",
    secret: generatedSecret,
    body: "",
    hex: "46d75d2a323d7a78c895bf2339b0cd21d2475c5d6f5466da40a04edd98070b78"
  },
  {
    name: "a binary body of every byte value 0x00..0xff",
    secret: "binary-body-secret",
    body: allByteValues,
    hex: "bde6e912f76c8096e9757898ad3290a8303bf599a0a46aae067b463561f74c9e"
  },
  {
    name: "a secret longer than the 64-byte SHA-256 block (hashed into the key)",
    secret: `whsec_${"long-secret-".repeat(10)}`,
    body: "retry me",
    hex: "0d07770acd721e337b4e6d75b7d680467680b8cebb6e79d7bdcdb46d278c15e4"
  },
  {
    name: "RFC 4231 test case 2",
    secret: "Jefe",
    body: "what do ya want for nothing?",
    hex: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
  }
]

describe("fixed vectors", () => {
  for (const vector of vectors) {
    it(`signs and verifies ${vector.name}`, async () => {
      const header = `sha256=${vector.hex}`
      assert.strictEqual(await WebhookSignature.sign(vector.secret, vector.body), header)
      await WebhookSignature.verify(vector.secret, vector.body, header)
      assert.isTrue(await WebhookSignature.isValid(vector.secret, vector.body, header))
    })
  }

  it("gives the same signature for the same bytes as a string, Uint8Array, ArrayBuffer, Buffer or a view", async () => {
    const vector = vectors[1]!
    const text = vector.body as string
    const bytes = new TextEncoder().encode(text)
    const arrayBuffer = new ArrayBuffer(bytes.length)
    new Uint8Array(arrayBuffer).set(bytes)
    // A view into a larger buffer: only its own bytes are signed, not the whole backing buffer.
    const padded = new Uint8Array(bytes.length + 7)
    padded.set(bytes, 3)
    const header = `sha256=${vector.hex}`
    for (
      const body of [text, bytes, arrayBuffer, Buffer.from(text, "utf8"), padded.subarray(3, 3 + bytes.length)]
    ) {
      assert.strictEqual(await WebhookSignature.sign(vector.secret, body), header)
      await WebhookSignature.verify(vector.secret, body, header)
    }
  })
})
