/**
 * Signatures from synthetic signature pages: a 10-K's signer table, an 8-K's `By:` block, the
 * `SIGNATURES` heading outside a section, dates in several spellings.
 */
import { assert, describe, it } from "@effect/vitest"
import { Parser } from "@filings/filings-parser"
import { Effect } from "effect"
import { findDate } from "../src/internal/dates.js"
import { extractSignatures } from "../src/Signatures.js"
import { documentOf } from "./support/documents.js"

describe("dates", () => {
  it("reads the spellings filings use", () => {
    assert.strictEqual(findDate("Date: November 1, 2024"), "2024-11-01")
    assert.strictEqual(findDate("Dated: Nov. 1, 2024"), "2024-11-01")
    assert.strictEqual(findDate("Sept. 30, 2023"), "2023-09-30")
    assert.strictEqual(findDate("this 5th day of March, 2019"), "2019-03-05")
    assert.strictEqual(findDate("1 November 2024"), "2024-11-01")
    assert.strictEqual(findDate("11/01/2024"), "2024-11-01")
    assert.strictEqual(findDate("2024-11-01"), "2024-11-01")
    assert.strictEqual(findDate("February 30, 2024"), undefined)
    assert.strictEqual(findDate("Director"), undefined)
  })
})

describe("signature pages", () => {
  it("reads a 10-K signer table, skipping the printed names and the capacity notes", () => {
    const content = `#### SIGNATURES

Pursuant to the requirements of the Securities Exchange Act of 1934, this report has been signed below.

| Name | Title | Date |
| --- | --- | --- |
| /s/ Jane Q. Doe | Chief Executive Officer and Director (Principal Executive Officer) | February 14, 2025 |
| JANE Q. DOE |  |  |
| /s/ John Roe | Chief Financial Officer (Principal Financial and Accounting Officer) | February 14, 2025 |
| JOHN ROE |  |  |
| /S/ Ann Smith | Director | February 14, 2025 |
`
    const { signatures, warnings } = extractSignatures(documentOf([{ title: "Signatures", content }]))
    assert.deepStrictEqual(signatures, {
      signedDate: "2025-02-14",
      signers: [
        { name: "Jane Q. Doe", title: "Chief Executive Officer and Director" },
        { name: "John Roe", title: "Chief Financial Officer" },
        { name: "Ann Smith", title: "Director" }
      ]
    })
    assert.deepStrictEqual(warnings, [])
  })

  it("reads an 8-K By: block with Name: and Title: labels", () => {
    const content = `#### SIGNATURE

Pursuant to the requirements of the Securities Exchange Act of 1934, the registrant has duly caused this report to be signed.

|  | Example Corp. |
| --- | --- |
| Date: March 6, 2026 | By: /s/ Rebecca Peters |
|  | Name: Rebecca Peters |
|  | Title: Vice President and Secretary |
`
    const { signatures } = extractSignatures(documentOf([{ title: "Signatures", content }], { form: "8-K" }))
    assert.deepStrictEqual(signatures, {
      signedDate: "2026-03-06",
      signers: [{ name: "Rebecca Peters", title: "Vice President and Secretary" }]
    })
  })

  it("takes the printed name when /s/ stands alone, and one entry per person", () => {
    const content = `## SIGNATURES

By: /s/
Mary Major
President

Dated: 12/31/2020

/s/ Mary Major
President and Director
`
    const { signatures } = extractSignatures(documentOf([{ title: "Signatures", content }]))
    assert.deepStrictEqual(signatures, {
      signedDate: "2020-12-31",
      signers: [{ name: "Mary Major", title: "President" }]
    })
  })

  it("separates signature, printed name and title written in one cell", () => {
    const content = `#### SIGNATURES

| Signature | Title | Date |
| --- | --- | --- |
| /s/ JONAH SHACKNAI Jonah Shacknai | Chairman of the Board | September 28, 1999 |
| /s/ DAVID M. WEHNER | David M. Wehner Chief Financial Officer |  |
`
    const { signatures } = extractSignatures(documentOf([{ title: "Signatures", content }]))
    assert.deepStrictEqual(signatures?.signers, [
      { name: "Jonah Shacknai", title: "Chairman of the Board" },
      { name: "DAVID M. WEHNER", title: "Chief Financial Officer" }
    ])
  })

  it("stops at the auditor's report after the page and takes no name for a title", () => {
    const content = `#### SIGNATURES

| By: | /s/ Frank Roe |
| --- | --- |
|  | Frank Roe |
| Marianne Brown | Director |

Date: February 26, 2024

#### REPORT OF INDEPENDENT REGISTERED PUBLIC ACCOUNTING FIRM

/s/ Audit Firm LLP

New York, New York
`
    const { signatures } = extractSignatures(documentOf([{ title: "Signatures", content }]))
    assert.deepStrictEqual(signatures, { signedDate: "2024-02-26", signers: [{ name: "Frank Roe", title: "" }] })
  })

  it("finds a SIGNATURES heading outside a Signatures section", () => {
    const content =
      "### Item 9.01 Exhibits\n\nNone.\n\n#### SIGNATURES\n\nBy: /s/ Lee Chan\nLee Chan\nTreasurer\n\nJanuary 2, 2019\n"
    const { signatures } = extractSignatures(documentOf([{ title: "Item 9.01 Exhibits", content }], { form: "8-K" }))
    assert.deepStrictEqual(signatures, {
      signedDate: "2019-01-02",
      signers: [{ name: "Lee Chan", title: "Treasurer" }]
    })
  })

  it("says what is missing instead of inventing", () => {
    const none = extractSignatures(
      documentOf([{ title: "Item 1. Business", content: "### Item 1. Business\n\nText.\n" }])
    )
    assert.isUndefined(none.signatures)
    assert.deepStrictEqual(none.warnings, ["no signature page found"])
    const undated = extractSignatures(
      documentOf([{ title: "Signatures", content: "#### SIGNATURES\n\n/s/ A. Person\nDirector\n" }])
    )
    assert.deepStrictEqual(undated.signatures, { signers: [{ name: "A. Person", title: "Director" }] })
    assert.deepStrictEqual(undated.warnings, ["signature page has no date"])
  })

  it.effect("reads the signature page of parsed HTML", () =>
    Effect.gen(function*() {
      const html = `<html><body>
<p>FORM 8-K</p>
<p><b>Item 9.01. Financial Statements and Exhibits.</b></p>
<p>None.</p>
<p style="text-align:center"><b>SIGNATURE</b></p>
<p>Pursuant to the requirements of the Securities Exchange Act of 1934, the registrant has duly caused this report to be signed on its behalf by the undersigned hereunto duly authorized.</p>
<table>
<tr><td></td><td>Example Corp.</td></tr>
<tr><td>Date: April 15, 2025</td><td>By: /s/ Pat Lee</td></tr>
<tr><td></td><td>Pat Lee</td></tr>
<tr><td></td><td>Chief Financial Officer</td></tr>
</table>
</body></html>`
      const document = yield* Parser.parse({ bytes: new TextEncoder().encode(html), fileName: "x.htm", form: "8-K" })
      const { signatures } = extractSignatures(document)
      assert.deepStrictEqual(signatures, {
        signedDate: "2025-04-15",
        signers: [{ name: "Pat Lee", title: "Chief Financial Officer" }]
      })
    }))
})
