/**
 * What a document store is given of a parse: the parser's sections and exhibits are the domain's
 * `LabeledSection` and `Exhibit` with their parse detail added, and the store keeps the domain's
 * fields alone (a section's block range, an exhibit without its blocks); each chunk keeps its own
 * blocks, which are the document's, once each.
 */
import { assert, describe, it } from "@effect/vitest"
import { Document } from "@filings/domain"
import { Parser } from "@filings/filings-parser"
import { DocumentStore } from "@filings/storage"
import { Effect, Schema } from "effect"
import { eightKSubmission } from "../../../test/support/syntheticEightK.js"
import { storedChunks, storedExhibits, storedSections } from "../src/ingest/StoredForms.js"

const eightK = eightKSubmission({
  accession: "0000999999-24-000002",
  cik: "0000999999",
  companyName: "Example Widgets",
  ticker: "WIDG",
  filedAsOf: "2024-02-15",
  items: ["2.02"]
})

describe("the stored forms of a parse", () => {
  it.effect("sections keep the domain's fields with their block ranges, exhibits without their blocks", () =>
    Effect.gen(function*() {
      const parsed = yield* Parser.parse({ bytes: eightK })
      const sections = storedSections(parsed)
      assert.deepStrictEqual(sections.map((section) => Object.keys(section)), [
        ["title", "item", "content", "wordCount", "pageStart", "pageEnd", "blockRange"],
        // A section that is no item has no item key at all, rather than an undefined one.
        ["title", "content", "wordCount", "pageStart", "pageEnd", "blockRange"]
      ])
      assert.deepStrictEqual(
        sections.map((section) => section.blockRange),
        parsed.sections.map((section) => section.blockRange)
      )
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

  it.effect("each chunk keeps its blocks: in order they are the document's, and a section's read back from them", () =>
    Effect.gen(function*() {
      const parsed = yield* Parser.parse({ bytes: eightK })
      const chunks = storedChunks(parsed)
      assert.isAbove(chunks.length, 0)
      assert.deepStrictEqual(chunks.flatMap((chunk) => chunk.blocks ?? []), parsed.blocks)
      for (const section of parsed.sections) {
        assert.deepStrictEqual(
          Document.sectionBlocks(chunks, section),
          parsed.blocks.slice(section.blockRange.start, section.blockRange.end)
        )
      }
      const strict = { onExcessProperty: "error" } as const
      assert.isTrue(Schema.is(Schema.Array(DocumentStore.StoredChunk), strict)(chunks))
    }))
  it.effect("a chunk's blocks leave out the ids of the XBRL facts they tag, which only locate facts at ingest", () =>
    Effect.gen(function*() {
      const html = `<html><body><ix:header><ix:resources>
<xbrli:context id="c"><xbrli:entity><xbrli:identifier>1</xbrli:identifier></xbrli:entity>
<xbrli:period><xbrli:instant>2024-09-28</xbrli:instant></xbrli:period></xbrli:context>
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit></ix:resources></ix:header>
<p>Cash was <ix:nonFraction id="f-1" name="us-gaap:Cash" contextRef="c" unitRef="usd" decimals="0">12</ix:nonFraction>.</p>
<table><tr><td></td><td>2024</td></tr><tr><td>Cash</td><td><ix:nonFraction id="f-2" name="us-gaap:Cash" contextRef="c" unitRef="usd" decimals="0">12</ix:nonFraction></td></tr></table>
</body></html>`
      const parsed = yield* Parser.parse({ bytes: new TextEncoder().encode(html) })
      const tagging = parsed.blocks.filter((block) =>
        (block.kind === "paragraph" && block.factIds !== undefined) ||
        (block.kind === "table" && block.cellFacts !== undefined)
      )
      assert.strictEqual(tagging.length, 2, "the parse locates both facts")
      const stored = storedChunks(parsed).flatMap((chunk) => chunk.blocks ?? [])
      assert.strictEqual(stored.length, parsed.blocks.length)
      assert.isFalse(stored.some((block) => "factIds" in block || "cellFacts" in block))
      assert.deepStrictEqual(
        stored.map((block) => block.kind === "table" ? block.rows : block.kind === "paragraph" ? block.text : ""),
        parsed.blocks.map((block) => block.kind === "table" ? block.rows : block.kind === "paragraph" ? block.text : "")
      )
    }))
})
