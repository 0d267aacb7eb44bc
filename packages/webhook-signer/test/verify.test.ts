/**
 * What `verify` refuses and how: malformed headers before any comparison, mismatches (wrong secret,
 * changed bytes, re-serialized JSON), secret rotation, configuration errors, and errors that never
 * reveal a secret or a digest.
 */
import { assert, describe, it } from "@effect/vitest"
import { WebhookSignature } from "@filings/webhook-signer"
import { createHmac } from "node:crypto"

const secret = "whsec_q3Jm8vX0cPz4YkL2nR7tWb9eHs1aUf6iGd5oQx3ZyC0"
const body = "{\"event\":\"filing.new\",\"timestamp\":\"2024-11-05T21:05:00.000Z\",\"data\":{\"ticker\":\"ACME\"}}"
// Signed independently of the library under test.
const hexOf = (key: string | Uint8Array, bytes: string | Uint8Array) =>
  createHmac("sha256", key).update(bytes).digest("hex")
const digest = hexOf(secret, body)
const header = `sha256=${digest}`

/** The rejection of `promise`; fails the test when it resolves. */
const rejectionOf = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise
  } catch (error) {
    return error
  }
  return assert.fail("expected a rejection")
}

const malformedReason = async (value: string | null | undefined) => {
  const error = await rejectionOf(WebhookSignature.verify(secret, body, value))
  assert.instanceOf(error, WebhookSignature.MalformedSignatureError)
  assert.isTrue(error instanceof WebhookSignature.WebhookSignatureError)
  assert.strictEqual(error.code, "malformed")
  assert.strictEqual(error.name, "MalformedSignatureError")
  assert.isFalse(await WebhookSignature.isValid(secret, body, value))
  return error.reason
}

const assertMismatch = async (
  secrets: string | ReadonlyArray<string>,
  bytes: string | Uint8Array,
  value: string
) => {
  const error = await rejectionOf(WebhookSignature.verify(secrets, bytes, value))
  assert.instanceOf(error, WebhookSignature.SignatureMismatchError)
  assert.isTrue(error instanceof WebhookSignature.WebhookSignatureError)
  assert.strictEqual(error.code, "mismatch")
  assert.strictEqual(error.secretsTried, typeof secrets === "string" ? 1 : secrets.length)
  assert.isFalse(await WebhookSignature.isValid(secrets, bytes, value))
  return error
}

describe("malformed signature headers", () => {
  it("rejects a missing header", async () => {
    for (const value of [undefined, null, ""]) assert.strictEqual(await malformedReason(value), "missing")
  })

  it("rejects other schemes and prefixes that are not exactly lowercase sha256=", async () => {
    for (
      const value of [
        `sha1=${hexOf(secret, body).slice(0, 40)}`,
        `SHA256=${digest}`,
        `Sha256=${digest}`,
        `sha512=${digest}`,
        `v1=${digest}`,
        `t=1730840700,v1=${digest}`,
        ` ${header}`,
        `sha256 =${digest}`,
        digest
      ]
    ) assert.strictEqual(await malformedReason(value), "prefix", value)
  })

  it("rejects a digest that is not exactly 64 lowercase hexadecimal digits", async () => {
    // Uppercase hex is refused too: the spec writes lowercase, and one spelling per signature keeps it strict.
    for (
      const value of [
        "sha256=",
        `sha256=${digest.slice(0, 63)}`,
        `sha256=${digest}0`,
        `sha256=${digest}${digest}`,
        `sha256=${digest.toUpperCase()}`,
        `sha256=${digest.slice(0, 63)}g`,
        `sha256=${digest.slice(0, 62)}+/`,
        `sha256= ${digest}`,
        `sha256=${digest} `,
        `sha256=${digest}\n`,
        `sha256=${digest.slice(0, 32)} ${digest.slice(32)}`
      ]
    ) assert.strictEqual(await malformedReason(value), "digest", JSON.stringify(value))
  })

  it("rejects two signatures joined by a comma, even when one of them is valid", async () => {
    // Node joins a repeated header with ", "; a sender never sends two, so a list is refused outright.
    const other = `sha256=${hexOf("another secret", body)}`
    for (const value of [`${header}, ${other}`, `${other},${header}`, `${header},${header}`]) {
      assert.strictEqual(await malformedReason(value), "digest", value)
    }
  })

  it("checks the secrets first: a missing secret is a TypeError even when the header is malformed", async () => {
    assert.instanceOf(await rejectionOf(WebhookSignature.verify("", body, undefined)), TypeError)
  })
})

describe("signature mismatches", () => {
  it("accepts the right signature", async () => {
    await WebhookSignature.verify(secret, body, header)
    assert.isTrue(await WebhookSignature.isValid(secret, body, header))
  })

  it("rejects a signature made with another secret", async () => {
    await assertMismatch(secret, body, `sha256=${hexOf("whsec_someone-else", body)}`)
    await assertMismatch("whsec_someone-else", body, header)
  })

  it("uses the whole secret string as the key: not with whsec_ stripped or base64-decoded, not with a newline", async () => {
    const withoutPrefix = secret.slice("whsec_".length)
    await assertMismatch(secret, body, `sha256=${hexOf(withoutPrefix, body)}`)
    await assertMismatch(secret, body, `sha256=${hexOf(Buffer.from(withoutPrefix, "base64url"), body)}`)
    await assertMismatch(`${secret}\n`, body, header)
  })

  it("rejects the body with any one byte changed", async () => {
    const bytes = new TextEncoder().encode(body)
    for (let position = 0; position < bytes.length; position++) {
      const changed = bytes.slice()
      changed[position] = changed[position]! ^ 0x01
      await assertMismatch(secret, changed, header)
    }
    await assertMismatch(secret, bytes.subarray(0, bytes.length - 1), header)
    await assertMismatch(secret, `${body}\n`, header)
  })

  it("rejects re-serialized JSON: the same value written with other spacing is other bytes", async () => {
    const parsed = JSON.parse(body) as unknown
    for (const reserialized of [JSON.stringify(parsed, null, 2), JSON.stringify(parsed, null, "\t")]) {
      assert.deepStrictEqual(JSON.parse(reserialized), parsed)
      await assertMismatch(secret, reserialized, header)
    }
    const spaced =
      "{\"event\": \"filing.new\", \"timestamp\": \"2024-11-05T21:05:00.000Z\", \"data\": {\"ticker\": \"ACME\"}}"
    assert.deepStrictEqual(JSON.parse(spaced), parsed)
    await assertMismatch(secret, spaced, header)
  })

  it("rejects a signature with one digit changed", async () => {
    const last = digest.at(-1) === "0" ? "1" : "0"
    await assertMismatch(secret, body, `sha256=${digest.slice(0, 63)}${last}`)
    await assertMismatch(secret, body, `sha256=${"0".repeat(64)}`)
  })
})

describe("secret rotation", () => {
  const oldSecret = "whsec_old-3yJ0pQ8rX2vL6nB4mT9cW1eZ5aK7uF0h"
  const newSecret = "whsec_new-Vb8Nq2Xr5Lm0Tp7Yc3Wk9Ze1Ja4Hd6Fs"
  const signedWithOld = `sha256=${hexOf(oldSecret, body)}`
  const signedWithNew = `sha256=${hexOf(newSecret, body)}`

  it("accepts a signature made with any of the secrets, in any order", async () => {
    for (const secrets of [[oldSecret, newSecret], [newSecret, oldSecret]]) {
      await WebhookSignature.verify(secrets, body, signedWithOld)
      await WebhookSignature.verify(secrets, body, signedWithNew)
    }
    await WebhookSignature.verify([newSecret], body, signedWithNew)
  })

  it("rejects it when none of the secrets made it", async () => {
    await assertMismatch(["whsec_other"], body, signedWithOld)
    await assertMismatch([newSecret], body, signedWithOld)
    await assertMismatch(["whsec_a", "whsec_b", "whsec_c"], body, signedWithNew)
  })
})

describe("configuration errors", () => {
  it("an empty secret or secret list is a TypeError, not a verification failure", async () => {
    for (const secrets of ["", [], [secret, ""], [""]]) {
      const error = await rejectionOf(WebhookSignature.verify(secrets, body, header))
      assert.instanceOf(error, TypeError)
      assert.isFalse(error instanceof WebhookSignature.WebhookSignatureError)
      assert.instanceOf(await rejectionOf(WebhookSignature.isValid(secrets, body, header)), TypeError)
    }
    assert.instanceOf(await rejectionOf(WebhookSignature.sign("", body)), TypeError)
  })

  it("a secret that is not a string (an unset variable in JavaScript) is a TypeError", async () => {
    const unset = process.env["FILINGS_WEBHOOK_SECRET_THAT_IS_NOT_SET"] as string
    assert.instanceOf(await rejectionOf(WebhookSignature.verify(unset, body, header)), TypeError)
    assert.instanceOf(await rejectionOf(WebhookSignature.sign(unset, body)), TypeError)
  })
})

describe("error messages", () => {
  it("never contain a secret, the expected digest or the received digest", async () => {
    const wrongSecret = "whsec_wrong-secret-value-0123456789"
    const received = `sha256=${hexOf(wrongSecret, body)}`
    const errors = [
      await rejectionOf(WebhookSignature.verify(secret, body, received)),
      await rejectionOf(WebhookSignature.verify([secret, wrongSecret.slice(0, -1)], body, received)),
      await rejectionOf(WebhookSignature.verify(secret, body, `${received}0`)),
      await rejectionOf(WebhookSignature.verify(secret, body, `SHA256=${digest}`)),
      await rejectionOf(WebhookSignature.verify(secret, body, `sha256=${digest.toUpperCase()}`)),
      await rejectionOf(WebhookSignature.verify(secret, body, undefined)),
      await rejectionOf(WebhookSignature.verify([secret, ""], body, header))
    ]
    for (const error of errors) {
      assert.instanceOf(error, Error)
      const shown = `${String(error)}\n${error.stack ?? ""}\n${JSON.stringify(error)}`
      for (const secretPart of [secret, secret.slice(6), wrongSecret, wrongSecret.slice(6, -1)]) {
        assert.notInclude(shown, secretPart)
      }
      for (const hex of [digest, hexOf(wrongSecret, body)]) {
        assert.notInclude(shown.toLowerCase(), hex.slice(0, 16))
      }
    }
  })

  it("say what to check", async () => {
    const mismatch = await rejectionOf(WebhookSignature.verify(secret, `${body} `, header))
    assert.instanceOf(mismatch, WebhookSignature.SignatureMismatchError)
    assert.include(mismatch.message, "raw body")
    const rotation = await rejectionOf(WebhookSignature.verify(["whsec_a", "whsec_b"], body, header))
    assert.instanceOf(rotation, WebhookSignature.SignatureMismatchError)
    assert.include(rotation.message, "any of the 2 webhook secrets")
    const missing = await rejectionOf(WebhookSignature.verify(secret, body, undefined))
    assert.instanceOf(missing, Error)
    assert.include(missing.message, "X-Service-Signature header is missing")
  })
})
