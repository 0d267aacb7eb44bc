/**
 * The failure of a CLI command: one sentence for the person at the terminal. The CLI prints it to
 * standard error and exits with status 1.
 */
import { Schema } from "effect"

export class CliFailure extends Schema.TaggedError<CliFailure>()("CliFailure", {
  message: Schema.String
}) {}

/** Any failure that carries a message, as a CliFailure. */
export const fromError = (error: { readonly message: string }): CliFailure => new CliFailure({ message: error.message })
