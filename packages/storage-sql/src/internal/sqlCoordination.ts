// Coordination on SQL, shared by every instance on the database. A budget is a row per start that
// may fall within a window: taking a start updates the row used longest ago, when that was a window
// or more ago, under FOR UPDATE SKIP LOCKED, so two instances never take one row and a window never
// holds more starts than rows. A lease is one row, taken over by an upsert that only succeeds for
// its holder or once it has run out.
import { SqlClient } from "@effect/sql"
import { Coordination } from "@filings/storage"
import { Clock, Duration, Effect, Option, Schema } from "effect"
import { rowsAs } from "./sqlRows.js"
import { failsAs } from "./storageErrors.js"

const readTake = rowsAs(Schema.Struct({
  taken: Schema.Int,
  // NULL when the budget has no row or no pause; rows are read with their NULL columns dropped.
  oldest_ms: Schema.optional(Schema.Number),
  paused_until_ms: Schema.optional(Schema.Number)
}))
const readHolder = rowsAs(Schema.Struct({ holder: Schema.String, expires_at_ms: Schema.Number }))

export const makeCoordination = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // The budgets whose first `limit` rows this process has made sure exist.
  const seeded = new Set<string>()

  const seed = (budget: string, limit: number) => {
    const key = `${limit} ${budget}`
    if (seeded.has(key)) return Effect.void
    return sql`
      INSERT INTO request_budget_slots (budget, slot)
      SELECT ${budget}, slot FROM generate_series(0, ${limit - 1}) AS slot
      ON CONFLICT DO NOTHING`.pipe(Effect.tap(() => Effect.sync(() => seeded.add(key))))
  }

  const service: Coordination.Service = {
    takeStart: (budget, limit, window) =>
      Effect.gen(function*() {
        yield* seed(budget, limit)
        const now = yield* Clock.currentTimeMillis
        const windowMillis = Duration.toMillis(window)
        // One round trip: the update takes a row or none; the other columns, read from the snapshot
        // before it, say how long to wait when it took none.
        const [row] = yield* sql`
          WITH taken AS (
            UPDATE request_budget_slots SET started_at_ms = ${now}
            WHERE budget = ${budget} AND slot = (
              SELECT slot FROM request_budget_slots
              WHERE budget = ${budget} AND slot < ${limit} AND started_at_ms <= ${now - windowMillis}
              ORDER BY started_at_ms
              LIMIT 1
              FOR UPDATE SKIP LOCKED
            )
            AND NOT EXISTS (
              SELECT 1 FROM request_budget_pauses WHERE budget = ${budget} AND paused_until_ms > ${now}
            )
            RETURNING slot
          )
          SELECT
            (SELECT count(*) FROM taken)::int AS taken,
            (SELECT min(started_at_ms) FROM request_budget_slots
              WHERE budget = ${budget} AND slot < ${limit})::float8 AS oldest_ms,
            (SELECT paused_until_ms FROM request_budget_pauses WHERE budget = ${budget})::float8 AS paused_until_ms`
          .pipe(readTake)
        if (row !== undefined && row.taken > 0) return Coordination.started
        // Nothing taken: the pause, or the oldest start leaving the window (a row another instance
        // holds locked this instant shows as old here, and the floor of 1 ms asks again soon).
        const pausedFor = (row?.paused_until_ms ?? 0) - now
        const slotFreeIn = (row?.oldest_ms ?? now) + windowMillis - now
        return Coordination.waitFor(Math.max(pausedFor, slotFreeIn))
      }).pipe(failsAs("Coordination.takeStart")),

    pauseStarts: (budget, duration) =>
      Effect.gen(function*() {
        const until = (yield* Clock.currentTimeMillis) + Duration.toMillis(duration)
        yield* sql`
          INSERT INTO request_budget_pauses (budget, paused_until_ms) VALUES (${budget}, ${until})
          ON CONFLICT (budget) DO UPDATE
          SET paused_until_ms = GREATEST(request_budget_pauses.paused_until_ms, excluded.paused_until_ms)`
      }).pipe(failsAs("Coordination.pauseStarts")),

    acquireLease: (name, holder, duration) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const rows = yield* sql`
          INSERT INTO leases (name, holder, expires_at_ms) VALUES (${name}, ${holder}, ${
          now + Duration.toMillis(duration)
        })
          ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at_ms = excluded.expires_at_ms
          WHERE leases.holder = excluded.holder OR leases.expires_at_ms <= ${now}
          RETURNING holder, expires_at_ms::float8 AS expires_at_ms`.pipe(readHolder)
        return rows.length > 0
      }).pipe(failsAs("Coordination.acquireLease")),

    releaseLease: (name, holder) =>
      sql`DELETE FROM leases WHERE name = ${name} AND holder = ${holder}`.pipe(
        Effect.asVoid,
        failsAs("Coordination.releaseLease")
      ),

    leaseHolder: (name) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const rows = yield* sql`
          SELECT holder, expires_at_ms::float8 AS expires_at_ms FROM leases
          WHERE name = ${name} AND expires_at_ms > ${now}`.pipe(readHolder)
        return Option.map(Option.fromNullable(rows[0]), (row) => ({
          holder: row.holder,
          expiresAtMillis: row.expires_at_ms
        }))
      }).pipe(failsAs("Coordination.leaseHolder"))
  }
  return service
})
