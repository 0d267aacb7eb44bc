/**
 * Handlers of the chat group: `POST /v1/chat`, answered as JSON, or with `stream: true` as
 * Server-Sent Events: `sources`, each `sentence` once it has been checked, then `done` with the
 * whole answer (what the JSON answer would have been).
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Api, Chat } from "@filings/domain"
import { Effect, Schema, Stream } from "effect"
import { orServiceUnavailable } from "../http/StorageFailures.js"
import { type Answered, Answerer, answerOf } from "./Chat.js"

const encoder = new TextEncoder()

const event = (name: string, data: unknown) => encoder.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`)

const encodeSentence = Schema.encodeSync(Chat.AnswerSentence)
const encodeSource = Schema.encodeSync(Chat.ChatSource)
const encodeAnswer = Schema.encodeSync(Chat.ChatAnswer)

/** The answer as events, in the order a reader can use them. */
export const eventsOf = (answered: Answered): Stream.Stream<Uint8Array> =>
  Stream.fromIterable([
    event("sources", answered.sources.map((source) => encodeSource(source))),
    ...answered.sentences.map((sentence) => event("sentence", encodeSentence(sentence))),
    event("done", encodeAnswer(answerOf(answered)))
  ])

export const layer = HttpApiBuilder.group(Api.FilingsApi, "chat", (handlers) =>
  Effect.gen(function*() {
    const answerer = yield* Answerer
    return handlers.handle("chat", ({ payload }) =>
      Effect.gen(function*() {
        const answered = yield* answerer.ask(payload)
        if (payload.stream !== true) return answerOf(answered)
        return HttpServerResponse.stream(eventsOf(answered), {
          contentType: "text/event-stream",
          headers: { "cache-control": "no-cache", "x-accel-buffering": "no" }
        })
      }).pipe(orServiceUnavailable))
  }))
