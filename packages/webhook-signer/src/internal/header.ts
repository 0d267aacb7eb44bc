/**
 * The `X-Service-Signature` value: `sha256=` and the 64 lowercase hexadecimal digits of the
 * HMAC-SHA256. Formatting and strict parsing live here; parsing accepts exactly one form, so a
 * signature has a single spelling and nothing lenient (case folding, trimming, lists) hides a bug.
 */
import { MalformedSignatureError } from "./errors.js"

export const signaturePrefix = "sha256="

const signatureFormat = /^sha256=[0-9a-f]{64}$/

/** `sha256=` and the MAC in lowercase hexadecimal. */
export const formatSignature = (mac: Uint8Array): string => {
  let hex = ""
  for (const byte of mac) hex += byte.toString(16).padStart(2, "0")
  return signaturePrefix + hex
}

/** The 32 MAC bytes of a well-formed header, or a `MalformedSignatureError` saying what is wrong. */
export const parseSignature = (header: string | null | undefined): Uint8Array => {
  if (header === null || header === undefined || header === "") {
    throw new MalformedSignatureError("missing", "the X-Service-Signature header is missing")
  }
  if (!header.startsWith(signaturePrefix)) {
    throw new MalformedSignatureError(
      "prefix",
      "the X-Service-Signature header must start with \"sha256=\" (lowercase, no spaces)"
    )
  }
  if (!signatureFormat.test(header)) {
    const digestLength = header.length - signaturePrefix.length
    throw new MalformedSignatureError(
      "digest",
      "the X-Service-Signature header must be \"sha256=\" followed by exactly 64 lowercase hexadecimal digits " +
        `and nothing else; got ${digestLength} characters after the prefix`
    )
  }
  const mac = new Uint8Array(32)
  for (let index = 0; index < mac.length; index++) {
    const offset = signaturePrefix.length + 2 * index
    mac[index] = Number.parseInt(header.slice(offset, offset + 2), 16)
  }
  return mac
}
