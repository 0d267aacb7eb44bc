// Rows read as the stored shapes of the ports. A shape's encoded side names the columns
// (`publication_id`, `as_of`), so a row decodes with the shape's own schema once its NULLs, which
// stand for absent optional fields, are dropped; brands and dates are checked on the way.
import type { SqlClient, Statement } from "@effect/sql"
import type { Ids } from "@filings/domain"
import { DocumentStore } from "@filings/storage"
import { Effect, Either, identity, Option, ParseResult, Schema, SchemaAST } from "effect"

const withoutNulls = (row: object): object => {
  const columns: Record<string, unknown> = {}
  for (const [column, value] of Object.entries(row)) {
    if (value !== null) columns[column] = value
  }
  return columns
}

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

type Decoder = (input: unknown) => Either.Either<unknown, unknown>

// A field of a struct: the key it is read from, its decoder, and what becomes of it on the type
// side (kept under its key, or renamed or given a default by a property signature transformation).
interface StructField {
  readonly key: PropertyKey
  readonly optional: boolean
  /** The field's test when it is a primitive (see `primitiveCheck`): its value is kept as it is. */
  readonly check: ((input: unknown) => boolean) | undefined
  readonly decode: Decoder
  /** The key it is kept under when it is only renamed, or kept as it is. */
  readonly typeKey: PropertyKey | undefined
  readonly toTypeSide: SchemaAST.PropertySignatureTransformation | undefined
}

// A decoder for a struct (plain, or with `Schema.fromKey` renamings and `optionalWith` defaults)
// that checks each field once; undefined for any other shape. `Schema` decodes such a struct on
// its encoded side and then checks the result again on its type side, every refinement twice; a
// field that decoded on the encoded side already satisfies its type side. Nested structs (the
// JSON columns) are read the same way, where a null is a value, not a missing field.
const structDecoder = (ast: SchemaAST.AST, nullIsMissing: boolean): Decoder | undefined => {
  let encoded: SchemaAST.TypeLiteral
  const toTypeSide = new Map<PropertyKey, SchemaAST.PropertySignatureTransformation>()
  if (SchemaAST.isTypeLiteral(ast)) {
    encoded = ast
  } else if (
    SchemaAST.isTransformation(ast) && SchemaAST.isTypeLiteral(ast.from) &&
    SchemaAST.isTypeLiteralTransformation(ast.transformation)
  ) {
    for (const transformation of ast.transformation.propertySignatureTransformations) {
      toTypeSide.set(transformation.from, transformation)
    }
    encoded = ast.from
  } else {
    return undefined
  }
  if (encoded.indexSignatures.length > 0) return undefined
  const fields: ReadonlyArray<StructField> = encoded.propertySignatures.map((field) => {
    const transformation = toTypeSide.get(field.name)
    return {
      key: field.name,
      optional: field.isOptional,
      check: primitiveCheck(field.type),
      decode: fieldDecoder(field.type),
      typeKey: transformation === undefined
        ? field.name
        : transformation.decode === identity
        ? transformation.to
        : undefined,
      toTypeSide: transformation
    }
  })
  return (input) => {
    if (typeof input !== "object" || input === null || Array.isArray(input)) return Either.left(input)
    const values = input as Record<PropertyKey, unknown>
    const decoded: Record<PropertyKey, unknown> = {}
    for (const field of fields) {
      const value = values[field.key]
      const present = Object.hasOwn(values, field.key) && !(nullIsMissing && value === null)
      if (!present && !field.optional) return Either.left(input)
      // Without an allocation per field where it can: rows are read by the thousand.
      let fieldValue: unknown = undefined
      if (present) {
        if (field.check !== undefined) {
          if (!field.check(value)) return Either.left(input)
          fieldValue = value
        } else {
          const result = field.decode(value)
          if (Either.isLeft(result)) return result
          fieldValue = result.right
        }
      }
      if (field.typeKey !== undefined) {
        if (present) decoded[field.typeKey] = fieldValue
      } else if (field.toTypeSide !== undefined) {
        const typeValue = field.toTypeSide.decode(present ? Option.some(fieldValue) : Option.none())
        if (Option.isSome(typeValue)) decoded[field.toTypeSide.to] = typeValue.value
      }
    }
    return Either.right(decoded)
  }
}

const parseOptions: SchemaAST.ParseOptions = { errors: "first" }

// A string, a number, one of some literals, or such a value under refinements (an id, a date, an
// integer): checked by calling its tests in turn, innermost first, as `Schema` does, without the
// wrapping of each step that costs more than the tests in a row of a dozen fields. Undefined for
// anything else, transformations included.
const primitiveCheck = (ast: SchemaAST.AST): ((input: unknown) => boolean) | undefined => {
  const refinements: Array<SchemaAST.Refinement> = []
  let base = ast
  while (SchemaAST.isRefinement(base)) {
    refinements.unshift(base)
    base = base.from
  }
  let isBase: (input: unknown) => boolean
  if (SchemaAST.isStringKeyword(base)) isBase = (input) => typeof input === "string"
  else if (SchemaAST.isNumberKeyword(base)) isBase = (input) => typeof input === "number"
  else if (SchemaAST.isLiteral(base)) {
    const { literal } = base
    isBase = (input) => input === literal
  } else if (SchemaAST.isUnion(base) && base.types.every(SchemaAST.isLiteral)) {
    const literals = new Set<unknown>(
      base.types.flatMap((member) => SchemaAST.isLiteral(member) ? [member.literal] : [])
    )
    isBase = (input) => literals.has(input)
  } else {
    return undefined
  }
  return (input) => {
    if (!isBase(input)) return false
    for (const refinement of refinements) {
      if (Option.isSome(refinement.filter(input, parseOptions, refinement))) return false
    }
    return true
  }
}

// A JSON column or a field of one: a struct or an array of structs read field by field, a primitive
// by its tests (see `primitiveCheck`), anything else by its own decoder.
const fieldDecoder = (ast: SchemaAST.AST): Decoder => {
  const struct = structDecoder(ast, false)
  if (struct !== undefined) return struct
  const check = primitiveCheck(ast)
  if (check !== undefined) return (input) => check(input) ? Either.right(input) : Either.left(input)
  const [element] = SchemaAST.isTupleType(ast) && ast.elements.length === 0 && ast.rest.length === 1 ? ast.rest : []
  const elementStruct = element === undefined ? undefined : structDecoder(element.type, false)
  if (elementStruct === undefined) return ParseResult.decodeUnknownEither(Schema.make(ast), { errors: "first" })
  return (input) => {
    if (!Array.isArray(input)) return Either.left(input)
    const decoded: Array<unknown> = new Array(input.length)
    for (let index = 0; index < input.length; index++) {
      const result = elementStruct(input[index])
      if (Either.isLeft(result)) return result
      decoded[index] = result.right
    }
    return Either.right(decoded)
  }
}

/**
 * Decodes one row as `shape`, NULL columns dropped first (as `fromRow` does). A struct is read
 * field by field, each checked once (see `structDecoder`); any other shape, and any row that
 * fails, goes through the shape's own decoder, so a failure reads the same either way.
 */
export const rowDecoder = <A, I>(shape: Schema.Schema<A, I>) => {
  const decodeWhole = Schema.decodeUnknownEither(shape, { errors: "first" })
  const decodeFields = structDecoder(shape.ast, true)
  if (decodeFields === undefined) return (row: object) => decodeWhole(withoutNulls(row))
  return (row: object): Either.Either<A, ParseResult.ParseError> => {
    const decoded = decodeFields(row)
    return Either.isRight(decoded) ? Either.right(decoded.right as A) : decodeWhole(withoutNulls(row))
  }
}

/**
 * Decodes every row of a result as `shape` (see `rowDecoder`). Synchronously, one row after the
 * other, stopping at the first problem: list queries read thousands of rows, and an effect per
 * row, a composed schema or a report of every problem would each cost more than the check itself.
 * Building the decoder compiles `shape` (hundreds of microseconds for a document's metadata), so
 * call `rowsAs` once, where the store is made, never inside a query.
 */
export const rowsAs = <A, I>(shape: Schema.Schema<A, I>) => {
  const decodeRow = rowDecoder(shape)
  const decodeAll = (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<A>, ParseResult.ParseError> => {
    const decoded: Array<A> = new Array(rows.length)
    for (let index = 0; index < rows.length; index++) {
      const row = decodeRow(rows[index] as object)
      if (Either.isLeft(row)) return Effect.fail(row.left)
      decoded[index] = row.right
    }
    return Effect.succeed(decoded)
  }
  return <E, R>(rows: Effect.Effect<ReadonlyArray<unknown>, E, R>): Effect.Effect<
    ReadonlyArray<A>,
    E | ParseResult.ParseError,
    R
  > => Effect.flatMap(rows, decodeAll)
}

/**
 * Decodes the first row of a result as `shape` (see `rowsAs`), none when there is no row: a
 * lookup by key. Built once, like `rowsAs`.
 */
export const firstRowAs = <A, I>(shape: Schema.Schema<A, I>) => {
  const readRows = rowsAs(shape)
  return <E, R>(rows: Effect.Effect<ReadonlyArray<unknown>, E, R>): Effect.Effect<
    Option.Option<A>,
    E | ParseResult.ParseError,
    R
  > => Effect.map(readRows(rows), (decoded) => Option.fromNullable(decoded[0]))
}

/** A `count(*)::int AS total` column. */
export const Total = Schema.Struct({ total: Schema.Int })

/** Reads a `count(*)::int AS total` query. */
export const readTotal = rowsAs(Total)

/** A row that carries the number of every match of its query (`count(*) OVER ()::int AS total`). */
export const Counted = <Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.Struct({ ...fields, ...Total.fields })

/**
 * One page of a query whose rows carry the count of every match, each row without its count.
 * Past the last page no row carries it, so it is counted on its own there (`countAll`).
 */
export const pageOf = <A extends { readonly total: number }, E, R>(
  rows: ReadonlyArray<A>,
  offset: number,
  countAll: Effect.Effect<ReadonlyArray<{ readonly total: number }>, E, R>
): Effect.Effect<{ readonly rows: ReadonlyArray<Omit<A, "total">>; readonly total: number }, E, R> => {
  const withoutCount = rows.map(({ total: _total, ...row }) => row)
  if (rows[0] !== undefined || offset === 0) return Effect.succeed({ rows: withoutCount, total: rows[0]?.total ?? 0 })
  return Effect.map(countAll, ([counted]) => ({ rows: withoutCount, total: counted?.total ?? 0 }))
}

/** The columns of a document read beside another table's, under its metadata's encoded names. */
export const joinedDocumentColumns = `d.publication_id, d.ticker, d.company_name, d.cik, d.doc_type, d.title,
  d.filing_date::text AS filing_date, d.period, d.sec_url, d.word_count, d.items`

/**
 * Reads a document's rows of one table (`document_metrics`, ...) in their stored order, as `shape`:
 * like `SqlSchema.findAll`, with the rows decoded in one synchronous pass (see `rowsAs`).
 */
export const inDocumentOrder = <A, I>(
  sql: SqlClient.SqlClient,
  shape: Schema.Schema<A, I>,
  from: { readonly table: string; readonly columns: string }
) => {
  const readRows = rowsAs(shape)
  return (publicationId: Ids.PublicationId) =>
    sql`SELECT ${sql.literal(from.columns)} FROM ${sql(from.table)}
      WHERE publication_id = ${publicationId} ORDER BY position`.pipe(readRows)
}

/**
 * Reads pages of the rows of a document's part (its sections, its tables) matching a condition,
 * each with its document: newest filing first (ties by publication id), then in the document's
 * order. The part is read as one JSON object (`hit`), since its columns and the document's share
 * names. The rows' decoder is built here, once per store.
 */
export const hitsPage = <A, I>(
  sql: SqlClient.SqlClient,
  shape: Schema.Schema<A, I>,
  part: {
    /** The part's table and its alias in `hit` and `where`: `document_sections s`. */
    readonly table: string
    readonly alias: string
    /** The part's columns as one JSON object, under the encoded names of `shape`. */
    readonly hit: string
  }
) => {
  const readHits = rowsAs(Counted({ ...DocumentStore.DocumentMetadata.fields, hit: fromRow(shape) }))
  const from = sql.literal(`${part.table} ${part.alias} JOIN documents d USING (publication_id)`)
  return (query: { readonly where: Statement.Fragment; readonly limit: number; readonly offset: number }) =>
    Effect.gen(function*() {
      const rows = yield* sql`
        SELECT ${sql.literal(joinedDocumentColumns)}, ${sql.literal(part.hit)} AS hit, count(*) OVER ()::int AS total
        FROM ${from}
        WHERE ${query.where}
        ORDER BY d.filing_date DESC, d.publication_id DESC, ${sql.literal(part.alias)}.position
        LIMIT ${query.limit} OFFSET ${query.offset}`.pipe(readHits)
      const countAll = sql`SELECT count(*)::int AS total FROM ${from} WHERE ${query.where}`.pipe(readTotal)
      const page = yield* pageOf(rows, query.offset, countAll)
      return { hits: page.rows.map(({ hit, ...document }) => ({ document, hit })), total: page.total }
    })
}
