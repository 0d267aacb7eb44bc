/**
 * Workers that take jobs from one queue of the `JobQueue` port and run them: a job that fails for
 * a passing reason is given back with a growing delay, one that can never succeed is recorded as
 * dead with its reason, and a job whose worker died is taken again when its lease runs out. A job
 * that failed because a service it needs is down (an outage) is never given up for that: it is
 * tried again at least every `outageRetryCap`, so an outage of any length skips nothing and work
 * resumes soon after it ends. A
 * worker with nothing to do waits for a wake-up (a producer in the same process has just
 * enqueued) or for the poll interval (a producer elsewhere has).
 *
 * When the server stops (its scope closes), workers take no new job; a job under way is given
 * `ShutdownGrace` to finish, and one still running then is cut off and given back to the queue at
 * once, so another instance (or this one, restarted) runs it again without waiting for its lease.
 */
import { JobQueue } from "@filings/storage"
import { Cause, Context, Data, Duration, Effect, Exit, Fiber, Option, Queue, type Scope } from "effect"

/** How long a stopping server lets a job under way finish (`FILINGS_SHUTDOWN_GRACE`); 30 s unless provided. */
export class ShutdownGrace extends Context.Reference<ShutdownGrace>()("@filings/server/ShutdownGrace", {
  defaultValue: (): Duration.Duration => Duration.seconds(30)
}) {}

/**
 * What a job handler says about a failure: its reason, and whether running the job again cannot
 * help (a file that is no filing) or may (the regulator or the database was unavailable).
 */
export class JobFailure extends Data.TaggedError("JobFailure")<{
  readonly reason: string
  readonly permanent: boolean
  /** When to run it again, when the job has a schedule of its own (webhook deliveries). */
  readonly retryIn?: Duration.Duration | undefined
  /** A retry that is part of normal work (a busy receiver), logged at debug level only. */
  readonly routine?: boolean | undefined
  /**
   * The job could not run because a service it needs is down (the regulator answers errors or
   * nothing), not because of the job: the attempt does not count towards `maxAttempts`, and the
   * job is tried again at most `outageRetryCap` later.
   */
  readonly outage?: boolean | undefined
}> {}

export interface WorkerOptions<R> {
  readonly queue: string
  readonly concurrency: number
  /** How long a job stays leased to its worker; a longer job keeps extending it. */
  readonly lease: Duration.DurationInput
  /** How often an idle worker looks for jobs enqueued by other processes. */
  readonly pollInterval: Duration.DurationInput
  /** Attempts before a job is given up; it then stays recorded as dead. Outages do not count. */
  readonly maxAttempts: number
  /** The longest wait before trying a job again after an outage failure; `OutageRetryCap` unless given. */
  readonly outageRetryCap?: Duration.DurationInput | undefined
  readonly handle: (job: JobQueue.Job) => Effect.Effect<void, JobFailure, R>
}

/** The delay before attempt `attempts + 1`: 2 s, 4 s, 8 s ... up to 5 minutes. */
export const retryDelay = (attempts: number): Duration.Duration =>
  Duration.seconds(Math.min(300, 2 ** Math.min(attempts, 9)))

/**
 * The longest wait between attempts while a service the job needs is down. The EDGAR client has
 * already retried each request with its own backoff (about half a minute in all) before a job
 * fails, so a job waits at most about a minute after the regulator is back.
 */
export const OutageRetryCap = Duration.seconds(30)

/**
 * Starts the workers in the current scope; they stop when it closes. Returns `wake`, which a
 * producer in this process calls after enqueuing so that an idle worker starts at once.
 */
export const startWorkers = <R>(
  options: WorkerOptions<R>
): Effect.Effect<{ readonly wake: Effect.Effect<void> }, never, JobQueue.JobQueue | Scope.Scope | R> =>
  Effect.gen(function*() {
    const queue = yield* JobQueue.JobQueue
    const wakeUps = yield* Queue.sliding<void>(options.concurrency)
    const lease = Duration.decode(options.lease)
    const outageRetryCap = Duration.decode(options.outageRetryCap ?? OutageRetryCap)

    const runJob = (job: JobQueue.Job) =>
      Effect.gen(function*() {
        // Keep the lease while the job runs, so a slow fetch is not taken by a second worker. An
        // extension that fails (the database restarting) is tried again at the next beat: ending
        // the beat there would let the lease run out under a job still running, and have it run twice.
        const keepLeased = Effect.sleep(Duration.times(lease, 0.4)).pipe(
          Effect.zipRight(Effect.ignore(queue.extendLease(job, lease))),
          Effect.forever
        )
        const exit = yield* Effect.scoped(
          Effect.forkScoped(keepLeased).pipe(Effect.zipRight(Effect.exit(options.handle(job))))
        )
        if (Exit.isSuccess(exit)) return yield* queue.complete(job)
        // A defect, or an interruption that came from elsewhere (a shared result another fiber gave
        // up), is a passing failure of this job, never the end of the worker: the worker's own
        // interruption does not get here.
        const failure = Option.getOrElse(
          Cause.failureOption(exit.cause),
          () => new JobFailure({ reason: `the job ended unexpectedly: ${Cause.pretty(exit.cause)}`, permanent: false })
        )
        const outage = failure.outage === true
        if (failure.permanent || (!outage && job.attempts >= options.maxAttempts)) {
          yield* Effect.logWarning(`job ${job.id} of ${options.queue} given up: ${failure.reason}`)
          return yield* queue.fail(job, failure.reason)
        }
        const message = `job ${job.id} of ${options.queue} will be retried: ${failure.reason}`
        yield* failure.routine === true ? Effect.logDebug(message) : Effect.logInfo(message)
        const delay = failure.retryIn ??
          (outage ? Duration.min(retryDelay(job.attempts), outageRetryCap) : retryDelay(job.attempts))
        return yield* queue.retry(job, delay)
      }).pipe(
        // One trace per job: its SQL and requests to the regulator or to receivers are its children.
        Effect.withSpan(`job ${options.queue}`, {
          kind: "consumer",
          root: true,
          attributes: { "job.id": job.id, "job.queue": options.queue, "job.attempt": job.attempts }
        })
      )

    const grace = yield* ShutdownGrace

    // The job runs in a fiber of its own, so stopping the worker does not stop it at once: the
    // worker waits for it, and a timer of the grace cuts it off. (The wait runs while the worker is
    // being interrupted, where nothing can be interrupted; hence a timer in a fiber of its own,
    // interruptible, rather than a time-out.)
    const runToEnd = (job: JobQueue.Job) =>
      Effect.gen(function*() {
        const running = yield* Effect.forkDaemon(runJob(job))
        yield* Fiber.join(running).pipe(
          Effect.onInterrupt(() =>
            Effect.gen(function*() {
              const cutOff = yield* Effect.forkDaemon(
                Effect.interruptible(Effect.sleep(grace).pipe(Effect.zipRight(Fiber.interrupt(running))))
              )
              const exit = yield* Fiber.await(running)
              yield* Fiber.interrupt(cutOff)
              if (Exit.isSuccess(exit) || !Cause.isInterruptedOnly(exit.cause)) return
              const given = yield* queue.retry(job, Duration.zero)
              if (given) yield* Effect.logInfo(`job ${job.id} of ${options.queue} cut off by the stop, given back`)
            }).pipe(Effect.catchAllCause((cause) => Effect.logWarning(`job ${job.id} could not be given back`, cause)))
          )
        )
      })

    const worker = Effect.gen(function*() {
      const next = yield* queue.take(options.queue, lease)
      if (Option.isSome(next)) return yield* runToEnd(next.value)
      yield* Queue.take(wakeUps).pipe(Effect.timeout(options.pollInterval), Effect.ignore)
    }).pipe(
      // A storage failure (the database restarting) must not end the worker: wait and go on.
      Effect.catchAllCause((cause) =>
        Cause.isInterruptedOnly(cause)
          ? Effect.failCause(cause)
          : Effect.logWarning(`worker of ${options.queue}: ${Cause.pretty(cause)}`).pipe(
            Effect.zipRight(Effect.sleep("1 second"))
          )
      ),
      Effect.forever
    )
    // One fiber over all the workers, so that a stop interrupts them together: each then stops taking
    // jobs at once, rather than after the workers stopped before it have waited for their jobs.
    yield* Effect.forkScoped(
      Effect.all(Array.from({ length: options.concurrency }, () => worker), { concurrency: "unbounded", discard: true })
    )
    return { wake: Queue.offer(wakeUps, undefined).pipe(Effect.asVoid) }
  })
