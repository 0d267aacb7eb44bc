/**
 * The job queue: every pipeline step after discovery runs as a job, so a crash loses nothing.
 * Jobs can be delayed; a worker holds a job under a lease that expires if the worker dies, after
 * which another worker takes it again. Any number of workers may take from one queue at once, and
 * each job goes to one of them at a time.
 *
 * @module
 */
import { Context, type Duration, type Effect, type Option } from "effect"
import type { StorageError } from "./StorageError.js"

export interface Job {
  readonly id: string
  readonly queue: string
  /** JSON data given at enqueue time. */
  readonly payload: unknown
  /** How many times the job has been taken, this time included. */
  readonly attempts: number
  /** Names this lease; completing or retrying with a lease that was lost does nothing. */
  readonly leaseToken: string
  readonly leaseExpiresAtMillis: number
}

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

export interface Service {
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
  /** The next due job of the queue, leased to the caller for `lease`; none when nothing is due. */
  readonly take: (queue: string, lease: Duration.DurationInput) => Effect.Effect<Option.Option<Job>, StorageError>
  /** Finishes the job for good. False when the lease had already been lost. */
  readonly complete: (job: Job) => Effect.Effect<boolean, StorageError>
  /** Gives the job back, to be taken again after `delay`. False when the lease had already been lost. */
  readonly retry: (job: Job, delay: Duration.DurationInput) => Effect.Effect<boolean, StorageError>
  /** Gives up on the job: it stays recorded as dead and is never taken again. */
  readonly fail: (job: Job, reason: string) => Effect.Effect<boolean, StorageError>
  /** Keeps a long job leased. False when the lease had already been lost. */
  readonly extendLease: (job: Job, lease: Duration.DurationInput) => Effect.Effect<boolean, StorageError>
  /** Jobs of the queue not yet completed or dead, leased ones included. */
  readonly pendingCount: (queue: string) => Effect.Effect<number, StorageError>
}

export class JobQueue extends Context.Tag("@filings/storage/JobQueue")<JobQueue, Service>() {}
