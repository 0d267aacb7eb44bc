/**
 * The quick start of README.md, run for real so it cannot drift: the block between the markers
 * below must appear verbatim under the README's "Quick start" heading, and is run here on a metric
 * as the API serves it, and on one that breaks the schema.
 */
import { assert, describe, it } from "@effect/vitest"
import { itShowsQuickStart } from "../../../test/support/quickStart.js"

// README:effect:start
import { ExtractionApi } from "@filings/domain"
import { Effect, Schema } from "effect"

// json: one metric of GET /v1/documents/{id}/extract, as the API serves it (snake_case: as_of, yoy_change)
export const metricOf = (json: unknown) =>
  Effect.gen(function*() {
    const metric = yield* Schema.decodeUnknown(ExtractionApi.Metric)(json) // or fails with a ParseError
    return `${metric.period}: ${metric.value} ${metric.unit}, ${metric.yoyChange} on a year earlier`
  })
// README:effect:end

describe("README quick start", () => {
  itShowsQuickStart(import.meta.url, ["effect"])

  it.effect("reads a metric of the API's JSON into its camelCase value", () =>
    Effect.gen(function*() {
      const line = yield* metricOf({
        value: 391_035_000_000,
        unit: "USD",
        period: "FY 2024",
        yoy_change: 0.0202
      })
      assert.strictEqual(line, "FY 2024: 391035000000 USD, 0.0202 on a year earlier")
    }))

  it.effect("fails with a ParseError on JSON that is not a metric", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(metricOf({ value: "391035", unit: "USD", period: "FY 2024" }))
      assert.strictEqual(error._tag, "ParseError")
      assert.include(error.message, "value")
    }))
})
