/**
 * Exhibit references from synthetic documents: the index table (with and without column names,
 * split across pages, under a spanning "Incorporated by Reference" label), the submission's
 * exhibit documents, cleaning, de-duplication and order.
 */
import { assert, describe, it } from "@effect/vitest"
import { extractExhibits } from "../src/Exhibits.js"
import { cleanDescription, cleanNumber, compareNumbers } from "../src/internal/exhibits/readExhibits.js"
import { documentOf, exhibitOf as exhibit } from "./support/documents.js"

const publicationId = "0000320193-24-000123"

describe("cleaning", () => {
  it("strips footnote marks from numbers and rejects what is no number", () => {
    assert.strictEqual(cleanNumber("4.1**"), "4.1")
    assert.strictEqual(cleanNumber("10.19*, **"), "10.19")
    assert.strictEqual(cleanNumber("32.1†"), "32.1")
    assert.strictEqual(cleanNumber("Exhibit 99.1"), "99.1")
    assert.strictEqual(cleanNumber("101.INS"), "101.INS")
    assert.strictEqual(cleanNumber("101.ins"), "101.INS")
    assert.strictEqual(cleanNumber("10.1a"), "10.1A")
    assert.strictEqual(cleanNumber("104"), "104")
    assert.strictEqual(cleanNumber("31."), "31")
    assert.strictEqual(cleanNumber("10(a)"), "10(a)")
    assert.strictEqual(cleanNumber("Description"), undefined)
    assert.strictEqual(cleanNumber("8/7/20"), undefined)
  })

  it("drops footnote marks and filed-herewith notes from descriptions", () => {
    assert.strictEqual(cleanDescription("Subsidiaries of the Registrant.*  "), "Subsidiaries of the Registrant.")
    assert.strictEqual(
      cleanDescription("Press release dated May 1, 2024 (furnished herewith)"),
      "Press release dated May 1, 2024"
    )
    assert.strictEqual(cleanDescription("Consent of auditors. Filed herewith."), "Consent of auditors.")
    assert.strictEqual(cleanDescription("Filed herewith"), "")
  })

  it("orders numbers as an index does", () => {
    const numbers = ["101", "10.1", "4.10", "4.2", "3.1", "31.1", "10.1A", "101.SCH"]
    assert.deepStrictEqual([...numbers].sort(compareNumbers), [
      "3.1",
      "4.2",
      "4.10",
      "10.1",
      "10.1A",
      "31.1",
      "101",
      "101.SCH"
    ])
  })
})

describe("exhibit index", () => {
  it("reads a 10-K index under a spanning label, across a page break", () => {
    const head =
      "|  |  | Incorporated by Reference |  |\n| --- | --- | --- | --- |\n| Exhibit Number | Exhibit Description | Form | Filing Date |\n"
    const content =
      `### Item 15. Exhibits\n\n${head}| 3.1 | Restated Articles. | 8-K | 8/7/20 |\n| 4.1\\*\\* | Description of Securities. |  |  |\n\n${head}| 31.1\\*\\* | Certification of CEO. |  |  |\n| 4.1 | Description of Securities (repeated). |  |  |\n\n\\*\\* Filed herewith.\n`
    const references = extractExhibits(documentOf([{ title: "Item 15. Exhibits", item: "15", content }]), publicationId)
    // The document alone carries no exhibit: no reference has a url to serve it.
    assert.deepStrictEqual(references, [
      { number: "3.1", description: "Restated Articles.", url: null },
      { number: "4.1", description: "Description of Securities.", url: null },
      { number: "31.1", description: "Certification of CEO.", url: null }
    ])
  })

  it("reads an index without column names in an exhibits item", () => {
    const content =
      "### Item 9.01 Financial Statements and Exhibits\n\n(d) Exhibits\n\n| 99.1 | Press release dated May 1, 2024 (furnished herewith) |\n| --- | --- |\n| 104 | Cover Page Interactive Data File (embedded within the Inline XBRL document) |\n"
    const references = extractExhibits(
      documentOf([{ title: "Item 9.01", item: "9.01", content }], { form: "8-K" }),
      publicationId
    )
    assert.deepStrictEqual(references.map(({ description, number }) => [number, description]), [
      ["99.1", "Press release dated May 1, 2024"],
      ["104", "Cover Page Interactive Data File (embedded within the Inline XBRL document)"]
    ])
  })

  it("ignores numbered tables outside exhibit sections", () => {
    const content = "### Item 7. MD&A\n\n| 1.5 | Growth |\n| --- | --- |\n| 2.5 | Margin |\n"
    assert.deepStrictEqual(extractExhibits(documentOf([{ title: "Item 7", item: "7", content }]), publicationId), [])
  })
})

describe("submission exhibits", () => {
  it("adds the submission's exhibit documents, preferring the index's description", () => {
    const content =
      "### Item 9.01 Financial Statements and Exhibits\n\n| Exhibit No. | Description |\n| --- | --- |\n| 99.1 | Press release of the Company, dated March 1, 2025 |\n"
    const exhibits = [
      exhibit("99.1", "EX-99.1"),
      exhibit("10.1", "EX-10.1", "#### Exhibit 10.1\n\n#### CREDIT AGREEMENT\n\nThis agreement...\n"),
      exhibit("99.2", "Investor presentation")
    ]
    const references = extractExhibits(
      documentOf([{ title: "Item 9.01", item: "9.01", content }], { exhibits, form: "8-K" }),
      "0001-25-000001"
    )
    assert.deepStrictEqual(references.map(({ description, number, url }) => [number, description, url]), [
      ["10.1", "CREDIT AGREEMENT", "/v1/documents/0001-25-000001?exhibit=10.1"],
      ["99.1", "Press release of the Company, dated March 1, 2025", "/v1/documents/0001-25-000001?exhibit=99.1"],
      ["99.2", "Investor presentation", "/v1/documents/0001-25-000001?exhibit=99.2"]
    ])
  })

  it("gives a url only to the exhibits the submission carries, under the number they are stored with", () => {
    const content = "### Item 15. Exhibits\n\n| Exhibit No. | Description |\n| --- | --- |\n" +
      "| 3.1 | Articles (incorporated by reference to Exhibit 3.1 of Form 8-K filed May 1, 2020) |\n" +
      "| 10.1a | Amended supply agreement |\n| 31.1 | Certification of CEO |\n" +
      "| 104 | Cover Page Interactive Data File (embedded within the Inline XBRL document) |\n"
    const exhibits = [exhibit("10.1a", "EX-10.1A"), exhibit("31.1", "CERTIFICATION")]
    const references = extractExhibits(
      documentOf([{ title: "Item 15", item: "15", content }], { exhibits }),
      "0001-25-2"
    )
    assert.deepStrictEqual(references.map(({ number, url }) => [number, url]), [
      ["3.1", null],
      ["10.1A", "/v1/documents/0001-25-2?exhibit=10.1a"],
      ["31.1", "/v1/documents/0001-25-2?exhibit=31.1"],
      ["104", null]
    ])
  })
})
