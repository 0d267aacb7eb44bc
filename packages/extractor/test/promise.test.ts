/**
 * The Promise door of the extractor: bytes or text in, the same extraction as `Parser.parse` and
 * `Extractor.extract` out; a parsed document given is used as is; parse failures reject with the
 * parser's typed error itself.
 */
import { assert, describe, it } from "@effect/vitest"
import { Parser } from "@filings/filings-parser"
import { Effect } from "effect"
import { submissionHeader } from "../../../test/support/sgmlHeader.js"
import { extractFacts, extractFiling, Extractor } from "../src/index.js"
import { annualReportFy2024 } from "./support/xbrlSnippets.js"

const annualReport = annualReportFy2024

const rejectionOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(() => assert.fail("expected the promise to reject"), (error: unknown) => error)

describe("extractFiling", () => {
  it("resolves with what Parser.parse and Extractor.extract give for the same bytes", async () => {
    const bytes = new TextEncoder().encode(annualReport)
    const viaPromise = await extractFiling(bytes, { publicationId: "0000000001-24-000001" })
    const viaEffect = await Effect.runPromise(
      Effect.flatMap(
        Parser.parse({ bytes }),
        (parsed) => Extractor.extract({ bytes, parsed, publicationId: "0000000001-24-000001" })
      )
    )
    assert.deepStrictEqual(viaPromise, viaEffect)
    assert.strictEqual(viaPromise.metrics.revenue?.value, 391_035_000_000)
    assert.strictEqual(viaPromise.metrics.revenue?.period, "FY 2024")
    assert.strictEqual(viaPromise.metrics.revenue?.yoyChange, (391_035 - 383_285) / 383_285)
    assert.strictEqual(viaPromise.metrics.net_income?.value, 93_736_000_000)
  })

  it("extracts a full submission, split once for both steps, as the Effect API does", async () => {
    const accession = "0000000001-24-000007"
    const submission = [
      ...submissionHeader({
        accession,
        form: "10-K",
        filedAsOf: "2024-11-01",
        periodOfReport: "2024-09-28",
        documentCount: 2,
        companyName: "Example Corp",
        cik: "0000000001"
      }),
      "<DOCUMENT>\n<TYPE>10-K\n<SEQUENCE>1\n<FILENAME>report.htm\n<TEXT>",
      annualReport,
      "</TEXT>\n</DOCUMENT>",
      "<DOCUMENT>\n<TYPE>EX-99.1\n<SEQUENCE>2\n<FILENAME>release.htm\n<DESCRIPTION>PRESS RELEASE\n<TEXT>",
      "<html><body><p>Example Corp reports its fiscal 2024 results.</p></body></html>",
      "</TEXT>\n</DOCUMENT>",
      "</SEC-DOCUMENT>"
    ].join("\n")
    const bytes = new TextEncoder().encode(submission)
    const viaPromise = await extractFiling(bytes)
    const viaEffect = await Effect.runPromise(
      Effect.flatMap(
        Parser.parse({ bytes }),
        (parsed) => Extractor.extract({ bytes, parsed, publicationId: accession })
      )
    )
    assert.deepStrictEqual(viaPromise, viaEffect)
    assert.strictEqual(viaPromise.metrics.revenue?.value, 391_035_000_000)
  })

  it("serves exhibits under the id given, else the header's accession number, else gives them no url", async () => {
    const accession = "0000000001-24-000009"
    const header = submissionHeader({
      accession,
      form: "8-K",
      filedAsOf: "2024-11-05",
      periodOfReport: "2024-11-05",
      documentCount: 2,
      companyName: "Example Corp",
      cik: "0000000001"
    })
    // The same submission with no accession number anywhere in its header.
    const anonymousHeader = header
      .filter((line) => !line.startsWith("ACCESSION NUMBER:"))
      .map((line) => line.replace(/^(<SEC-(?:DOCUMENT|HEADER)>).*/, "$1"))
    const submissionWith = (headerLines: ReadonlyArray<string>) =>
      [
        ...headerLines,
        "<DOCUMENT>\n<TYPE>8-K\n<SEQUENCE>1\n<FILENAME>report.htm\n<TEXT>",
        "<html><body><p>FORM 8-K</p><p>Item 9.01 Financial Statements and Exhibits</p><p>(d) Exhibits</p>",
        "<table><tr><td>Exhibit No.</td><td>Description</td></tr>",
        "<tr><td>99.1</td><td>Press release dated November 5, 2024</td></tr></table></body></html>",
        "</TEXT>\n</DOCUMENT>",
        "<DOCUMENT>\n<TYPE>EX-99.1\n<SEQUENCE>2\n<FILENAME>release.htm\n<DESCRIPTION>PRESS RELEASE\n<TEXT>",
        "<html><body><p>Example Corp reports its results.</p></body></html>",
        "</TEXT>\n</DOCUMENT>",
        "</SEC-DOCUMENT>"
      ].join("\n")
    const urls = async (input: string, publicationId?: string) =>
      (await extractFiling(input, publicationId === undefined ? {} : { publicationId })).exhibits.map((exhibit) => [
        exhibit.number,
        exhibit.url
      ])

    assert.deepStrictEqual(await urls(submissionWith(header)), [["99.1", `/v1/documents/${accession}?exhibit=99.1`]])
    assert.deepStrictEqual(await urls(submissionWith(anonymousHeader), "0000000001-24-000010"), [
      ["99.1", "/v1/documents/0000000001-24-000010?exhibit=99.1"]
    ])
    assert.deepStrictEqual(await urls(submissionWith(anonymousHeader)), [["99.1", null]])
  })

  it("takes the filing as text", async () => {
    const { metrics } = await extractFiling(annualReport)
    assert.strictEqual(metrics.revenue?.value, 391_035_000_000)
  })

  it("uses the parsed document it is given instead of parsing the bytes again", async () => {
    const parsed = await Effect.runPromise(Parser.parse({ bytes: new TextEncoder().encode(annualReport) }))
    // Empty bytes cannot be parsed: the extraction can only succeed on the document given.
    const extraction = await extractFiling(new Uint8Array(), { parsed })
    assert.deepStrictEqual(extraction.metrics, {})
    assert.isArray(extraction.warnings)
  })

  it("rejects with the parser's UnreadableDocument itself when the filing cannot be read", async () => {
    const error = await rejectionOf(extractFiling(new Uint8Array([0x00, 0x01, 0x02, 0x03])))
    assert.instanceOf(error, Parser.UnreadableDocument)
    assert.isTrue(error instanceof Parser.UnreadableDocument && error.reason === "binary")
  })
})

describe("extractFacts", () => {
  it("resolves with what Extractor.facts gives for the same text or bytes", async () => {
    const viaPromise = await extractFacts(annualReport)
    const viaEffect = await Effect.runPromise(Extractor.facts({ bytes: new TextEncoder().encode(annualReport) }))
    assert.deepStrictEqual(viaPromise, viaEffect)
    const revenue = viaPromise.facts.find((fact) => fact.concept === "us-gaap:Revenues")
    assert.strictEqual(revenue?.value, 391_035_000_000)
    assert.strictEqual(revenue?.unit, "USD")
  })
})
