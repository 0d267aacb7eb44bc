// The event part of the conformance suite: the event log, its sequence and waiting on it, and the
// cursors that readers of the log keep.
import { assert, describe, type Vitest } from "@effect/vitest"
import { Array as Arr, Deferred, Duration, Effect, Fiber, Option, TestClock, TestServices } from "effect"
import { CursorStore } from "../CursorStore.js"
import { EventStore, type NewEvent, type StoredEvent } from "../EventStore.js"
import type { Stores } from "../Stores.js"
import { uniqueName, uniqueTicker } from "./conformanceSamples.js"

const sampleEvent = (key: string, payload: unknown = { key }): NewEvent => ({ type: "filing.new", key, payload })

/** The events of one test among those of the whole suite, which share one log. */
const keyedBy = (prefix: string) => (events: ReadonlyArray<StoredEvent>) =>
  events.filter((event) => event.key.startsWith(prefix))

const sequencesOf = (events: ReadonlyArray<StoredEvent>) => events.map((event) => event.sequence)

const isStrictlyIncreasing = (numbers: ReadonlyArray<number>) =>
  numbers.every((n, index) => index === 0 || n > numbers[index - 1]!)

/** Registers the EventStore and CursorStore tests on a layer's `it`. */
export const eventSuite = (it: Vitest.MethodsNonLive<Stores>) => {
  describe("EventStore", () => {
    it.effect("says the newest sequence, which grows with what is recorded", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        const prefix = uniqueName("latest")
        const before = yield* store.latestSequence
        const recorded = yield* store.record([
          { type: "filing.new", key: `${prefix}:a`, payload: {} },
          { type: "filing.new", key: `${prefix}:b`, payload: {} }
        ])
        const after = yield* store.latestSequence
        // Other tests may record at the same time: ours are at or below it, and it moved on.
        assert.isAtLeast(after, recorded[1]!.sequence)
        assert.isAbove(after, before)
        assert.isAtLeast(before, 0)
      }))

    it.effect("finds where to start reading to get the events recorded since a time", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        const prefix = uniqueName("since")
        // A time of its own, far from the other tests' clocks, which start at 1970.
        const start = Date.parse("2091-03-01T00:00:00.000Z") + Math.floor(Math.random() * 1e9)
        yield* TestClock.setTime(start)
        const [early] = yield* store.record([sampleEvent(`${prefix}:early`)])
        yield* TestClock.adjust(Duration.minutes(1))
        const [onTime, late] = yield* store.record([
          sampleEvent(`${prefix}:on-time`),
          sampleEvent(`${prefix}:late`)
        ])
        assert.strictEqual(yield* store.positionAt(start), early!.sequence - 1)
        // Exactly the time of an event counts as since it.
        assert.strictEqual(yield* store.positionAt(start + 60_000), onTime!.sequence - 1)
        assert.strictEqual(yield* store.positionAt(start + 1), onTime!.sequence - 1)
        const next = yield* store.after(yield* store.positionAt(start + 1), 2)
        assert.deepStrictEqual(next.map((event) => event.key), [`${prefix}:on-time`, `${prefix}:late`])
        // Nothing since: "from now on", which is at least the newest of ours.
        assert.isAtLeast(yield* store.positionAt(start + 120_000), late!.sequence)
      }))

    it.effect("reads the events of one type about one company, by the tickers their data names, oldest first", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        const prefix = uniqueName("company")
        const [acme, former, other] = [uniqueTicker(), uniqueTicker(), uniqueTicker()]
        const upcoming = (key: string, ticker: string, scheduledAt: string): NewEvent => ({
          type: "earnings_call.upcoming",
          key: `${prefix}:${key}`,
          payload: { event: "earnings_call.upcoming", data: { ticker, scheduled_at: scheduledAt } }
        })
        yield* store.record([
          upcoming("first", acme, "2026-01-30T22:00:00.000Z"),
          upcoming("other", other, "2026-01-30T22:00:00.000Z"),
          upcoming("former", former, "2025-10-30T20:00:00.000Z"),
          { type: "filing.new", key: `${prefix}:filing`, payload: { data: { ticker: acme } } },
          { type: "earnings_call.upcoming", key: `${prefix}:no-data`, payload: { ticker: acme } },
          upcoming("second", acme, "2026-04-30T21:00:00.000Z")
        ])
        const found = yield* store.ofCompany({ type: "earnings_call.upcoming", tickers: [acme] })
        assert.deepStrictEqual(found.map((event) => event.key), [`${prefix}:first`, `${prefix}:second`])
        assert.isTrue(isStrictlyIncreasing(sequencesOf(found)))
        assert.deepStrictEqual(found[1]!.payload, upcoming("second", acme, "2026-04-30T21:00:00.000Z").payload)
        assert.deepStrictEqual(
          (yield* store.ofCompany({ type: "filing.new", tickers: [acme] })).map((event) => event.key),
          [`${prefix}:filing`]
        )
        assert.deepStrictEqual(
          yield* store.ofCompany({ type: "earnings_call.upcoming", tickers: [uniqueTicker()] }),
          []
        )
        // A company that had two tickers: the events of both, in the order they were recorded.
        assert.deepStrictEqual(
          (yield* store.ofCompany({ type: "earnings_call.upcoming", tickers: [acme, former] })).map((event) =>
            event.key
          ),
          [`${prefix}:first`, `${prefix}:former`, `${prefix}:second`]
        )
        assert.deepStrictEqual(yield* store.ofCompany({ type: "earnings_call.upcoming", tickers: [] }), [])
      }))

    it.effect("records events in the given order, with ids and the Clock's time, and returns them", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        const prefix = uniqueName("evt")
        const at = Date.parse("2024-11-01T12:00:00.123Z")
        yield* TestClock.setTime(at)
        const events = ["c", "a", "b"].map((suffix, n) => sampleEvent(`${prefix}:${suffix}`, { n }))
        const recorded = yield* store.record(events)
        assert.deepStrictEqual(
          recorded.map(({ key, payload, recordedAtMillis, type }) => ({ type, key, payload, recordedAtMillis })),
          events.map((event) => ({ ...event, recordedAtMillis: at }))
        )
        assert.isTrue(recorded.every((event) => Number.isSafeInteger(event.sequence) && event.sequence > 0))
        assert.isTrue(isStrictlyIncreasing(sequencesOf(recorded)))
        assert.isTrue(recorded.every((event) => /^evt_[\w-]{16,}$/.test(event.id)))
        assert.strictEqual(new Set(recorded.map((event) => event.id)).size, 3)

        const stored = yield* store.after(recorded[0]!.sequence - 1, 100)
        assert.deepStrictEqual(keyedBy(prefix)(stored), recorded)

        yield* TestClock.adjust(Duration.minutes(1))
        const [later] = yield* store.record([sampleEvent(`${prefix}:later`)])
        assert.strictEqual(later?.recordedAtMillis, at + 60_000)
        assert.isTrue(later!.sequence > recorded[2]!.sequence)
      }))

    it.effect("recording a known key again records nothing and keeps the first event", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        const key = uniqueName("evt")
        const [first] = yield* store.record([sampleEvent(key, { version: 1 })])
        assert.deepStrictEqual(yield* store.record([sampleEvent(key, { version: 2 })]), [])
        assert.deepStrictEqual(yield* store.findByKey(key), Option.some(first!))
        const stored = yield* store.after(first!.sequence - 1, 100)
        assert.deepStrictEqual(stored.filter((event) => event.key === key), [first!])

        const racing = uniqueName("evt")
        const outcomes = yield* Effect.all(
          Arr.makeBy(8, (n) => store.record([sampleEvent(racing, { n })])),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(outcomes.flat().length, 1)
        assert.deepStrictEqual(yield* store.findByKey(racing), Option.fromNullable(outcomes.flat()[0]))
      }))

    it.effect("a batch with known keys records only the new ones, and a key twice in a batch once", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        const prefix = uniqueName("evt")
        const [known] = yield* store.record([sampleEvent(`${prefix}:known`)])
        const recorded = yield* store.record([
          sampleEvent(`${prefix}:known`, "again"),
          sampleEvent(`${prefix}:new`, "new"),
          sampleEvent(`${prefix}:twice`, "first"),
          sampleEvent(`${prefix}:twice`, "second")
        ])
        assert.deepStrictEqual(recorded.map((event) => [event.key, event.payload]), [
          [`${prefix}:new`, "new"],
          [`${prefix}:twice`, "first"]
        ])
        assert.isTrue(isStrictlyIncreasing([known!.sequence, ...sequencesOf(recorded)]))
        const stored = keyedBy(prefix)(yield* store.after(known!.sequence - 1, 100))
        assert.deepStrictEqual(stored, [known!, ...recorded])
        assert.deepStrictEqual(yield* store.record([]), [])
      }))

    it.effect("after pages the log oldest first, from a sequence, at most limit events", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        const prefix = uniqueName("evt")
        const recorded = yield* store.record(Arr.makeBy(5, (n) => sampleEvent(`${prefix}:${n}`, n)))
        const start = recorded[0]!.sequence - 1
        const pages: Array<ReadonlyArray<StoredEvent>> = []
        let from = start
        while (pages.length < 10) {
          const page = keyedBy(prefix)(yield* store.after(from, 2))
          if (page.length === 0) break
          pages.push(page)
          from = page[page.length - 1]!.sequence
        }
        assert.deepStrictEqual(pages.map((page) => page.map((event) => event.payload)), [[0, 1], [2, 3], [4]])
        assert.deepStrictEqual(pages.flat(), recorded)
        assert.deepStrictEqual(yield* store.after(start, 0), [])
        assert.deepStrictEqual(keyedBy(prefix)(yield* store.after(recorded[2]!.sequence, 100)), recorded.slice(3))
        const everything = yield* store.after(0, 1_000_000)
        assert.isTrue(isStrictlyIncreasing(sequencesOf(everything)))
        assert.deepStrictEqual(keyedBy(prefix)(everything), recorded)
      }))

    it.effect("finds an event by key; an unknown key is none", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        const prefix = uniqueName("evt")
        const recorded = yield* store.record([sampleEvent(`${prefix}:a`, "a"), sampleEvent(`${prefix}:b`, "b")])
        assert.deepStrictEqual(yield* store.findByKey(`${prefix}:b`), Option.fromNullable(recorded[1]))
        assert.deepStrictEqual(yield* store.findByKey(`${prefix}:a`), Option.fromNullable(recorded[0]))
        assert.isTrue(Option.isNone(yield* store.findByKey(`${prefix}:missing`)))
      }))

    it.effect("payloads read back as the JSON they were", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        const prefix = uniqueName("evt")
        const payloads: ReadonlyArray<unknown> = [
          {
            publicationId: "0000320193-24-000123",
            company: { name: "Société Générale — 日本 ✓ 🚀", tickers: ["GLE", "SCGLY"] },
            numbers: [0, -1.5, 0.1 + 0.2, 1e21, 1e-7, Number.MAX_SAFE_INTEGER, -0.000123],
            nested: { deeper: { deepest: [null, true, false, "", { "key with \"quotes\"": "\\ \n \t" }] } },
            empty: {}
          },
          [1, "two", { three: 3 }],
          "a bare string",
          42,
          null
        ]
        const recorded = yield* store.record(payloads.map((payload, n) => sampleEvent(`${prefix}:${n}`, payload)))
        assert.deepStrictEqual(recorded.map((event) => event.payload), payloads)
        const stored = keyedBy(prefix)(yield* store.after(recorded[0]!.sequence - 1, 100))
        assert.deepStrictEqual(stored.map((event) => event.payload), payloads)
        const found = yield* store.findByKey(`${prefix}:0`)
        assert.deepStrictEqual(Option.map(found, (event) => event.payload), Option.some(payloads[0]))
      }))

    it.effect("concurrent recorders get increasing sequences in turn, and a reader never sees one appear below", () =>
      Effect.gen(function*() {
        const store = yield* EventStore
        const prefix = uniqueName("evt")
        const [marker] = yield* store.record([sampleEvent(`${prefix}:marker`)])
        const start = marker!.sequence
        const writersDone = yield* Deferred.make<void>()

        // Re-reads the log from the start each time: what it saw before must still be the
        // beginning of what it sees now, or an event turned up below one already seen.
        const reader = Effect.gen(function*() {
          let seen: ReadonlyArray<number> = []
          let reads = 0
          const violations: Array<string> = []
          while (!(yield* Deferred.isDone(writersDone))) {
            const now = sequencesOf(yield* store.after(start, 1000))
            reads++
            if (!isStrictlyIncreasing(now) || seen.some((sequence, index) => now[index] !== sequence)) {
              violations.push(`saw ${seen.join(",")} then ${now.join(",")}`)
            }
            seen = now
            // A real pause, not a yield: a reader that never lets go could keep a single-connection
            // adapter (PGlite) from ever starting the writers' transactions.
            yield* TestServices.provideLive(Effect.sleep(Duration.millis(1)))
          }
          return { reads, violations }
        })
        const writer = (fiber: number) => {
          const events = Arr.makeBy(5, (n) => sampleEvent(`${prefix}:${fiber}:${n}`, { fiber, n }))
          return Effect.all([store.record(events.slice(0, 2)), store.record(events.slice(2))])
        }

        const reading = yield* Effect.fork(reader)
        const calls = (yield* Effect.all(Arr.makeBy(20, writer), { concurrency: "unbounded" }).pipe(
          Effect.ensuring(Deferred.succeed(writersDone, undefined))
        )).flat()
        const { reads, violations } = yield* Fiber.join(reading)
        assert.deepStrictEqual(violations, [])
        assert.isTrue(reads > 0)

        const recorded = calls.flat()
        assert.strictEqual(recorded.length, 100)
        assert.strictEqual(new Set(sequencesOf(recorded)).size, 100)
        assert.strictEqual(new Set(recorded.map((event) => event.id)).size, 100)
        assert.isTrue(recorded.every((event) => event.sequence > start))
        assert.isTrue(calls.every((call) => isStrictlyIncreasing(sequencesOf(call))))

        const log = yield* store.after(start, 1000)
        assert.deepStrictEqual(keyedBy(prefix)(log), [...recorded].sort((a, b) => a.sequence - b.sequence))
        // Callers take turns: no other call's event lands between the events of one call.
        const position = new Map(log.map((event, index) => [event.id, index]))
        for (const call of calls) {
          const positions = call.map((event) => position.get(event.id)!)
          assert.strictEqual(positions[positions.length - 1]! - positions[0]!, call.length - 1)
        }
      }))
  })

  describe("CursorStore", () => {
    it.effect("an unknown cursor is none; a set cursor reads back, and setting it again replaces it", () =>
      Effect.gen(function*() {
        const cursors = yield* CursorStore
        const name = uniqueName("cursor")
        assert.isTrue(Option.isNone(yield* cursors.get(name)))
        yield* cursors.set(name, "2024-11-01T12:00:00Z|0000320193-24-000123")
        assert.deepStrictEqual(yield* cursors.get(name), Option.some("2024-11-01T12:00:00Z|0000320193-24-000123"))
        yield* cursors.set(name, "")
        assert.deepStrictEqual(yield* cursors.get(name), Option.some(""))
        yield* cursors.set(name, "é ✓ 日本")
        assert.deepStrictEqual(yield* cursors.get(name), Option.some("é ✓ 日本"))
      }))

    it.effect("cursors are kept apart by name, and a cursor set by one program is read by the next", () =>
      Effect.gen(function*() {
        const [feed, folder] = [uniqueName("cursor"), uniqueName("cursor")]
        // Two programs of their own, each getting the store afresh, as a poller before and after a restart.
        const before = Effect.flatMap(
          CursorStore,
          (cursors) => Effect.zipRight(cursors.set(feed, "feed-position"), cursors.set(folder, "folder-position"))
        )
        const after = Effect.flatMap(CursorStore, (cursors) => Effect.all([cursors.get(feed), cursors.get(folder)]))
        yield* Fiber.join(yield* Effect.fork(before))
        assert.deepStrictEqual(yield* after, [Option.some("feed-position"), Option.some("folder-position")])

        const cursors = yield* CursorStore
        yield* cursors.set(feed, "feed-later")
        assert.deepStrictEqual(yield* after, [Option.some("feed-later"), Option.some("folder-position")])
        assert.isTrue(Option.isNone(yield* cursors.get(`${feed}-other`)))
      }))
  })
}
