/**
 * Child processes for benchmarks: the real `filings` program (CLI commands and `serve`) and any
 * other server that announces itself the way `filings serve --json` does. Every wait is bounded,
 * and every process started here can be stopped by what `startListening` returns.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { closeSync, openSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

const run = promisify(execFile)

export const repositoryRoot = fileURLToPath(new URL("../../", import.meta.url))
export const filingsProgram = join(repositoryRoot, "packages/server/bin/filings.js")

/**
 * The environment for `filings` on an embedded database in `dataDir`: the caller's environment
 * without any other storage or server the developer may have configured.
 */
export const filingsEnvironment = (dataDir: string, logLevel: string): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, FILINGS_LOG_LEVEL: logLevel, FILINGS_DATA_DIR: dataDir }
  delete env.FILINGS_DATABASE_URL
  delete env.FILINGS_SERVER_URL
  delete env.FILINGS_ADMIN_TOKEN
  delete env.NODE_OPTIONS
  return env
}

/** Runs `filings <args> --json` to completion (within `timeoutMs`) and parses what it printed. */
export const filingsJson = async <A>(
  env: NodeJS.ProcessEnv,
  args: ReadonlyArray<string>,
  timeoutMs = 300_000
): Promise<A> => {
  const command = `filings ${args.join(" ")}`
  const { stdout } = await run(process.execPath, [filingsProgram, ...args, "--json"], {
    env,
    cwd: repositoryRoot,
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024
  }).catch((error: { readonly code?: number | string; readonly stderr?: string; readonly stdout?: string }) => {
    const printed = [error.stderr, error.stdout].filter((text) => text !== undefined && text !== "").join("\n")
    throw new Error(
      `${command} failed (${error.code ?? "killed"}): ${printed === "" ? "it printed nothing" : printed}`
    )
  })
  try {
    return JSON.parse(stdout) as A
  } catch {
    throw new Error(`${command} printed something other than JSON: ${stdout.slice(0, 500)}`)
  }
}

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

export interface ListeningProcess {
  readonly url: string
  readonly pid: number
  /** Sends SIGTERM, and SIGKILL if the process is still there after 10 s. */
  readonly stop: () => Promise<void>
  /** Everything the process printed so far, for failure messages. */
  readonly output: () => string
}

const stopProcess = (child: ChildProcess): Promise<void> =>
  new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done()
    const force = setTimeout(() => child.kill("SIGKILL"), 10_000)
    child.once("exit", () => {
      clearTimeout(force)
      done()
    })
    child.kill("SIGTERM")
  })

const readOutput = (logFile: string): string => {
  try {
    return readFileSync(logFile, "utf8")
  } catch {
    return ""
  }
}

/**
 * Starts `node <args>` with its standard output and error going to `logFile`, and waits (at most
 * `startTimeoutMs`) for the line `{"event":"listening","url":...}` there. Output goes to a file
 * rather than a pipe so that a server logging every request costs the benchmark process nothing.
 */
export const startListening = (options: {
  readonly name: string
  readonly nodeArgs: ReadonlyArray<string>
  readonly env: NodeJS.ProcessEnv
  readonly logFile: string
  readonly startTimeoutMs?: number | undefined
}): Promise<ListeningProcess> =>
  new Promise((resolve, reject) => {
    const log = openSync(options.logFile, "w")
    const child = spawn(process.execPath, options.nodeArgs, {
      env: options.env,
      cwd: repositoryRoot,
      stdio: ["ignore", log, log]
    })
    closeSync(log)
    const output = () => readOutput(options.logFile)
    const startTimeoutMs = options.startTimeoutMs ?? 60_000
    const startedAt = Date.now()
    let settled = false
    const fail = (reason: string) => {
      if (settled) return
      settled = true
      clearInterval(poll)
      void stopProcess(child).then(() => reject(new Error(`${options.name} ${reason}:\n${output()}`)))
    }
    child.once("error", (error) => fail(`could not be started (${error.message})`))
    child.once("exit", (code, signal) => fail(`exited with ${code ?? signal} before listening`))
    const poll = setInterval(() => {
      const line = output().split("\n").find((candidate) => candidate.startsWith("{\"event\":\"listening\""))
      if (line === undefined) {
        if (Date.now() - startedAt > startTimeoutMs) fail(`did not start within ${startTimeoutMs / 1000} s`)
        return
      }
      settled = true
      clearInterval(poll)
      resolve({
        url: (JSON.parse(line) as { readonly url: string }).url,
        pid: child.pid ?? -1,
        stop: () => stopProcess(child),
        output
      })
    }, 50)
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
