// JobQueue on SQL. A worker claims the oldest due job with `FOR UPDATE SKIP LOCKED`, so any number
// of workers on any number of machines share one queue without taking a job twice; a claim is a
// lease (token + expiry) that lapses if the worker dies. Times are milliseconds from the Effect
// Clock, never the database's now(), so every instance and the tests agree on time.
import { SqlClient } from "@effect/sql"
import type { Statement } from "@effect/sql"
import { JobQueue } from "@filings/storage"
import { Array as Arr, Clock, Duration, Effect, Option, Schema } from "effect"
import { randomUUID } from "node:crypto"
import { jsonb } from "./jsonb.js"
import { rowsAs } from "./sqlRows.js"
import { failsAs } from "./storageErrors.js"

const readJobs = rowsAs(JobQueue.Job)
const readIds = rowsAs(Schema.Struct({ id: Schema.String }))
const readPending = rowsAs(Schema.Struct({ pending: Schema.Int }))
const readPruned = rowsAs(Schema.Struct({ pruned: Schema.Int }))
const readDepths = rowsAs(Schema.Struct({
  queue: Schema.String,
  due: Schema.Int,
  scheduled: Schema.Int,
  running: Schema.Int,
  // NULL (nothing due) arrives as an absent column.
  oldest_due_at_ms: Schema.optional(Schema.Number)
}))

/** Jobs forgotten per statement by `pruneCompleted`. */
const pruneBatch = 5_000

/** Rows per INSERT of a batch: five parameters each, well below PostgreSQL's 65,535 per statement. */
const jobRowsPerInsert = 1_000

const compareKeys = (a: string | undefined, b: string | undefined): number =>
  a === b ? 0 : a === undefined ? 1 : b === undefined ? -1 : a < b ? -1 : 1

export const makeJobQueue = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  /** Applies `change` to the job if the caller still holds its lease; true when it did. */
  const settle = (operation: string, job: JobQueue.Job, change: (now: number) => Statement.Fragment) =>
    Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const rows = yield* sql`
        UPDATE jobs SET ${change(now)}
        WHERE id = ${job.id} AND lease_token = ${job.leaseToken} AND state = 'pending'
          AND lease_expires_at_ms > ${now}
        RETURNING id`
      return rows.length === 1
    }).pipe(failsAs(operation))

  const service: JobQueue.Service = {
    enqueue: (queue, payload, options) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const runAt = now + (options?.delay === undefined ? 0 : Duration.toMillis(options.delay))
        const uniqueKey = options?.uniqueKey ?? null
        const inserted = yield* sql`
          INSERT INTO jobs (id, queue, payload, unique_key, run_at_ms)
          VALUES (${randomUUID()}, ${queue}, ${jsonb(payload)}::jsonb, ${uniqueKey}, ${runAt})
          ON CONFLICT (queue, unique_key) DO NOTHING
          RETURNING id`.pipe(readIds)
        if (inserted[0] !== undefined) return inserted[0].id
        // Only a unique key conflicts: the job enqueued first under that key is the one.
        const [existing] = yield* sql`
          SELECT id FROM jobs WHERE queue = ${queue} AND unique_key = ${uniqueKey}`.pipe(readIds)
        return existing?.id ?? (yield* Effect.dieMessage("a conflicting job vanished"))
      }).pipe(failsAs("JobQueue.enqueue")),

    enqueueAll: (queue, jobs) =>
      Effect.gen(function*() {
        if (jobs.length === 0) return 0
        const now = yield* Clock.currentTimeMillis
        // In key order, so that two producers enqueuing overlapping keys wait for each other rather
        // than each holding a key the other needs.
        const ordered = [...jobs].sort((a, b) => compareKeys(a.uniqueKey, b.uniqueKey))
        let added = 0
        for (const batch of Arr.chunksOf(ordered, jobRowsPerInsert)) {
          const inserted = yield* sql`
            INSERT INTO jobs ${
            sql.insert(batch.map((job) => ({
              id: randomUUID(),
              queue,
              payload: jsonb(job.payload),
              unique_key: job.uniqueKey ?? null,
              run_at_ms: now + (job.delay === undefined ? 0 : Duration.toMillis(job.delay))
            })))
          }
            ON CONFLICT (queue, unique_key) DO NOTHING
            RETURNING id`
          added += inserted.length
        }
        return added
      }).pipe(failsAs("JobQueue.enqueueAll")),

    take: (queue, lease) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const taken = yield* sql`
          UPDATE jobs SET attempts = attempts + 1, lease_token = ${randomUUID()},
            lease_expires_at_ms = ${now + Duration.toMillis(lease)}
          WHERE id = (
            SELECT id FROM jobs
            WHERE queue = ${queue} AND state = 'pending' AND run_at_ms <= ${now} AND lease_expires_at_ms <= ${now}
            ORDER BY run_at_ms, sequence
            LIMIT 1
            FOR UPDATE SKIP LOCKED
          )
          RETURNING id, queue, payload, attempts, lease_token, lease_expires_at_ms::float8 AS lease_expires_at_ms`.pipe(
          readJobs
        )
        return Option.fromNullable(taken[0])
      }).pipe(failsAs("JobQueue.take")),

    complete: (job) =>
      settle("JobQueue.complete", job, (now) => sql`state = 'done', lease_token = NULL, completed_at_ms = ${now}`),
    retry: (job, delay) =>
      settle(
        "JobQueue.retry",
        job,
        (now) => sql`run_at_ms = ${now + Duration.toMillis(delay)}, lease_token = NULL, lease_expires_at_ms = 0`
      ),
    fail: (job, reason) =>
      settle("JobQueue.fail", job, () => sql`state = 'dead', lease_token = NULL, last_error = ${reason}`),
    extendLease: (job, lease) =>
      settle("JobQueue.extendLease", job, (now) => sql`lease_expires_at_ms = ${now + Duration.toMillis(lease)}`),
    pendingCount: (queue) =>
      sql`
        SELECT count(*)::int AS pending FROM jobs WHERE queue = ${queue} AND state = 'pending'`.pipe(
        readPending,
        Effect.map((rows) => rows[0]?.pending ?? 0),
        failsAs("JobQueue.pendingCount")
      ),
    depths: Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const rows = yield* sql`
        SELECT queue,
          count(*) FILTER (WHERE lease_expires_at_ms <= ${now} AND run_at_ms <= ${now})::int AS due,
          count(*) FILTER (WHERE lease_expires_at_ms <= ${now} AND run_at_ms > ${now})::int AS scheduled,
          count(*) FILTER (WHERE lease_expires_at_ms > ${now})::int AS running,
          (min(run_at_ms) FILTER (WHERE lease_expires_at_ms <= ${now} AND run_at_ms <= ${now}))::float8
            AS oldest_due_at_ms
        FROM jobs WHERE state = 'pending'
        GROUP BY queue ORDER BY queue COLLATE "C"`.pipe(readDepths)
      return rows.map((row) => ({
        queue: row.queue,
        due: row.due,
        scheduled: row.scheduled,
        running: row.running,
        oldestDueAtMillis: Option.fromNullable(row.oldest_due_at_ms)
      }))
    }).pipe(failsAs("JobQueue.depths")),
    pruneCompleted: (olderThan) =>
      Effect.gen(function*() {
        const cutoff = (yield* Clock.currentTimeMillis) - Duration.toMillis(olderThan)
        let total = 0
        // In batches, each its own short statement, so pruning a large backlog never holds many rows
        // locked at once; jobs completed before migration 20 count from when they were due.
        while (true) {
          const [row] = yield* sql`
            WITH old AS (
              SELECT id, unique_key FROM jobs
              WHERE state = 'done' AND COALESCE(completed_at_ms, run_at_ms) <= ${cutoff}
              LIMIT ${pruneBatch}
              FOR UPDATE SKIP LOCKED
            ),
            removed AS (
              DELETE FROM jobs USING old WHERE jobs.id = old.id AND old.unique_key IS NULL RETURNING 1
            ),
            emptied AS (
              UPDATE jobs SET state = 'pruned', payload = 'null'::jsonb, last_error = NULL
              FROM old WHERE jobs.id = old.id AND old.unique_key IS NOT NULL RETURNING 1
            )
            SELECT ((SELECT count(*) FROM removed) + (SELECT count(*) FROM emptied))::int AS pruned`.pipe(readPruned)
          const pruned = row?.pruned ?? 0
          total += pruned
          if (pruned < pruneBatch) return total
        }
      }).pipe(failsAs("JobQueue.pruneCompleted"))
  }
  return service
})
