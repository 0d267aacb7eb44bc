import { assert, describe, it } from "@effect/vitest"
import { Blocks } from "@filings/filings-parser"
import * as TableReading from "../src/chat/TableReading.js"
import { headingBlock } from "./support/blocks.js"

const style = Blocks.plainStyle
const caption = (text: string): Blocks.Block => ({
  kind: "paragraph",
  page: 4,
  text,
  inlines: [{ kind: "text", text }],
  style
})
const table = (rows: ReadonlyArray<ReadonlyArray<string>>, headerRows: number): Blocks.TableBlock => ({
  kind: "table",
  page: 4,
  rows,
  headerRows
})

const statement = table([
  ["", "Three Months Ended", "", "Nine Months Ended", ""],
  ["", "July 1, 2023", "June 25, 2022", "July 1, 2023", "June 25, 2022"],
  ["Total net sales", "$81,797", "$82,959", "$293,787", "$304,182"],
  ["Research and development", "(7,442)", "(6,797)", "(22,608)", "(19,490)"],
  ["Diluted earnings per share", "$1.26", "$1.20", "$4.44", "$4.46"]
], 2)

const annual = table([
  ["", "2022", "2023"],
  ["Revenues", "$282,836", "$307,394"],
  ["Operating income (loss)", "(1,922)", "1,716"]
], 1)

describe("TableReading.readTable", () => {
  it("reads which group a row stands under, to the group's total or the row naming its end", () => {
    const grouped = table([
      ["", "2024"],
      ["Net sales:", ""],
      ["Services", "96,169"],
      ["Total net sales", "391,035"],
      ["Cost of sales:", ""],
      ["Services", "25,119"],
      ["Total cost of sales", "210,352"],
      ["Gross margin", "180,683"],
      ["Cash flows from financing activities:", ""],
      ["Repayments of term debt", "(9,958)"],
      ["Net cash used in financing activities", "(121,983)"],
      ["Cash, cash equivalents, and restricted cash, ending balances", "29,943"],
      ["Years ended December 31, 2024", ""],
      ["Revenue", "12"]
    ], 1)
    const rows = TableReading.readTable(grouped).rows.map((row) => [row.label, row.group])
    assert.deepStrictEqual(rows, [
      ["Services", "Net sales"],
      ["Total net sales", "Net sales"],
      ["Services", "Cost of sales"],
      ["Total cost of sales", "Cost of sales"],
      ["Gross margin", undefined],
      ["Repayments of term debt", "Cash flows from financing activities"],
      ["Net cash used in financing activities", "Cash flows from financing activities"],
      ["Cash, cash equivalents, and restricted cash, ending balances", undefined],
      // A row of no values that names a period is a header the table did not mark, not a group.
      ["Revenue", undefined]
    ])
  })

  it("titles a table with the headings and short caption before it, and knows a statement by its heading", () => {
    const heading = (text: string) => headingBlock(text, 4)
    const income = TableReading.readTable(annual, [
      caption(`A long paragraph of discussion ${"word ".repeat(80)}`),
      heading("Consolidated Statements of Income"),
      caption("(In millions, except per share amounts)")
    ])
    assert.strictEqual(income.title, "Consolidated Statements of Income (In millions, except per share amounts)")
    assert.isTrue(income.statement)
    // A footnote that mentions the statement does not make its table one.
    const footnoted = TableReading.readTable(annual, [
      caption(
        "(5) These amounts were reported in Cost of goods sold on the accompanying Statement of Consolidated Operations."
      )
    ])
    assert.isFalse(footnoted.statement)
    assert.isFalse(TableReading.readTable(annual, [heading("Note 4 - Stock-Based Compensation")]).statement)
  })

  it("leaves a short paragraph above the table's heading out of its title: it ends what came before", () => {
    const segments = TableReading.readTable(annual, [
      caption("General and administrative expenses rose, largely from employee severance charges."),
      headingBlock("Segment Profitability", 4),
      caption("The following table presents segment operating income (in millions):")
    ])
    assert.strictEqual(
      segments.title,
      "Segment Profitability The following table presents segment operating income (in millions):"
    )
  })

  it("heads each column with the labels above it, a spanning label carried over the columns under it", () => {
    const reading = TableReading.readTable(statement)
    assert.deepStrictEqual(reading.columns.slice(1).map((column) => column.heading), [
      "Three Months Ended July 1, 2023",
      "Three Months Ended June 25, 2022",
      "Nine Months Ended July 1, 2023",
      "Nine Months Ended June 25, 2022"
    ])
    assert.deepStrictEqual(reading.columns.slice(1).map((column) => column.span), [
      "quarter",
      "quarter",
      "year-to-date",
      "year-to-date"
    ])
  })

  it("takes the scale from the caption before the table, and leaves it off per-share amounts", () => {
    const reading = TableReading.readTable(statement, [
      caption("(In millions, except number of shares, which are reflected in thousands, and per-share amounts)")
    ])
    assert.strictEqual(reading.scale, "million")
    const byLabel = new Map(reading.rows.map((row) => [row.label, row.values.map((value) => value.stated)]))
    assert.deepStrictEqual(byLabel.get("Total net sales"), [
      "$81,797 million",
      "$82,959 million",
      "$293,787 million",
      "$304,182 million"
    ])
    assert.deepStrictEqual(byLabel.get("Diluted earnings per share"), ["$1.26", "$1.20", "$4.44", "$4.46"])
  })

  it("sets a label over its group of periods, and leaves the columns the scale note excepts unscaled", () => {
    const byRegion = table([
      ["", "Employees as of December 31,", "", "", "", "Capital Spending", ""],
      ["(Millions, except Employees)", "2018", "2017", "2016", "2018", "2017", "2016"],
      ["Total Company", "93,516", "91,536", "91,584", "$ 1,577", "$ 1,373", "$ 1,420"]
    ], 2)
    const reading = TableReading.readTable(byRegion)
    assert.deepStrictEqual(reading.columns.map((column) => column.heading), [
      "",
      "Employees as of December 31, 2018",
      "Employees as of December 31, 2017",
      "Employees as of December 31, 2016",
      "Capital Spending 2018",
      "Capital Spending 2017",
      "Capital Spending 2016"
    ])
    assert.deepStrictEqual(reading.rows[0]?.values.map((value) => value.stated), [
      "93,516",
      "91,536",
      "91,584",
      "$ 1,577 million",
      "$ 1,373 million",
      "$ 1,420 million"
    ])
  })

  it("takes the scale from a header cell, and none when nothing says one", () => {
    const inHeader = table([["(in thousands, except per share data)", "2023"], ["Total revenues", "$387,508"]], 1)
    assert.strictEqual(TableReading.readTable(inHeader).scale, "thousand")
    assert.strictEqual(TableReading.readTable(annual).scale, undefined)
    assert.strictEqual(TableReading.readTable(annual, [caption("Revenues rose.")]).scale, undefined)
  })

  it("states an expense shown in parentheses as the amount deducted, and a loss as printed", () => {
    const reading = TableReading.readTable(statement, [caption("(In millions)")])
    assert.deepStrictEqual(
      reading.rows.find((row) => row.label === "Research and development")?.values.map((value) => value.stated),
      ["7,442 million", "6,797 million", "22,608 million", "19,490 million"]
    )
    assert.deepStrictEqual(
      TableReading.readTable(annual).rows[1]?.values.map((value) => value.stated),
      ["(1,922)", "1,716"]
    )
  })
})

describe("TableReading percentages", () => {
  const shares = table([["", "Year Ended"], ["", "Jan 28, 2024"], ["Revenue", "100.0%"], [
    "Research and development",
    "14.2"
  ]], 2)
  const captioned = [caption("Items expressed as a percentage of revenue.")]

  it("states the values of a table its caption says is of percentages as percentages", () => {
    const reading = TableReading.readTable(shares, captioned)
    assert.deepStrictEqual(reading.rows.map((row) => row.values.map((value) => value.stated)), [["100.0%"], ["14.2%"]])
    assert.isTrue(reading.rows.every((row) => row.percent))
    assert.isFalse(TableReading.readTable(shares).rows[1]!.percent)
  })

  it("offers a percentage as a poor answer to a question for an amount, a full one to a question for a share", () => {
    const row = TableReading.readTable(shares, captioned).rows[1]!
    assert.strictEqual(TableReading.valuesFor(row, TableReading.periodAsked("How much was R&D in 2024?")).fit, 0.5)
    assert.strictEqual(
      TableReading.valuesFor(row, TableReading.periodAsked("What percentage of revenue was R&D in 2024?")).fit,
      1
    )
  })
})

describe("TableReading.valuesFor", () => {
  const row = (reading: TableReading.Reading, label: string) => reading.rows.find((one) => one.label === label)!

  it("gives the year's column when a year is asked, though it is not the first", () => {
    const chosen = TableReading.valuesFor(
      row(TableReading.readTable(annual), "Revenues"),
      TableReading.periodAsked("What were revenues in 2023?")
    )
    assert.deepStrictEqual(chosen.values.map((value) => value.cell), ["$307,394"])
    assert.strictEqual(chosen.fit, 1)
  })

  it("gives the quarter's column for a quarter, and marks a year asked of quarterly columns as a poor fit", () => {
    const sales = row(TableReading.readTable(statement), "Total net sales")
    const quarter = TableReading.valuesFor(
      sales,
      TableReading.periodAsked("Net sales for the three months ended July 1, 2023?")
    )
    assert.deepStrictEqual(quarter.values.map((value) => value.cell), ["$81,797"])
    const year = TableReading.valuesFor(sales, TableReading.periodAsked("What were net sales in fiscal 2023?"))
    assert.isBelow(year.fit, 1)
    const other = TableReading.valuesFor(sales, TableReading.periodAsked("What were net sales in 2019?"))
    assert.deepStrictEqual(other, { values: [], fit: 0 })
  })

  it("gives the latest year's columns when no period is asked", () => {
    const chosen = TableReading.valuesFor(
      row(TableReading.readTable(annual), "Revenues"),
      TableReading.periodAsked("What were revenues?")
    )
    assert.deepStrictEqual(chosen.values.map((value) => value.cell), ["$307,394"])
    assert.strictEqual(TableReading.sentenceOf("Revenues", chosen.values), "Revenues: $307,394 (2023).")
  })
})
