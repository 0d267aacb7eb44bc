/**
 * The quick start of README.md, run for real so it cannot drift: the block between the markers
 * below must appear verbatim under the README's "Quick start" heading, and is run here on a metric
 * as the API serves it, and on one that breaks the schema.
 */
import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"

// README:effect:start
import { Extraction } from "@filings/domain"
import { Effect, Schema } from "effect"

// json: one metric of GET /v1/documents/{id}/extract, as the API serves it (snake_case: as_of, yoy_change)
export const metricOf = (json: unknown) =>
  Effect.gen(function*() {
    const metric = yield* Schema.decodeUnknown(Extraction.Metric)(json) // or fails with a ParseError
    return `${metric.period}: ${metric.value} ${metric.unit}, ${metric.yoyChange} on a year earlier`
  })
// README:effect:end

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8")
const source = readFileSync(new URL(import.meta.url), "utf8")

/** The lines of this file between `// README:<name>:start` and `// README:<name>:end`. */
const snippet = (name: string): string => {
  const start = source.indexOf(`// README:${name}:start\n`)
  const end = source.indexOf(`// README:${name}:end`)
  assert.isTrue(start >= 0 && end > start, `markers of ${name}`)
  return source.slice(start + `// README:${name}:start\n`.length, end)
}

/** The README's "Quick start" section. */
const quickStartAt = readme.indexOf("\n## Quick start\n")
const quickStart = readme.slice(quickStartAt, readme.indexOf("\n## ", quickStartAt + 1))

describe("README quick start", () => {
  it("shows the block this file runs, under its Quick start heading", () => {
    assert.isAbove(quickStartAt, 0)
    assert.include(quickStart, "```ts\n" + snippet("effect") + "```")
  })

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
