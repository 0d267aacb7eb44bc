/**
 * The quick start of README.md, run for real so it cannot drift: each block between the markers
 * below must appear verbatim under the README's "Quick start" heading, and is run here on a small
 * annual report and, where the shared corpus is present, on Apple's 10-K for fiscal 2024.
 */
import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { corpusMissing, corpusUrl } from "../../../test/support/corpus.js"
import { itShowsQuickStart } from "../../../test/support/quickStart.js"

// README:effect:start
import { Parser } from "@filings/filings-parser"
import { Effect } from "effect"

// bytes: a filing as EDGAR serves it, e.g. await readFile("aapl-20240928.htm")
export const outline = (bytes: Uint8Array) =>
  Effect.gen(function*() {
    const parsed = yield* Parser.parse({ bytes, fileName: "aapl-20240928.htm" })
    return parsed.sections.map((section) => `${section.title} (${section.wordCount} words)`)
  })
// README:effect:end

// README:promise:start
import { parseFiling } from "@filings/filings-parser"

// The same without Effect: bytes or a string in; rejects with Parser.UnreadableDocument, ...
export const firstPassage = async (filing: Uint8Array | string) => {
  const parsed = await parseFiling(filing, { fileName: "aapl-20240928.htm" })
  return parsed.chunks[0] // { id: "c0001", text: "...", section: "Item 1. Business", ... }
}
// README:promise:end

const annualReport = [
  "<html><body>",
  "<p style=\"font-weight:bold\">Item 1. Business</p>",
  "<p>Example Widgets makes widgets and sells them in 40 countries.</p>",
  "<p style=\"font-weight:bold\">Item 1A. Risk Factors</p>",
  "<p>Demand for widgets may fall.</p>",
  "</body></html>"
].join("\n")

const corpusFiling = new URL("10-K/aapl-10k-fy2024.htm", corpusUrl)

describe("README quick start", () => {
  itShowsQuickStart(import.meta.url, ["effect", "promise"])

  it.effect("Effect: the outline of an annual report", () =>
    Effect.gen(function*() {
      const sections = yield* outline(new TextEncoder().encode(annualReport))
      assert.deepStrictEqual(sections, ["Item 1. Business (13 words)", "Item 1A. Risk Factors (9 words)"])
    }))

  it("Promise: the first passage of an annual report", async () => {
    const chunk = await firstPassage(annualReport)
    assert.strictEqual(chunk?.id, "c0001")
    assert.strictEqual(chunk?.section, "Item 1. Business")
    assert.include(chunk?.text, "Example Widgets makes widgets and sells them in 40 countries.")
  })

  it.effect.skipIf(corpusMissing)(
    "both on Apple's 10-K for fiscal 2024 (shared corpus)",
    () =>
      Effect.gen(function*() {
        const bytes = readFileSync(corpusFiling)
        const sections = yield* outline(bytes)
        assert.isTrue(sections.some((section) => section.startsWith("Item 1A. Risk Factors (")), sections.join("\n"))
        assert.isTrue(
          sections.some((section) => section.startsWith("Item 8. Financial Statements")),
          sections.join("\n")
        )
        const chunk = yield* Effect.promise(() => firstPassage(bytes))
        assert.strictEqual(chunk?.id, "c0001")
      })
  )
})
