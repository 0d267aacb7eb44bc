// In-memory EventStore and CursorStore, with the SQL adapter's semantics: one Ref update records a
// whole batch, so concurrent recorders are serialized and sequences appear in order. Time comes
// from the Effect Clock, so TestClock drives `recordedAtMillis`.
import { Clock, Effect, Option, Ref } from "effect"
import { randomBytes } from "node:crypto"
import type * as CursorStore from "../CursorStore.js"
import * as EventStore from "../EventStore.js"

interface Log {
  /** Oldest first; sequences are 1, 2, 3, ... */
  readonly events: ReadonlyArray<EventStore.StoredEvent>
  readonly byKey: ReadonlyMap<string, EventStore.StoredEvent>
}

/**
 * A copy through JSON, as a database stores it: what a caller gets back never shares objects with
 * what it gave, and values JSON cannot hold (undefined fields, Dates) read back as from SQL.
 */
const throughJson = (payload: unknown): unknown => JSON.parse(JSON.stringify(payload) ?? "null")

/** The stored event with a payload of the caller's own, which it may change without harm. */
const copy = (event: EventStore.StoredEvent): EventStore.StoredEvent => ({
  ...event,
  payload: structuredClone(event.payload)
})

const eventId = () => `evt_${randomBytes(16).toString("hex")}`

/** The first `limit` events after `sequence`; events[i] has sequence i + 1. */
const page = (log: Log, sequence: number, limit: number) => {
  const start = Math.max(0, Math.floor(sequence))
  return log.events.slice(start, start + Math.max(0, Math.floor(limit)))
}

export const makeEventStore = Effect.gen(function*() {
  const log = yield* Ref.make<Log>({ events: [], byKey: new Map() })

  const service: EventStore.Service = {
    record: (events) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        // Serialised before the update: a payload JSON cannot hold fails here, recording nothing.
        const prepared = events.map((event) => ({ ...event, payload: throughJson(event.payload) }))
        return yield* Ref.modify(log, (current) => {
          const byKey = new Map(current.byKey)
          const recorded: Array<EventStore.StoredEvent> = []
          for (const event of prepared) {
            if (byKey.has(event.key)) continue
            const stored: EventStore.StoredEvent = {
              sequence: current.events.length + recorded.length + 1,
              id: eventId(),
              type: event.type,
              key: event.key,
              payload: event.payload,
              recordedAtMillis: now
            }
            byKey.set(event.key, stored)
            recorded.push(stored)
          }
          if (recorded.length === 0) return [[], current]
          return [recorded.map(copy), { events: [...current.events, ...recorded], byKey }]
        })
      }),
    after: (sequence, limit) => Effect.map(Ref.get(log), (current) => page(current, sequence, limit).map(copy)),
    ofCompany: ({ tickers, type }) =>
      Effect.map(Ref.get(log), (current) =>
        current.events
          .filter((event) => {
            const ticker = EventStore.tickerOf(event.payload)
            return event.type === type && ticker !== undefined && tickers.includes(ticker)
          })
          .map(copy)),
    findByKey: (key) =>
      Effect.map(Ref.get(log), (current) => Option.map(Option.fromNullable(current.byKey.get(key)), copy)),
    latestSequence: Effect.map(Ref.get(log), (current) => current.events.length),
    positionAt: (timeMillis) =>
      Effect.map(Ref.get(log), (current) => {
        const first = current.events.find((event) => event.recordedAtMillis >= timeMillis)
        return first === undefined ? current.events.length : first.sequence - 1
      })
  }
  return service
})

export const makeCursorStore = Effect.gen(function*() {
  const cursors = yield* Ref.make(new Map<string, string>())
  const service: CursorStore.Service = {
    get: (name) => Effect.map(Ref.get(cursors), (map) => Option.fromNullable(map.get(name))),
    set: (name, value) => Ref.update(cursors, (map) => new Map(map).set(name, value))
  }
  return service
})
