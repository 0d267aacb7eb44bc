// EventStore and CursorStore on SQL. Recorders take one transaction-scoped advisory lock before
// they insert, so they run one at a time across every instance on the database: a recorder gets its
// sequences only after the one before it committed, and a reader that saw sequence n can never
// later find a new event below n. Times come from the Effect Clock, never the database's now().
import { SqlClient } from "@effect/sql"
import { type CursorStore, EventStore } from "@filings/storage"
import { Clock, Effect, Option, Schema } from "effect"
import { randomBytes } from "node:crypto"
import { jsonb } from "./jsonb.js"
import { rowsAs } from "./sqlRows.js"
import { failsAs } from "./storageErrors.js"

/** The `pg_advisory_xact_lock` key that serialises recorders: the ASCII bytes of "events". */
export const recordLockKey = 0x6576656e7473

const readEvents = rowsAs(EventStore.StoredEvent)
const readKeys = rowsAs(Schema.Struct({ key: Schema.String }))
const readLatest = rowsAs(Schema.Struct({ latest: Schema.Number }))
const readValues = rowsAs(Schema.Struct({ value: Schema.String }))

const eventId = () => `evt_${randomBytes(16).toString("hex")}`

/** A whole, non-negative number: bigint parameters reject fractions, and LIMIT rejects negatives. */
const wholeAtLeastZero = (n: number) => Math.max(0, Math.floor(n))

export const makeEventStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // bigint decodes as a string; sequences stay far below 2^53, so float8 carries them exactly. The
  // times were whole milliseconds when written, so the rounding only guards against float epochs.
  const columns = sql`sequence::float8 AS sequence, id, type, key, payload,
    round(extract(epoch FROM recorded_at) * 1000)::float8 AS recorded_at_ms`

  const service: EventStore.Service = {
    record: (events) =>
      Effect.gen(function*() {
        if (events.length === 0) return []
        const recordedAt = new Date(yield* Clock.currentTimeMillis)
        return yield* sql.withTransaction(Effect.gen(function*() {
          // Held until commit: the next recorder's sequences come after ours and become visible after them.
          yield* sql`SELECT pg_advisory_xact_lock(${recordLockKey})`
          // Known keys are skipped before inserting: a conflicting insert would still use up a sequence number.
          const known = yield* sql`
            SELECT key FROM events WHERE ${sql.in("key", events.map((event) => event.key))}`.pipe(readKeys)
          const skip = new Set(known.map((row) => row.key))
          const recorded: Array<EventStore.StoredEvent> = []
          // One statement per event, so sequences follow the given order.
          for (const event of events) {
            if (skip.has(event.key)) continue
            skip.add(event.key)
            // An undefined payload is stored as JSON null, as the memory store does, not as SQL NULL.
            const payload = jsonb(event.payload ?? null)
            const inserted = yield* sql`
              INSERT INTO events (id, type, key, payload, recorded_at)
              VALUES (${eventId()}, ${event.type}, ${event.key}, ${payload}::jsonb, ${recordedAt})
              ON CONFLICT (key) DO NOTHING
              RETURNING ${columns}`.pipe(readEvents)
            recorded.push(...inserted)
          }
          return recorded
        }))
      }).pipe(failsAs("EventStore.record")),

    after: (sequence, limit) =>
      sql`
        SELECT ${columns} FROM events WHERE sequence > ${wholeAtLeastZero(sequence)}
        ORDER BY sequence LIMIT ${wholeAtLeastZero(limit)}`.pipe(
        readEvents,
        failsAs("EventStore.after")
      ),

    ofCompany: ({ tickers, type }) => {
      if (tickers.length === 0) return Effect.succeed([])
      // The expression of the events_by_type_and_ticker index, so the lookup reads that index.
      return sql`
        SELECT ${columns} FROM events
        WHERE type = ${type} AND (payload -> 'data' ->> 'ticker') IN ${sql.in(tickers)}
        ORDER BY sequence`.pipe(readEvents, failsAs("EventStore.ofCompany"))
    },

    findByKey: (key) =>
      sql`SELECT ${columns} FROM events WHERE key = ${key}`.pipe(
        readEvents,
        Effect.map((found) => Option.fromNullable(found[0])),
        failsAs("EventStore.findByKey")
      ),

    latestSequence: sql`
      SELECT coalesce(max(sequence), 0)::float8 AS latest FROM events`.pipe(
      readLatest,
      Effect.map((rows) => rows[0]?.latest ?? 0),
      failsAs("EventStore.latestSequence")
    ),

    // Instances' clocks may differ a little, so times are not quite in sequence order: the first
    // event by sequence among those at or after the time, which events_by_recorded_at finds.
    positionAt: (timeMillis) =>
      sql`
        SELECT coalesce(
          (SELECT min(sequence) - 1 FROM events WHERE recorded_at >= ${new Date(timeMillis)}),
          (SELECT max(sequence) FROM events),
          0
        )::float8 AS latest`.pipe(
        readLatest,
        Effect.map((rows) => rows[0]?.latest ?? 0),
        failsAs("EventStore.positionAt")
      )
  }
  return service
})

export const makeCursorStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const service: CursorStore.Service = {
    get: (name) =>
      sql`SELECT value FROM cursors WHERE name = ${name}`.pipe(
        readValues,
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.value)),
        failsAs("CursorStore.get")
      ),
    set: (name, value) =>
      Effect.gen(function*() {
        const updatedAt = new Date(yield* Clock.currentTimeMillis)
        yield* sql`
          INSERT INTO cursors (name, value, updated_at) VALUES (${name}, ${value}, ${updatedAt})
          ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`
      }).pipe(failsAs("CursorStore.set"))
  }
  return service
})
