/**
 * The feed on the corpus's real documents, through the same steps as ingestion (parse, the 8-K's
 * items, the stored chunks, the configured summarizer): the categories a reader would give each
 * 8-K and press release, and highlights whose every figure is in the chunk they cite. Skipped
 * where the corpus is absent.
 */
import { assert, describe, it } from "@effect/vitest"
import type { Feed } from "@filings/domain"
import { SummaryModel } from "@filings/feed-summarizer"
import { Parser } from "@filings/filings-parser"
import { Effect } from "effect"
import { readFile } from "node:fs/promises"
import { basename, join } from "node:path"
import { corpusDir, corpusMissing } from "../../../test/support/corpus.js"
import { summarizeDocument } from "../src/feed/FeedWriter.js"
import { eightKItems, storedChunks } from "../src/ingest/StoredForms.js"

const summarizeFile = (path: string, docType: "8-K" | "PRESS_RELEASE") =>
  Effect.gen(function*() {
    const bytes = new Uint8Array(yield* Effect.promise(() => readFile(path)))
    const parsed = yield* Parser.parse({
      bytes,
      fileName: basename(path),
      form: docType === "8-K" ? "8-K" : "PRESS_RELEASE"
    })
    const chunks = storedChunks(parsed)
    const outcome = yield* summarizeDocument({
      publicationId: basename(path),
      docType,
      title: parsed.title ?? basename(path),
      companyName: parsed.header?.companyName ?? "",
      items: docType === "8-K" ? eightKItems(parsed) : [],
      chunks
    }).pipe(Effect.provide(SummaryModel.extractiveLayer))
    return { summary: outcome.summary, chunks }
  })

/** What a reader would file each document under. */
const expected: ReadonlyArray<readonly [file: string, categories: ReadonlyArray<Feed.Category>]> = [
  // A notes offering.
  ["8-K/aapl-8k-2019-11-15-full-submission.txt", ["Financial"]],
  // Results, and a warning that earlier statements can no longer be relied on.
  ["8-K/abvc-8k-2025-04-15-full-submission.txt", ["Earnings", "Financial"]],
  ["8-K/adbe-8k-2023-03-15-full-submission.txt", ["Earnings"]],
  ["8-K/adbe-8k-2023-03-15.htm", ["Earnings"]],
  // A new chief financial officer.
  ["8-K/afcg-8k-2023-03-17.htm", ["Leadership Changes"]],
  ["8-K/bke-8k-2024-11-22.htm", ["Earnings"]],
  // A chief financial officer hands over.
  ["8-K/blk-8k-2023-02-24.htm", ["Leadership Changes"]],
  // A division head retires; awards to the executives who stay.
  ["8-K/jpm-8k-2026-06-25-full-submission.txt", ["Leadership Changes"]],
  ["8-K/jpm-8k-2026-06-25.htm", ["Leadership Changes"]],
  // Executive pay under Item 5.02.
  ["8-K/jwn-8k-2023-03-06-full-submission.txt", ["Leadership Changes"]],
  ["8-K/jwn-8k-2023-03-06.htm", ["Leadership Changes"]],
  // A director resigns.
  ["8-K/meta-8k-2025-12-19-full-submission.txt", ["Leadership Changes"]],
  ["8-K/meta-8k-2025-12-19.htm", ["Leadership Changes"]],
  // The spin-off of Solventum.
  ["8-K/mmm-8k-2024-03-08-full-submission.txt", ["Mergers & Acquisitions"]],
  // The executives' variable pay plan under Item 5.02.
  ["8-K/nvda-8k-2026-03-06-full-submission.txt", ["Leadership Changes"]],
  ["8-K/nvda-8k-2026-03-06.htm", ["Leadership Changes"]],
  // The annual meeting's votes: none of the feed's categories.
  ["8-K/orcl-8k-2024-11-14.htm", []],
  ["8-K/shuiyun-qinghe-8k-2024-12-20-pre.htm", ["Leadership Changes"]],
  ["8-K/sphs-8k-2016-03-23.htm", ["Earnings"]]
]

describe.skipIf(corpusMissing)("the feed on the corpus", () => {
  for (const [file, categories] of expected) {
    it.effect(`${file}: ${categories.join(", ") || "no category"}`, () =>
      Effect.gen(function*() {
        const { summary } = yield* summarizeFile(join(corpusDir, file), "8-K")
        assert.deepStrictEqual(summary.categories, categories)
      }))
  }

  it.effect(
    "every highlight of every corpus 8-K and press release states only figures of the chunk it cites",
    () =>
      Effect.gen(function*() {
        const files = [
          ...expected.map(([file]) => [file, "8-K"] as const),
          ...["adbe-8k-2023-03-15-ex99-1.htm", "beyond-cancer-ex99-1.htm", "bke-8k-2024-11-22-ex99-1.htm"].map((name) =>
            [`press-releases/${name}`, "PRESS_RELEASE"] as const
          )
        ]
        let highlights = 0
        for (const [file, docType] of files) {
          const { chunks, summary } = yield* summarizeFile(join(corpusDir, file), docType)
          const byId = new Map(chunks.map((chunk) => [chunk.id, chunk.text.replace(/,(?=\d{3})/g, "")]))
          for (const highlight of summary.highlights) {
            highlights++
            assert.isAbove(highlight.citations.length, 0, `${file}: "${highlight.text}" cites nothing`)
            for (const citation of highlight.citations) {
              const text = byId.get(citation.chunkId)
              assert.isDefined(text, `${file}: ${citation.chunkId} is no chunk`)
              for (const figure of highlight.text.replace(/,(?=\d{3})/g, "").match(/\d+(?:\.\d+)?/g) ?? []) {
                assert.include(text, figure, `${file}: ${figure} of "${highlight.text}" in ${citation.chunkId}`)
              }
            }
          }
        }
        assert.isAbove(highlights, 30)
      }),
    120_000
  )
})
