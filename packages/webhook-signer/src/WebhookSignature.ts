/**
 * Signs and verifies webhook deliveries: `X-Service-Signature: sha256=<hex>` holds the lowercase
 * hexadecimal HMAC-SHA256 of the raw request body, keyed with the UTF-8 bytes of the subscription
 * secret exactly as it was returned at creation.
 *
 * Always pass the body bytes as received, before any JSON parsing: the same JSON written with other
 * spacing or key order is other bytes and does not verify.
 *
 * @module
 */
import {
  MalformedSignatureError,
  type MalformedSignatureReason,
  SignatureMismatchError,
  WebhookSignatureError,
  type WebhookSignatureErrorCode
} from "./internal/errors.js"
import { formatSignature, parseSignature } from "./internal/header.js"
import { bodyBytes, checkedSecrets, hmacSha256, hmacSha256Matches, type RawBody } from "./internal/hmac.js"

export {
  MalformedSignatureError,
  type MalformedSignatureReason,
  type RawBody,
  SignatureMismatchError,
  WebhookSignatureError,
  type WebhookSignatureErrorCode
}

/** The failures of `verify`; anything else it throws (a `TypeError`) is a programming or configuration error. */
export type VerifyError = MalformedSignatureError | SignatureMismatchError

/**
 * The `X-Service-Signature` value for `rawBody`: `"sha256="` and 64 lowercase hexadecimal digits.
 * A string body is encoded as UTF-8 and must be exactly the text sent. Rejects with a `TypeError`
 * when the secret is empty.
 */
export const sign = async (secret: string, rawBody: RawBody): Promise<string> => {
  checkedSecrets(secret)
  return formatSignature(await hmacSha256(secret, bodyBytes(rawBody)))
}

/**
 * Resolves when `header` is the signature of `rawBody` under `secret`, or under any one of several
 * secrets while a secret is being rotated. Rejects with:
 *
 * - `MalformedSignatureError` when the header is missing or is not exactly `sha256=` and 64
 *   lowercase hexadecimal digits (no other prefix case, no spaces, no comma-separated list);
 * - `SignatureMismatchError` when no secret produced it;
 * - `TypeError` when no secret, or an empty one, is given (a configuration error, not a forgery).
 *
 * Every secret is checked, each with Web Crypto's constant-time comparison, whichever matches, so
 * the time taken does not tell which secret matched.
 */
export const verify = async (
  secret: string | ReadonlyArray<string>,
  rawBody: RawBody,
  header: string | null | undefined
): Promise<void> => {
  const secrets = checkedSecrets(secret)
  const mac = parseSignature(header)
  const bytes = bodyBytes(rawBody)
  const matches = await Promise.all(secrets.map((key) => hmacSha256Matches(key, bytes, mac)))
  if (!matches.includes(true)) throw new SignatureMismatchError(secrets.length)
}

/**
 * `verify` as a boolean: `false` for a malformed or non-matching signature. A `TypeError` (no
 * secret, an empty secret) still rejects, so a misconfigured receiver fails loudly.
 */
export const isValid = async (
  secret: string | ReadonlyArray<string>,
  rawBody: RawBody,
  header: string | null | undefined
): Promise<boolean> => {
  try {
    await verify(secret, rawBody, header)
    return true
  } catch (error) {
    if (error instanceof WebhookSignatureError) return false
    throw error
  }
}
