/**
 * Options every command shares.
 */
import { Options } from "@effect/cli"

export const jsonOption = Options.boolean("json").pipe(
  Options.withDescription("print machine-readable JSON instead of text")
)
