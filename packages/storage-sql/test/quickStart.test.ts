/**
 * The quick start of README.md, run for real so it cannot drift: the block between the markers
 * below must appear verbatim under the README's "Quick start" heading, and is run here on PGlite in
 * memory with the conformance suite's sample document.
 */
import { assert, describe, it } from "@effect/vitest"
import { sampleDocument } from "@filings/storage/testing"
import { Option } from "effect"
import { itShowsQuickStart } from "../../../test/support/quickStart.js"

// README:effect:start
import { DocumentStore } from "@filings/storage"
import { Database, SqlStorage } from "@filings/storage-sql"
import { Effect, Layer } from "effect"

// Database.layer: PGlite in ./data/pglite with { dataDir: "./data" }, PostgreSQL with { url }, in memory with neither
const storage = SqlStorage.layer.pipe(Layer.provideMerge(Database.layer({}))) // migrated on start
export const saveAndFind = (document: DocumentStore.StoredDocument) =>
  Effect.gen(function*() {
    const store = yield* DocumentStore.DocumentStore
    yield* store.save(document)
    return yield* store.findByPublicationId(document.publicationId) // Option.some(document), as saved
  }).pipe(Effect.provide(storage))
// README:effect:end

describe("README quick start", () => {
  itShowsQuickStart(import.meta.url, ["effect"])

  it.effect("saves a document in an in-memory PGlite and reads it back as saved", () =>
    Effect.gen(function*() {
      const document = sampleDocument()
      const found = yield* saveAndFind(document)
      assert.deepStrictEqual(found, Option.some(document))
    }))
})
