/**
 * The `cursor` of `POST /v1/feed`: where a page ended (the last item's time and id) and a
 * fingerprint of the filters it was read with, written as base64url JSON. Clients treat it as
 * opaque. The position is nothing secret (any client may ask from any point of its own query), so it
 * is not signed; the fingerprint only catches a cursor sent with other filters, whose position
 * would mean nothing there.
 */
import type { FeedStore } from "@filings/storage"
import { Either, Schema } from "effect"
import * as PageCursor from "../http/PageCursor.js"

/** The filters a cursor belongs to: a page's request without `limit` and `cursor`. */
export interface CursorFilters {
  readonly tickers: ReadonlyArray<string>
  readonly doc_types?: ReadonlyArray<string> | undefined
  readonly start_date?: string | undefined
  readonly end_date?: string | undefined
}

const sortedSet = (values: ReadonlyArray<string>) => [...new Set(values)].sort()

/**
 * The same for requests that mean the same: tickers and types in any order or repeated, and one
 * instant written in any of its forms.
 */
export const fingerprint = (filters: CursorFilters): string => {
  const endDate = filters.end_date === undefined || /^\d{4}-\d{2}-\d{2}$/.test(filters.end_date)
    ? filters.end_date ?? null
    : Date.parse(filters.end_date)
  return PageCursor.fingerprintOf([
    sortedSet(filters.tickers),
    filters.doc_types === undefined ? null : sortedSet(filters.doc_types),
    filters.start_date ?? null,
    endDate
  ])
}

/** The instants a `Date` can hold: a forged cursor beyond them must not reach the database. */
const maxMillis = 8_640_000_000_000_000

const Position = Schema.parseJson(Schema.Struct({
  t: Schema.Int.pipe(Schema.between(-maxMillis, maxMillis)),
  // No control characters: PostgreSQL refuses NUL in text, and no stored id has any.
  id: Schema.String.pipe(Schema.pattern(/^[^\u0000-\u001f]*$/)),
  f: Schema.String
}))

export const encode = (key: FeedStore.FeedKey, filterFingerprint: string): string =>
  PageCursor.write({ t: key.publishedAtMillis, id: key.id, f: filterFingerprint })

export type DecodeFailure = PageCursor.DecodeFailure

/** The position a cursor names, if it is one this module wrote for these filters. */
export const decode = (
  cursor: string,
  filterFingerprint: string
): Either.Either<FeedStore.FeedKey, DecodeFailure> =>
  Either.map(
    PageCursor.read(cursor, filterFingerprint, Position, ({ f, id, t }) => encode({ publishedAtMillis: t, id }, f)),
    ({ id, t }) => ({ publishedAtMillis: t, id })
  )
