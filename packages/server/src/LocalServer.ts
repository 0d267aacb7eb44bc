/**
 * The file a running server leaves in its data directory, `server.json`, so that the CLI on the
 * same machine can find it and hand it work (embedded PGlite admits one process per data
 * directory, so `filings ingest` cannot open the database while `filings serve` has it). The file
 * holds the server's address and a token for its `/admin` routes, is readable by its owner only,
 * and is removed when the server stops.
 */
import { FileSystem } from "@effect/platform"
import { Effect, Option, Redacted, Schema } from "effect"
import { join } from "node:path"

export const RuntimeInfo = Schema.Struct({
  pid: Schema.Number,
  url: Schema.String,
  adminToken: Schema.Redacted(Schema.String)
})
export type RuntimeInfo = typeof RuntimeInfo.Type

const fileIn = (dataDir: string) => join(dataDir, "server.json")

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** Writes the file for the life of the scope. */
export const announce = (dataDir: string, info: RuntimeInfo) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = fileIn(dataDir)
    const text = JSON.stringify({ pid: info.pid, url: info.url, adminToken: Redacted.value(info.adminToken) })
    yield* fs.makeDirectory(dataDir, { recursive: true })
    yield* fs.writeFileString(path, text, { mode: 0o600 })
    yield* fs.chmod(path, 0o600)
    yield* Effect.addFinalizer(() => Effect.ignore(fs.remove(path)))
  })

/** The server running on this data directory, if one is: the file exists and its process is alive. */
export const find = (dataDir: string) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const text = yield* Effect.option(fs.readFileString(fileIn(dataDir)))
    if (Option.isNone(text)) return Option.none<RuntimeInfo>()
    const info = yield* Effect.option(Schema.decodeUnknown(Schema.parseJson(RuntimeInfo))(text.value))
    return Option.filter(info, (found) => isAlive(found.pid))
  })
