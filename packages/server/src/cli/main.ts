/**
 * Entry point of the `filings` command. Logs go to standard error, so standard output carries only
 * what a command prints (and stays valid JSON with `--json`). `FILINGS_LOG_LEVEL` (TRACE, DEBUG,
 * INFO, WARN, ERROR, FATAL, OFF) sets how much is logged; the default is INFO. `FILINGS_LOG_FORMAT`
 * chooses readable text (the default) or one JSON object per line. Text to a pipe or a file, or
 * with `NO_COLOR` set, is plain.
 */
import { ValidationError } from "@effect/cli"
// Per-module imports: the package index would load clustering and RPC code the CLI never uses.
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, ConfigError, Console, Effect, Logger, Option } from "effect"
import { withConfiguredLogLevel } from "../Composition.js"
import * as Environment from "../Environment.js"
import * as Cli from "./Cli.js"
import * as Output from "./Output.js"

const messageOf = (error: unknown): string => {
  // A configuration error's own text names the variable; its message alone does not.
  if (ConfigError.isConfigError(error)) return String(error)
  if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string") {
    return error.message
  }
  return String(error)
}

/** One line on standard error for whatever stopped the command; usage errors were printed with the help. */
const report = (cause: Cause.Cause<unknown>): Effect.Effect<void> => {
  if (Cause.isInterruptedOnly(cause)) return Effect.void
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) {
    return ValidationError.isValidationError(failure.value)
      ? Effect.void
      : Console.error(`error: ${messageOf(failure.value)}`)
  }
  return Console.error(`error: unexpected failure: ${
    Option.match(Cause.dieOption(cause), {
      onNone: () => Cause.pretty(cause),
      onSome: messageOf
    })
  }`)
}

/** The logger `FILINGS_LOG_FORMAT` asks for, writing to standard error. */
const configuredLogger = Effect.map(
  Environment.logFormat,
  (format) =>
    format === "json"
      ? Logger.withConsoleError(Logger.jsonLogger)
      : Logger.prettyLogger({ stderr: true, colors: Output.escapesWanted(process.stderr) })
)

withConfiguredLogLevel(Cli.run(process.argv)).pipe(
  Effect.provide(Logger.replaceEffect(Logger.defaultLogger, configuredLogger)),
  Effect.tapErrorCause(report),
  // Plain text to a pipe or with NO_COLOR, help without the library's generic lines.
  (program) => Console.consoleWith((base) => Console.withConsole(program, Output.cliConsole(base))),
  Effect.provide(NodeContext.layer),
  // The failure was reported above; a stack trace would add nothing. The exit status is 1.
  NodeRuntime.runMain({ disableErrorReporting: true, disablePrettyLogger: true })
)
