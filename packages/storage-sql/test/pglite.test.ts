import { SqlClient, SqlError } from "@effect/sql"
import { assert, describe, it, layer } from "@effect/vitest"
import { Config, ConfigProvider, Context, Effect, Layer, Option } from "effect"
import { existsSync } from "node:fs"
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Database, Migrations, PgliteClient, TestDatabase } from "../src/index.js"
import { shippedMigrations, sqlSuite } from "./sqlSuite.js"

layer(TestDatabase.layerPglite(), { excludeTestServices: true, timeout: "60 seconds" })("PGlite in memory", (it) => {
  sqlSuite(it, "pglite")
})

const temporaryDirectory = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), "filings-storage-sql-"))),
  (directory) => Effect.promise(() => rm(directory, { recursive: true, force: true }))
)

describe("PGlite in a data directory", () => {
  it.scopedLive(
    "persists across close and reopen, and is what layerConfig opens for the data directory it is given",
    () =>
      Effect.gen(function*() {
        const root = yield* temporaryDirectory
        // Neither `data` nor `data/pglite` exists yet: the client creates both.
        const dataDir = join(root, "data")
        const pglite = Database.pgliteDataDir(dataDir)
        const lockFile = `${pglite}.lock`

        const closedClient = yield* Effect.scoped(Effect.gen(function*() {
          const context = yield* Layer.build(Database.layerPglite({ dataDir: pglite }))
          const sql = Context.get(context, SqlClient.SqlClient)
          assert.deepStrictEqual(Context.get(context, Database.DatabaseEngine), {
            kind: "pglite",
            dataDir: join(dataDir, "pglite")
          })
          yield* sql`INSERT INTO filings_meta ${sql.insert({ key: "persisted", value: "kept" })}`

          // While open, the directory is locked against a second opener, in this process or another.
          const second = yield* Effect.flip(Effect.scoped(Layer.build(Database.layerPglite({ dataDir: pglite }))))
          assert.instanceOf(second, SqlError.SqlError)
          assert.include(second.message, `in use by process ${process.pid}`)
          assert.isTrue(PgliteClient.isDataDirInUse(second))
          assert.strictEqual(yield* Effect.promise(() => readFile(lockFile, "utf8")), `${process.pid}\n`)
          return sql
        }))
        assert.isFalse(existsSync(lockFile), "the lock is released on close")

        // A client used after its scope closed fails typed instead of crashing the process.
        const afterClose = yield* Effect.flip(closedClient`SELECT 1`)
        assert.instanceOf(afterClose, SqlError.SqlError)
        assert.isFalse(PgliteClient.isDataDirInUse(afterClose))

        // A lock held by another live process (here: our parent) refuses to open.
        yield* Effect.promise(() => writeFile(lockFile, `${process.ppid}\n`))
        const heldElsewhere = yield* Effect.flip(Effect.scoped(Layer.build(Database.layerPglite({ dataDir: pglite }))))
        assert.include(heldElsewhere.message, `in use by process ${process.ppid}`)
        // A lock left by a process that is gone is taken over (the pid is above Linux's pid_max).
        yield* Effect.promise(() => writeFile(lockFile, "99999999\n"))

        // The names are the caller's: the library reads no variable of its own.
        const configured = Database.layerConfig({
          url: Config.option(Config.redacted("APP_DATABASE_URL")).pipe(Config.map(Option.getOrUndefined)),
          dataDir: Config.string("APP_DATA_DIR")
        }).pipe(
          Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(
            new Map([["APP_DATA_DIR", dataDir], ["FILINGS_DATABASE_URL", "postgres://nobody@127.0.0.1:9/none"]])
          )))
        )
        const reopened = yield* Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          return {
            engine: yield* Database.DatabaseEngine,
            meta: yield* sql`SELECT value FROM filings_meta WHERE key = 'persisted'`,
            migrations: yield* sql`SELECT migration_id, name FROM ${sql(Migrations.table)} ORDER BY migration_id`,
            rerun: yield* Migrations.run()
          }
        }).pipe(Effect.provide(configured))
        assert.deepStrictEqual(reopened, {
          engine: { kind: "pglite", dataDir: join(dataDir, "pglite") },
          meta: [{ value: "kept" }],
          migrations: yield* shippedMigrations,
          rerun: []
        })
        assert.isFalse(existsSync(lockFile))
      }),
    60_000
  )

  it.scopedLive("layer without a URL or a data directory opens PGlite in memory", () =>
    Effect.gen(function*() {
      const context = yield* Layer.build(Database.layer({}))
      assert.deepStrictEqual(Context.get(context, Database.DatabaseEngine), { kind: "pglite", dataDir: undefined })
    }), 60_000)
})
