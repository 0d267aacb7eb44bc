/**
 * What the feed's and the timeline's cursors share: a page's position with a fingerprint of the
 * filters it was read with (`f`), written as base64url JSON and read back only when it is exactly a
 * cursor that was written, for the same filters. Each cursor module says what its position holds.
 */
import { Either, Schema } from "effect"
import { createHash } from "node:crypto"

/** A fingerprint of filters already put in one canonical form: 22 base64url characters of their hash. */
export const fingerprintOf = (canonical: ReadonlyArray<unknown>): string =>
  createHash("sha256").update(JSON.stringify(canonical)).digest("base64url").slice(0, 22)

/** A position as a cursor: its JSON, in base64url. */
export const write = <A extends { readonly f: string }>(position: A): string =>
  Buffer.from(JSON.stringify(position)).toString("base64url")

/** Why a cursor was refused: not one that was written, or written for other filters. */
export type DecodeFailure = "malformed" | "other-filters"

/**
 * The position `cursor` holds, if `position` decodes it and `rewrite` (the module's own writer)
 * gives back the very same cursor, and if it was written for the filters of `filterFingerprint`.
 */
export const read = <A extends { readonly f: string }>(
  cursor: string,
  filterFingerprint: string,
  position: Schema.Schema<A, string>,
  rewrite: (position: A) => string
): Either.Either<A, DecodeFailure> => {
  // Node's base64url reader skips characters outside the alphabet; only an exact round trip is ours.
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, "base64url").toString("utf8") : ""
  const decoded = Schema.decodeUnknownEither(position)(text)
  if (Either.isLeft(decoded) || rewrite(decoded.right) !== cursor) return Either.left("malformed")
  if (decoded.right.f !== filterFingerprint) return Either.left("other-filters")
  return Either.right(decoded.right)
}
