/**
 * The feed summarizer for code that does not use Effect: `summarize` is `FeedSummarizer.summarize`
 * behind a Promise. Without a `model` it summarises offline with the extractive model; with one it
 * asks that chat-completions endpoint (through `fetch`) and falls back to the extractive model when
 * the endpoint fails, times out or answers nothing the document supports, as the Effect API does.
 * It never rejects for a model's failure; an exception in the summariser itself rejects with the
 * original error.
 *
 * @example
 * ```ts
 * import { parseFiling } from "@filings/filings-parser"
 * import { summarize } from "@filings/feed-summarizer"
 *
 * const parsed = await parseFiling(bytes)
 * const { summary } = await summarize({ source: "0000320193-24-000123", docType: "10-K", chunks: parsed.chunks })
 * console.log(summary.highlights.map((highlight) => highlight.text), summary.sentiment)
 * ```
 */
import { FetchHttpClient } from "@effect/platform"
import * as EffectPromise from "@filings/filings-parser/EffectPromise"
import { Effect, Layer, Redacted } from "effect"
import * as ChatCompletionsModel from "./ChatCompletionsModel.js"
import * as FeedSummarizer from "./FeedSummarizer.js"
import type { SummaryInput } from "./Summary.js"
import * as SummaryModel from "./SummaryModel.js"

/** A chat-completions model for `summarize`: `ChatCompletionsModel.Options`, the key as a plain string or `Redacted`. */
export interface SummarizeModelOptions extends Omit<ChatCompletionsModel.Options, "apiKey"> {
  readonly apiKey?: string | Redacted.Redacted<string> | undefined
}

/** What `summarize` takes besides the document: the model to ask, its time limit, and a signal to stop. */
export interface SummarizeDocumentOptions extends FeedSummarizer.SummarizeOptions {
  /** The chat-completions model to ask first; the offline extractive model alone when absent. */
  readonly model?: SummarizeModelOptions | undefined
  /** Stops the summary; the promise then rejects with the signal's reason. */
  readonly signal?: AbortSignal | undefined
}

const modelLayer = (model: SummarizeModelOptions | undefined): Layer.Layer<SummaryModel.SummaryModel> => {
  if (model === undefined) return SummaryModel.extractiveLayer
  const { apiKey, ...options } = model
  const key = typeof apiKey === "string" ? Redacted.make(apiKey) : apiKey
  return ChatCompletionsModel.layer({ ...options, ...(key === undefined ? {} : { apiKey: key }) }).pipe(
    Layer.provide(FetchHttpClient.layer)
  )
}

/**
 * Summarises a document given as its chunks (`parseFiling(...).chunks`, or passages of your own
 * with stable ids): highlights citing those chunks, categories and sentiment, and which model
 * wrote them. Resolves with `FeedSummarizer.SummaryOutcome`.
 *
 * @example
 * ```ts
 * const { summary, fallbackReason } = await summarize(input, {
 *   model: { baseUrl: "http://localhost:11434/v1", model: "llama3.1:8b" },
 *   timeout: "30 seconds"
 * })
 * // summary.model: "chat-completions:llama3.1:8b", or "extractive" with fallbackReason saying why
 * ```
 */
export const summarize = (
  input: SummaryInput,
  options: SummarizeDocumentOptions = {}
): Promise<FeedSummarizer.SummaryOutcome> => {
  const { model, signal, ...summarizeOptions } = options
  return EffectPromise.run(
    FeedSummarizer.summarize(input, summarizeOptions).pipe(Effect.provide(modelLayer(model))),
    { signal }
  )
}
