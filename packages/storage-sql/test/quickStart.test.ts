/**
 * The quick start of README.md, run for real so it cannot drift: the block between the markers
 * below must appear verbatim under the README's "Quick start" heading, and is run here on PGlite in
 * memory with the conformance suite's sample document.
 */
import { assert, describe, it } from "@effect/vitest"
import { sampleDocument } from "@filings/storage/testing"
import { Option } from "effect"
import { readFileSync } from "node:fs"

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

  it.effect("saves a document in an in-memory PGlite and reads it back as saved", () =>
    Effect.gen(function*() {
      const document = sampleDocument()
      const found = yield* saveAndFind(document)
      assert.deepStrictEqual(found, Option.some(document))
    }))
})
