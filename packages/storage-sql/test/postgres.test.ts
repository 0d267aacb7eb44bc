import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { assert, describe, it, layer } from "@effect/vitest"
import { Config, ConfigProvider, Context, Effect, Layer, Redacted } from "effect"
import { adminUrl, adminUrlVariable } from "../../../test/support/adminUrl.js"
import { Database, Migrations, TestDatabase } from "../src/index.js"
import { shippedMigrations, sqlSuite } from "./sqlSuite.js"

const admin = Redacted.make(adminUrl ?? "")

const databaseExists = (name: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM pg_database WHERE datname = ${name}`
  ).pipe(
    Effect.map((rows) => rows[0]?.n === 1),
    Effect.provide(PgClient.layer({ url: admin }))
  )

const title = adminUrl === undefined
  ? `PostgreSQL (skipped: set ${adminUrlVariable} to an admin URL to run)`
  : "PostgreSQL"

describe.skipIf(adminUrl === undefined)(title, () => {
  layer(TestDatabase.layerPostgres(admin), { excludeTestServices: true, timeout: "60 seconds" })(
    "shared suite",
    (it) => {
      sqlSuite(it, "postgres")
    }
  )

  it.scopedLive("migrates once when several processes start on a new database at the same moment", () =>
    Effect.gen(function*() {
      const url = yield* TestDatabase.createPostgresDatabase(admin)
      // Separate pools stand for separate processes; connected up front so the runs really overlap.
      const processes = yield* Effect.all(Array.from({ length: 6 }, () => Layer.build(PgClient.layer({ url }))))
      const runs = yield* Effect.all(processes.map((context) => Effect.provide(Migrations.run(), context)), {
        concurrency: "unbounded"
      })
      const shipped = yield* shippedMigrations
      // One process applied everything, the others found nothing left to do.
      assert.deepStrictEqual(runs.filter((applied) => applied.length > 0).length, 1)
      assert.deepStrictEqual(runs.flat().map(([id, name]) => ({ migration_id: id, name })), shipped)
      const recorded = yield* Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql`SELECT migration_id, name FROM ${sql(Migrations.table)} ORDER BY migration_id`
      ).pipe(Effect.provide(processes[0]!))
      assert.deepStrictEqual(recorded, shipped)
    }))

  it.live("drops the fresh database when the test layer is released", () =>
    Effect.gen(function*() {
      const name = yield* Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(TestDatabase.layerPostgres(admin))
        const engine = Context.get(context, Database.DatabaseEngine)
        assert.strictEqual(engine.kind, "postgres")
        const database = engine.kind === "postgres" ? engine.database ?? "" : ""
        assert.match(database, /^filings_test_[0-9a-f]{16}$/)
        assert.isTrue(yield* databaseExists(database))
        const sql = Context.get(context, SqlClient.SqlClient)
        assert.deepStrictEqual(yield* sql`SELECT current_database() AS name`, [{ name: database }])
        return database
      }))
      assert.isFalse(yield* databaseExists(name))
    }))

  it.scopedLive("layerConfig picks PostgreSQL when the URL the caller names is set", () =>
    Effect.gen(function*() {
      const url = yield* TestDatabase.createPostgresDatabase(admin)
      const configured = Database.layerConfig({
        url: Config.redacted("APP_DATABASE_URL"),
        dataDir: Config.string("APP_DATA_DIR"),
        maxConnections: Config.succeed(2)
      }).pipe(
        Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(
          new Map([["APP_DATABASE_URL", Redacted.value(url)], ["APP_DATA_DIR", "/nonexistent/unused"]])
        )))
      )
      const result = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        return {
          engine: yield* Database.DatabaseEngine,
          maxConnections: (yield* PgClient.PgClient).config.maxConnections,
          migrations: yield* sql`SELECT migration_id, name FROM ${sql(Migrations.table)} ORDER BY migration_id`
        }
      }).pipe(Effect.provide(configured))
      assert.deepStrictEqual(result, {
        engine: { kind: "postgres", database: new URL(Redacted.value(url)).pathname.slice(1) },
        maxConnections: 2,
        migrations: yield* shippedMigrations
      })
    }))

  it.scopedLive("layer with a URL opens PostgreSQL, whatever data directory is given", () =>
    Effect.gen(function*() {
      const url = yield* TestDatabase.createPostgresDatabase(admin)
      const engine = yield* Effect.provide(
        Database.DatabaseEngine,
        Database.layer({ url, dataDir: "/nonexistent/unused" })
      )
      assert.deepStrictEqual(engine, { kind: "postgres", database: new URL(Redacted.value(url)).pathname.slice(1) })
    }))
})
