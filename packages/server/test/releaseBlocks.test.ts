/**
 * A press release furnished with an 8-K is made of the blocks the filing's parse read for its
 * exhibit, not parsed a second time: what is stored is what a fresh parse of the exhibit's own
 * bytes makes of it (Markdown, sections, chunks, word count, period and headline), on the corpus's
 * 8-Ks that furnish releases. Skipped when the corpus folder is absent.
 */
import { assert, describe, it } from "@effect/vitest"
import { SummaryModel } from "@filings/feed-summarizer"
import { FiscalPeriod, Parser, SgmlSubmission } from "@filings/filings-parser"
import { DocumentStore, MemoryStorage } from "@filings/storage"
import { Effect, Layer, Option } from "effect"
import { readFileSync } from "node:fs"
import { corpusFile, corpusMissing } from "../../../test/support/corpus.js"
import * as Ingest from "../src/ingest/Ingest.js"
import { Ingestion } from "../src/ingest/Ingestion.js"
import { headlineOf, releaseExhibitsOf } from "../src/ingest/PressReleases.js"
import { storedContent } from "../src/ingest/StoredForms.js"
import * as MarketData from "../src/market/MarketData.js"

const layer = Ingest.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(MemoryStorage.layer, SummaryModel.extractiveLayer, MarketData.none))
)

const eightKsWithReleases = [
  "8-K/adbe-8k-2023-03-15-full-submission.txt",
  "8-K/abvc-8k-2025-04-15-full-submission.txt",
  "8-K/mmm-8k-2024-03-08-full-submission.txt"
]

describe.skipIf(corpusMissing)("press releases made of the filing's blocks", () => {
  for (const path of eightKsWithReleases) {
    it.effect(`${path}: each release is stored as a fresh parse of its exhibit makes it`, () =>
      Effect.gen(function*() {
        const bytes = readFileSync(corpusFile(path))
        const ingestion = yield* Ingestion
        const filing = yield* ingestion.ingest({ fileName: path, bytes, overrides: {} })
        const documents = yield* DocumentStore.DocumentStore
        const submission = yield* SgmlSubmission.parseBytes(bytes)
        const filed = Option.getOrThrow(yield* documents.findMetadata(filing.publication_id))
        const releases = releaseExhibitsOf(submission)
        assert.isAbove(releases.length, 0)
        for (const release of releases) {
          const stored = yield* documents.findByPublicationId(
            `${filing.publication_id}-ex${release.number}` as DocumentStore.StoredDocument["publicationId"]
          )
          assert.isTrue(Option.isSome(stored), `release ${release.number} stored`)
          const document = Option.getOrThrow(stored)
          const fresh = yield* Parser.parse({
            bytes: new TextEncoder().encode(release.body),
            fileName: release.fileName ?? "release.htm",
            form: "PRESS_RELEASE"
          })
          const { body, chunks, sections, wordCount } = storedContent(fresh)
          assert.strictEqual(document.body, body)
          assert.deepStrictEqual(document.sections, sections)
          assert.deepStrictEqual(document.chunks, chunks)
          assert.strictEqual(document.wordCount, wordCount)
          // A release that states no period of its own takes its filing's.
          const period = FiscalPeriod.periodOf(fresh.discussedPeriod, filing.filing_date) ?? filed.period
          assert.strictEqual(document.period, period)
          assert.strictEqual(document.title, headlineOf(fresh.blocks))
          assert.isAbove(document.wordCount, 100)
        }
      }).pipe(Effect.provide(layer)), 60_000)
  }

  it.effect("the headline is the release's own first heading that reads as one", () =>
    Effect.gen(function*() {
      const path = "8-K/adbe-8k-2023-03-15-full-submission.txt"
      const ingestion = yield* Ingestion
      const filing = yield* ingestion.ingest({ fileName: path, bytes: readFileSync(corpusFile(path)), overrides: {} })
      const documents = yield* DocumentStore.DocumentStore
      const release = yield* documents.findMetadata(
        `${filing.publication_id}-ex99.1` as DocumentStore.StoredDocument["publicationId"]
      )
      assert.strictEqual(Option.getOrThrow(release).title, "Adobe Reports Record Revenue in Q1 Fiscal 2023")
    }).pipe(Effect.provide(layer)), 60_000)
})
