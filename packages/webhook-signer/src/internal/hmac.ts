/**
 * HMAC-SHA256 through Web Crypto only (`globalThis.crypto.subtle`), so the same code runs on
 * Node.js 20+, Deno, Bun, browsers and edge workers. The key is the UTF-8 bytes of the whole
 * secret string, `whsec_` prefix included: no base64 decoding, unlike Standard Webhooks.
 */

/** What can be signed: the raw body bytes, or a string that is encoded as UTF-8. */
export type RawBody = Uint8Array | ArrayBuffer | string

const utf8 = new TextEncoder()

/** The bytes to authenticate. A string is UTF-8 encoded; it must be exactly the text that was sent. */
export const bodyBytes = (body: RawBody): Uint8Array =>
  typeof body === "string" ? utf8.encode(body) : body instanceof Uint8Array ? body : new Uint8Array(body)

const isNonEmptyString = (value: unknown): value is string => typeof value === "string" && value.length > 0

/**
 * The secrets to use, checked: a missing or empty secret is a configuration mistake (an unset
 * environment variable), reported as a `TypeError` rather than as a failed signature, so it is
 * noticed instead of rejecting every delivery as if it were forged.
 */
export const checkedSecrets = (secrets: string | ReadonlyArray<string>): ReadonlyArray<string> => {
  // Typed callers cannot pass anything else, but JavaScript callers and unset variables can.
  const list: ReadonlyArray<unknown> = typeof secrets === "string" ? [secrets] : Array.isArray(secrets) ? secrets : []
  if (list.length === 0) throw new TypeError("no webhook secret given: pass the secret, or a non-empty list of them")
  if (!list.every(isNonEmptyString)) {
    throw new TypeError("a webhook secret is empty or not a string: check the configuration")
  }
  return list
}

/** A non-extractable HMAC-SHA256 key made of the secret's UTF-8 bytes. */
const importSecret = (secret: string) =>
  globalThis.crypto.subtle.importKey("raw", utf8.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify"
  ])

/** The 32-byte HMAC-SHA256 of `bytes` under `secret`. */
export const hmacSha256 = async (secret: string, bytes: Uint8Array): Promise<Uint8Array> =>
  new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", await importSecret(secret), bytes))

/**
 * Whether `mac` is the HMAC-SHA256 of `bytes` under `secret`. `crypto.subtle.verify` compares in
 * constant time inside the platform, which spares us a hand-written comparison loop.
 */
export const hmacSha256Matches = async (secret: string, bytes: Uint8Array, mac: Uint8Array): Promise<boolean> =>
  globalThis.crypto.subtle.verify("HMAC", await importSecret(secret), mac, bytes)
