/**
 * Schemas for query-string values: the API writes lists as comma-separated strings, numbers and
 * booleans as text. Every failure message names what was expected and what was given.
 *
 * @module
 */
import type { ParseResult } from "effect"
import { Schema } from "effect"

/**
 * The message of a value refused as a whole, in place of the messages of its parts. Effect reports
 * a union member by member (a list of five names fails five times) and a refinement by the check
 * of its base that failed, unless the message of the whole overrides them: this one does.
 */
export const wholeValueMessage = (describe: (actual: unknown) => string) => (issue: ParseResult.ParseIssue) => ({
  message: describe(issue.actual),
  override: true
})

/**
 * The message of a list that must hold at least one item: an empty list, or a value that is no
 * list, is refused as a whole; a list with a bad item keeps that item's own message.
 */
export const nonEmptyListMessage = (whenEmpty: string) => (issue: ParseResult.ParseIssue) =>
  Array.isArray(issue.actual)
    ? { message: whenEmpty, override: issue.actual.length === 0 }
    : { message: `must be a list, got ${JSON.stringify(issue.actual)}`, override: true }

/** `must be one of: a, b, c; got "x"`, for a value that must be one of a few names. */
export const mustBeOneOf = (values: ReadonlyArray<string>) =>
  wholeValueMessage((actual) => `must be one of: ${values.join(", ")}; got ${JSON.stringify(actual)}`)

/** One of a few names, refused with the list of them all, once. */
export const OneOf = <const Values extends readonly [string, ...Array<string>]>(...values: Values) =>
  Schema.Literal(...values).annotations({ message: mustBeOneOf(values) })

const wholeNumber = (actual: unknown) => `must be a whole number, got ${JSON.stringify(actual)}`

/**
 * A number written in a query string: text that is no number is refused as such, not as a failed
 * transformation. The message does not override, so a parameter given twice is told so.
 */
const NumberText = Schema.NumberFromString.annotations({ message: (issue) => wholeNumber(issue.actual) })

const SplitOnCommas = Schema.transform(Schema.String, Schema.Array(Schema.String), {
  strict: true,
  decode: (text) => text.split(",").map((part) => part.trim()).filter((part) => part.length > 0),
  encode: (items) => items.join(",")
})

/**
 * A comma-separated list (`AAPL,MSFT`) decoded item by item. Blank items are dropped, so `AAPL,`
 * means `[AAPL]`; a list with no item at all fails, since a filter that names nothing is a mistake.
 */
export const CommaSeparated = <A, I extends string, R>(item: Schema.Schema<A, I, R>) =>
  SplitOnCommas.pipe(
    Schema.compose(
      Schema.NonEmptyArray(item).annotations({
        message: nonEmptyListMessage("must list at least one value, comma-separated; got none")
      }),
      { strict: false }
    ),
    Schema.annotations({
      description: "Comma-separated list",
      jsonSchema: { type: "string", description: "Comma-separated list" }
    })
  )

/** A whole number written in a query string, checked to lie between `min` and `max`. */
export const IntegerInRange = (min: number, max: number) =>
  NumberText.pipe(
    Schema.int({ message: (issue) => wholeNumber(issue.actual) }),
    Schema.between(min, max, {
      message: (issue) => `must be between ${min} and ${max}, got ${JSON.stringify(issue.actual)}`
    }),
    // The query string carries it as text; the document says what it means: an integer.
    Schema.annotations({
      jsonSchema: { type: "integer", minimum: min, maximum: max, description: `Whole number from ${min} to ${max}` }
    })
  )

/** A whole number of zero or more written in a query string. */
export const NonNegativeInteger = NumberText.pipe(
  Schema.int({ message: (issue) => wholeNumber(issue.actual) }),
  Schema.nonNegative({ message: (issue) => `must be zero or more, got ${JSON.stringify(issue.actual)}` }),
  Schema.annotations({ jsonSchema: { type: "integer", minimum: 0, description: "Whole number, 0 or more" } })
)

/** A whole number of one or more written in a query string. */
export const PositiveInteger = NumberText.pipe(
  Schema.int({ message: (issue) => wholeNumber(issue.actual) }),
  Schema.positive({ message: (issue) => `must be 1 or more, got ${JSON.stringify(issue.actual)}` }),
  Schema.annotations({ jsonSchema: { type: "integer", minimum: 1, description: "Whole number, 1 or more" } })
)

/** `true` or `false` in a query string. */
export const BooleanFlag = Schema.Literal("true", "false").pipe(
  Schema.annotations({
    message: wholeValueMessage((actual) => `must be true or false, got ${JSON.stringify(actual)}`)
  }),
  Schema.transform(Schema.Boolean, {
    strict: true,
    decode: (text) => text === "true",
    encode: (flag) => (flag ? "true" : "false")
  }),
  Schema.annotations({ jsonSchema: { type: "boolean" } })
)

/**
 * Refuses text holding the NUL character (`\u0000`): no stored text can hold it (PostgreSQL's
 * `text` cannot), so a value with it can name nothing and could only fail deeper down as if the
 * database were out of order. Every free-text value of a request that reaches storage passes here.
 */
export const withoutNul = <A extends string, I, R>(
  self: Schema.Schema<A, I, R>
): Schema.filter<Schema.Schema<A, I, R>> =>
  self.pipe(Schema.filter((text) => !text.includes("\u0000"), {
    message: () => "must not contain the NUL character (\\u0000)"
  }))

/** Any text without the NUL character: an identifier in a path, a name in a body. */
export const Text = withoutNul(Schema.String)

/**
 * An identifier in a path: {@link Text}, and not empty. A path written with two slashes where the
 * id goes (`/v1/webhooks//deliveries`) is refused as such, not looked up as an id nobody has.
 */
export const PathId = Text.pipe(
  Schema.filter((text) => text.length > 0, {
    message: () => "is missing from the path: nothing stands between the slashes where it goes"
  })
)
