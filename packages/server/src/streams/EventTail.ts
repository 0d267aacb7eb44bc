/**
 * The tail of the event log, kept by one server for all its streams: one reader polls the store
 * for new events (so every instance on one database sees every instance's events) and keeps the
 * newest of them in memory. A stream reads from that memory while its position is within it, and
 * from the store when it is further behind, so a thousand listeners cost one query per poll, and a
 * slow or resuming listener costs only itself.
 */
import { EventStore, type StorageError } from "@filings/storage"
import { Context, Deferred, Duration, Effect, Layer, Ref, type Scope } from "effect"

/** How often the log is read while streams are open: events reach listeners within this, plus a query. */
export const PollInterval = Duration.millis(250)

/** The newest events kept in memory; a listener further behind reads the store. */
export const HeldEvents = 5_000

/** Events read from the store in one query. */
const ReadBatch = 1_000

/** The events held: those after `start` up to `latest`, oldest first. */
interface Held {
  readonly start: number
  readonly latest: number
  readonly events: ReadonlyArray<EventStore.StoredEvent>
}

/** Why a wait for events ended. */
export type Wakeup = "events" | "timeout" | "closing"

export interface Service {
  /** The events after `sequence`, oldest first, at most `limit`; none when none is known yet. */
  readonly after: (
    sequence: number,
    limit: number
  ) => Effect.Effect<ReadonlyArray<EventStore.StoredEvent>, StorageError.StorageError>
  /**
   * Waits until an event after `sequence` is known (`events`), `timeout` passes (`timeout`), or the
   * server shuts down (`closing`), whichever comes first.
   */
  readonly waitAfter: (sequence: number, timeout: Duration.DurationInput) => Effect.Effect<Wakeup>
  /** Whether the server is shutting down: every stream ends then. */
  readonly closing: Effect.Effect<boolean>
  /** Counts a listener until the scope closes: the log is polled only while someone listens. */
  readonly listen: Effect.Effect<void, never, Scope.Scope>
}

export class EventTail extends Context.Tag("@filings/server/EventTail")<EventTail, Service>() {}

/** The index of the first held event after `sequence` (sequences increase, possibly with gaps). */
const firstAfter = (events: ReadonlyArray<EventStore.StoredEvent>, sequence: number): number => {
  let low = 0
  let high = events.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (events[middle]!.sequence <= sequence) low = middle + 1
    else high = middle
  }
  return low
}

/** Appends what was read, keeping the newest `HeldEvents`; `start` moves past what is dropped. */
const append = (held: Held, read: ReadonlyArray<EventStore.StoredEvent>): Held => {
  const events = [...held.events, ...read]
  const dropped = Math.max(0, events.length - HeldEvents)
  return {
    start: dropped === 0 ? held.start : events[dropped - 1]!.sequence,
    latest: read.length === 0 ? held.latest : read[read.length - 1]!.sequence,
    events: dropped === 0 ? events : events.slice(dropped)
  }
}

export const make = Effect.gen(function*() {
  const store = yield* EventStore.EventStore
  const initial = yield* Effect.orElseSucceed(store.latestSequence, () => 0)
  const held = yield* Ref.make<Held>({ start: initial, latest: initial, events: [] })
  // Completed, and replaced by a new one, each time `held` changes or the server shuts down: a
  // waiter takes the signal before it looks at `held`, so no change can slip between the two.
  const signal = yield* Ref.make(yield* Deferred.make<void>())
  const closed = yield* Ref.make(false)
  const listeners = yield* Ref.make(0)
  // Set while nobody listens: the first poll after that starts again from the newest event, rather
  // than reading every event recorded while the server had no stream open.
  const stale = yield* Ref.make(false)

  const wakeWaiters = Effect.flatMap(
    Deferred.make<void>(),
    (next) => Effect.flatMap(Ref.getAndSet(signal, next), (previous) => Deferred.succeed(previous, undefined))
  )

  const poll = Effect.gen(function*() {
    if ((yield* Ref.get(listeners)) === 0) return yield* Ref.set(stale, true)
    if (yield* Ref.getAndSet(stale, false)) {
      const latest = yield* store.latestSequence
      yield* Ref.set(held, { start: latest, latest, events: [] })
      yield* wakeWaiters
    }
    let read: ReadonlyArray<EventStore.StoredEvent>
    do {
      const { latest } = yield* Ref.get(held)
      read = yield* store.after(latest, ReadBatch)
      if (read.length > 0) {
        yield* Ref.update(held, (current) => append(current, read))
        yield* wakeWaiters
      }
    } while (read.length === ReadBatch)
  }).pipe(
    Effect.catchAll((error) => Effect.logWarning("could not read the event log for streams; trying again", error))
  )

  yield* poll.pipe(Effect.zipRight(Effect.sleep(PollInterval)), Effect.forever, Effect.forkScoped)
  yield* Effect.addFinalizer(() => Effect.zipRight(Ref.set(closed, true), wakeWaiters))

  const waitAfter = (sequence: number, timeout: Duration.DurationInput): Effect.Effect<Wakeup> =>
    Effect.gen(function*() {
      for (;;) {
        const change = yield* Ref.get(signal)
        if (yield* Ref.get(closed)) return "closing"
        if ((yield* Ref.get(held)).latest > sequence) return "events"
        const changed = yield* Deferred.await(change).pipe(
          Effect.timeoutTo({ duration: timeout, onSuccess: () => true, onTimeout: () => false })
        )
        if (!changed) return "timeout"
      }
    })

  const service: Service = {
    after: (sequence, limit) =>
      Effect.flatMap(Ref.get(held), (current) => {
        if (sequence < current.start) return store.after(sequence, limit)
        const from = firstAfter(current.events, sequence)
        return Effect.succeed(current.events.slice(from, from + limit))
      }),
    waitAfter,
    closing: Ref.get(closed),
    listen: Effect.acquireRelease(Ref.update(listeners, (n) => n + 1), () => Ref.update(listeners, (n) => n - 1))
  }
  return service
})

/** The tail, polling while the server runs; its streams end when the layer is released. */
export const layer: Layer.Layer<EventTail, never, EventStore.EventStore> = Layer.scoped(EventTail, make)
