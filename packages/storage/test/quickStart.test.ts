/**
 * The quick start of README.md, run for real so it cannot drift: the block between the markers
 * below must appear verbatim under the README's "Quick start" heading, and is run here on the
 * conformance suite's sample document.
 */
import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
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
