// In-memory JobQueue: the same semantics as the SQL queue (delays, leases, unique keys), for tests
// and single-process use. Time comes from the Effect Clock, so TestClock drives leases and delays.
import { Clock, Duration, Effect, Option, Ref } from "effect"
import { randomUUID } from "node:crypto"
import type * as JobQueue from "../JobQueue.js"

interface Entry {
  readonly id: string
  readonly queue: string
  readonly payload: unknown
  readonly uniqueKey: string | undefined
  readonly sequence: number
  readonly runAtMillis: number
  readonly attempts: number
  readonly leaseToken: string | undefined
  readonly leaseExpiresAtMillis: number
  // "pruned": completed long ago, kept for its unique key only.
  readonly state: "pending" | "done" | "dead" | "pruned"
  readonly completedAtMillis?: number | undefined
}

export const makeJobQueue = Effect.gen(function*() {
  const entries = yield* Ref.make(new Map<string, Entry>())
  let sequence = 0

  const holdsLease = (entry: Entry | undefined, job: JobQueue.Job, now: number): entry is Entry =>
    entry !== undefined && entry.state === "pending" && entry.leaseToken === job.leaseToken &&
    entry.leaseExpiresAtMillis > now

  const settle = (job: JobQueue.Job, change: (entry: Entry, now: number) => Entry) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Ref.modify(entries, (map) => {
        const entry = map.get(job.id)
        if (!holdsLease(entry, job, now)) return [false, map]
        return [true, new Map(map).set(job.id, change(entry, now))]
      }))

  const service: JobQueue.Service = {
    enqueueAll: (queue, jobs) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Ref.modify(entries, (map) => {
          const known = new Set(
            [...map.values()].flatMap((
              entry
            ) => (entry.queue === queue && entry.uniqueKey !== undefined ? [entry.uniqueKey] : []))
          )
          const next = new Map(map)
          let added = 0
          for (const job of jobs) {
            if (job.uniqueKey !== undefined) {
              if (known.has(job.uniqueKey)) continue
              known.add(job.uniqueKey)
            }
            const id = randomUUID()
            next.set(id, {
              id,
              queue,
              payload: structuredClone(job.payload),
              uniqueKey: job.uniqueKey,
              sequence: sequence++,
              runAtMillis: now + (job.delay === undefined ? 0 : Duration.toMillis(job.delay)),
              attempts: 0,
              leaseToken: undefined,
              leaseExpiresAtMillis: 0,
              state: "pending"
            })
            added++
          }
          return [added, next]
        })),
    enqueue: (queue, payload, options) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Ref.modify(entries, (map) => {
          const uniqueKey = options?.uniqueKey
          if (uniqueKey !== undefined) {
            const existing = [...map.values()].find((entry) => entry.queue === queue && entry.uniqueKey === uniqueKey)
            if (existing !== undefined) return [existing.id, map]
          }
          const id = randomUUID()
          const entry: Entry = {
            id,
            queue,
            payload: structuredClone(payload),
            uniqueKey,
            sequence: sequence++,
            runAtMillis: now + (options?.delay === undefined ? 0 : Duration.toMillis(options.delay)),
            attempts: 0,
            leaseToken: undefined,
            leaseExpiresAtMillis: 0,
            state: "pending"
          }
          return [id, new Map(map).set(id, entry)]
        })),
    take: (queue, lease) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Ref.modify(entries, (map) => {
          const due = [...map.values()]
            .filter((entry) =>
              entry.queue === queue && entry.state === "pending" && entry.runAtMillis <= now &&
              entry.leaseExpiresAtMillis <= now
            )
            .sort((a, b) => a.runAtMillis - b.runAtMillis || a.sequence - b.sequence)[0]
          if (due === undefined) return [Option.none(), map]
          const job: JobQueue.Job = {
            id: due.id,
            queue: due.queue,
            payload: structuredClone(due.payload),
            attempts: due.attempts + 1,
            leaseToken: randomUUID(),
            leaseExpiresAtMillis: now + Duration.toMillis(lease)
          }
          const { attempts, leaseExpiresAtMillis, leaseToken } = job
          return [Option.some(job), new Map(map).set(due.id, { ...due, attempts, leaseExpiresAtMillis, leaseToken })]
        })),
    complete: (job) =>
      settle(job, (entry, now) => ({ ...entry, state: "done", leaseToken: undefined, completedAtMillis: now })),
    retry: (job, delay) =>
      settle(job, (entry, now) => ({
        ...entry,
        runAtMillis: now + Duration.toMillis(delay),
        leaseToken: undefined,
        leaseExpiresAtMillis: 0
      })),
    fail: (job) => settle(job, (entry) => ({ ...entry, state: "dead", leaseToken: undefined })),
    extendLease: (job, lease) =>
      settle(job, (entry, now) => ({ ...entry, leaseExpiresAtMillis: now + Duration.toMillis(lease) })),
    pendingCount: (queue) =>
      Effect.map(
        Ref.get(entries),
        (map) => [...map.values()].filter((entry) => entry.queue === queue && entry.state === "pending").length
      ),
    depths: Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const byQueue = new Map<string, { due: number; scheduled: number; running: number; oldest: number }>()
      for (const entry of (yield* Ref.get(entries)).values()) {
        if (entry.state !== "pending") continue
        const depth = byQueue.get(entry.queue) ?? { due: 0, scheduled: 0, running: 0, oldest: Infinity }
        if (entry.leaseExpiresAtMillis > now) depth.running++
        else if (entry.runAtMillis > now) depth.scheduled++
        else {
          depth.due++
          depth.oldest = Math.min(depth.oldest, entry.runAtMillis)
        }
        byQueue.set(entry.queue, depth)
      }
      return [...byQueue].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([queue, depth]) => ({
        queue,
        due: depth.due,
        scheduled: depth.scheduled,
        running: depth.running,
        oldestDueAtMillis: depth.due === 0 ? Option.none() : Option.some(depth.oldest)
      }))
    }),
    pruneCompleted: (olderThan) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Ref.modify(entries, (map) => {
          const cutoff = now - Duration.toMillis(olderThan)
          const next = new Map(map)
          let pruned = 0
          for (const entry of map.values()) {
            if (entry.state !== "done" || (entry.completedAtMillis ?? entry.runAtMillis) > cutoff) continue
            if (entry.uniqueKey === undefined) next.delete(entry.id)
            else next.set(entry.id, { ...entry, state: "pruned", payload: null })
            pruned++
          }
          return [pruned, next]
        }))
  }
  return service
})
