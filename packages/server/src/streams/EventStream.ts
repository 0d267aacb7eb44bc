/**
 * One listener's stream: the events after its position that its filter lets through, written as
 * Server-Sent Events, with a heartbeat comment while it is idle. The position moves past every
 * event read, matching or not, so a quiet filter never reads the same events twice.
 */
import type { EventStore, StorageError } from "@filings/storage"
import { Chunk, type Duration, Effect, Option, Stream } from "effect"
import { type EventFilter, matches } from "../webhooks/Matching.js"
import type { Service as EventTail } from "./EventTail.js"

/** Events read per step; a listener far behind catches up in steps of this many. */
const StepSize = 500

/** What a client waits before reconnecting after the connection drops, in milliseconds. */
export const ReconnectMillis = 1_000

const encoder = new TextEncoder()

/**
 * One event as Server-Sent Events: its sequence as `id`, its type as `event`, its payload as one
 * line of JSON (which never holds a raw line break).
 */
export const eventText = (event: EventStore.StoredEvent): string =>
  `id: ${event.sequence}\nevent: ${event.type}\ndata: ${JSON.stringify(event.payload)}\n\n`

/** What opens every stream: the reconnection delay, and a comment that lets the client see it is open. */
export const openingText = `retry: ${ReconnectMillis}\n: listening\n\n`

/** The comment an idle stream gets. */
export const heartbeatText = ": heartbeat\n\n"

/** The events after `position` that pass `filter`, in order, forever. */
export const matchingEvents = (
  tail: EventTail,
  position: number,
  filter: EventFilter
): Stream.Stream<EventStore.StoredEvent, StorageError.StorageError> =>
  Stream.unfoldChunkEffect(position, (after) =>
    Effect.gen(function*() {
      const read = yield* tail.after(after, StepSize)
      if (read.length === 0) {
        yield* tail.awaitAfter(after)
        return Option.some([Chunk.empty<EventStore.StoredEvent>(), after] as const)
      }
      const wanted = read.filter((event) => matches(filter, event))
      return Option.some([Chunk.unsafeFromArray(wanted), read[read.length - 1]!.sequence] as const)
    }))

/**
 * The body of a stream: the opening, then the matching events (those read together written at
 * once) and a heartbeat comment every `heartbeat`; it ends when the server shuts down.
 */
export const body = (
  tail: EventTail,
  position: number,
  filter: EventFilter,
  heartbeat: Duration.DurationInput
): Stream.Stream<Uint8Array, StorageError.StorageError> =>
  matchingEvents(tail, position, filter).pipe(
    Stream.mapChunks((events) =>
      Chunk.isEmpty(events) ? Chunk.empty() : Chunk.of(Chunk.join(Chunk.map(events, eventText), ""))
    ),
    // The first tick comes at once; the opening stands for it.
    Stream.merge(Stream.tick(heartbeat).pipe(Stream.drop(1), Stream.as(heartbeatText)), { haltStrategy: "left" }),
    Stream.prepend(Chunk.of(openingText)),
    Stream.map((text) => encoder.encode(text)),
    Stream.interruptWhenDeferred(tail.closing)
  )
