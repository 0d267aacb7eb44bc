/**
 * The typed failures of signature verification. Messages say what was wrong with the request and
 * never contain a secret or a computed digest, so they can be logged and returned to the caller.
 */

/** `malformed`: the header is not a signature of our format; `mismatch`: no secret produced it. */
export type WebhookSignatureErrorCode = "malformed" | "mismatch"

/** Why a header was refused before any comparison: absent, another scheme, or not 64 hex digits. */
export type MalformedSignatureReason = "missing" | "prefix" | "digest"

/** Base of both failures: `instanceof WebhookSignatureError` (or `code`) tells them from programmer errors. */
export abstract class WebhookSignatureError extends Error {
  abstract readonly code: WebhookSignatureErrorCode
}

/** The signature header is absent or not exactly `sha256=` followed by 64 lowercase hexadecimal digits. */
export class MalformedSignatureError extends WebhookSignatureError {
  readonly code = "malformed"
  override readonly name = "MalformedSignatureError"
  readonly reason: MalformedSignatureReason

  constructor(reason: MalformedSignatureReason, message: string) {
    super(message)
    this.reason = reason
  }
}

/** The header is well formed but is not the HMAC of these bytes under any of the secrets tried. */
export class SignatureMismatchError extends WebhookSignatureError {
  readonly code = "mismatch"
  override readonly name = "SignatureMismatchError"
  /** How many secrets were tried (several during a rotation), never which ones. */
  readonly secretsTried: number

  constructor(secretsTried: number) {
    super(
      `the signature does not match the request body under ${
        secretsTried === 1 ? "the webhook secret" : `any of the ${secretsTried} webhook secrets`
      }: check the secret, and sign the raw body bytes as received (not re-serialized JSON)`
    )
    this.secretsTried = secretsTried
  }
}
