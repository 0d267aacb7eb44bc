/**
 * total_debt on small synthetic filings, one per way filers tag their debt: a stated total, a
 * current and noncurrent pair of either family, the long-term column alone, instrument lines,
 * debt with finance leases, related-party notes, and what never counts.
 */
import { assert, describe, it } from "@effect/vitest"
import { readInlineFacts } from "../src/internal/xbrl/inlineFacts.js"
import { type Selection, selectMetrics } from "../src/internal/xbrl/select.js"
import { annualContexts, inlineDocument, nonFraction } from "./support/xbrlSnippets.js"

const select = (
  ...facts: ReadonlyArray<readonly [string, string] | readonly [string, string, Record<string, string>]>
) =>
  selectMetrics(readInlineFacts(inlineDocument({
    periodEnd: "2024-09-28",
    fiscalYear: "2024",
    fiscalPeriod: "FY",
    contexts: annualContexts,
    body: facts.map(([concept, text, attributes]) => nonFraction(concept, "i24", text, attributes)).join("")
  })))

const debt = (selection: Selection) => {
  const metric = selection.metrics.total_debt
  return metric === undefined ? undefined : { value: metric.value / 1e6, source: metric.source }
}
const debtWarnings = (selection: Selection) => selection.warnings.filter((warning) => warning.startsWith("total_debt"))

describe("total_debt", () => {
  it("a stated LongTermDebt that equals the current and noncurrent lines is the value", () => {
    const selection = select(
      ["us-gaap:LongTermDebt", "96,662"],
      ["us-gaap:LongTermDebtCurrent", "10,912"],
      ["us-gaap:LongTermDebtNoncurrent", "85,750"]
    )
    assert.deepStrictEqual(debt(selection), { value: 96_662, source: "us-gaap:LongTermDebt" })
    assert.deepStrictEqual(debtWarnings(selection), [])
  })

  it("the current and noncurrent pair alone is summed", () => {
    const selection = select(["us-gaap:LongTermDebtCurrent", "10"], ["us-gaap:LongTermDebtNoncurrent", "90"])
    assert.deepStrictEqual(debt(selection), { value: 100, source: "derived" })
  })

  it("LongTermDebt that is only the long-term column gets the current portion added", () => {
    const selection = select(
      ["us-gaap:LongTermDebt", "90"],
      ["us-gaap:LongTermDebtCurrent", "10"],
      ["us-gaap:LongTermDebtNoncurrent", "90"]
    )
    assert.deepStrictEqual(debt(selection), { value: 100, source: "derived" })
    assert.strictEqual(debtWarnings(selection).length, 1)
  })

  it("LongTermDebt on the balance sheet's noncurrent line, beside a current portion, is that line", () => {
    const selection = select(["us-gaap:LongTermDebt", "42"], ["us-gaap:LongTermDebtCurrent", "13"])
    assert.deepStrictEqual(debt(selection), { value: 55, source: "derived" })
    assert.strictEqual(debtWarnings(selection).length, 1)
  })

  it("the debt-and-finance-lease pair is read when the debt pair is absent", () => {
    const selection = select(
      ["us-gaap:LongTermDebtAndCapitalLeaseObligationsCurrent", "12"],
      ["us-gaap:LongTermDebtAndCapitalLeaseObligations", "88"],
      ["us-gaap:FinanceLeaseLiabilityCurrent", "2"],
      ["us-gaap:FinanceLeaseLiabilityNoncurrent", "8"]
    )
    // Finance leases are already inside both lines: not added again.
    assert.deepStrictEqual(debt(selection), { value: 100, source: "derived" })
  })

  it("a noncurrent line with finance leases gets the current finance leases beside the current notes", () => {
    const selection = select(
      ["us-gaap:LongTermDebtAndCapitalLeaseObligations", "13,253"],
      ["us-gaap:LongTermDebtCurrent", "1,000"],
      ["us-gaap:FinanceLeaseLiabilityCurrent", "363"],
      ["us-gaap:LongTermDebtAndCapitalLeaseObligationsIncludingCurrentMaturities", "14,746"],
      ["us-gaap:DebtInstrumentUnamortizedDiscountPremiumAndDebtIssuanceCostsNet", "130"],
      ["us-gaap:LongTermDebt", "14,862"]
    )
    // The note's total before the discount confirms the carried lines; LongTermDebt (a maturity total) does not.
    assert.deepStrictEqual(debt(selection), { value: 14_616, source: "derived" })
    assert.deepStrictEqual(debtWarnings(selection), [])
  })

  it("finance leases do not count when the filer's debt lines leave them out", () => {
    const selection = select(
      ["us-gaap:LongTermDebtCurrent", "10"],
      ["us-gaap:LongTermDebtNoncurrent", "90"],
      ["us-gaap:FinanceLeaseLiabilityCurrent", "1"],
      ["us-gaap:FinanceLeaseLiabilityNoncurrent", "7"],
      ["us-gaap:OperatingLeaseLiability", "50"]
    )
    assert.deepStrictEqual(debt(selection), { value: 100, source: "derived" })
  })

  it("instrument lines (notes, convertible notes, loans, lines of credit) are summed", () => {
    const selection = select(
      ["us-gaap:NotesPayableCurrent", "5"],
      ["us-gaap:LongTermNotesPayable", "40"],
      ["us-gaap:ConvertibleLongTermNotesPayable", "30"],
      ["us-gaap:LongTermLoansPayable", "20"],
      ["us-gaap:LongTermLineOfCredit", "5"]
    )
    assert.deepStrictEqual(debt(selection), { value: 100, source: "derived" })
  })

  it("an instrument line that is the subtotal of the others is counted once", () => {
    const selection = select(
      ["us-gaap:LongTermNotesPayable", "70"],
      ["us-gaap:SeniorLongTermNotes", "40"],
      ["us-gaap:ConvertibleLongTermNotesPayable", "30"]
    )
    assert.deepStrictEqual(debt(selection), { value: 70, source: "us-gaap:LongTermNotesPayable" })
  })

  it("the current portion tagged only as DebtCurrent counts without its commercial paper and short-term borrowings", () => {
    const selection = select(
      ["us-gaap:DebtCurrent", "25"],
      ["us-gaap:CommercialPaper", "10"],
      ["us-gaap:ShortTermBorrowings", "5"],
      ["us-gaap:LongTermDebtNoncurrent", "90"]
    )
    assert.deepStrictEqual(debt(selection), { value: 100, source: "derived" })
  })

  it("commercial paper and short-term borrowings alone are no term debt", () => {
    const selection = select(["us-gaap:CommercialPaper", "10"], ["us-gaap:ShortTermBorrowings", "5"])
    assert.isUndefined(debt(selection))
  })

  it("notes payable to related parties on a line of their own are added to the debt", () => {
    const selection = select(["us-gaap:LongTermDebt", "60,698"], [
      "us-gaap:NotesPayableRelatedPartiesNoncurrent",
      "27,040"
    ])
    assert.deepStrictEqual(debt(selection), { value: 87_738, source: "derived" })
  })

  it("notes payable to related parties already inside the stated total are not counted twice", () => {
    const selection = select(
      ["us-gaap:LongTermDebt", "100"],
      ["us-gaap:LongTermDebtCurrent", "10"],
      ["us-gaap:LongTermDebtNoncurrent", "60"],
      ["us-gaap:NotesPayableRelatedPartiesNoncurrent", "30"]
    )
    assert.deepStrictEqual(debt(selection), { value: 100, source: "us-gaap:LongTermDebt" })
  })

  it("a stated total rounded coarser than the lines confirms them; the lines are the value", () => {
    const selection = select(
      ["us-gaap:LongTermDebt", "105.3", { scale: "9", decimals: "-8" }],
      ["us-gaap:LongTermDebtCurrent", "7,216"],
      ["us-gaap:LongTermDebtNoncurrent", "98,071"]
    )
    assert.deepStrictEqual(debt(selection), { value: 105_287, source: "derived" })
  })

  it("a stated total and lines that disagree give the larger, with a warning", () => {
    const selection = select(
      ["us-gaap:LongTermDebt", "120"],
      ["us-gaap:LongTermDebtCurrent", "10"],
      ["us-gaap:LongTermDebtNoncurrent", "90"]
    )
    assert.deepStrictEqual(debt(selection), { value: 120, source: "us-gaap:LongTermDebt" })
    assert.strictEqual(debtWarnings(selection).length, 1)
  })

  it("the change against the year before reads the prior balance sheet the same way", () => {
    const html = inlineDocument({
      periodEnd: "2024-09-28",
      fiscalYear: "2024",
      fiscalPeriod: "FY",
      contexts: annualContexts,
      body: nonFraction("us-gaap:LongTermDebtCurrent", "i24", "10") +
        nonFraction("us-gaap:LongTermDebtNoncurrent", "i24", "90") +
        nonFraction("us-gaap:LongTermDebt", "i23", "60") +
        nonFraction("us-gaap:LongTermDebtCurrent", "i23", "20")
    })
    const metric = selectMetrics(readInlineFacts(html)).metrics.total_debt
    assert.strictEqual(metric?.value, 100_000_000)
    assert.strictEqual(metric?.yoyChange, (100 - 80) / 80)
    assert.strictEqual(metric?.period, "FY 2024")
    assert.strictEqual(metric?.asOf, "2024-09-28")
  })
})
