/**
 * Signatures of real filings from the shared corpus (`../shared/corpus/`, see its CATALOGUE.md),
 * read in place; skipped where the corpus is absent. The values were checked by eye in the filings.
 */
import { assert, describe, it } from "@effect/vitest"
import { Parser } from "@filings/filings-parser"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { corpusMissing, corpusUrl } from "../../../test/support/corpus.js"
import { extractSignatures } from "../src/Signatures.js"

const corpus = corpusUrl
const parseCorpusFile = (path: string) => Parser.parse({ bytes: readFileSync(new URL(path, corpus)), fileName: path })

describe.skipIf(corpusMissing)(`signatures in the corpus in ../shared/corpus`, () => {
  it.effect("AAPL 10-K FY2024: the registrant's signer, then the signer table, dated 2024-11-01", () =>
    Effect.gen(function*() {
      const { signatures, warnings } = extractSignatures(yield* parseCorpusFile("10-K/aapl-10k-fy2024.htm"))
      assert.deepStrictEqual(warnings, [])
      assert.strictEqual(signatures?.signedDate, "2024-11-01")
      assert.deepStrictEqual(signatures?.signers, [
        { name: "Luca Maestri", title: "Senior Vice President, Chief Financial Officer" },
        { name: "Timothy D. Cook", title: "Chief Executive Officer and Director" },
        { name: "Chris Kondo", title: "Senior Director of Corporate Accounting" },
        { name: "Wanda Austin", title: "Director" },
        { name: "Alex Gorsky", title: "Director" },
        { name: "Andrea Jung", title: "Director" },
        { name: "Arthur D. Levinson", title: "Director and Chair of the Board" },
        { name: "Monica Lozano", title: "Director" },
        { name: "Ronald D. Sugar", title: "Director" },
        { name: "Susan L. Wagner", title: "Director" }
      ])
    }))

  it.effect("NVDA 8-K 2026-03-06 (full submission): one signer", () =>
    Effect.gen(function*() {
      const { signatures } = extractSignatures(yield* parseCorpusFile("8-K/nvda-8k-2026-03-06-full-submission.txt"))
      assert.deepStrictEqual(signatures, {
        signedDate: "2026-03-06",
        signers: [{ name: "Rebecca Peters", title: "Vice President, Deputy General Counsel and Assistant Secretary" }]
      })
    }))

  it.effect("AAPL 10-Q Q2 FY2025: the CFO, dated 2025-05-02", () =>
    Effect.gen(function*() {
      const { signatures } = extractSignatures(yield* parseCorpusFile("10-Q/aapl-10q-2025-03-29.htm"))
      assert.deepStrictEqual(signatures, {
        signedDate: "2025-05-02",
        signers: [{ name: "Kevan Parekh", title: "Senior Vice President, Chief Financial Officer" }]
      })
    }))

  it.effect("MMM 8-K 2024-03-08 (full submission): the secretary", () =>
    Effect.gen(function*() {
      const { signatures } = extractSignatures(yield* parseCorpusFile("8-K/mmm-8k-2024-03-08-full-submission.txt"))
      assert.deepStrictEqual(signatures, {
        signedDate: "2024-03-08",
        signers: [{ name: "Michael M. Dai", title: "Vice President, Associate General Counsel & Secretary" }]
      })
    }))
})
