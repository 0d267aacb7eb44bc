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
 * A schema's verdict on command-line options as one sentence, naming each option as the user
 * typed it (`rate_limit` is `--rate-limit`).
 */
export const fromParseError = (error: ParseResult.ParseError): CliFailure =>
  new CliFailure({
    message: ParseResult.ArrayFormatter.formatErrorSync(error)
      .map((issue) => {
        const field = issue.path[0]
        return field === undefined ? issue.message : `--${String(field).replace(/_/g, "-")} ${issue.message}`
      })
      .join("; ")
  })
