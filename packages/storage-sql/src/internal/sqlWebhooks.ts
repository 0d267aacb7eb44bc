// WebhookStore and DeliveryStore on SQL. Every statement of the owner's API names the owner in its
// WHERE clause, so another key's subscription is indistinguishable from a missing one. Deliveries
// are unique per (subscription, event): dispatchers racing on one event insert with ON CONFLICT DO
// NOTHING, and each gets back only the deliveries it created. Times are the milliseconds callers
// pass, never the database's now().
import { SqlClient } from "@effect/sql"
import { DeliveryStore, WebhookStore } from "@filings/storage"
import { Clock, Duration, Effect, Option, Redacted, Schema } from "effect"
import { jsonb } from "./jsonb.js"
import { rowsAs } from "./sqlRows.js"
import { failsAs } from "./storageErrors.js"

const readSubscriptions = rowsAs(WebhookStore.Subscription)
const readDeliveries = rowsAs(DeliveryStore.Delivery)
const readOwned = rowsAs(Schema.Struct({ owned: Schema.Int }))

/** Deliveries removed per statement by `pruneDelivered`. */
const pruneBatch = 5_000

const first = <A>(values: ReadonlyArray<A>): Option.Option<A> => Option.fromNullable(values[0])

/**
 * The first key of the `pg_advisory_xact_lock(int, int)` that serialises one owner's capped
 * creations (the second is a hash of the owner): the ASCII bytes of "whks".
 */
const ownerCreationLockClass = 0x77686b73

export const makeWebhookStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // bigint decodes as a string; these times and sequences stay far below 2^53, so float8 carries them exactly.
  const columns = sql`id, owner_key_id, url, events, filters, secret, status,
    created_at_ms::float8 AS created_at_ms, last_triggered_at_ms::float8 AS last_triggered_at_ms,
    start_sequence::float8 AS start_sequence`
  // Ties broken in code-point order, as the memory store does, whatever the database's collation.
  const oldestFirst = sql`ORDER BY created_at_ms, id COLLATE "C"`

  const insert = (subscription: WebhookStore.Subscription) =>
    sql`
      INSERT INTO webhooks (id, owner_key_id, url, events, filters, secret, status, created_at_ms,
        last_triggered_at_ms, start_sequence)
      VALUES (${subscription.id}, ${subscription.ownerKeyId}, ${subscription.url},
        ${jsonb(subscription.events)}::jsonb, ${jsonb(subscription.filters)}::jsonb,
        ${Redacted.value(subscription.secret)}, ${subscription.status}, ${subscription.createdAtMillis},
        ${subscription.lastTriggeredAtMillis}, ${subscription.startSequence})`

  const service: WebhookStore.Service = {
    create: (subscription) => insert(subscription).pipe(Effect.asVoid, failsAs("WebhookStore.create")),

    // The owner's lock, held until commit, makes a concurrent creation count after this one's insert.
    createWithin: (subscription, maxPerOwner) =>
      sql.withTransaction(Effect.gen(function*() {
        yield* sql`SELECT pg_advisory_xact_lock(${ownerCreationLockClass}, hashtext(${subscription.ownerKeyId}))`
        const [counted] = yield* sql`
          SELECT count(*)::int AS owned FROM webhooks WHERE owner_key_id = ${subscription.ownerKeyId}`.pipe(readOwned)
        if ((counted?.owned ?? 0) >= maxPerOwner) return false
        yield* insert(subscription)
        return true
      })).pipe(failsAs("WebhookStore.createWithin")),

    find: (id, ownerKeyId) =>
      sql`SELECT ${columns} FROM webhooks WHERE id = ${id} AND owner_key_id = ${ownerKeyId}`.pipe(
        readSubscriptions,
        Effect.map(first),
        failsAs("WebhookStore.find")
      ),

    findById: (id) =>
      sql`SELECT ${columns} FROM webhooks WHERE id = ${id}`.pipe(
        readSubscriptions,
        Effect.map(first),
        failsAs("WebhookStore.findById")
      ),

    list: (ownerKeyId) =>
      sql`SELECT ${columns} FROM webhooks WHERE owner_key_id = ${ownerKeyId} ${oldestFirst}`.pipe(
        readSubscriptions,
        failsAs("WebhookStore.list")
      ),

    listAll: sql`SELECT ${columns} FROM webhooks ${oldestFirst}`.pipe(
      readSubscriptions,
      failsAs("WebhookStore.listAll")
    ),

    // A change not given is NULL here, and COALESCE keeps the column as it was.
    update: (id, ownerKeyId, changes) =>
      sql`
        UPDATE webhooks SET
          url = COALESCE(${changes.url ?? null}, url),
          events = COALESCE(${changes.events === undefined ? null : jsonb(changes.events)}::jsonb, events),
          filters = COALESCE(${changes.filters === undefined ? null : jsonb(changes.filters)}::jsonb, filters),
          status = COALESCE(${changes.status ?? null}, status),
          secret = COALESCE(${changes.secret === undefined ? null : Redacted.value(changes.secret)}, secret)
        WHERE id = ${id} AND owner_key_id = ${ownerKeyId}
        RETURNING ${columns}`.pipe(
        readSubscriptions,
        Effect.map(first),
        failsAs("WebhookStore.update")
      ),

    setStatus: (id, status) =>
      sql`UPDATE webhooks SET status = ${status} WHERE id = ${id}`.pipe(
        Effect.asVoid,
        failsAs("WebhookStore.setStatus")
      ),

    // Workers finish out of order: an earlier time never replaces a later one (GREATEST skips NULL).
    markTriggered: (id, atMillis) =>
      sql`
        UPDATE webhooks SET last_triggered_at_ms = GREATEST(last_triggered_at_ms, ${atMillis}::bigint)
        WHERE id = ${id}`.pipe(Effect.asVoid, failsAs("WebhookStore.markTriggered")),

    // The deliveries go with it: ON DELETE CASCADE.
    remove: (id, ownerKeyId) =>
      sql`DELETE FROM webhooks WHERE id = ${id} AND owner_key_id = ${ownerKeyId} RETURNING id`.pipe(
        Effect.map((rows) => rows.length === 1),
        failsAs("WebhookStore.remove")
      )
  }
  return service
})

/** Rows per INSERT: about 7 parameters each, well below PostgreSQL's 65,535 per statement. */
const insertChunkSize = 500

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The batch in one order every recorder shares. Two transactions inserting overlapping pairs in
 * different orders could each wait for the other's row; in one order they only queue. The sort is
 * stable, so of two deliveries with the same pair the first given is still the one recorded.
 */
const inLockOrder = (deliveries: ReadonlyArray<DeliveryStore.NewDelivery>) =>
  [...deliveries].sort((a, b) => compareText(a.subscriptionId, b.subscriptionId) || compareText(a.eventId, b.eventId))

const chunksOf = <A>(items: ReadonlyArray<A>, size: number): ReadonlyArray<ReadonlyArray<A>> =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size))

export const makeDeliveryStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql`id, subscription_id, event_id, event_sequence::float8 AS event_sequence, event_type, state,
    attempts, created_at_ms::float8 AS created_at_ms, last_attempt_at_ms::float8 AS last_attempt_at_ms, last_status,
    last_error, next_attempt_at_ms::float8 AS next_attempt_at_ms, delivered_at_ms::float8 AS delivered_at_ms`

  /** Moves a delivery to `state` with no next attempt time; the delivery as it now is. */
  const moveTo = (state: "skipped" | "pending", operation: string) => (id: string) =>
    sql`UPDATE deliveries SET state = ${state}, next_attempt_at_ms = NULL WHERE id = ${id} RETURNING ${columns}`.pipe(
      readDeliveries,
      Effect.map(first),
      failsAs(operation)
    )

  const service: DeliveryStore.Service = {
    record: (deliveries) =>
      Effect.gen(function*() {
        if (deliveries.length === 0) return []
        const recorded = yield* sql.withTransaction(Effect.forEach(
          chunksOf(inLockOrder(deliveries), insertChunkSize),
          (chunk) =>
            sql`
              INSERT INTO deliveries ${
              sql.insert(chunk.map((delivery) => ({
                id: delivery.id,
                subscription_id: delivery.subscriptionId,
                event_id: delivery.eventId,
                event_sequence: delivery.eventSequence,
                event_type: delivery.eventType,
                state: delivery.state,
                created_at_ms: delivery.createdAtMillis
              })))
            }
              -- No conflict target: the id is made from the pair, so two racing recorders can collide on
              -- either unique index first, and either collision means the delivery is recorded already.
              ON CONFLICT DO NOTHING
              RETURNING ${columns}`.pipe(readDeliveries)
        ))
        const byId = new Map(recorded.flat().map((delivery) => [delivery.id, delivery]))
        // Back in the given order; an id given twice is reported once.
        return deliveries.flatMap((delivery) => {
          const row = byId.get(delivery.id)
          if (row === undefined) return []
          byId.delete(delivery.id)
          return [row]
        })
      }).pipe(failsAs("DeliveryStore.record")),

    find: (id) =>
      sql`SELECT ${columns} FROM deliveries WHERE id = ${id}`.pipe(
        readDeliveries,
        Effect.map(first),
        failsAs("DeliveryStore.find")
      ),

    recordAttempt: (id, outcome) =>
      sql`
        UPDATE deliveries SET
          attempts = attempts + 1,
          state = ${outcome.state},
          last_attempt_at_ms = ${outcome.atMillis},
          last_status = ${outcome.status},
          last_error = ${outcome.error},
          next_attempt_at_ms = ${outcome.nextAttemptAtMillis},
          delivered_at_ms = COALESCE(${
        outcome.state === "delivered" ? outcome.atMillis : null
      }::bigint, delivered_at_ms)
        WHERE id = ${id}
        RETURNING ${columns}`.pipe(
        readDeliveries,
        Effect.map(first),
        failsAs("DeliveryStore.recordAttempt")
      ),

    markSkipped: moveTo("skipped", "DeliveryStore.markSkipped"),
    requeue: moveTo("pending", "DeliveryStore.requeue"),

    list: (subscriptionId, options) => {
      const conditions = [sql`subscription_id = ${subscriptionId}`]
      // bigint parameters reject fractions; below 3.5 is below 4 for whole sequences.
      if (options.beforeSequence !== undefined) {
        conditions.push(sql`event_sequence < ${Math.ceil(options.beforeSequence)}`)
      }
      return sql`
        SELECT ${columns} FROM deliveries WHERE ${sql.and(conditions)}
        ORDER BY event_sequence DESC, created_at_ms DESC, id COLLATE "C" DESC
        LIMIT ${Math.max(0, Math.floor(options.limit))}`.pipe(
        readDeliveries,
        failsAs("DeliveryStore.list")
      )
    },

    undeliveredSince: (subscriptionId, sinceMillis) =>
      sql`
        SELECT ${columns} FROM deliveries
        WHERE subscription_id = ${subscriptionId} AND state IN ('skipped', 'failed') AND created_at_ms >= ${
        Math.ceil(sinceMillis)
      }
        ORDER BY created_at_ms, event_sequence, id COLLATE "C"`.pipe(
        readDeliveries,
        failsAs("DeliveryStore.undeliveredSince")
      ),
    pruneDelivered: (olderThan) =>
      Effect.gen(function*() {
        const cutoff = (yield* Clock.currentTimeMillis) - Duration.toMillis(olderThan)
        let total = 0
        // In batches, so a large backlog is never one long statement holding its rows.
        while (true) {
          const removed = yield* sql`
            DELETE FROM deliveries WHERE id IN (
              SELECT id FROM deliveries WHERE state = 'delivered' AND delivered_at_ms <= ${cutoff}
              LIMIT ${pruneBatch}
            )
            RETURNING 1`
          total += removed.length
          if (removed.length < pruneBatch) return total
        }
      }).pipe(failsAs("DeliveryStore.pruneDelivered"))
  }
  return service
})
