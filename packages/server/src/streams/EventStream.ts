/**
 * One listener's stream: the events after its position that its filter lets through, written as
 * Server-Sent Events, with a heartbeat comment while it is idle. The position moves past every
 * event read, matching or not, so a quiet filter never reads the same events twice.
 */
import type { EventStore, StorageError } from "@filings/storage"
import { Chunk, Clock, Duration, Effect, Option, Stream } from "effect"
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

/**
 * The body of a stream: the opening, then the matching events after `position` (those read together
 * written at once), and a heartbeat comment whenever nothing was written for `heartbeat`; it ends
 * when the server shuts down. Each pull does one step, so a client that does not read stops its
 * stream where it is, holding nothing more than one step's events.
 */
export const body = (
  tail: EventTail,
  position: number,
  filter: EventFilter,
  heartbeat: Duration.DurationInput
): Stream.Stream<Uint8Array, StorageError.StorageError> =>
  Stream.suspend(() => {
    const heartbeatMillis = Duration.toMillis(heartbeat)
    let after = position
    let lastWrite: number | undefined
    const written = (text: string) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        lastWrite = now
        return Chunk.of(encoder.encode(text))
      })
    const end = Effect.fail(Option.none())
    const pull: Effect.Effect<Chunk.Chunk<Uint8Array>, Option.Option<StorageError.StorageError>> = Effect.gen(
      function*() {
        if (lastWrite === undefined) return yield* written(openingText)
        for (;;) {
          if (yield* tail.closing) return yield* end
          const read = yield* Effect.mapError(tail.after(after, StepSize), Option.some)
          if (read.length > 0) {
            after = read[read.length - 1]!.sequence
            const wanted = read.filter((event) => matches(filter, event))
            if (wanted.length > 0) return yield* written(wanted.map(eventText).join(""))
          }
          const silent = (yield* Clock.currentTimeMillis) - lastWrite
          if (silent >= heartbeatMillis) return yield* written(heartbeatText)
          if (read.length === StepSize) continue
          if ((yield* tail.waitAfter(after, heartbeatMillis - silent)) === "closing") return yield* end
        }
      }
    )
    return Stream.repeatEffectChunkOption(pull)
  })
