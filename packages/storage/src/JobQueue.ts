/**
 * The job queue: every pipeline step after discovery runs as a job, so a crash loses nothing.
 * Jobs can be delayed; a worker holds a job under a lease that expires if the worker dies, after
 * which another worker takes it again. Any number of workers may take from one queue at once, and
 * each job goes to one of them at a time.
 *
 * @module
 */
import { Context, type Duration, type Effect, type Option, Schema } from "effect"
import type { StorageError } from "./StorageError.js"

/**
 * A job as a worker holds it: its payload and the lease it was taken under. Encoded, its keys are
 * the SQL columns' (`lease_token`); a payload absent there is JSON null.
 */
export const Job = Schema.Struct({
  /** The job's id, as `enqueue` returned it. */
  id: Schema.String,
  /** The queue it was enqueued on. */
  queue: Schema.String,
  /** JSON data given at enqueue time. */
  payload: Schema.optionalWith(Schema.Unknown, {
    /** A payload of JSON null, which a row read with its NULL columns dropped no longer holds. */
    default: () => null
  }),
  /** How many times the job has been taken, this time included. */
  attempts: Schema.Int,
  /** Names this lease; completing or retrying with a lease that was lost does nothing. */
  leaseToken: Schema.String.pipe(Schema.propertySignature, Schema.fromKey("lease_token")),
  /** When the lease runs out, unless extended: another worker may then take the job. */
  leaseExpiresAtMillis: Schema.Number.pipe(Schema.propertySignature, Schema.fromKey("lease_expires_at_ms"))
})
export type Job = typeof Job.Type

/** How a job is enqueued: a delay and a unique key, both optional. */
export interface EnqueueOptions {
  /** Run no sooner than this from now. */
  readonly delay?: Duration.DurationInput | undefined
  /**
   * At most one job per key and queue, ever: enqueuing again with a known key adds nothing and
   * returns the first job's id. This is how a step is enqueued exactly once even when its producer
   * retries.
   */
  readonly uniqueKey?: string | undefined
}

/** One job of a batch: its payload and its options. */
export interface NewJob extends EnqueueOptions {
  readonly payload: unknown
}

/** What waits in one queue at a moment, as `depths` reports it. */
export interface QueueDepth {
  readonly queue: string
  /** Jobs due and held by no worker (never taken, given back, or whose worker's lease ran out): the backlog. */
  readonly due: number
  /** Jobs not yet due: enqueued with a delay, or given back to be tried again later. */
  readonly scheduled: number
  /** Jobs a worker holds under a lease that has not run out. */
  readonly running: number
  /** When the due job that has waited longest came due; none when nothing is due. */
  readonly oldestDueAtMillis: Option.Option<number>
}

/**
 * What a job queue does. A job taken under a lease belongs to that lease: once the lease is lost
 * (it ran out and another worker took the job), `complete`, `retry`, `fail` and `extendLease` with
 * it change nothing and answer false. Every operation fails with `StorageError` only when the
 * backing store does.
 */
export interface Service {
  /** Adds a job to the queue and returns its id (the first job's id for a known `uniqueKey`). */
  readonly enqueue: (
    queue: string,
    payload: unknown,
    options?: EnqueueOptions
  ) => Effect.Effect<string, StorageError>
  /**
   * Enqueues a batch at once, as `enqueue` would one by one (a known unique key adds nothing, nor
   * does a key given twice in the batch), in far fewer round trips; answers how many were new.
   */
  readonly enqueueAll: (queue: string, jobs: ReadonlyArray<NewJob>) => Effect.Effect<number, StorageError>
  /**
   * The due job of the queue that came due first (ties in the order enqueued), leased to the caller
   * for `lease`, its `attempts` counted up; none when nothing is due. Concurrent takers never get the
   * same job.
   */
  readonly take: (queue: string, lease: Duration.DurationInput) => Effect.Effect<Option.Option<Job>, StorageError>
  /** Finishes the job for good. False when the lease had already been lost. */
  readonly complete: (job: Job) => Effect.Effect<boolean, StorageError>
  /** Gives the job back, to be taken again after `delay`. False when the lease had already been lost. */
  readonly retry: (job: Job, delay: Duration.DurationInput) => Effect.Effect<boolean, StorageError>
  /**
   * Gives up on the job for `reason` (which an adapter may keep for operators): it stays recorded
   * as dead and is never taken again. False when the lease had already been lost.
   */
  readonly fail: (job: Job, reason: string) => Effect.Effect<boolean, StorageError>
  /** Keeps a long job leased. False when the lease had already been lost. */
  readonly extendLease: (job: Job, lease: Duration.DurationInput) => Effect.Effect<boolean, StorageError>
  /** Jobs of the queue not yet completed or dead, leased ones included. */
  readonly pendingCount: (queue: string) => Effect.Effect<number, StorageError>
  /**
   * Every queue that holds a job not yet completed or dead, by name, with how many of its jobs are
   * due, scheduled and running: what an operator watches to see work piling up.
   */
  readonly depths: Effect.Effect<ReadonlyArray<QueueDepth>, StorageError>
  /**
   * Forgets the jobs of every queue completed `olderThan` ago or longer: a job without a unique key
   * is removed; one with a key keeps only its key, so enqueuing that key again still adds nothing
   * and returns the job's id. Dead jobs are kept (operators read why they died). Answers how many
   * jobs it forgot, each counted once.
   */
  readonly pruneCompleted: (olderThan: Duration.DurationInput) => Effect.Effect<number, StorageError>
}

/**
 * The job queue as an Effect service, provided by `MemoryStorage.jobQueue` or an adapter's layer.
 *
 * @example
 * ```ts
 * const queue = yield* JobQueue
 * yield* queue.enqueue("extract", { publicationId }, { uniqueKey: `extract:${publicationId}` })
 * const job = yield* queue.take("extract", Duration.minutes(5))
 * if (Option.isSome(job)) {
 *   yield* work(job.value.payload)
 *   yield* queue.complete(job.value)
 * }
 * ```
 */
export class JobQueue extends Context.Tag("@filings/storage/JobQueue")<JobQueue, Service>() {}
