/**
 * A private PostgreSQL cluster for one test file: created with `initdb` in a temporary directory,
 * listening on a free port of 127.0.0.1, and owned by the test, which can stop it (as a crash
 * would), start it again and remove it. Tests of what happens when the database goes away need a
 * server they may take down; the shared `FILINGS_TEST_DATABASE_URL` server is not one of those.
 *
 * PostgreSQL refuses to run as root, so when the tests run as root the cluster runs as the
 * `postgres` user through `runuser`. Durability is switched off (no fsync, no full-page writes):
 * the tests need the server to restart, not the machine.
 */
import { execFile, execFileSync } from "node:child_process"
import { accessSync, chownSync, constants, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir, userInfo } from "node:os"
import { delimiter, join } from "node:path"
import { promisify } from "node:util"

const run = promisify(execFile)

export interface ThrowawayPostgres {
  /** `postgresql://postgres@127.0.0.1:<port>/postgres`; no password (trust authentication). */
  readonly url: string
  /** Stops the server at once (`pg_ctl stop -m immediate`): clients lose their connections mid-query. */
  readonly stop: () => Promise<void>
  /** Starts the stopped server again; resolves when it accepts connections (after crash recovery). */
  readonly start: () => Promise<void>
  readonly restart: () => Promise<void>
  /** Stops the server if it runs and deletes the cluster. */
  readonly remove: () => Promise<void>
}

const isExecutable = (path: string) => {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** Where `pg_config` says the server programs are, when it is installed. */
const pgConfigBinDir = (): ReadonlyArray<string> => {
  try {
    return [execFileSync("pg_config", ["--bindir"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim()]
  } catch {
    return []
  }
}

/** Debian installs the server programs outside PATH, under one directory per major version. */
const versionedBinDirs = (): ReadonlyArray<string> => {
  const root = "/usr/lib/postgresql"
  if (!existsSync(root)) return []
  return readdirSync(root)
    .filter((version) => /^\d+$/.test(version))
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => join(root, version, "bin"))
}

const findProgram = (name: string): string | undefined =>
  [
    ...(process.env.PATH ?? "").split(delimiter).filter((dir) => dir !== ""),
    ...pgConfigBinDir(),
    ...versionedBinDirs()
  ]
    .map((dir) => join(dir, name))
    .find((path) => path !== name && isExecutable(path))

const asRoot = () => userInfo().uid === 0

const postgresUser = (): { readonly uid: number; readonly gid: number } | undefined => {
  try {
    const [uid, gid] = ["-u", "-g"].map((flag) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" })))
    return uid === undefined || gid === undefined || Number.isNaN(uid) || Number.isNaN(gid) ? undefined : { uid, gid }
  } catch {
    return undefined
  }
}

/**
 * Whether PostgreSQL's server programs are installed here. Only their absence lets a test skip:
 * where they are installed but cannot be run (root without a `postgres` user to run them as),
 * `startThrowawayPostgres` fails and says why, so a CI machine never skips these tests quietly.
 */
export const throwawayPostgresAvailable = (): boolean =>
  findProgram("initdb") !== undefined && findProgram("pg_ctl") !== undefined

/** A port nobody listens on now: the kernel picks it for a throwaway socket, which we close. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => typeof address === "object" && address !== null ? resolve(address.port) : reject(address))
    })
  })

export const startThrowawayPostgres = async (): Promise<ThrowawayPostgres> => {
  const initdb = findProgram("initdb")
  const pgCtl = findProgram("pg_ctl")
  if (initdb === undefined || pgCtl === undefined) throw new Error("initdb and pg_ctl are not installed")
  if (asRoot() && (findProgram("runuser") === undefined || postgresUser() === undefined)) {
    throw new Error("PostgreSQL refuses to run as root, and there is no runuser or no postgres user to run it as")
  }
  // As root, every program runs as `postgres`; its working directory is the cluster's own, since
  // `postgres` may not be allowed into the test's.
  const command = (program: string, args: ReadonlyArray<string>): [string, ReadonlyArray<string>] =>
    asRoot() ? [findProgram("runuser")!, ["-u", "postgres", "--", program, ...args]] : [program, args]

  const home = mkdtempSync(join(tmpdir(), "filings-pg-"))
  const dataDir = join(home, "data")
  const log = join(home, "server.log")
  const exec = async (program: string, args: ReadonlyArray<string>) => {
    const [file, argv] = command(program, args)
    try {
      await run(file, argv, { cwd: home })
    } catch (error) {
      const failed = error as { stderr?: string; message: string }
      const serverLog = existsSync(log) ? execFileSync("tail", ["-n", "20", log], { encoding: "utf8" }) : ""
      throw new Error(`${program} ${args.join(" ")} failed: ${failed.stderr ?? failed.message}\n${serverLog}`)
    }
  }

  let running = false
  // Should the test process end without `remove` (a crash, Ctrl-C), the cluster must not outlive it.
  const removeNow = () => {
    if (running) {
      const [file, argv] = command(pgCtl, ["-D", dataDir, "-m", "immediate", "-w", "stop"])
      try {
        execFileSync(file, argv, { cwd: home, stdio: "ignore" })
      } catch {
        // Already stopped.
      }
      running = false
    }
    rmSync(home, { recursive: true, force: true })
  }
  process.once("exit", removeNow)

  try {
    if (asRoot()) {
      const owner = postgresUser()
      if (owner === undefined) throw new Error("there is no postgres user to run the cluster as")
      chownSync(home, owner.uid, owner.gid)
    }
    await exec(initdb, ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale"])
    const port = await freePort()
    const options = [
      `-p ${port}`,
      // The socket goes in the cluster's directory: the system's may not be writable by `postgres`.
      `-k ${home}`,
      "-c listen_addresses=127.0.0.1",
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off"
    ].join(" ")

    const start = async () => {
      await exec(pgCtl, ["-D", dataDir, "-l", log, "-w", "-o", options, "start"])
      running = true
    }
    const stop = async () => {
      await exec(pgCtl, ["-D", dataDir, "-m", "immediate", "-w", "stop"])
      running = false
    }
    await start()
    return {
      url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
      start,
      stop,
      restart: async () => {
        await stop()
        await start()
      },
      remove: async () => {
        process.off("exit", removeNow)
        removeNow()
      }
    }
  } catch (error) {
    process.off("exit", removeNow)
    removeNow()
    throw error
  }
}
