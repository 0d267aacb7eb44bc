/**
 * What a document store is given of a parse: the parser's sections and exhibits are the domain's
 * `LabeledSection` and `Exhibit` with their parse detail added, and the store keeps the domain's
 * fields alone, so no block range or block ever reaches a database row or the exhibits' JSON.
 */
import { assert, describe, it } from "@effect/vitest"
import { Parser } from "@filings/filings-parser"
import { DocumentStore } from "@filings/storage"
import { Effect, Schema } from "effect"
import { storedExhibits, storedSections } from "../src/ingest/StoredForms.js"

const eightK = [
  "<SEC-DOCUMENT>0000999999-24-000002.txt : 20240215",
  "<SEC-HEADER>0000999999-24-000002.hdr.sgml : 20240215",
  "ACCESSION NUMBER:\t\t0000999999-24-000002",
  "CONFORMED SUBMISSION TYPE:\t8-K",
  "PUBLIC DOCUMENT COUNT:\t\t2",
  "FILED AS OF DATE:\t\t20240215",
  "</SEC-HEADER>",
  "<DOCUMENT>",
  "<TYPE>8-K",
  "<SEQUENCE>1",
  "<FILENAME>widgets-8k.htm",
  "<TEXT>",
  "<html><body>",
  "<p style=\"font-weight:bold\">Item 2.02 Results of Operations</p>",
  "<p>Example Widgets announced its results for the quarter in the press release filed as Exhibit 99.1.</p>",
  "<p style=\"font-weight:bold\">SIGNATURES</p>",
  "<p>/s/ Jane Doe</p>",
  "</body></html>",
  "</TEXT>",
  "</DOCUMENT>",
  "<DOCUMENT>",
  "<TYPE>EX-99.1",
  "<SEQUENCE>2",
  "<FILENAME>ex991.htm",
  "<DESCRIPTION>PRESS RELEASE",
  "<TEXT>",
  "<html><body><p>Example Widgets reports record widgets.</p></body></html>",
  "</TEXT>",
  "</DOCUMENT>",
  "</SEC-DOCUMENT>"
].join("\n")

describe("the stored forms of a parse", () => {
  it.effect("sections and exhibits keep the domain's fields, without blocks or block ranges", () =>
    Effect.gen(function*() {
      const parsed = yield* Parser.parse({ bytes: new TextEncoder().encode(eightK) })
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
        content: "Example Widgets reports record widgets.\n"
      }])
      // What is stored is what the store's schema takes, with nothing left over.
      const strict = { onExcessProperty: "error" } as const
      assert.isTrue(Schema.is(Schema.Array(DocumentStore.StoredSection), strict)(sections))
      assert.isTrue(Schema.is(Schema.Array(DocumentStore.StoredExhibit), strict)(storedExhibits(parsed)))
    }))
})
