/**
 * The tables of a filing's financial exhibits (EX-99.x, EX-13) are read beside the body's, once: an
 * exhibit that is itself the body (the submission's primary document) is not read again.
 */
import { assert, describe, it } from "@effect/vitest"
import { Parser } from "@filings/filings-parser"
import { Effect } from "effect"
import { submissionHeader } from "../../../test/support/sgmlHeader.js"
import { extractTables } from "../src/Tables.js"

const release = [
  "<html><body><p>Example Corp reports its third quarter results.</p>",
  "<table><tr><td></td><td>2024</td><td>2023</td></tr>",
  "<tr><td>Net sales</td><td>$1,250</td><td>$1,100</td></tr>",
  "<tr><td>Net income</td><td>$210</td><td>$190</td></tr></table></body></html>"
].join("")

const submissionOf = (
  documents: ReadonlyArray<{ readonly type: string; readonly file: string; readonly body: string }>
) =>
  new TextEncoder().encode([
    ...submissionHeader({
      accession: "0000000001-24-000009",
      form: "8-K",
      filedAsOf: "2024-11-05",
      periodOfReport: "2024-11-05",
      documentCount: documents.length,
      companyName: "Example Corp",
      cik: "0000000001"
    }),
    ...documents.flatMap((document, index) => [
      `<DOCUMENT>\n<TYPE>${document.type}\n<SEQUENCE>${index + 1}\n<FILENAME>${document.file}\n<TEXT>`,
      document.body,
      "</TEXT>\n</DOCUMENT>"
    ]),
    "</SEC-DOCUMENT>"
  ].join("\n"))

const netSalesTables = (bytes: Uint8Array) =>
  Effect.runPromise(Parser.parse({ bytes })).then((parsed) =>
    extractTables(parsed).tables.filter((table) => table.rows.some((row) => row[0] === "Net sales"))
  )

describe("tables of financial exhibits", () => {
  it("reads an 8-K's release exhibit beside its body", async () => {
    const tables = await netSalesTables(submissionOf([
      { type: "8-K", file: "report.htm", body: "<html><body><p>Item 2.02 Results.</p></body></html>" },
      { type: "EX-99.1", file: "release.htm", body: release }
    ]))
    assert.deepStrictEqual(tables.map((table) => table.section), ["Exhibit 99.1"])
  })

  it("reads a release that is the submission's primary document once, as the body", async () => {
    const tables = await netSalesTables(submissionOf([{ type: "EX-99.1", file: "release.htm", body: release }]))
    assert.strictEqual(tables.length, 1)
    assert.notStrictEqual(tables[0]?.section, "Exhibit 99.1")
  })
})
