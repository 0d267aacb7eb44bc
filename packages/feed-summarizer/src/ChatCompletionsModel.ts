/**
 * A `SummaryModel` on any OpenAI-compatible chat-completions endpoint (OpenAI, gateways, vLLM,
 * Ollama, LM Studio...), through an `@effect/ai` `LanguageModel` and structured output. Whatever
 * goes wrong (the endpoint, the transport, an answer off the schema) is a `SummaryModelError` with a
 * short reason for the log; `FeedSummarizer` then lets the extractive model stand in, and checks the
 * citations of every answer that does arrive.
 *
 * @module
 */
import type { AiError, LanguageModel } from "@effect/ai"
import type { HttpClient } from "@effect/platform"
import { Feed } from "@filings/domain"
import { Array as Arr, Config, type ConfigError, Effect, Layer, ParseResult, type Redacted } from "effect"
import * as ChatCompletions from "./internal/chatCompletionsLanguageModel.js"
import {
  AnswerName,
  DefaultMaxPassageChars,
  documentMessage,
  MaxHighlights,
  SummaryAnswer,
  systemInstructions
} from "./internal/chatCompletionsPrompt.js"
import type { Summary, SummaryInput } from "./Summary.js"
import { type Service, SummaryModel, SummaryModelError } from "./SummaryModel.js"

export { DefaultMaxPassageChars }

/** Which chat-completions endpoint and model to use, and how. */
export interface Options {
  /** The API root `/chat/completions` hangs off: `https://api.openai.com/v1`, `http://localhost:11434/v1`. */
  readonly baseUrl: string
  /** The model the endpoint serves: `gpt-4o-mini`, `llama3.1:8b`. */
  readonly model: string
  /** Sent as `Authorization: Bearer <key>`; local servers need none. */
  readonly apiKey?: Redacted.Redacted<string> | undefined
  /** `max_tokens` of the answer; the server's default when absent. */
  readonly maxOutputTokens?: number | undefined
  /** Passage text sent per document, in document order; `DefaultMaxPassageChars` when absent. */
  readonly maxPassageChars?: number | undefined
}

/** The longest reason a failure gives: one log line. */
const maxReasonLength = 300

/** The `LanguageModel` this adapter uses, for other prompts against the same endpoint. */
export const languageModel = (
  options: Pick<Options, "baseUrl" | "model" | "apiKey" | "maxOutputTokens">
): Effect.Effect<LanguageModel.Service, never, HttpClient.HttpClient> => ChatCompletions.make(options)

/**
 * The first problem a schema found, with where it was: `categories.0: Expected "Earnings" | ...,
 * actual "Weather"`. A value outside a set of literals is one issue per literal; they read as one.
 */
const firstIssueOf = (cause: unknown): string | undefined => {
  if (!ParseResult.isParseError(cause)) return undefined
  const issues = ParseResult.ArrayFormatter.formatErrorSync(cause)
  const [first] = issues
  if (first === undefined) return undefined
  const where = first.path.join(".")
  const sameSpot = issues.filter((issue) => issue.path.join(".") === where)
  const expectations = sameSpot.map((issue) => /^Expected (.+), actual (.+)$/s.exec(issue.message))
    .filter((match) => match !== null)
  const merged = sameSpot.length > 1 && expectations.length === sameSpot.length
    ? `Expected ${expectations.map((match) => match[1]).join(" | ")}, actual ${expectations[0]?.[2]}`
    : first.message
  return where === "" ? merged : `${where}: ${merged}`
}

/** One line for the log: what failed, never the key and never a whole body. */
const reasonOf = (error: AiError.AiError, apiKey: Redacted.Redacted<string> | undefined): string => {
  const detail = (text: string | undefined) => (text === undefined || text === "" ? "" : `: ${text}`)
  const reason = (() => {
    switch (error._tag) {
      case "HttpRequestError":
        return `the request failed (${error.reason})${detail(error.description)}`
      case "HttpResponseError":
        return error.reason === "StatusCode"
          ? `HTTP ${error.response.status} from the endpoint${detail(error.description)}`
          : `the endpoint's answer was unusable (HTTP ${error.response.status})${detail(error.description)}`
      case "MalformedOutput": {
        // @effect/ai's own description of a decode failure is generic; the first issue says what failed.
        const issue = firstIssueOf(error.cause)
        return issue === undefined
          ? `the model's answer is unusable${detail(error.description)}`
          : `the model's answer does not fit the schema: ${issue}`
      }
      case "MalformedInput":
      case "UnknownError":
        return `${error._tag}${detail(error.description)}`
    }
  })()
  // The model's own words can appear in a parse issue: keep the line short and the key out of it.
  return ChatCompletions.excerpt(reason, apiKey, maxReasonLength)
}

/** The model's answer as a summary of `input`: each chunk id a citation of this document. */
const summaryOf = (answer: SummaryAnswer, input: SummaryInput, model: string): Summary => ({
  highlights: answer.highlights.slice(0, MaxHighlights).map((highlight) =>
    Feed.Highlight.make({
      text: highlight.text,
      citations: Arr.dedupe(highlight.chunk_ids).map((chunkId) =>
        Feed.Citation.make({ source: input.source, chunkId: chunkId })
      )
    })
  ),
  categories: Arr.dedupe(answer.categories),
  sentiment: answer.sentiment,
  model
})

/** The adapter as a `SummaryModel`, named `chat-completions:<model>`. */
export const make = (options: Options): Effect.Effect<Service, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const name = `chat-completions:${options.model}`
    const model = yield* languageModel(options)
    const maxPassageChars = options.maxPassageChars ?? DefaultMaxPassageChars

    const summarize = Effect.fn("ChatCompletionsModel.summarize")(
      function*(input: SummaryInput) {
        yield* Effect.annotateCurrentSpan({ model: name, source: input.source })
        const response = yield* model.generateObject({
          prompt: [
            { role: "system", content: systemInstructions },
            { role: "user", content: documentMessage(input, maxPassageChars) }
          ],
          schema: SummaryAnswer,
          objectName: AnswerName
        })
        return summaryOf(response.value, input, name)
      },
      Effect.mapError((error) => new SummaryModelError({ model: name, reason: reasonOf(error, options.apiKey) }))
    )

    return { name, summarize }
  })

/**
 * The adapter as the `SummaryModel`, with options the caller gives.
 *
 * @example
 * ChatCompletionsModel.layer({ baseUrl: "http://localhost:11434/v1", model: "llama3.1:8b" })
 */
export const layer = (options: Options): Layer.Layer<SummaryModel, never, HttpClient.HttpClient> =>
  Layer.effect(SummaryModel, make(options))

/**
 * The adapter as the `SummaryModel`, with options read through `Config` where the caller says:
 * each field a `Config` (`Config.succeed` for a fixed value), as `@effect/sql-pg`'s `PgClient.layerConfig` takes them. The
 * library names no environment variable; the application chooses them.
 *
 * @example
 * ChatCompletionsModel.layerConfig({
 *   baseUrl: Config.string("SUMMARY_MODEL_URL"),
 *   model: Config.string("SUMMARY_MODEL"),
 *   apiKey: Config.redacted("SUMMARY_MODEL_KEY")
 * })
 */
export const layerConfig = (
  config: Config.Config.Wrap<Options>
): Layer.Layer<SummaryModel, ConfigError.ConfigError, HttpClient.HttpClient> =>
  Layer.unwrapEffect(Effect.map(Config.unwrap(config), layer))
