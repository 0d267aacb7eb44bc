/**
 * On the 249 earnings calls of the ECTSum validation split (read in place, never copied; skipped
 * where the corpus is absent): every highlight the extractive model writes cites a chunk of the
 * call, and every figure it states is in that chunk, so the citation check has nothing to repair.
 */
import { assert, describe, it } from "@effect/vitest"
import { Citations, ExtractiveModel, type SummaryChunk } from "@filings/feed-summarizer"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { corpusFile, corpusMissing } from "../../../test/support/corpus.js"
import { figuresOf } from "../src/internal/figures.js"

const split = corpusFile("ectsum-val/ects")

const chunksOf = (lines: ReadonlyArray<string>): ReadonlyArray<SummaryChunk> =>
  Array.from({ length: Math.ceil(lines.length / 12) }, (_, index) => ({
    id: `c${String(index + 1).padStart(4, "0")}`,
    text: lines.slice(index * 12, index * 12 + 12).join("\n\n")
  }))

describe.skipIf(corpusMissing)("the extractive model on ECTSum", () => {
  it("cites, for every highlight of every call, a chunk stating all its figures", () => {
    const files = readdirSync(split).filter((name) => name.endsWith(".txt"))
    assert.strictEqual(files.length, 249)
    let highlights = 0
    for (const name of files) {
      const lines = readFileSync(join(split, name), "utf8").split("\n").filter((line) => line.trim() !== "")
      const input = { source: name, docType: "EARNINGS_CALL" as const, chunks: chunksOf(lines) }
      const summary = ExtractiveModel.summarize(input)
      const byId = new Map(input.chunks.map((chunk) => [chunk.id, chunk.text]))
      for (const highlight of summary.highlights) {
        highlights++
        const [citation] = highlight.citations
        assert.strictEqual(citation?.source, name)
        const chunk = byId.get(citation!.chunkId)
        assert.isDefined(chunk, `${name}: ${citation!.chunkId}`)
        const stated = new Set(figuresOf(chunk!))
        for (const figure of figuresOf(highlight.text)) {
          assert.isTrue(stated.has(figure), `${name}: ${figure} of "${highlight.text}"`)
        }
      }
      assert.deepStrictEqual(Citations.checkCitations(summary, input).corrections, [], name)
    }
    assert.isAbove(highlights, 700)
  }, 60_000)
})
