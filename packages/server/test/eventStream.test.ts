/**
 * One stream's body over the in-memory event log: what it writes, when it writes a heartbeat, and
 * that it ends when the server's tail is released; and the log line's redaction of a query key.
 */
import { assert, describe, it } from "@effect/vitest"
import { EventStore, MemoryStorage } from "@filings/storage"
import { Chunk, Effect, Exit, Fiber, Layer, Scope, Stream } from "effect"
import { carriesQueryKey, redactedUrl } from "../src/http/RequestLog.js"
import * as EventStream from "../src/streams/EventStream.js"
import * as EventTail from "../src/streams/EventTail.js"

const decoder = new TextDecoder()
const textOf = (chunks: Chunk.Chunk<Uint8Array>) => Chunk.toReadonlyArray(chunks).map((bytes) => decoder.decode(bytes))

const filing = (key: string, ticker: string): EventStore.NewEvent => ({
  type: "filing.new",
  key,
  payload: { event: "filing.new", data: { ticker, doc_type: "10-Q" } }
})

const everything = { events: ["filing.new"] }

describe("EventStream.body", () => {
  it.scopedLive("writes the opening, then each matching event with its sequence as id, in order", () =>
    Effect.gen(function*() {
      const events = yield* EventStore.EventStore
      const tail = yield* EventTail.make
      yield* tail.listen
      yield* events.record([filing("a", "ACME"), filing("b", "BETA"), filing("c", "ACME")])
      const written = yield* EventStream.body(tail, 0, { ...everything, tickers: ["ACME"] }, "10 seconds").pipe(
        Stream.take(2),
        Stream.runCollect
      )
      assert.deepStrictEqual(textOf(written), [
        EventStream.openingText,
        "id: 1\nevent: filing.new\ndata: {\"event\":\"filing.new\",\"data\":{\"ticker\":\"ACME\",\"doc_type\":\"10-Q\"}}\n\n" +
        "id: 3\nevent: filing.new\ndata: {\"event\":\"filing.new\",\"data\":{\"ticker\":\"ACME\",\"doc_type\":\"10-Q\"}}\n\n"
      ])
    }).pipe(Effect.provide(MemoryStorage.eventStore)))

  it.scopedLive("writes a heartbeat when nothing was written for a while, even while events it filters out flow", () =>
    Effect.gen(function*() {
      const events = yield* EventStore.EventStore
      const tail = yield* EventTail.make
      yield* tail.listen
      // Another company's events, every 50 ms: the stream reads them all and writes none.
      let n = 0
      yield* Effect.forkScoped(
        Effect.forever(
          Effect.zipRight(
            Effect.suspend(() => events.record([filing(`other-${n++}`, "BETA")])),
            Effect.sleep("50 millis")
          )
        )
      )
      const started = Date.now()
      const written = yield* EventStream.body(tail, 0, { ...everything, tickers: ["ACME"] }, "400 millis").pipe(
        Stream.take(3),
        Stream.runCollect
      )
      assert.deepStrictEqual(textOf(written), [
        EventStream.openingText,
        EventStream.heartbeatText,
        EventStream.heartbeatText
      ])
      assert.isAtLeast(Date.now() - started, 750)
      assert.isAbove(n, 5)
    }).pipe(Effect.provide(MemoryStorage.eventStore)))

  it.scopedLive("ends, rather than fails, when the tail is released at shutdown", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const tail = yield* EventTail.make.pipe(Scope.extend(scope))
      const reading = yield* EventStream.body(tail, 0, everything, "10 seconds").pipe(Stream.runCollect, Effect.fork)
      yield* Effect.sleep("100 millis")
      yield* Scope.close(scope, Exit.void)
      const written = yield* Fiber.join(reading).pipe(Effect.timeout("2 seconds"))
      assert.deepStrictEqual(textOf(written), [EventStream.openingText])
    }).pipe(Effect.provide(Layer.fresh(MemoryStorage.eventStore))))
})

describe("RequestLog", () => {
  it("writes a key given in the query string as REDACTED, and leaves every other URL as it is", () => {
    assert.strictEqual(redactedUrl("/v1/stream?api_key=fk_secret"), "/v1/stream?api_key=REDACTED")
    assert.strictEqual(
      redactedUrl("/v1/stream?tickers=AAPL&api_key=fk_secret&events=filing.new"),
      "/v1/stream?tickers=AAPL&api_key=REDACTED&events=filing.new"
    )
    assert.strictEqual(redactedUrl("/v1/documents?tickers=AAPL"), "/v1/documents?tickers=AAPL")
    assert.strictEqual(redactedUrl("/v1/stream?not_api_key=x"), "/v1/stream?not_api_key=x")
    assert.isTrue(carriesQueryKey("/v1/stream?api_key=fk_secret"))
    assert.isFalse(carriesQueryKey("/v1/stream"))
  })
})
