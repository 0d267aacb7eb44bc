/**
 * Which summary model writes the feed: a chat-completions endpoint when `FILINGS_SUMMARY_MODEL_URL`
 * names one (with `FILINGS_SUMMARY_MODEL` and, where it wants one, `FILINGS_SUMMARY_MODEL_KEY`),
 * else the offline extractive model. The endpoint is the operator's own choice, so it is called as
 * configured; whatever it answers is checked, and the extractive model stands in when it fails.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { ChatCompletionsModel, SummaryModel } from "@filings/feed-summarizer"
import { Config, type ConfigError, Effect, Layer, Option } from "effect"
import * as Environment from "../Environment.js"

export const layer: Layer.Layer<SummaryModel.SummaryModel, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.gen(function*() {
    const url = yield* Environment.summaryModelUrl
    if (Option.isNone(url)) return SummaryModel.extractiveLayer
    // The host only: a path or query may carry credentials.
    const host = URL.canParse(url.value) ? new URL(url.value).host : "the configured URL"
    yield* Effect.logInfo(`feed summaries by the model at ${host}, written first by the extractive model`)
    return ChatCompletionsModel.layerConfig({ ...Environment.summaryModel, baseUrl: Config.succeed(url.value) })
      .pipe(Layer.provide(NodeHttpClient.layerUndici))
  })
)
