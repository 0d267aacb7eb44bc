// Rows read as the stored shapes of the ports. A shape's encoded side names the columns
// (`publication_id`, `as_of`), so a row decodes with the shape's own schema once its NULLs, which
// stand for absent optional fields, are dropped; brands and dates are checked on the way.
import { Effect, Schema } from "effect"
import type { ParseResult } from "effect"

const withoutNulls = (row: object): object =>
  Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null))

/**
 * `shape` read from a row: NULL columns are dropped first. Only top-level NULLs: a JSON column
 * keeps its own nulls (an exhibit reference's `url`).
 */
export const fromRow = <A, I, R>(shape: Schema.Schema<A, I, R>): Schema.Schema<A, object, R> =>
  Schema.compose(
    Schema.transform(Schema.Object, Schema.Object, { strict: true, decode: withoutNulls, encode: (row) => row }),
    shape,
    { strict: false }
  )

/** Decodes every row of a result as `shape` (see `fromRow`). */
export const rowsAs = <A, I>(shape: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknown(Schema.Array(fromRow(shape)))
  return <E, R>(rows: Effect.Effect<ReadonlyArray<unknown>, E, R>): Effect.Effect<
    ReadonlyArray<A>,
    E | ParseResult.ParseError,
    R
  > => Effect.flatMap(rows, decode)
}

/** A `count(*)::int AS total` column. */
export const Total = Schema.Struct({ total: Schema.Int })
