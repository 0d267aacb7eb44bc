/**
 * The Promise door of the parser: the same document as `Parser.parse`, text given as a string kept
 * as written whatever charset it declares, and rejections that are the typed errors themselves.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { parseFiling, Parser, SgmlSubmission, toParseInput } from "../src/index.js"

const report = [
  "<html><head><meta charset=\"iso-8859-2\"><title>Example Widgets 10-K</title></head><body>",
  "<p style=\"font-weight:bold\">Item 1. Business</p>",
  "<p>Example Widgets\u2019 products are sold in 40 countries \u2014 mostly to distributors.</p>",
  "<p style=\"font-weight:bold\">Item 7. Management\u2019s Discussion and Analysis</p>",
  "<p>Revenue grew 12% to $1,234 million.</p>",
  "</body></html>"
].join("\n")

/** The error a promise rejects with. */
const rejectionOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(() => assert.fail("expected the promise to reject"), (error: unknown) => error)

describe("parseFiling", () => {
  it("resolves with what Parser.parse gives for the same bytes", async () => {
    const bytes = new TextEncoder().encode(report.replace("iso-8859-2", "utf-8"))
    const viaPromise = await parseFiling(bytes, { form: "10-K" })
    const viaEffect = await Effect.runPromise(Parser.parse({ bytes, form: "10-K" }))
    assert.deepStrictEqual(viaPromise, viaEffect)
    assert.strictEqual(viaPromise.form, "10-K")
    assert.deepStrictEqual(viaPromise.sections.map((section) => section.item), ["1", "7"])
  })

  it("reads a string as the text it is, though the document declares another charset", async () => {
    const parsed = await parseFiling(report)
    assert.include(parsed.markdown, "Example Widgets\u2019 products are sold in 40 countries \u2014 mostly")
    assert.notInclude(parsed.markdown, "\u00e2\u20ac")
    assert.strictEqual(parsed.title, "Example Widgets 10-K")
    assert.deepStrictEqual(parsed.warnings.filter((warning) => /charset|UTF-8/i.test(warning)), [])
  })

  it("keeps a string's declared content type and says its charset is UTF-8", () => {
    assert.strictEqual(toParseInput("<p>x</p>").contentType, "text/html; charset=utf-8")
    assert.strictEqual(toParseInput("plain text").contentType, "text/plain; charset=utf-8")
    assert.strictEqual(
      toParseInput("{}", { contentType: "application/json; charset=iso-8859-1" }).contentType,
      "application/json; charset=utf-8"
    )
    const bytes = new Uint8Array([1, 2, 3])
    assert.strictEqual(toParseInput(bytes, { fileName: "a.htm" }).bytes, bytes)
    assert.isUndefined(toParseInput(bytes).contentType)
  })

  it("rejects with UnreadableDocument itself for empty input", async () => {
    const error = await rejectionOf(parseFiling(new Uint8Array()))
    assert.instanceOf(error, Parser.UnreadableDocument)
    assert.isTrue(error instanceof Parser.UnreadableDocument && error.reason === "empty")
    assert.strictEqual((error as Parser.UnreadableDocument)._tag, "UnreadableDocument")
  })

  it("rejects with MalformedSubmission itself for a submission without documents", async () => {
    const header = [
      "<SEC-DOCUMENT>0000999999-24-000001.txt : 20240301",
      "<SEC-HEADER>0000999999-24-000001.hdr.sgml : 20240301",
      "ACCESSION NUMBER:\t\t0000999999-24-000001",
      "CONFORMED SUBMISSION TYPE:\t10-K",
      "</SEC-HEADER>",
      "</SEC-DOCUMENT>"
    ].join("\n")
    const error = await rejectionOf(parseFiling(header))
    assert.instanceOf(error, SgmlSubmission.MalformedSubmission)
    assert.isTrue(error instanceof SgmlSubmission.MalformedSubmission && error.reason === "no-documents")
  })

  it("rejects with the signal's reason when the parse is aborted", async () => {
    const controller = new AbortController()
    const reason = new Error("the user went away")
    controller.abort(reason)
    assert.strictEqual(await rejectionOf(parseFiling(report, { signal: controller.signal })), reason)
  })
})
