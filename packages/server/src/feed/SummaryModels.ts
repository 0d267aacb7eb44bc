/**
 * Which summary model writes the feed: a chat-completions endpoint when the operator names one
 * (`FILINGS_SUMMARY_MODEL_URL`, with `FILINGS_SUMMARY_MODEL` and, where it wants one,
 * `FILINGS_SUMMARY_MODEL_KEY`), else the offline extractive model. The endpoint is the operator's
 * own choice, so it is called as configured; whatever it answers is checked, and the extractive
 * model stands in when it fails.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { ChatCompletionsModel, SummaryModel } from "@filings/feed-summarizer"
import { Effect, Layer, Option } from "effect"

/** The endpoint's model when one is given, else the extractive model. */
export const layer = (endpoint: Option.Option<ChatCompletionsModel.Options>): Layer.Layer<SummaryModel.SummaryModel> =>
  Option.match(endpoint, {
    onNone: () => SummaryModel.extractiveLayer,
    onSome: (options) => {
      // The host only: a path or query may carry credentials.
      const host = URL.canParse(options.baseUrl) ? new URL(options.baseUrl).host : "the configured URL"
      return Layer.unwrapEffect(
        Effect.logInfo(`feed summaries by the model at ${host}, written first by the extractive model`).pipe(
          Effect.as(ChatCompletionsModel.layer(options).pipe(Layer.provide(NodeHttpClient.layerUndici)))
        )
      )
    }
  })
