/**
 * Drives the real `filings` program for black-box tests: runs CLI commands and starts servers as
 * child processes, each on a data directory (embedded PGlite) or a PostgreSQL database of its own.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

const run = promisify(execFile)

export const repositoryRoot = fileURLToPath(new URL("../../", import.meta.url))
const program = join(repositoryRoot, "packages/server/bin/filings.js")

/** Where the program keeps its data: an embedded database directory, or a PostgreSQL URL. */
export type Storage = { readonly dataDir: string } | { readonly databaseUrl: string }

/** The program's environment: none of the caller's own `FILINGS_*` settings, then `extra`. */
const environment = (storage: Storage, extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, FILINGS_LOG_LEVEL: "WARN" }
  delete env.FILINGS_DATABASE_URL
  delete env.FILINGS_DATA_DIR
  delete env.FILINGS_SERVER_URL
  delete env.FILINGS_ADMIN_TOKEN
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

/** Runs `filings <args>` to completion, with `env` added to its environment. */
export const cli = async (
  storage: Storage,
  args: ReadonlyArray<string>,
  env: Record<string, string> = {}
): Promise<CommandResult> => {
  try {
    const { stderr, stdout } = await run(process.execPath, [program, ...args], {
      env: environment(storage, env),
      cwd: repositoryRoot,
      maxBuffer: 64 * 1024 * 1024
    })
    return { exitCode: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return { exitCode: failed.code ?? 1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" }
  }
}

/** Runs `filings <args> --json` and parses what it printed. */
export const cliJson = async <A = unknown>(storage: Storage, args: ReadonlyArray<string>): Promise<A> => {
  const result = await cli(storage, [...args, "--json"])
  if (result.exitCode !== 0) throw new Error(`filings ${args.join(" ")} failed: ${result.stderr}`)
  return JSON.parse(result.stdout) as A
}

export const createKey = async (
  storage: Storage,
  options: { readonly name?: string; readonly rateLimit?: number } = {}
): Promise<string> => {
  const args = ["keys", "create", "--name", options.name ?? "contract-test"]
  if (options.rateLimit !== undefined) args.push("--plan", "enterprise", "--rate-limit", String(options.rateLimit))
  return (await cliJson<{ key: string }>(storage, args)).key
}

export interface RunningServer {
  readonly url: string
  /** The process's id, as the server names itself where instances coordinate (leases). */
  readonly pid: number
  readonly stop: () => Promise<void>
  /** Ends the process at once, as a crash or `kill -9` would; resolves when it has exited. */
  readonly kill: () => Promise<void>
  /** Everything the server printed, for failure messages. */
  readonly output: () => string
  /** The process's exit code once it has exited (null while it runs, or when a signal ended it). */
  readonly exitCode: () => number | null
}

/** Starts `filings serve` on a free port, with `env` added to its environment, and waits until it listens. */
export const startServer = (storage: Storage, env: Record<string, string> = {}): Promise<RunningServer> =>
  new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [program, "serve", "--port", "0", "--json"], {
      env: environment(storage, env),
      cwd: repositoryRoot,
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`the server did not start within 60 s:\n${output}`))
    }, 60_000)
    const signal = (name: NodeJS.Signals) => () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done()
        child.once("exit", () => done())
        child.kill(name)
      })
    const stop = signal("SIGTERM")
    const kill = signal("SIGKILL")
    child.stderr?.on("data", (chunk) => (output += chunk))
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk
      for (const line of output.split("\n").slice(0, -1)) {
        if (!line.startsWith("{\"event\":\"listening\"")) continue
        clearTimeout(timer)
        resolve({
          url: (JSON.parse(line) as { url: string }).url,
          pid: child.pid!,
          stop,
          kill,
          output: () => output,
          exitCode: () => child.exitCode
        })
      }
    })
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`the server exited with ${code} before listening:\n${output}`))
    })
  })

export const temporaryDataDir = async (): Promise<
  { readonly dataDir: string; readonly remove: () => Promise<void> }
> => {
  const dataDir = await mkdtemp(join(tmpdir(), "filings-contract-"))
  return { dataDir, remove: () => rm(dataDir, { recursive: true, force: true }) }
}
