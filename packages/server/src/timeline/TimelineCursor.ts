/**
 * The `cursor` of the timeline: where a page ended (the last entry's date and its sort id) and a
 * fingerprint of the company and filters it was read with, written as base64url JSON. Clients treat
 * it as opaque. As the feed's cursor, it is not signed (any client may ask from any point of its
 * own query); the fingerprint only catches a cursor sent with other filters or for another company.
 */
import { Dates, type Timeline } from "@filings/domain"
import type { DocumentStore } from "@filings/storage"
import { Either, Schema } from "effect"
import * as PageCursor from "../http/PageCursor.js"

/**
 * What a cursor belongs to: the company (its central index key, whichever of its tickers the request
 * named it by) and the request's filters, without `limit` and `cursor`.
 */
export interface CursorFilters {
  readonly cik: string
  readonly types?: ReadonlyArray<Timeline.EntryType> | undefined
  readonly startDate?: string | undefined
  readonly endDate?: string | undefined
}

/** The same for requests that mean the same: types in any order, or repeated. */
export const fingerprint = (filters: CursorFilters): string =>
  PageCursor.fingerprintOf([
    filters.cik,
    filters.types === undefined ? null : [...new Set(filters.types)].sort(),
    filters.startDate ?? null,
    filters.endDate ?? null
  ])

const Position = Schema.parseJson(Schema.Struct({
  d: Dates.IsoDate,
  // No control characters: PostgreSQL refuses NUL in text, and no sort id has any.
  id: Schema.String.pipe(Schema.maxLength(120), Schema.pattern(/^[^\u0000-\u001f]*$/)),
  f: Schema.String
}))

/** The cursor of a page that ended at `key`. */
export const encode = (key: DocumentStore.DocumentKey, filterFingerprint: string): string =>
  PageCursor.write({ d: key.filingDate, id: key.publicationId, f: filterFingerprint })

/** Why a cursor was refused: not one this module wrote, or written for other filters. */
export type DecodeFailure = PageCursor.DecodeFailure

/** The position a cursor names, if it is one this module wrote for these filters. */
export const decode = (
  cursor: string,
  filterFingerprint: string
): Either.Either<DocumentStore.DocumentKey, DecodeFailure> =>
  Either.map(
    PageCursor.read(
      cursor,
      filterFingerprint,
      Position,
      ({ d, f, id }) => encode({ filingDate: d, publicationId: id }, f)
    ),
    ({ d, id }) => ({ filingDate: d, publicationId: id })
  )
