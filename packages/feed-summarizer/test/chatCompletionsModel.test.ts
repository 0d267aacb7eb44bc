/**
 * The chat-completions adapter against a local stub of the protocol: what it sends, how it reads a
 * good answer, and how every kind of failure ends in the extractive model through `FeedSummarizer`.
 */
import { FetchHttpClient } from "@effect/platform"
import { assert, describe, it } from "@effect/vitest"
import { ChatCompletionsModel, FeedSummarizer, SummaryModel } from "@filings/feed-summarizer"
import { Config, ConfigProvider, Effect, Layer, Redacted, Schedule } from "effect"
import { resultsRelease } from "./fixtures.js"
import {
  type ChatCompletionsStub,
  type RecordedRequest,
  startChatCompletionsStub
} from "./support/chatCompletionsStub.js"

const apiKey = "sk-test-0123456789"

const modelOn = (stub: ChatCompletionsStub, options: Partial<ChatCompletionsModel.Options> = {}) =>
  ChatCompletionsModel.layer({ baseUrl: stub.baseUrl, model: "stub-model", apiKey: Redacted.make(apiKey), ...options })
    .pipe(Layer.provide(FetchHttpClient.layer))

const summarizeWith = (stub: ChatCompletionsStub, summarizeOptions: FeedSummarizer.SummarizeOptions = {}) =>
  FeedSummarizer.summarize(resultsRelease, summarizeOptions).pipe(Effect.provide(modelOn(stub)))

const answer = (value: unknown) => ({ kind: "content", content: JSON.stringify(value) }) as const

const goodAnswer = answer({
  highlights: [
    {
      text: "Revenue of $412.5 million, up 18% compared with $349.6 million in the prior-year quarter.",
      chunk_ids: ["c0001"]
    },
    {
      text: "Full-year 2026 revenue guidance raised to $1.60 billion to $1.62 billion.",
      chunk_ids: ["c0002"]
    }
  ],
  categories: ["Earnings", "Guidance Update"],
  sentiment: "positive"
})

const onlyRequest = (stub: ChatCompletionsStub): RecordedRequest => {
  assert.lengthOf(stub.requests, 1)
  return stub.requests[0]!
}

interface SentBody {
  readonly model: string
  readonly temperature: number
  readonly max_tokens?: number
  readonly messages: ReadonlyArray<{ readonly role: string; readonly content: string }>
  readonly response_format: {
    readonly type: string
    readonly json_schema: { readonly name: string; readonly strict: boolean; readonly schema: Record<string, unknown> }
  }
}

const sentBody = (stub: ChatCompletionsStub) => onlyRequest(stub).body as SentBody

describe("ChatCompletionsModel", () => {
  it.scoped("turns a good answer into a summary citing the document's chunks", () =>
    Effect.gen(function*() {
      const stub = yield* startChatCompletionsStub
      stub.answerWith(goodAnswer)
      const model = yield* SummaryModel.SummaryModel.pipe(Effect.provide(modelOn(stub, { maxOutputTokens: 800 })))
      const summary = yield* model.summarize(resultsRelease)

      assert.strictEqual(model.name, "chat-completions:stub-model")
      assert.strictEqual(summary.model, "chat-completions:stub-model")
      assert.deepStrictEqual(summary.highlights.map((highlight) => highlight.citations.map((c) => c.chunkId)), [
        ["c0001"],
        ["c0002"]
      ])
      assert.isTrue(summary.highlights.every((h) => h.citations.every((c) => c.source === resultsRelease.source)))
      assert.deepStrictEqual(summary.categories, ["Earnings", "Guidance Update"])
      assert.strictEqual(summary.sentiment, "positive")

      const request = onlyRequest(stub)
      assert.strictEqual(request.method, "POST")
      assert.strictEqual(request.path, "/v1/chat/completions")
      assert.strictEqual(request.headers.authorization, `Bearer ${apiKey}`)
      const body = sentBody(stub)
      assert.strictEqual(body.model, "stub-model")
      assert.strictEqual(body.temperature, 0)
      assert.strictEqual(body.max_tokens, 800)
      assert.deepStrictEqual(body.messages.map((message) => message.role), ["system", "user"])
      const document = body.messages[1]!.content
      assert.include(document, `Title: ${resultsRelease.title}`)
      assert.include(document, "8-K items: 2.02, 9.01")
      assert.include(document, "[c0001] # Acme Widgets Reports Record Third Quarter Results")
      assert.include(document, "[c0002] ## Outlook")
      assert.include(document, "[c0003] ## Conference Call")
      assert.strictEqual(body.response_format.type, "json_schema")
      assert.strictEqual(body.response_format.json_schema.name, "feed_item")
      assert.isTrue(body.response_format.json_schema.strict)
      const schema = body.response_format.json_schema.schema
      assert.isUndefined(schema.$schema)
      assert.deepStrictEqual(schema.required, ["highlights", "categories", "sentiment"])
      assert.strictEqual(schema.additionalProperties, false)
      assert.include(JSON.stringify(schema), "\"Mergers & Acquisitions\"")
    }))

  it.scoped("drops chunk ids that are not strings", () =>
    Effect.gen(function*() {
      const stub = yield* startChatCompletionsStub
      stub.answerWith(answer({
        highlights: [{ text: "Diluted earnings per share of $1.42.", chunk_ids: [7, "c0001", null, "c0001"] }],
        categories: ["Earnings"],
        sentiment: "positive"
      }))
      const model = yield* SummaryModel.SummaryModel.pipe(Effect.provide(modelOn(stub)))
      const summary = yield* model.summarize(resultsRelease)
      assert.deepStrictEqual(summary.highlights[0]?.citations.map((c) => c.chunkId), ["c0001"])
    }))

  it.scoped("sends passages in document order up to the character budget", () =>
    Effect.gen(function*() {
      const stub = yield* startChatCompletionsStub
      stub.answerWith(goodAnswer)
      const model = yield* SummaryModel.SummaryModel.pipe(Effect.provide(modelOn(stub, { maxPassageChars: 300 })))
      yield* model.summarize(resultsRelease)
      const document = sentBody(stub).messages[1]!.content
      assert.include(document, "[c0001] # Acme Widgets")
      assert.notInclude(document, "[c0002]")
      assert.notInclude(document, "Jane Roe")
      assert.include(document, "(The document continues; the rest is left out.)")
    }))

  it.scoped("sends no Authorization header when no key is configured", () =>
    Effect.gen(function*() {
      const stub = yield* startChatCompletionsStub
      stub.answerWith(goodAnswer)
      const outcome = yield* FeedSummarizer.summarize(resultsRelease).pipe(
        Effect.provide(modelOn(stub, { apiKey: undefined }))
      )
      assert.strictEqual(outcome.summary.model, "chat-completions:stub-model")
      assert.isUndefined(onlyRequest(stub).headers.authorization)
    }))

  it.scoped("keeps the API key out of its errors", () =>
    Effect.gen(function*() {
      const stub = yield* startChatCompletionsStub
      stub.answerWith({ kind: "status", status: 401, message: `Incorrect API key provided: ${apiKey}.` })
      const stopped = yield* Effect.scoped(startChatCompletionsStub)
      for (const baseUrl of [stub.baseUrl, stopped.baseUrl]) {
        const model = yield* ChatCompletionsModel.languageModel({
          baseUrl,
          model: "stub-model",
          apiKey: Redacted.make(apiKey)
        })
        const error = yield* Effect.flip(model.generateText({ prompt: "Say hello." }))
        assert.notInclude(JSON.stringify(error), apiKey)
        assert.notInclude(String(error), apiKey)
      }
      assert.strictEqual(onlyRequest(stub).headers.authorization, `Bearer ${apiKey}`)
    }).pipe(Effect.provide(FetchHttpClient.layer)))

  it.scoped("layerConfig reads its endpoint, model and key from the Config the caller names", () =>
    Effect.gen(function*() {
      const stub = yield* startChatCompletionsStub
      stub.answerWith(goodAnswer)
      const configured = ChatCompletionsModel.layerConfig({
        baseUrl: Config.string("MODEL_URL"),
        model: Config.string("MODEL_NAME"),
        apiKey: Config.redacted("MODEL_KEY")
      }).pipe(
        Layer.provide(FetchHttpClient.layer),
        Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(
          new Map([["MODEL_URL", stub.baseUrl], ["MODEL_NAME", "llama3.1:8b"], ["MODEL_KEY", apiKey]])
        )))
      )
      const outcome = yield* FeedSummarizer.summarize(resultsRelease).pipe(Effect.provide(configured))
      assert.strictEqual(outcome.summary.model, "chat-completions:llama3.1:8b")
      assert.strictEqual(sentBody(stub).model, "llama3.1:8b")
      assert.strictEqual(onlyRequest(stub).headers.authorization, `Bearer ${apiKey}`)
    }))

  it.scoped("layerConfig takes fixed values (Config.succeed) beside variables, and reads no variable of its own", () =>
    Effect.gen(function*() {
      const stub = yield* startChatCompletionsStub
      stub.answerWith(goodAnswer)
      const environment = Layer.setConfigProvider(ConfigProvider.fromMap(
        new Map([["FILINGS_SUMMARY_MODEL_URL", stub.baseUrl], ["FILINGS_SUMMARY_MODEL", "from-the-environment"]])
      ))
      const configured = ChatCompletionsModel.layerConfig({
        baseUrl: Config.succeed(stub.baseUrl),
        model: Config.string("MODEL")
      })
        .pipe(Layer.provide(FetchHttpClient.layer), Layer.provide(environment))
      const missing = yield* Effect.flip(FeedSummarizer.summarize(resultsRelease).pipe(Effect.provide(configured)))
      assert.include(String(missing), "MODEL")
      assert.notInclude(String(missing), "FILINGS_")

      const plain = ChatCompletionsModel.layerConfig({
        baseUrl: Config.succeed(stub.baseUrl),
        model: Config.succeed("plain-model")
      })
        .pipe(Layer.provide(FetchHttpClient.layer), Layer.provide(environment))
      const outcome = yield* FeedSummarizer.summarize(resultsRelease).pipe(Effect.provide(plain))
      assert.strictEqual(outcome.summary.model, "chat-completions:plain-model")
      assert.isUndefined(onlyRequest(stub).headers.authorization)
    }))
})

describe("ChatCompletionsModel through FeedSummarizer", () => {
  it.scoped("keeps the model's summary when its citations hold", () =>
    Effect.gen(function*() {
      const stub = yield* startChatCompletionsStub
      stub.answerWith(goodAnswer)
      const outcome = yield* summarizeWith(stub)
      assert.isUndefined(outcome.fallbackReason)
      assert.deepStrictEqual(outcome.corrections, [])
      assert.strictEqual(outcome.summary.model, "chat-completions:stub-model")
      assert.lengthOf(outcome.summary.highlights, 2)
    }))

  it.scoped("repairs an invented citation and drops a figure the document never states", () =>
    Effect.gen(function*() {
      const stub = yield* startChatCompletionsStub
      stub.answerWith(answer({
        highlights: [
          { text: "Diluted earnings per share of $1.42, compared with $0.97 a year ago.", chunk_ids: ["c0099"] },
          { text: "Revenue reached $9.99 billion.", chunk_ids: ["c0001"] }
        ],
        categories: ["Earnings"],
        sentiment: "positive"
      }))
      const outcome = yield* summarizeWith(stub)
      assert.isUndefined(outcome.fallbackReason)
      assert.strictEqual(outcome.summary.model, "chat-completions:stub-model")
      assert.deepStrictEqual(outcome.summary.highlights.map((h) => [h.text, h.citations.map((c) => c.chunkId)]), [
        ["Diluted earnings per share of $1.42, compared with $0.97 a year ago.", ["c0001"]]
      ])
      assert.include(outcome.corrections, "highlight 1: cited c0001 instead, the passage that states it")
      assert.include(outcome.corrections, "highlight 2 dropped: the document does not state 9.99")
    }))

  it.scoped("falls back to the extractive model when nothing the model said is supported", () =>
    Effect.gen(function*() {
      const stub = yield* startChatCompletionsStub
      stub.answerWith(answer({
        highlights: [{ text: "Revenue reached $9.99 billion, up 41%.", chunk_ids: ["c0099"] }],
        categories: ["Earnings"],
        sentiment: "positive"
      }))
      const outcome = yield* summarizeWith(stub)
      assert.strictEqual(outcome.summary.model, "extractive")
      assert.strictEqual(outcome.fallbackReason, "no highlight of the model's answer was supported by the document")
      assert.include(outcome.corrections, "highlight 1 dropped: the document does not state 9.99, 41")
    }))

  it.scoped("falls back on HTTP 500, naming the status", () =>
    Effect.gen(function*() {
      const stub = yield* startChatCompletionsStub
      stub.answerWith({
        kind: "status",
        status: 500,
        message: "The server had an error while processing your request."
      })
      const outcome = yield* summarizeWith(stub)
      assert.strictEqual(outcome.summary.model, "extractive")
      assert.strictEqual(
        outcome.fallbackReason,
        "HTTP 500 from the endpoint: The server had an error while processing your request."
      )
      assert.lengthOf(outcome.summary.highlights, 3)
    }))

  it.scoped("falls back on HTTP 401, naming the status and never the key", () =>
    Effect.gen(function*() {
      const stub = yield* startChatCompletionsStub
      stub.answerWith({ kind: "status", status: 401, message: `Incorrect API key provided: ${apiKey}.` })
      const outcome = yield* summarizeWith(stub)
      assert.strictEqual(outcome.summary.model, "extractive")
      assert.strictEqual(outcome.fallbackReason, "HTTP 401 from the endpoint: Incorrect API key provided: <redacted>.")
    }))

  it.scoped("falls back when the endpoint cannot be reached", () =>
    Effect.gen(function*() {
      // A stub started and stopped again: its port is free and refuses connections.
      const stopped = yield* Effect.scoped(startChatCompletionsStub)
      const outcome = yield* summarizeWith(stopped)
      assert.strictEqual(outcome.summary.model, "extractive")
      assert.match(outcome.fallbackReason ?? "", /^the request failed \(Transport\): .*ECONNREFUSED/)
    }))

  it.scoped("falls back when the answer is not JSON", () =>
    Effect.gen(function*() {
      const stub = yield* startChatCompletionsStub
      stub.answerWith({ kind: "content", content: "Sure! Acme had a record quarter with revenue of $412.5 million." })
      const outcome = yield* summarizeWith(stub)
      assert.strictEqual(outcome.summary.model, "extractive")
      assert.match(outcome.fallbackReason ?? "", /^the model's answer does not fit the schema/)
    }))

  it.scoped("falls back when the answer does not match the schema", () =>
    Effect.gen(function*() {
      const stub = yield* startChatCompletionsStub
      stub.answerWith(answer({
        highlights: [{ text: "Revenue of $412.5 million.", chunk_ids: ["c0001"] }],
        categories: ["Earnings", "Weather"],
        sentiment: "positive"
      }))
      const outcome = yield* summarizeWith(stub)
      assert.strictEqual(outcome.summary.model, "extractive")
      assert.match(outcome.fallbackReason ?? "", /^the model's answer does not fit the schema/)
      assert.include(outcome.fallbackReason, "categories.1")
    }))

  it.scoped("falls back when the response body is not JSON", () =>
    Effect.gen(function*() {
      const stub = yield* startChatCompletionsStub
      stub.answerWith({ kind: "invalid-json" })
      const outcome = yield* summarizeWith(stub)
      assert.strictEqual(outcome.summary.model, "extractive")
      assert.strictEqual(outcome.fallbackReason, "the endpoint's answer was unusable (HTTP 200): the body is not JSON")
    }))

  // Live clock: the time-out has to race a real server's real delay.
  it.scopedLive("falls back when the model is slower than the time limit, and cancels the request", () =>
    Effect.gen(function*() {
      const stub = yield* startChatCompletionsStub
      stub.answerWith({ ...goodAnswer, delayMs: 3_000 })
      const outcome = yield* summarizeWith(stub, { timeout: "1 second" })
      assert.strictEqual(outcome.summary.model, "extractive")
      assert.strictEqual(outcome.fallbackReason, "no answer within 1s")
      // The interrupted request must close its connection, not linger until the stub answers.
      yield* Effect.suspend(() =>
        stub.abandonedRequests() === 1 ? Effect.void : Effect.fail("the request is still open")
      ).pipe(Effect.retry(Schedule.spaced("20 millis").pipe(Schedule.upTo("1 second"))))
      assert.strictEqual(stub.abandonedRequests(), 1)
    }))
})
