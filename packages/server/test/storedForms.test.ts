/**
 * What a document store is given of a parse: the parser's sections and exhibits are the domain's
 * `LabeledSection` and `Exhibit` with their parse detail added, and the store keeps the domain's
 * fields alone, so no block range or block ever reaches a database row or the exhibits' JSON.
 */
import { assert, describe, it } from "@effect/vitest"
import { Parser } from "@filings/filings-parser"
import { DocumentStore } from "@filings/storage"
import { Effect, Schema } from "effect"
import { eightKSubmission } from "../../../test/support/syntheticEightK.js"
import { storedExhibits, storedSections } from "../src/ingest/StoredForms.js"

const eightK = eightKSubmission({
  accession: "0000999999-24-000002",
  cik: "0000999999",
  companyName: "Example Widgets",
  ticker: "WIDG",
  filedAsOf: "2024-02-15",
  items: ["2.02"]
})

describe("the stored forms of a parse", () => {
  it.effect("sections and exhibits keep the domain's fields, without blocks or block ranges", () =>
    Effect.gen(function*() {
      const parsed = yield* Parser.parse({ bytes: eightK })
      const sections = storedSections(parsed)
      assert.deepStrictEqual(sections.map((section) => Object.keys(section)), [
        ["title", "item", "content", "wordCount", "pageStart", "pageEnd"],
        // A section that is no item has no item key at all, rather than an undefined one.
        ["title", "content", "wordCount", "pageStart", "pageEnd"]
      ])
      assert.deepStrictEqual(sections.map((section) => [section.title, section.item]), [
        ["Item 2.02. Results of Operations and Financial Condition", "2.02"],
        ["Signatures", undefined]
      ])
      assert.deepStrictEqual(
        sections.map((section) => section.content),
        parsed.sections.map((section) => section.content)
      )

      assert.deepStrictEqual(storedExhibits(parsed), [{
        exhibitNumber: "99.1",
        title: "PRESS RELEASE",
        content: parsed.exhibits[0]?.content ?? ""
      }])
      assert.include(storedExhibits(parsed)[0]?.content, "Example Widgets today reported revenue")
      // What is stored is what the store's schema takes, with nothing left over.
      const strict = { onExcessProperty: "error" } as const
      assert.isTrue(Schema.is(Schema.Array(DocumentStore.StoredSection), strict)(sections))
      assert.isTrue(Schema.is(Schema.Array(DocumentStore.StoredExhibit), strict)(storedExhibits(parsed)))
    }))
})
