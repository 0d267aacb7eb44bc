/**
 * Which market data the feed's `stock_change` comes from, chosen from configuration:
 *
 * - `FILINGS_MARKET_DATA_CSV` set: the operator's file of daily closes, read once at start-up;
 * - `FILINGS_MARKET_DATA_URL` set: the HTTP quote provider it names (`FILINGS_MARKET_DATA_KEY`, when
 *   set, is its bearer token), its answers remembered for 15 minutes;
 * - neither: none, and every `stock_change` is `null`.
 *
 * Both set is a configuration error rather than a silent preference: the operator must say which
 * prices the feed reports.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Config, ConfigError, Effect, Layer, Option } from "effect"
import * as CachedMarketData from "./CachedMarketData.js"
import * as CsvMarketData from "./CsvMarketData.js"
import * as HttpMarketData from "./HttpMarketData.js"
import type { MarketData } from "./MarketData.js"
import { none } from "./MarketData.js"

/** A variable that is set to something other than blanks. */
const isSet = (name: string) =>
  Config.option(Config.string(name)).pipe(Config.map(Option.exists((value) => value.trim() !== "")))

/** Which source of daily closes the operator configured, if any. */
export const sourceConfig: Config.Config<"csv" | "http" | "none"> = Config.all([
  isSet("FILINGS_MARKET_DATA_CSV"),
  isSet("FILINGS_MARKET_DATA_URL")
]).pipe(Config.map(([csv, url]) => (csv ? "csv" : url ? "http" : "none")))

export const layer: Layer.Layer<MarketData, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.gen(function*() {
    const csv = yield* isSet("FILINGS_MARKET_DATA_CSV")
    const url = yield* isSet("FILINGS_MARKET_DATA_URL")
    if (csv && url) {
      return yield* Effect.fail(ConfigError.InvalidData(
        ["FILINGS_MARKET_DATA_URL"],
        "FILINGS_MARKET_DATA_CSV and FILINGS_MARKET_DATA_URL are both set: choose one source of market data"
      ))
    }
    if (!url && (yield* isSet("FILINGS_MARKET_DATA_KEY"))) {
      yield* Effect.logWarning("FILINGS_MARKET_DATA_KEY is set without FILINGS_MARKET_DATA_URL: the key is unused")
    }
    if (csv) return CsvMarketData.layerConfig.pipe(Layer.provide(NodeFileSystem.layer))
    // Answers are remembered for a while: a quote provider counts every request.
    if (url) return CachedMarketData.layer(HttpMarketData.layerConfig.pipe(Layer.provide(NodeHttpClient.layerUndici)))
    yield* Effect.logDebug("no market data configured: stock_change is null")
    return none
  })
)
