/**
 * The quick start of README.md, run for real so it cannot drift: the block between the markers
 * below must appear verbatim under the README's "Quick start" heading, and is run here on the
 * conformance suite's sample document.
 */
import { assert, describe, it } from "@effect/vitest"
import { itShowsQuickStart } from "../../../test/support/quickStart.js"
import { sampleDocument } from "../src/testing.js"

// README:effect:start
import { DocumentStore, MemoryStorage } from "@filings/storage"
import { Effect } from "effect"

// document: a DocumentStore.StoredDocument (metadata, Markdown body, sections, exhibits, chunks)
export const saveAndList = (document: DocumentStore.StoredDocument) =>
  Effect.gen(function*() {
    const store = yield* DocumentStore.DocumentStore
    const outcome = yield* store.save(document) // "created"; "updated" when the publication id is known
    const page = yield* store.list({ tickers: [document.ticker], limit: 10, offset: 0, order: "desc" })
    return { outcome, page } // page: { documents: [metadata, newest filing first], total }
  }).pipe(Effect.provide(MemoryStorage.layer)) // or @filings/storage-sql's SqlStorage.layer
// README:effect:end

describe("README quick start", () => {
  itShowsQuickStart(import.meta.url, ["effect"])

  it.effect("saves a document in memory and lists its metadata", () =>
    Effect.gen(function*() {
      const document = sampleDocument()
      const { outcome, page } = yield* saveAndList(document)
      assert.strictEqual(outcome, "created")
      assert.strictEqual(page.total, 1)
      assert.deepStrictEqual(page.documents.map((metadata) => [metadata.publicationId, metadata.title]), [
        [document.publicationId, "Acme Corp 10-K FY 2024"]
      ])
    }))
})
