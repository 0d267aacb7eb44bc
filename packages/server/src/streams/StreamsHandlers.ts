/**
 * Handlers of the streams group: `GET /v1/stream`, the event log as Server-Sent Events. Where a
 * stream starts: after the client's `Last-Event-ID` (a reconnection), else after `after`, else at
 * `since`, else at the newest event. The key's slot and the listener count are held until the
 * response ends, however it ends: a client that takes nothing for `FILINGS_STREAM_STALL_TIMEOUT`
 * has its connection closed.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Api, ApiError, Webhooks } from "@filings/domain"
import { EventStore } from "@filings/storage"
import { Effect, Layer, Stream } from "effect"
import * as TickerAliases from "../companies/TickerAliases.js"
import { orServiceUnavailable } from "../http/StorageFailures.js"
import * as WriteStall from "../http/WriteStall.js"
import { ServerConfig } from "../ServerConfig.js"
import * as EventStream from "./EventStream.js"
import * as EventTail from "./EventTail.js"
import * as StreamSlots from "./StreamSlots.js"

const streamHeaders = {
  "cache-control": "no-cache",
  // Proxies that buffer responses (nginx) would hold events back.
  "x-accel-buffering": "no"
}

export const layer = HttpApiBuilder.group(Api.FilingsApi, "streams", (handlers) =>
  Effect.gen(function*() {
    const events = yield* EventStore.EventStore
    const aliases = yield* TickerAliases.make()
    const tail = yield* EventTail.EventTail
    const slots = yield* StreamSlots.StreamSlots
    const config = yield* ServerConfig

    return handlers.handle("stream", ({ headers, urlParams }) =>
      Effect.gen(function*() {
        const key = yield* Api.CurrentApiKey
        const latest = yield* events.latestSequence
        const resumeAfter = headers["last-event-id"] ?? urlParams.after
        if (resumeAfter !== undefined && resumeAfter > latest) {
          return yield* new ApiError.InvalidRequest({
            message: `${
              headers["last-event-id"] === undefined ? "after" : "Last-Event-ID"
            } is ${resumeAfter}, beyond the newest event (${latest})`
          })
        }
        const position = resumeAfter ??
          (urlParams.since === undefined ? latest : yield* events.positionAt(Date.parse(urlParams.since)))
        yield* slots.take(key.id, config.streamsPerKey)
        yield* tail.listen
        // A client that stops reading would hold its connection and its slot for ever.
        yield* WriteStall.closeWhenStalled(config.streamStallTimeout)
        const filter = {
          events: urlParams.events ?? Webhooks.EventTypes,
          // Widened once, as the stream opens: a class the company lists later is not followed.
          tickers: yield* aliases.widenFilter(urlParams.tickers),
          docTypes: urlParams.doc_types
        }
        const body = EventStream.body(tail, position, filter, config.streamHeartbeat).pipe(
          // The client reconnects after the end and resumes from its last event, perhaps elsewhere.
          Stream.catchAll((error) =>
            Stream.drain(Stream.fromEffect(Effect.logWarning("a stream could not read the event log; ended", error)))
          )
        )
        return HttpServerResponse.stream(body, { contentType: "text/event-stream", headers: streamHeaders })
      }).pipe(orServiceUnavailable))
  }))

/** What the handlers share across requests: the tail of the log and the keys' slots. */
export const servicesLayer: Layer.Layer<EventTail.EventTail | StreamSlots.StreamSlots, never, EventStore.EventStore> =
  Layer.merge(EventTail.layer, StreamSlots.layer)
