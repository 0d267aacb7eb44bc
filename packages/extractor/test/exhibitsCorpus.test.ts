/**
 * Exhibit references of real filings from the shared corpus (`../shared/corpus/`, see its
 * CATALOGUE.md), read in place; skipped where the corpus is absent. The numbers and descriptions
 * were checked by eye against the filings' exhibit indexes.
 */
import { assert, describe, it } from "@effect/vitest"
import { Parser } from "@filings/filings-parser"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { corpusMissing, corpusUrl } from "../../../test/support/corpus.js"
import { extractExhibits } from "../src/Exhibits.js"

const corpus = corpusUrl
const parseCorpusFile = (path: string) => Parser.parse({ bytes: readFileSync(new URL(path, corpus)), fileName: path })

describe.skipIf(corpusMissing)(`exhibits in the corpus in ../shared/corpus`, () => {
  it.effect("AAPL 10-K FY2024: the Item 15 index, across its page breaks", () =>
    Effect.gen(function*() {
      const references = extractExhibits(yield* parseCorpusFile("10-K/aapl-10k-fy2024.htm"), "0000320193-24-000123")
      const numbers = references.map((reference) => reference.number)
      const fourths = Array.from({ length: 29 }, (_, index) => `4.${index + 1}`)
      const tenths = Array.from({ length: 22 }, (_, index) => `10.${index + 1}`)
      assert.deepStrictEqual(numbers, [
        "3.1",
        "3.2",
        ...fourths,
        ...tenths,
        "19.1",
        "21.1",
        "23.1",
        "24.1",
        "31.1",
        "31.2",
        "32.1",
        "97.1",
        "101",
        "104"
      ])
      const byNumber = new Map(references.map((reference) => [reference.number, reference]))
      assert.deepStrictEqual(byNumber.get("4.1"), {
        number: "4.1",
        description: "Description of Securities of the Registrant.",
        // The 10-K's primary document alone: its exhibits are not stored, so none has a url.
        url: null
      })
      assert.strictEqual(byNumber.get("97.1")?.description, "Rule 10D-1 Recovery Policy")
      assert.strictEqual(
        byNumber.get("32.1")?.description,
        "Section 1350 Certifications of Chief Executive Officer and Chief Financial Officer."
      )
    }))

  it.effect("NVDA 8-K 2026-03-06 (full submission): Item 9.01 and the EX-10.1 document", () =>
    Effect.gen(function*() {
      const references = extractExhibits(
        yield* parseCorpusFile("8-K/nvda-8k-2026-03-06-full-submission.txt"),
        "0001045810-26-000020"
      )
      assert.deepStrictEqual(references, [
        {
          number: "10.1",
          description: "Variable Compensation Plan - Fiscal Year 2027",
          url: "/v1/documents/0001045810-26-000020?exhibit=10.1"
        },
        {
          number: "104",
          description:
            "The cover page of this Current Report on Form 8-K, formatted in inline XBRL (included as Exhibit 101)",
          // Inside the primary document, not a document of the submission.
          url: null
        }
      ])
    }))

  it.effect("AAPL 10-Q Q2 FY2025: the Item 6 index", () =>
    Effect.gen(function*() {
      const references = extractExhibits(yield* parseCorpusFile("10-Q/aapl-10q-2025-03-29.htm"), "0000320193-25-000057")
      assert.deepStrictEqual(references.map((reference) => reference.number), ["31.1", "31.2", "32.1", "101", "104"])
      assert.strictEqual(
        references[0]?.description,
        "Rule 13a-14(a) / 15d-14(a) Certification of Chief Executive Officer."
      )
    }))

  it.effect("MMM 8-K 2024-03-08 (full submission): the press release exhibit", () =>
    Effect.gen(function*() {
      const references = extractExhibits(yield* parseCorpusFile("8-K/mmm-8k-2024-03-08-full-submission.txt"), "x")
      assert.deepStrictEqual(references.map(({ description, number }) => [number, description]), [
        ["99.1", "Press release, dated March 8, 2024, issued by 3M Company."],
        ["104", "Cover Page Interactive Data File (the cover page XBRL tags are embedded in the Inline XBRL document)."]
      ])
    }))
})
