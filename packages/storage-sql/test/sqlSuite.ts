/**
 * One test program for the SQL foundation, run against every engine: the stores rely on these
 * behaviours being identical on PGlite and PostgreSQL.
 */
import { Migrator, SqlClient, SqlError } from "@effect/sql"
import type { Vitest } from "@effect/vitest"
import { assert } from "@effect/vitest"
import { Chunk, Deferred, Effect, Fiber, Stream } from "effect"
import { Database, Migrations } from "../src/index.js"

type Methods = Vitest.MethodsNonLive<SqlClient.SqlClient | Database.DatabaseEngine, true>

/** The rows `filings_migrations` holds once every shipped migration ran, in order. */
export const shippedMigrations = Effect.map(
  Migrations.loader,
  (resolved) => resolved.map(([id, name]) => ({ migration_id: id, name }))
)

/** A table name of its own per test, so tests sharing one database cannot see each other. */
const createLabels = (table: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`CREATE TABLE ${sql(table)} (id serial PRIMARY KEY, label text NOT NULL, qty int4 NOT NULL DEFAULT 0)`
  )

const labelsIn = (table: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<{ readonly label: string }>`SELECT label FROM ${sql(table)} ORDER BY id`
  ).pipe(Effect.map((rows) => rows.map((row) => row.label)))

const insertLabel = (table: string, label: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`INSERT INTO ${sql(table)} ${sql.insert({ label })}`)

export const sqlSuite = (it: Methods, engine: Database.Engine["kind"]) => {
  it.effect("reports which engine it runs on", () =>
    Effect.gen(function*() {
      const current = yield* Database.DatabaseEngine
      assert.strictEqual(current.kind, engine)
    }))

  it.effect("binds parameters in inserts and selects", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* createLabels("params")
      const hostile = "x'); DROP TABLE params; --"
      const inserted = yield* sql<{ readonly id: number; readonly label: string }>`INSERT INTO params ${
        sql.insert([{ label: "alpha", qty: 1 }, { label: hostile, qty: 5 }, { label: "alpha", qty: 9 }])
      } RETURNING id, label`
      assert.deepStrictEqual(inserted.map((row) => row.label), ["alpha", hostile, "alpha"])

      const selected = yield* sql<{ readonly label: string; readonly qty: number }>`
        SELECT label, qty FROM params WHERE label = ${"alpha"} AND qty > ${2} ORDER BY id`
      assert.deepStrictEqual(selected, [{ label: "alpha", qty: 9 }])
      assert.deepStrictEqual(yield* sql`SELECT qty FROM params WHERE label = ${hostile}`, [{ qty: 5 }])
      assert.deepStrictEqual(yield* sql`SELECT count(*)::int AS n FROM params WHERE ${sql.in("qty", [1, 9])}`, [
        { n: 2 }
      ])
    }))

  it.effect("round-trips jsonb values, in sql.insert records and as plain parameters", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE documents_json (id int4 PRIMARY KEY, body jsonb)`
      const object = { name: "ACME 10-K", nested: { values: [1, "two", null, { deep: true }] }, unicode: "é ✓" }
      // Arrays and bare strings are the values pg would mangle without Database.jsonb.
      const array = [1, 2, { three: 3 }]
      const text = "plain \"quoted\" text"
      yield* sql`INSERT INTO documents_json ${sql.insert({ id: 1, body: Database.jsonb(object) })}`
      yield* sql`INSERT INTO documents_json (id, body) VALUES (2, ${Database.jsonb(array)}), (3, ${
        Database.jsonb(text)
      })`
      const rows = yield* sql<{ readonly id: number; readonly body: unknown }>`
        SELECT id, body FROM documents_json ORDER BY id`
      assert.deepStrictEqual(rows, [{ id: 1, body: object }, { id: 2, body: array }, { id: 3, body: text }])

      const byPath = yield* sql`SELECT id FROM documents_json WHERE body->>'name' = ${"ACME 10-K"}`
      assert.deepStrictEqual(byPath, [{ id: 1 }])
      const contained = yield* sql`SELECT id FROM documents_json WHERE body @> ${Database.jsonb({ nested: {} })}::jsonb`
      assert.deepStrictEqual(contained, [{ id: 1 }])
    }))

  it.effect("decodes count(*) as a string and count(*)::int as a number", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql`SELECT count(*) AS uncast, count(*)::int AS cast FROM generate_series(1, 3)`
      assert.deepStrictEqual(rows, [{ uncast: "3", cast: 3 }])
    }))

  it.effect("decodes every common type to the same JavaScript value", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql`SELECT
        9007199254740993::int8 AS big, 12.50::numeric AS price, 42::int4 AS small, 1.5::float8 AS ratio,
        true AS flag, 'text'::text AS label, NULL::text AS missing,
        '2024-01-31'::date AS day, '2024-01-31'::date::text AS day_text,
        '2024-01-31 12:34:56.789+00'::timestamptz AS at,
        ARRAY['a', 'b,c']::text[] AS tags, ARRAY[1, 2]::int8[] AS bigs, ARRAY[1, 2]::int4[] AS smalls,
        '{"a": [1, null]}'::jsonb AS doc, '[1, 2]'::json AS list`
      assert.deepStrictEqual(row, {
        big: "9007199254740993",
        price: "12.50",
        small: 42,
        ratio: 1.5,
        flag: true,
        label: "text",
        missing: null,
        day: new Date(2024, 0, 31),
        day_text: "2024-01-31",
        at: new Date("2024-01-31T12:34:56.789Z"),
        tags: ["a", "b,c"],
        bigs: ["1", "2"],
        smalls: [1, 2],
        doc: { a: [1, null] },
        list: [1, 2]
      })
    }))

  it.effect("commits a transaction", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* createLabels("committed")
      const result = yield* sql.withTransaction(
        Effect.zipRight(insertLabel("committed", "one"), Effect.as(insertLabel("committed", "two"), "done"))
      )
      assert.strictEqual(result, "done")
      assert.deepStrictEqual(yield* labelsIn("committed"), ["one", "two"])
    }))

  it.effect("rolls a failed transaction back and passes its error on", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* createLabels("rolled_back")
      yield* insertLabel("rolled_back", "before")
      const error = yield* sql.withTransaction(
        Effect.zipRight(insertLabel("rolled_back", "inside"), Effect.fail("boom" as const))
      ).pipe(Effect.flip)
      assert.strictEqual(error, "boom")
      assert.deepStrictEqual(yield* labelsIn("rolled_back"), ["before"])
    }))

  it.effect("rolls a nested transaction back to its savepoint only", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* createLabels("savepoints")
      yield* sql.withTransaction(Effect.gen(function*() {
        yield* insertLabel("savepoints", "outer before")
        const inner = yield* sql.withTransaction(
          Effect.zipRight(insertLabel("savepoints", "inner"), Effect.fail("inner failed" as const))
        ).pipe(Effect.flip)
        assert.strictEqual(inner, "inner failed")
        yield* sql.withTransaction(insertLabel("savepoints", "inner kept"))
        yield* insertLabel("savepoints", "outer after")
      }))
      assert.deepStrictEqual(yield* labelsIn("savepoints"), ["outer before", "inner kept", "outer after"])
    }))

  it.effect("keeps a plain query out of a concurrently open transaction", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* createLabels("isolation")
      const insideWritten = yield* Deferred.make<void>()
      const transaction = yield* sql.withTransaction(Effect.gen(function*() {
        yield* insertLabel("isolation", "inside")
        yield* Deferred.succeed(insideWritten, undefined)
        // Time for the plain statements below to slip into this transaction, were they able to.
        yield* Effect.sleep("100 millis")
        return yield* Effect.fail("roll back" as const)
      })).pipe(Effect.fork)
      yield* Deferred.await(insideWritten)
      const seenOutside = yield* sql`SELECT count(*)::int AS n FROM isolation WHERE label = 'inside'`
      yield* insertLabel("isolation", "outside")
      assert.strictEqual(yield* Fiber.join(transaction).pipe(Effect.flip), "roll back")
      assert.deepStrictEqual(seenOutside, [{ n: 0 }])
      assert.deepStrictEqual(yield* labelsIn("isolation"), ["outside"])
    }))

  it.effect("keeps concurrent transactions apart", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* createLabels("concurrent")
      const transactions = Array.from({ length: 8 }, (_, i) =>
        sql.withTransaction(Effect.gen(function*() {
          yield* insertLabel("concurrent", `tx ${i}`)
          yield* Effect.sleep("5 millis")
          if (i % 2 === 1) return yield* Effect.fail(`tx ${i} failed`)
          yield* insertLabel("concurrent", `tx ${i} again`)
        })).pipe(Effect.either))
      const plain = Array.from({ length: 4 }, (_, i) => insertLabel("concurrent", `plain ${i}`))
      yield* Effect.all([...transactions, ...plain], { concurrency: "unbounded", discard: true })
      const labels = [...yield* labelsIn("concurrent")].sort()
      const expected = [0, 2, 4, 6].flatMap((i) => [`tx ${i}`, `tx ${i} again`])
        .concat([0, 1, 2, 3].map((i) => `plain ${i}`))
        .sort()
      assert.deepStrictEqual(labels, expected)
    }))

  it.effect("fails bad SQL with a typed SqlError and stays usable", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const syntax = yield* Effect.flip(sql`SELEC 1`)
      assert.instanceOf(syntax, SqlError.SqlError)
      assert.strictEqual(syntax._tag, "SqlError")
      assert.strictEqual(Database.sqlState(syntax), "42601")

      const secret = "sk_live_do-not-log-me"
      const missingColumn = yield* Effect.flip(
        sql`SELECT no_such_column FROM generate_series(1, 1) WHERE ${secret} = ''`
      )
      assert.strictEqual(Database.sqlState(missingColumn), "42703")
      assert.notInclude(JSON.stringify(missingColumn.cause), secret)
      assert.notInclude(String(missingColumn.message), secret)

      yield* createLabels("unique_labels")
      yield* sql`CREATE UNIQUE INDEX ON unique_labels (label)`
      yield* insertLabel("unique_labels", "only once")
      const duplicate = yield* Effect.flip(sql.withTransaction(insertLabel("unique_labels", "only once")))
      assert.instanceOf(duplicate, SqlError.SqlError)
      assert.strictEqual(Database.sqlState(duplicate), "23505")

      assert.deepStrictEqual(yield* sql`SELECT 1::int AS still_working`, [{ still_working: 1 }])
      assert.deepStrictEqual(yield* sql.withTransaction(sql`SELECT 2::int AS n`), [{ n: 2 }])
    }))

  it.effect("runs several statements at once when unprepared", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql.unsafe(`
        CREATE TABLE script (n int4 NOT NULL);
        INSERT INTO script VALUES (1);
        INSERT INTO script VALUES (2);
      `).unprepared
      assert.deepStrictEqual(yield* sql`SELECT sum(n)::int AS total FROM script`, [{ total: 3 }])
    }))

  it.effect("streams rows, and the consumer may query while streaming", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const doubled = yield* sql<{ readonly n: number }>`SELECT n FROM generate_series(1, 5) AS n`.stream.pipe(
        Stream.mapEffect((row) => sql<{ readonly twice: number }>`SELECT ${row.n}::int * 2 AS twice`),
        Stream.map((rows) => rows[0]?.twice),
        Stream.runCollect
      )
      assert.deepStrictEqual(Chunk.toReadonlyArray(doubled), [2, 4, 6, 8, 10])
    }))

  it.effect("applies migrations once; running them again changes nothing", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      assert.deepStrictEqual(yield* Migrations.run(), [])
      assert.deepStrictEqual(yield* Migrations.run(), [])
      const applied = yield* sql`SELECT migration_id, name FROM ${sql(Migrations.table)} ORDER BY migration_id`
      const shipped = yield* shippedMigrations
      assert.deepStrictEqual(applied, shipped)
      assert.deepStrictEqual(shipped[0], { migration_id: 1, name: "filings_meta" })
      yield* sql`INSERT INTO filings_meta ${sql.insert({ key: "probe", value: "ok" })}`
      assert.deepStrictEqual(yield* sql`SELECT value FROM filings_meta WHERE key = 'probe'`, [{ value: "ok" }])
    }))

  it.effect("fails a broken migration with a MigrationError and keeps none of its run", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const loader = Migrator.fromRecord({
        "0001_fine": Effect.asVoid(
          Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE TABLE broken_run_fine (x int)`)
        ),
        "0002_broken": Effect.asVoid(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT no_such_column`))
      })
      const error = yield* Effect.flip(Migrations.run({ loader, table: "broken_run_migrations" }))
      assert.instanceOf(error, Migrator.MigrationError)
      assert.strictEqual(error._tag, "MigrationError")
      assert.strictEqual(error instanceof Migrator.MigrationError ? error.reason : undefined, "failed")
      const leftovers = yield* sql`SELECT to_regclass('broken_run_fine')::text AS fine,
        to_regclass('broken_run_migrations')::text AS log`
      assert.deepStrictEqual(leftovers, [{ fine: null, log: null }])
    }))
}
