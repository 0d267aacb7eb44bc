/**
 * Which market data the feed's `stock_change` comes from, as the composition root chose it from
 * configuration (see `Environment.marketData`):
 *
 * - a CSV file of daily closes the operator keeps, read once at start-up;
 * - an HTTP quote provider, its answers remembered for 15 minutes;
 * - none, and every `stock_change` is `null`.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { type ConfigError, Effect, Layer } from "effect"
import * as CachedMarketData from "./CachedMarketData.js"
import * as CsvMarketData from "./CsvMarketData.js"
import * as HttpMarketData from "./HttpMarketData.js"
import type { MarketData } from "./MarketData.js"
import { none } from "./MarketData.js"

/** A source of daily closes. */
export type Source =
  | { readonly _tag: "Csv"; readonly path: string }
  | { readonly _tag: "Http"; readonly options: HttpMarketData.Options }
  | { readonly _tag: "None" }

/** The port on `source`; a CSV file that cannot be used fails start-up with a `ConfigError` saying why. */
export const layer = (source: Source): Layer.Layer<MarketData, ConfigError.ConfigError> => {
  switch (source._tag) {
    case "Csv":
      return CsvMarketData.layer(source.path).pipe(Layer.provide(NodeFileSystem.layer))
    case "Http":
      // Answers are remembered for a while: a quote provider counts every request.
      return Layer.unwrapEffect(
        Effect.logInfo(`market data from the HTTP provider at ${HttpMarketData.hostOf(source.options.urlTemplate)}`)
          .pipe(
            Effect.as(
              CachedMarketData.layer(HttpMarketData.layer(source.options)).pipe(
                Layer.provide(NodeHttpClient.layerUndici)
              )
            )
          )
      )
    case "None":
      return Layer.unwrapEffect(
        Effect.logDebug("no market data configured: stock_change is null").pipe(Effect.as(none))
      )
  }
}
