/**
 * Fiscal labels for values that carry only an end date and a length: the year a fiscal year ends
 * in names it; a quarter counts from the fiscal year end, else from a year-to-date column, else it
 * is the calendar quarter and says so.
 */
import { assert, describe, it } from "@effect/vitest"
import { fiscalLabel, monthsBetween, yearBefore } from "../src/internal/fiscalPeriods.js"

describe("fiscal labels", () => {
  it("names a year by the calendar year it ends in", () => {
    assert.deepStrictEqual(fiscalLabel({ periodEnd: "2024-09-28", months: 12 }), { label: "FY 2024", calendar: false })
  })

  it("counts quarters from the fiscal year end of the header, 52/53-week drift included", () => {
    // A September year end: the quarter ending April 1, 2000 is the second of fiscal 2000.
    assert.strictEqual(fiscalLabel({ periodEnd: "2000-04-01", months: 3, fiscalYearEnd: "0930" })?.label, "Q2 2000")
    // A year ending on the Friday nearest December 1: March 3, 2023 closes Q1 of fiscal 2023.
    assert.strictEqual(fiscalLabel({ periodEnd: "2023-03-03", months: 3, fiscalYearEnd: "1202" })?.label, "Q1 2023")
    // The fourth quarter may end a few days after the nominal year end.
    assert.strictEqual(fiscalLabel({ periodEnd: "2024-09-30", months: 3, fiscalYearEnd: "0928" })?.label, "Q4 2024")
    // A quarter ending in the calendar year before its fiscal year ends.
    assert.strictEqual(fiscalLabel({ periodEnd: "2024-11-02", months: 3, fiscalYearEnd: "0201" })?.label, "Q3 2025")
  })

  it("falls back to a year-to-date column, then to the calendar quarter", () => {
    assert.deepStrictEqual(
      fiscalLabel({ periodEnd: "2024-11-02", months: 3, yearToDateMonths: 9 }),
      { label: "Q3 2025", calendar: false }
    )
    assert.deepStrictEqual(fiscalLabel({ periodEnd: "2024-11-02", months: 3 }), { label: "Q4 2024", calendar: true })
    assert.strictEqual(fiscalLabel({ periodEnd: "2024-06-30", months: 3, fiscalYearEnd: "garbage" })?.label, "Q2 2024")
  })

  it("gives no label to half years, nine months or unreadable dates", () => {
    assert.isUndefined(fiscalLabel({ periodEnd: "2024-06-30", months: 6 }))
    assert.isUndefined(fiscalLabel({ periodEnd: "2024-09-30", months: 9, fiscalYearEnd: "1231" }))
    assert.isUndefined(fiscalLabel({ periodEnd: "June 30", months: 3 }))
  })

  it("measures months and year-earlier periods in days", () => {
    assert.strictEqual(monthsBetween("2022-12-02", "2023-03-03"), 3)
    assert.isTrue(yearBefore("2023-10-28", "2024-11-02"))
    assert.isFalse(yearBefore("2024-08-03", "2024-11-02"))
  })
})
