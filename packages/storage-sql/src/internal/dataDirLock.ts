/**
 * A lock file that keeps a second process from opening a PGlite data directory. PGlite itself
 * does not refuse (it writes no postmaster.pid), and two processes writing one directory corrupt
 * it. The file sits next to the directory (`<dataDir>.lock`) because initdb wants an empty one.
 */
import { SqlError } from "@effect/sql"
import type { Scope } from "effect"
import { Effect } from "effect"
import { open, readFile, unlink } from "node:fs/promises"

/** Directories this process holds, to tell our own live lock from one left by a previous run with our pid. */
const heldByThisProcess = new Set<string>()

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as { readonly code?: unknown }).code === "EPERM"
  }
}

/** The cause of the failure to open a directory another process holds, so that callers can tell it apart. */
export interface DataDirInUse {
  readonly _tag: "DataDirInUse"
  readonly dataDir: string
  readonly pid: number | undefined
}

/** Whether `error` says the data directory is held by another process (or another client in this one). */
export const isDataDirInUse = (error: SqlError.SqlError): boolean =>
  typeof error.cause === "object" && error.cause !== null && "_tag" in error.cause &&
  error.cause._tag === "DataDirInUse"

const inUse = (dataDir: string, pid: number | undefined) =>
  new SqlError.SqlError({
    cause: { _tag: "DataDirInUse", dataDir, pid } satisfies DataDirInUse,
    message:
      `PgliteClient: the database in ${dataDir} is in use by ${
        pid === undefined ? "another process" : `process ${pid}`
      }. ` +
      "Embedded PGlite serves one process at a time; use PostgreSQL to share a database."
  })

const ioError = (dataDir: string, cause: unknown) =>
  new SqlError.SqlError({ cause, message: `PgliteClient: cannot lock the data directory ${dataDir}` })

/** Creates the lock file, failing if it already exists. */
const create = (lockPath: string) =>
  Effect.tryPromise({
    try: async () => {
      const handle = await open(lockPath, "wx")
      try {
        await handle.writeFile(`${process.pid}\n`)
      } finally {
        await handle.close()
      }
    },
    catch: (cause) => cause
  })

/** The pid recorded in an existing lock file; `undefined` if unreadable or garbage, which counts as stale. */
const recordedPid = (lockPath: string) =>
  Effect.promise(() => readFile(lockPath, "utf8").catch(() => "")).pipe(
    Effect.map((text) => {
      const pid = Number.parseInt(text.trim(), 10)
      return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined
    })
  )

/**
 * Holds `<dataDir>.lock` for the scope. A lock whose process is gone (a crash, or a container that
 * restarted with the same pid) is taken over.
 */
export const lockDataDir = (dataDir: string): Effect.Effect<void, SqlError.SqlError, Scope.Scope> => {
  const lockPath = `${dataDir}.lock`
  const acquire = Effect.gen(function*() {
    if (heldByThisProcess.has(dataDir)) return yield* inUse(dataDir, process.pid)
    const first = yield* Effect.either(create(lockPath))
    if (first._tag === "Right") return
    if ((first.left as { readonly code?: unknown }).code !== "EEXIST") return yield* ioError(dataDir, first.left)
    const pid = yield* recordedPid(lockPath)
    if (pid !== undefined && pid !== process.pid && isRunning(pid)) return yield* inUse(dataDir, pid)
    // Stale. If another process takes it over at the same moment, only one `wx` create wins.
    yield* Effect.promise(() => unlink(lockPath).catch(() => undefined))
    yield* create(lockPath).pipe(
      Effect.mapError((cause) =>
        (cause as { readonly code?: unknown }).code === "EEXIST" ? inUse(dataDir, undefined) : ioError(dataDir, cause)
      )
    )
  })
  return Effect.acquireRelease(
    Effect.zipRight(acquire, Effect.sync(() => heldByThisProcess.add(dataDir))),
    () =>
      Effect.promise(() => unlink(lockPath).catch(() => undefined)).pipe(
        Effect.ensuring(Effect.sync(() => heldByThisProcess.delete(dataDir)))
      )
  ).pipe(Effect.asVoid)
}
