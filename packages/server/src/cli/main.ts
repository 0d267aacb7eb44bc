/**
 * Entry point of the `filings` command. `FILINGS_LOG_LEVEL` (DEBUG, INFO, WARNING, ERROR, NONE)
 * sets how much the server logs; the default is INFO.
 */
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Config, Effect, Logger, LogLevel } from "effect"
import * as Cli from "./Cli.js"

Config.logLevel("FILINGS_LOG_LEVEL").pipe(
  Config.withDefault(LogLevel.Info),
  Effect.flatMap((level) => Logger.withMinimumLogLevel(Cli.run(process.argv), level)),
  Effect.provide(NodeContext.layer),
  // Failures were already printed as one line (or as usage help); a stack trace would add nothing.
  NodeRuntime.runMain({ disableErrorReporting: true })
)
