/**
 * Child processes for benchmarks, through the harness the tests use (`test/support/filings.ts`):
 * the real `filings` program on an embedded database of its own, and any other server that
 * announces itself the way `filings serve --json` does. Every process started here can be stopped
 * by what `startListening` returns, and `Cleanup` undoes a benchmark's steps however it ends.
 */
import {
  filingsEnvironment as environmentOn,
  filingsProgram,
  type ListeningProcess,
  runFilingsJson,
  startListening
} from "../../test/support/filings.js"

export { filingsProgram, type ListeningProcess, repositoryRoot, startListening } from "../../test/support/filings.js"

/** The environment for `filings` on an embedded database in `dataDir`, logging at `logLevel`. */
export const filingsEnvironment = (dataDir: string, logLevel: string): NodeJS.ProcessEnv =>
  environmentOn({ dataDir }, { FILINGS_LOG_LEVEL: logLevel })

/** Runs `filings <args> --json` to completion (within `timeoutMs`) and parses what it printed. */
export const filingsJson = <A>(env: NodeJS.ProcessEnv, args: ReadonlyArray<string>, timeoutMs = 300_000): Promise<A> =>
  runFilingsJson<A>(env, args, timeoutMs)

/** Creates an API key for a benchmark's load: no rate limit worth the name. Answers the key. */
export const createBenchKey = async (env: NodeJS.ProcessEnv, name = "bench"): Promise<string> => {
  const { key } = await filingsJson<{ readonly key: string }>(env, [
    "keys",
    "create",
    "--name",
    name,
    "--plan",
    "enterprise",
    "--rate-limit",
    "1000000"
  ])
  return key
}

/**
 * Starts `filings serve` on a free port of 127.0.0.1 with `env`, its output in `logFile`, and waits
 * until it listens. With a `cpuProfileDir`, Node writes the server's CPU profile there when it stops.
 */
export const startFilingsServe = (options: {
  readonly name: string
  readonly env: NodeJS.ProcessEnv
  readonly logFile: string
  readonly cpuProfileDir?: string | undefined
}): Promise<ListeningProcess> =>
  startListening({
    name: options.name,
    nodeArgs: [
      ...(options.cpuProfileDir === undefined ? [] : ["--cpu-prof", "--cpu-prof-dir", options.cpuProfileDir]),
      filingsProgram,
      "serve",
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--json"
    ],
    env: options.env,
    logFile: options.logFile
  })

/**
 * Undo steps run last-in first-out, once, whether the benchmark succeeds, fails or is interrupted
 * with Ctrl-C or SIGTERM. A cleanup made with `onSignals` false runs only when asked: a stage's own
 * steps, inside a benchmark whose main cleanup handles the signals.
 */
export class Cleanup {
  private readonly steps: Array<{ readonly name: string; readonly undo: () => Promise<void> }> = []
  private running: Promise<void> | undefined

  constructor(onSignals = true) {
    if (!onSignals) return
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      process.once(signal, () => {
        process.stderr.write(`\n${signal}: cleaning up\n`)
        void this.run().finally(() => process.exit(130))
      })
    }
  }

  add(name: string, undo: () => Promise<void>): void {
    this.steps.push({ name, undo })
  }

  run(): Promise<void> {
    this.running ??= (async () => {
      for (const step of this.steps.splice(0).reverse()) {
        try {
          await step.undo()
        } catch (error) {
          process.stderr.write(`cleanup: ${step.name} failed: ${String(error)}\n`)
        }
      }
    })()
    return this.running
  }
}
