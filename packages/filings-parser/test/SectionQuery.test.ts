import { assert, describe, it } from "@effect/vitest"
import { SectionQuery } from "../src/index.js"

describe("SectionQuery", () => {
  it("names item keys by number, label, title or alias, per form", () => {
    assert.deepStrictEqual(SectionQuery.itemKeysFor("Risk Factors", "10-K"), ["1A"])
    assert.deepStrictEqual(SectionQuery.itemKeysFor("item 1a", "10-K"), ["1A"])
    assert.deepStrictEqual(SectionQuery.itemKeysFor("1A", "10-Q"), ["part2item1a"])
    assert.deepStrictEqual(SectionQuery.itemKeysFor("MD&A", "10-K"), ["7"])
    assert.deepStrictEqual(SectionQuery.itemKeysFor("MD&A", "10-Q"), ["part1item2"])
    assert.deepStrictEqual(SectionQuery.itemKeysFor("Item 2.02", "8-K"), ["2.02"])
    assert.deepStrictEqual(SectionQuery.itemKeysFor("Risk Factors", "S-1"), [])
    assert.deepStrictEqual(SectionQuery.itemKeysFor("   ", "10-K"), [])
  })

  it("a section answers to its items and to its own whole title", () => {
    const riskFactors = { title: "Item 1A. Risk Factors", item: "1A" }
    assert.isTrue(SectionQuery.matches("risk factors", "10-K", riskFactors))
    assert.isFalse(SectionQuery.matches("Business", "10-K", riskFactors))
    const named = { title: "Use of Proceeds" }
    assert.isTrue(SectionQuery.matches("use of proceeds", "S-1", named))
    assert.isFalse(SectionQuery.matches("proceeds", "S-1", named))
    assert.isTrue(SectionQuery.hasNamedSections("DEF 14A"))
    assert.isFalse(SectionQuery.hasNamedSections("10-Q"))
  })

  it("reads 8-K item numbers from a submission header's ITEM INFORMATION titles", () => {
    assert.strictEqual(SectionQuery.eightKItemForTitle("Results of Operations and Financial Condition"), "2.02")
    assert.strictEqual(
      SectionQuery.eightKItemForTitle(
        "Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers: Compensatory Arrangements of Certain Officers"
      ),
      "5.02"
    )
    assert.strictEqual(SectionQuery.eightKItemForTitle("Financial Statements and Exhibits"), "9.01")
    assert.strictEqual(SectionQuery.eightKItemForTitle("Regulation FD Disclosure"), "7.01")
    assert.isUndefined(SectionQuery.eightKItemForTitle("Something Else Entirely"))
  })
})
