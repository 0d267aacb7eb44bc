import { assert, describe, it } from "@effect/vitest"
import { Categories } from "@filings/feed-summarizer"

describe("Categories.categorize", () => {
  it("takes what an 8-K's items say", () => {
    assert.deepStrictEqual(Categories.categorize({ docType: "8-K", items: ["2.02", "9.01"], text: "" }), ["Earnings"])
    assert.deepStrictEqual(Categories.categorize({ docType: "8-K", items: ["5.02"], text: "" }), ["Leadership Changes"])
    assert.deepStrictEqual(Categories.categorize({ docType: "8-K", items: ["2.01"], text: "" }), [
      "Mergers & Acquisitions"
    ])
  })

  it("reads a material agreement's kind from its text", () => {
    const merger =
      "Acme entered into an Agreement and Plan of Merger under which Globex will acquire Acme; the merger agreement provides for a tender offer."
    assert.deepStrictEqual(Categories.categorize({ docType: "8-K", items: ["1.01"], text: merger }), [
      "Mergers & Acquisitions"
    ])
    const loan =
      "Acme entered into a credit agreement providing a $500 million revolving credit facility and a term loan."
    assert.deepStrictEqual(Categories.categorize({ docType: "8-K", items: ["1.01"], text: loan }), ["Financial"])
    assert.deepStrictEqual(
      Categories.categorize({ docType: "8-K", items: ["1.01"], text: "An agreement was signed." }),
      ["Financial"]
    )
  })

  it("takes one cue in a headline as enough, where the text needs more than a passing mention", () => {
    const text = "Acmn Corp. raised its quarterly dividend by 10% to $0.55 a share."
    assert.deepStrictEqual(Categories.categorize({ docType: "NEWS", text }), [])
    assert.deepStrictEqual(
      Categories.categorize({ docType: "NEWS", text, headline: "Acmn raises its dividend" }),
      ["Financial"]
    )
  })

  it("reads other events from the text, and results from periodic reports", () => {
    const approval = "The FDA granted marketing authorization for the device."
    assert.deepStrictEqual(Categories.categorize({ docType: "8-K", items: ["8.01"], text: approval }), ["Regulatory"])
    assert.deepStrictEqual(Categories.categorize({ docType: "10-Q", text: "" }), ["Earnings"])
    // One passing mention of an old acquisition does not make a results call M&A news.
    const call = "Revenue was $2 billion. The acquisition of Initech last year helped."
    assert.notInclude(Categories.categorize({ docType: "EARNINGS_CALL", text: call }), "Mergers & Acquisitions")
  })
})
