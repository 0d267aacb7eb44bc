import { assert, describe, it } from "@effect/vitest"
import { Document } from "@filings/domain"
import { sampleDocument } from "@filings/storage/testing"
import { Either, Schema } from "effect"
import { rowDecoder } from "../src/internal/sqlRows.js"
import { sampleRows } from "./sampleRows.js"

// What a column can hold that its field may not take.
const replacements: ReadonlyArray<unknown> = [null, undefined, 42, "2024-02-30", "", "aapl", {}, [], [{}], true]

const outcome = (result: Either.Either<unknown, { readonly message: string }>) =>
  Either.isRight(result) ? { decoded: result.right } : { failure: result.left.message }

describe("rowDecoder", () => {
  for (const { name, row, shape } of sampleRows) {
    const byRow = rowDecoder(shape)
    // What rows were read with before: the shape's own decoder, NULL columns dropped.
    const decodeShape = Schema.decodeUnknownEither(shape, { errors: "first" })
    const bySchema = (row: object) =>
      decodeShape(Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null)))

    it(`reads ${name} as the shape's own decoder does`, () => {
      const read = byRow(row)
      assert.isTrue(Either.isRight(read))
      assert.deepStrictEqual(outcome(read), outcome(bySchema(row)))
    })

    it(`fails on ${name} with a broken column as the shape's own decoder does`, () => {
      let failures = 0
      for (const column of Object.keys(row)) {
        for (const value of replacements) {
          const broken = { ...row, [column]: value }
          const expected = outcome(bySchema(broken))
          assert.deepStrictEqual(outcome(byRow(broken)), expected, `${column} = ${JSON.stringify(value)}`)
          if ("failure" in expected) failures++
        }
      }
      assert.isAbove(failures, Object.keys(row).length)
    })
  }

  it("keeps the key order of the type side, renamed fields in place", () => {
    const document = sampleDocument()
    const read = rowDecoder(Document.DocumentMetadata)(Schema.encodeSync(Document.DocumentMetadata)(document))
    assert.deepStrictEqual(Object.keys(Either.getOrThrow(read)), Object.keys(Document.DocumentMetadata.fields))
  })
})
