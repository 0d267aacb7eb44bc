/**
 * The port a summary model implements: the offline extractive default (`ExtractiveModel.layer`), an
 * adapter on a chat-completions model, or one of your own. A model may fail or answer nonsense;
 * `FeedSummarizer` checks every answer and falls back to the default, so a model need not be
 * trusted.
 *
 * @module
 */
import type { Effect } from "effect"
import { Context, Layer, Schema } from "effect"
import * as ExtractiveModel from "./ExtractiveModel.js"
import type { Summary, SummaryInput } from "./Summary.js"

/** A model that could not summarise: the provider failed, could not be reached, or answered with no summary. */
export class SummaryModelError extends Schema.TaggedError<SummaryModelError>()("SummaryModelError", {
  model: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `summary model ${this.model} failed: ${this.reason}`
  }
}

/** A summary model: a name for the items it writes, and the summarising itself. */
export interface Service {
  /** Names the model in the items it writes: `extractive`, `chat-completions:gpt-4o-mini`. */
  readonly name: string
  /** Highlights citing `input`'s chunks, categories and sentiment; checked by `FeedSummarizer` afterwards. */
  readonly summarize: (input: SummaryInput) => Effect.Effect<Summary, SummaryModelError>
}

/**
 * The summary model as a service; `FeedSummarizer` falls back to the extractive one when it fails.
 *
 * @example
 * const layer = SummaryModel.extractiveLayer // or ChatCompletionsModel.layer({ baseUrl, model })
 */
export class SummaryModel extends Context.Tag("@filings/feed-summarizer/SummaryModel")<SummaryModel, Service>() {}

/** The offline extractive model as the `SummaryModel`. */
export const extractive: Service = {
  name: ExtractiveModel.ModelName,
  summarize: (input) => ExtractiveModel.summarizeEffect(input)
}

/** The offline extractive model as the `SummaryModel` layer. */
export const extractiveLayer: Layer.Layer<SummaryModel> = Layer.succeed(SummaryModel, extractive)
