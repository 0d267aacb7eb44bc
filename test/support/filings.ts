/**
 * Drives the real `filings` program, for black-box tests and benchmarks alike: runs CLI commands and
 * starts servers as child processes, each on a data directory (embedded PGlite) or a PostgreSQL
 * database of its own. `startListening` starts any server that announces itself the way
 * `filings serve --json` does. Every wait is bounded.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { closeSync, openSync, readFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

const run = promisify(execFile)

export const repositoryRoot = fileURLToPath(new URL("../../", import.meta.url))
export const filingsProgram = join(repositoryRoot, "packages/server/bin/filings.js")
/** The example filing of the README: an 8-K of Acme Anvil Corp (ACME) with its press release. */
export const exampleEightK = join(repositoryRoot, "examples/filings/acme-8k-2024-11-05.txt")

/** Where the program keeps its data: an embedded database directory, or a PostgreSQL URL. */
export type Storage = { readonly dataDir: string } | { readonly databaseUrl: string }

/**
 * The program's environment: the caller's without any storage, server or `NODE_OPTIONS` the
 * developer may have configured, logging warnings only, then `storage`'s location and `extra`.
 */
export const filingsEnvironment = (storage: Storage, extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, FILINGS_LOG_LEVEL: "WARN" }
  delete env.FILINGS_DATABASE_URL
  delete env.FILINGS_DATA_DIR
  delete env.FILINGS_SERVER_URL
  delete env.FILINGS_ADMIN_TOKEN
  delete env.NODE_OPTIONS
  const location = "dataDir" in storage
    ? { FILINGS_DATA_DIR: storage.dataDir }
    : { FILINGS_DATABASE_URL: storage.databaseUrl }
  return { ...env, ...location, ...extra }
}

export interface CommandResult {
  readonly exitCode: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs `filings <args>` to completion in `env` (within `timeoutMs`, when given). */
export const runFilings = async (
  env: NodeJS.ProcessEnv,
  args: ReadonlyArray<string>,
  timeoutMs?: number
): Promise<CommandResult> => {
  try {
    const { stderr, stdout } = await run(process.execPath, [filingsProgram, ...args], {
      env,
      cwd: repositoryRoot,
      maxBuffer: 64 * 1024 * 1024,
      ...(timeoutMs === undefined ? {} : { timeout: timeoutMs })
    })
    return { exitCode: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code?: number | string; stdout?: string; stderr?: string }
    return {
      exitCode: typeof failed.code === "number" ? failed.code : 1,
      stdout: failed.stdout ?? "",
      stderr: failed.stderr ?? ""
    }
  }
}

/** Runs `filings <args> --json` in `env` and parses what it printed; fails saying what it printed. */
export const runFilingsJson = async <A = unknown>(
  env: NodeJS.ProcessEnv,
  args: ReadonlyArray<string>,
  timeoutMs?: number
): Promise<A> => {
  const command = `filings ${args.join(" ")}`
  const result = await runFilings(env, [...args, "--json"], timeoutMs)
  if (result.exitCode !== 0) {
    const printed = [result.stderr, result.stdout].filter((text) => text !== "").join("\n")
    throw new Error(`${command} failed (${result.exitCode}): ${printed === "" ? "it printed nothing" : printed}`)
  }
  try {
    return JSON.parse(result.stdout) as A
  } catch {
    throw new Error(`${command} printed something other than JSON: ${result.stdout.slice(0, 500)}`)
  }
}

/** Runs `filings <args>` to completion on `storage`, with `env` added to its environment. */
export const cli = (
  storage: Storage,
  args: ReadonlyArray<string>,
  env: Record<string, string> = {}
): Promise<CommandResult> => runFilings(filingsEnvironment(storage, env), args)

/** Runs `filings <args> --json` on `storage` and parses what it printed. */
export const cliJson = <A = unknown>(storage: Storage, args: ReadonlyArray<string>): Promise<A> =>
  runFilingsJson<A>(filingsEnvironment(storage), args)

export const createKey = async (
  storage: Storage,
  options: { readonly name?: string; readonly rateLimit?: number } = {}
): Promise<string> => {
  const args = ["keys", "create", "--name", options.name ?? "contract-test"]
  if (options.rateLimit !== undefined) args.push("--plan", "enterprise", "--rate-limit", String(options.rateLimit))
  return (await cliJson<{ key: string }>(storage, args)).key
}

/** A started server, `filings serve` or another that announces itself the same way. */
export interface ListeningProcess {
  readonly url: string
  /** The process's id, as the server names itself where instances coordinate (leases). */
  readonly pid: number
  /** Sends SIGTERM, and SIGKILL if the process is still there after 10 s; resolves when it has exited. */
  readonly stop: () => Promise<void>
  /** Ends the process at once, as a crash or `kill -9` would; resolves when it has exited. */
  readonly kill: () => Promise<void>
  /** Everything the process printed so far, for failure messages. */
  readonly output: () => string
  /** The process's exit code once it has exited (null while it runs, or when a signal ended it). */
  readonly exitCode: () => number | null
  /** Whether the process is still there. */
  readonly isRunning: () => boolean
}

/** `filings serve`, as `startServer` starts it. */
export type RunningServer = ListeningProcess

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null

const ended = (child: ChildProcess, signal: NodeJS.Signals, forceAfterMs?: number): Promise<void> =>
  new Promise((done) => {
    if (hasExited(child)) return done()
    const force = forceAfterMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), forceAfterMs)
    child.once("exit", () => {
      clearTimeout(force)
      done()
    })
    child.kill(signal)
  })

const listeningLine = (output: string): string | undefined =>
  output.split("\n").find((line) => line.startsWith("{\"event\":\"listening\""))

const readLog = (logFile: string): string => {
  try {
    return readFileSync(logFile, "utf8")
  } catch {
    return ""
  }
}

/**
 * Starts `node <nodeArgs>` and waits (at most `startTimeoutMs`, 60 s by default) for the line
 * `{"event":"listening","url":...}` in its output. With a `logFile`, standard output and error go
 * there rather than to a pipe, so that a server logging every request costs a benchmark's process
 * nothing; without one, they are kept in memory.
 */
export const startListening = (options: {
  readonly name: string
  readonly nodeArgs: ReadonlyArray<string>
  readonly env: NodeJS.ProcessEnv
  readonly logFile?: string | undefined
  readonly startTimeoutMs?: number | undefined
}): Promise<ListeningProcess> =>
  new Promise((resolve, reject) => {
    const { logFile } = options
    const log = logFile === undefined ? undefined : openSync(logFile, "w")
    const child = spawn(process.execPath, options.nodeArgs, {
      env: options.env,
      cwd: repositoryRoot,
      stdio: log === undefined ? ["ignore", "pipe", "pipe"] : ["ignore", log, log]
    })
    if (log !== undefined) closeSync(log)
    let piped = ""
    child.stdout?.on("data", (chunk: Buffer) => (piped += chunk))
    child.stderr?.on("data", (chunk: Buffer) => (piped += chunk))
    const output = logFile === undefined ? () => piped : () => readLog(logFile)
    const startTimeoutMs = options.startTimeoutMs ?? 60_000
    let settled = false
    const settle = () => {
      settled = true
      clearTimeout(timer)
      clearInterval(poll)
    }
    const fail = (reason: string) => {
      if (settled) return
      settle()
      void ended(child, "SIGKILL").then(() => reject(new Error(`${options.name} ${reason}:\n${output()}`)))
    }
    const check = () => {
      const line = settled ? undefined : listeningLine(output())
      if (line === undefined) return
      settle()
      resolve({
        url: (JSON.parse(line) as { readonly url: string }).url,
        pid: child.pid ?? -1,
        stop: () => ended(child, "SIGTERM", 10_000),
        kill: () => ended(child, "SIGKILL"),
        output,
        exitCode: () => child.exitCode,
        isRunning: () => !hasExited(child)
      })
    }
    const timer = setTimeout(() => fail(`did not start within ${startTimeoutMs / 1000} s`), startTimeoutMs)
    // A pipe says when output arrives; a file is looked at every 50 ms.
    const poll = logFile === undefined ? undefined : setInterval(check, 50)
    child.stdout?.on("data", check)
    child.once("error", (error) => fail(`could not be started (${error.message})`))
    child.once("exit", (code, signal) => fail(`exited with ${code ?? signal} before listening`))
  })

/** Starts `filings serve` on a free port, with `env` added to its environment, and waits until it listens. */
export const startServer = (storage: Storage, env: Record<string, string> = {}): Promise<RunningServer> =>
  startListening({
    name: "the server",
    nodeArgs: [filingsProgram, "serve", "--port", "0", "--json"],
    env: filingsEnvironment(storage, env)
  })

export const temporaryDataDir = async (): Promise<
  { readonly dataDir: string; readonly remove: () => Promise<void> }
> => {
  const dataDir = await mkdtemp(join(tmpdir(), "filings-contract-"))
  return { dataDir, remove: () => rm(dataDir, { recursive: true, force: true }) }
}

/** Runs `use` with a fresh data directory of its own, and removes the directory afterwards however `use` ends. */
export const withTemporaryDataDir = async <A>(
  use: (storage: { readonly dataDir: string }) => Promise<A>
): Promise<A> => {
  const storage = await temporaryDataDir()
  try {
    return await use(storage)
  } finally {
    await storage.remove()
  }
}
