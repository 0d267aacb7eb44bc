/**
 * The failure of a CLI command: one sentence for the person at the terminal. The CLI prints it to
 * standard error and exits with status 1.
 */
import { ParseResult, Schema } from "effect"

export class CliFailure extends Schema.TaggedError<CliFailure>()("CliFailure", {
  message: Schema.String
}) {}

/** Any failure that carries a message, as a CliFailure. */
export const fromError = (error: { readonly message: string }): CliFailure => new CliFailure({ message: error.message })

/**
 * A schema's verdict on input, one sentence per field (`undefined` for the value as a whole). A
 * value that is none of a list of literals (`--form 10-X`) gets one sentence naming them all,
 * rather than one per literal.
 */
export const issuesByField = (
  error: ParseResult.ParseError
): ReadonlyArray<{ readonly field: string | undefined; readonly message: string }> => {
  const groups = new Map<string | undefined, Array<string>>()
  for (const issue of ParseResult.ArrayFormatter.formatErrorSync(error)) {
    const field = issue.path[0] === undefined ? undefined : String(issue.path[0])
    groups.set(field, [...(groups.get(field) ?? []), issue.message])
  }
  return [...groups].map(([field, messages]) => {
    const literals = messages.map((message) => /^Expected "([^"]*)", actual (.*)$/.exec(message))
    const message = messages.length > 1 && literals.every((match) => match !== null)
      ? `must be one of: ${literals.map((match) => match![1]).join(", ")}; got ${literals[0]![2]}`
      : messages.join("; ")
    return { field, message }
  })
}

/**
 * A schema's verdict on command-line options as one sentence, naming each option as the user
 * typed it (`rate_limit` is `--rate-limit`).
 */
export const fromParseError = (error: ParseResult.ParseError): CliFailure =>
  new CliFailure({
    message: issuesByField(error)
      .map(({ field, message }) => (field === undefined ? message : `--${field.replace(/_/g, "-")} ${message}`))
      .join("; ")
  })
