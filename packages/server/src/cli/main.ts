/**
 * Entry point of the `filings` command. `FILINGS_LOG_LEVEL` (TRACE, DEBUG, INFO, WARN, ERROR,
 * FATAL, OFF) sets how much it logs; the default is INFO.
 */
import { ValidationError } from "@effect/cli"
// Per-module imports: the package index would load clustering and RPC code the CLI never uses.
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Config, ConfigError, Console, Effect, Logger, LogLevel } from "effect"
import * as Cli from "./Cli.js"

Config.logLevel("FILINGS_LOG_LEVEL").pipe(
  Config.withDefault(LogLevel.Info),
  Effect.flatMap((level) => Logger.withMinimumLogLevel(Cli.run(process.argv), level)),
  // Usage errors were printed with the help text already; anything else gets one line.
  Effect.tapError((error) =>
    ValidationError.isValidationError(error) ? Effect.void : Console.error(`error: ${describe(error)}`)
  ),
  Effect.provide(NodeContext.layer),
  // The failure was printed above; a stack trace would add nothing. The exit status is 1.
  NodeRuntime.runMain({ disableErrorReporting: true })
)

function describe(error: unknown): string {
  // A configuration error's own text names the variable; its message alone does not.
  if (ConfigError.isConfigError(error)) return String(error)
  if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string") {
    return error.message
  }
  return String(error)
}
