import { SqlClient } from "@effect/sql"
import { assert, describe, it, layer } from "@effect/vitest"
import { Document } from "@filings/domain"
import { DocumentStore, ExtractionStore, StorageError } from "@filings/storage"
import { sampleDocument } from "@filings/storage/testing"
import { Effect, Layer, Schema } from "effect"
import { SqlStorage, TestDatabase } from "../src/index.js"
import { fromRow } from "../src/internal/sqlRows.js"

describe("fromRow", () => {
  it("reads a NULL column as an absent optional field, and keeps the nulls inside a JSON column", () => {
    const section = Schema.decodeUnknownSync(fromRow(Document.LabeledSection))({
      title: "Item 1. Business",
      item: null,
      content: "text",
      word_count: 1,
      page_start: 1,
      page_end: 2
    })
    assert.notProperty(section, "item")
    const Row = fromRow(Schema.Struct({ exhibits: Schema.Array(ExtractionStore.StoredExhibitReference) }))
    const row = Schema.decodeUnknownSync(Row)({ exhibits: [{ number: "104", description: "Cover", url: null }] })
    assert.deepStrictEqual(row.exhibits, [{ number: "104", description: "Cover", url: null }])
  })
})

layer(SqlStorage.layer.pipe(Layer.provideMerge(TestDatabase.layerPglite())), { timeout: "60 seconds" })(
  "rows that do not read as their shape",
  (it) => {
    it.effect("fail as the port's StorageError, naming the operation and the mismatch", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const documents = yield* DocumentStore.DocumentStore
        const extractions = yield* ExtractionStore.ExtractionStore
        const document = sampleDocument()
        yield* documents.save(document)
        // Written around the store: signatures without a date, which the stored form does not take.
        yield* sql`INSERT INTO document_extractions (publication_id, exhibits, signatures, warnings)
          VALUES (${document.publicationId}, '[]'::jsonb, '{"signedDate":"","signers":[]}'::jsonb, '[]'::jsonb)`
        const failure = yield* Effect.flip(extractions.find(document.publicationId))
        assert.instanceOf(failure, StorageError.StorageError)
        assert.strictEqual(failure.operation, "ExtractionStore.find")
        assert.include(failure.reason, "signedDate")
      }))
  }
)
