/**
 * Tables from synthetic documents: reading the parser's blocks, header merging, padding, units, titles and
 * the conservative classification, each rule on its own.
 */
import { assert, describe, it } from "@effect/vitest"
import { Blocks, Parser } from "@filings/filings-parser"
import { Effect } from "effect"
import { readParts } from "../src/internal/tables/documentParts.js"
import { classify, mergeHeaderRows, unitOf } from "../src/internal/tables/readTables.js"
import { extractTables } from "../src/Tables.js"
import { heading, paragraph } from "./support/blocks.js"
import { documentOf } from "./support/documents.js"

const incomeStatement = `### Item 8. Financial Statements

#### CONSOLIDATED STATEMENTS OF OPERATIONS

(In millions, except per share amounts)

|  | Years ended |  |
| --- | --- | --- |
|  | December 31, 2024 | December 31, 2023 |
| Revenues | $1,200 | $1,000 |
| Cost of revenues | 700 | 600 |
| Gross profit | 500 | 400 |
| Operating income | 300 | 200 |
| Net income | $210 | $(15) |
| Diluted earnings per share | $2.10 | $(0.15) |
`

describe("document parts", () => {
  it("reads tables with the text blocks around them from the parser's blocks", () => {
    const style = Blocks.plainStyle
    const blocks: Array<Blocks.Block> = [
      heading(4, "Title"),
      {
        kind: "paragraph",
        page: 1,
        text: "Some text more",
        inlines: [
          { kind: "text", text: "Some " },
          { kind: "strong", children: [{ kind: "text", text: "text" }] },
          { kind: "break" },
          { kind: "text", text: "more" }
        ],
        style
      },
      { kind: "table", page: 1, rows: [["a", "b | c"], ["4.1**", " 2 "]], headerRows: 1 },
      paragraph("After")
    ]
    const parts = readParts({ title: "", item: undefined, blocks, start: 0, end: blocks.length })
    assert.deepStrictEqual(parts, [
      { kind: "text", text: "Title", depth: 4, lines: ["Title"] },
      { kind: "text", text: "Some text more", depth: 0, lines: ["Some text", "more"] },
      { kind: "table", rows: [["a", "b | c"], ["4.1**", "2"]], headerRows: 1 },
      { kind: "text", text: "After", depth: 0, lines: ["After"] }
    ])
  })

  it("finds tables in the blocks, not in the Markdown", () => {
    const document = documentOf([{ title: "Item 8. Financial Statements", item: "8", content: incomeStatement }])
    const { tables } = extractTables({
      ...document,
      markdown: "",
      sections: document.sections.map((section) => ({ ...section, content: "" }))
    })
    assert.strictEqual(tables.length, 1)
    assert.strictEqual(tables[0]?.title, "CONSOLIDATED STATEMENTS OF OPERATIONS")
  })
})

describe("headers", () => {
  it("joins a spanning label with the labels under it", () => {
    assert.deepStrictEqual(
      mergeHeaderRows(
        [["", "Three Months Ended", "", "Six Months Ended", ""], ["", "2024", "2023", "2024", "2023"]],
        5
      ),
      ["", "Three Months Ended 2024", "Three Months Ended 2023", "Six Months Ended 2024", "Six Months Ended 2023"]
    )
  })

  it("turns header-like rows under the header into one header row", () => {
    const { tables } = extractTables(
      documentOf([{ title: "Item 8. Financial Statements", item: "8", content: incomeStatement }])
    )
    const table = tables[0]
    assert.deepStrictEqual(table?.headers, ["", "Years ended December 31, 2024", "Years ended December 31, 2023"])
    assert.deepStrictEqual(table?.rows[0], ["Revenues", "$1,200", "$1,000"])
    assert.strictEqual(table?.rows.length, 6)
  })

  it("pads ragged rows and says so", () => {
    // The parser's tables are rectangular; a table built by hand may not be.
    const content: Array<Blocks.Block> = [
      heading(4, "Things"),
      { kind: "table", page: 1, rows: [["Name", "2024", "2023"], ["A", "1", "2"], ["B", "3"]], headerRows: 1 }
    ]
    const { tables, warnings } = extractTables(documentOf([{ title: "Item 7. MD&A", item: "7", content }]))
    assert.deepStrictEqual(tables[0]?.rows, [["A", "1", "2"], ["B", "3", ""]])
    assert.strictEqual(warnings.length, 1)
    assert.match(warnings[0] ?? "", /t001: 1 row\(s\)/)
  })

  it("joins the header rows the parser marks, and only those", () => {
    const title = heading(4, "Net sales by region")
    const rows = [["Region", "Net sales", "Change"], ["(in millions)", "2024", "vs. 2023"], [
      "Americas",
      "$1,200",
      "14%"
    ]]
    const tablesWith = (headerRows: number) =>
      extractTables(documentOf([{
        title: "Item 7. MD&A",
        item: "7",
        content: [title, { kind: "table", page: 1, rows, headerRows }]
      }])).tables[0]
    // A second row with something in its first cell is no header by the cells; the block says it is.
    assert.deepStrictEqual(tablesWith(2)?.headers, ["Region (in millions)", "Net sales 2024", "Change vs. 2023"])
    assert.deepStrictEqual(tablesWith(2)?.rows, [["Americas", "$1,200", "14%"]])
    assert.deepStrictEqual(tablesWith(1)?.headers, ["Region", "Net sales", "Change"])
    assert.strictEqual(tablesWith(1)?.rows.length, 2)
    // No header: every row is a body row, every column label empty.
    assert.deepStrictEqual(tablesWith(0)?.headers, ["", "", ""])
    assert.deepStrictEqual(tablesWith(0)?.rows, rows)
  })

  it("drops a header of two rows repeated after a page break", () => {
    const header = [["", "", "Incorporated by Reference", ""], [
      "Exhibit Number",
      "Exhibit Description",
      "Form",
      "Exhibit"
    ]]
    const part = (...rows: Array<Array<string>>): Blocks.Block => ({
      kind: "table",
      page: 1,
      rows: [...header, ...rows],
      headerRows: 2
    })
    const title = heading(3, "Item 15. Exhibits")
    const content = [title, part(["3.1", "Articles", "8-K", "3.1"]), part(["4.1", "Indenture", "S-3", "4.1"])]
    const { tables } = extractTables(documentOf([{ title: "Item 15. Exhibits", item: "15", content }]))
    assert.strictEqual(tables.length, 1)
    assert.deepStrictEqual(tables[0]?.headers, [
      "Exhibit Number",
      "Exhibit Description",
      "Incorporated by Reference Form",
      "Incorporated by Reference Exhibit"
    ])
    assert.deepStrictEqual(tables[0]?.rows, [["3.1", "Articles", "8-K", "3.1"], ["4.1", "Indenture", "S-3", "4.1"]])
  })

  it("joins a table continued after a page break (same header, nothing between)", () => {
    const part = "| Exhibit Number | Exhibit Description |\n| --- | --- |\n"
    const content = `### Item 15. Exhibits\n\n${part}| 3.1 | Articles |\n\n${part}| 4.1 | Indenture |\n`
    const { tables } = extractTables(documentOf([{ title: "Item 15. Exhibits", item: "15", content }]))
    assert.strictEqual(tables.length, 1)
    assert.deepStrictEqual(tables[0]?.rows, [["3.1", "Articles"], ["4.1", "Indenture"]])
  })
})

describe("title, section, unit, ids", () => {
  it("takes the heading before the unit line as the title", () => {
    const { tables } = extractTables(documentOf([
      {
        title: "Item 7. MD&A",
        item: "7",
        content:
          "### Item 7. MD&A\n\nThe following table shows net sales by reportable segment (dollars in millions):\n\n| | 2024 | 2023 |\n| --- | --- | --- |\n| Americas | $10 | $9 |\n| Europe | 5 | 4 |\n| Total net sales | $15 | $13 |\n"
      },
      { title: "Item 8. Financial Statements", item: "8", content: incomeStatement }
    ]))
    assert.deepStrictEqual(tables.map((table) => table.id), ["t001", "t002"])
    assert.strictEqual(
      tables[0]?.title,
      "The following table shows net sales by reportable segment (dollars in millions)"
    )
    assert.strictEqual(tables[0]?.unit, "USD millions")
    assert.strictEqual(tables[0]?.tableType, "segment_revenue")
    assert.strictEqual(tables[1]?.title, "CONSOLIDATED STATEMENTS OF OPERATIONS")
    assert.strictEqual(tables[1]?.section, "Item 8. Financial Statements")
    assert.strictEqual(tables[1]?.format, "In millions, except per share amounts")
  })

  it("reads units from captions and cells", () => {
    assert.deepStrictEqual(unitOf(["(In thousands)"], []), { unit: "USD thousands" })
    assert.deepStrictEqual(unitOf(["(in millions, except per share data)"], []), {
      unit: "USD millions",
      format: "in millions, except per share data"
    })
    assert.deepStrictEqual(unitOf(["The following table shows the changes in shares (in thousands):"], []), {
      unit: "shares"
    })
    assert.deepStrictEqual(unitOf(["(net income in millions and shares in thousands)"], []), { unit: "USD millions" })
    assert.deepStrictEqual(unitOf(["(€ in millions)"], []), { unit: "EUR millions" })
    assert.deepStrictEqual(unitOf(["(Expressed in Canadian dollars)"], ["$5"]), { unit: "CAD" })
    assert.deepStrictEqual(unitOf(["Selected data"], ["$5", "6"]), { unit: "USD" })
    assert.deepStrictEqual(unitOf(["Selected data"], ["5%", "6"]), { unit: "" })
  })
})

describe("classification", () => {
  it("recognises the three statements by title and rows", () => {
    assert.strictEqual(
      classify("CONSOLIDATED STATEMENTS OF OPERATIONS", [], ["Net sales", "Cost of sales", "Net income", "Basic"]),
      "income_statement"
    )
    assert.strictEqual(
      classify("CONSOLIDATED BALANCE SHEETS", [], [
        "Cash",
        "Total assets",
        "Total liabilities",
        "Total shareholders' equity"
      ]),
      "balance_sheet"
    )
    assert.strictEqual(
      classify("CONSOLIDATED STATEMENTS OF CASH FLOWS", [], [
        "Net income",
        "Cash generated by operating activities",
        "Cash used in investing activities",
        "Cash used in financing activities"
      ]),
      "cash_flow"
    )
  })

  it("recognises an untitled statement only on strong row evidence", () => {
    const rows = ["Total revenues", "Cost of revenues", "Gross profit", "Operating income", "Net income", "Diluted"]
    assert.strictEqual(classify("Results", [], rows), "income_statement")
    assert.strictEqual(classify("Results", [], ["Revenue", "Net income"]), "other")
  })

  it("keeps lookalikes out", () => {
    // Comprehensive income and equity statements mention net income but are not income statements.
    assert.strictEqual(
      classify("CONSOLIDATED STATEMENTS OF COMPREHENSIVE INCOME", [], ["Net income", "Other comprehensive income"]),
      "other"
    )
    assert.strictEqual(
      classify("CONSOLIDATED STATEMENTS OF SHAREHOLDERS' EQUITY", [], ["Net income", "Total shareholders' equity"]),
      "other"
    )
    // A title without the rows it promises (an index of statements) stays other.
    assert.strictEqual(
      classify("Consolidated Balance Sheets", [], ["Notes to Consolidated Financial Statements"]),
      "other"
    )
    assert.strictEqual(
      classify("Operating expenses (dollars in millions)", [], ["Research and development", "Total"]),
      "other"
    )
    // A note summarising equity investees' results has an income statement's rows, but is not ours.
    const rows = ["Sales", "Cost of goods sold", "Gross profit", "Operating income", "Net income", "Diluted"]
    assert.strictEqual(classify("A summary of unaudited financial information for equity investees", [], rows), "other")
    assert.strictEqual(classify("Results", [], rows), "income_statement")
    // Items as a percentage of revenue are analysis.
    assert.strictEqual(
      classify("Items in our Consolidated Statements of Income as a percentage of revenue", [], rows, [
        "100.0%",
        "48.9%"
      ]),
      "other"
    )
  })

  it("recognises revenue by segment, geography and product", () => {
    assert.strictEqual(classify("Net sales by category", [], ["iPhone", "Mac", "Total net sales"]), "segment_revenue")
    assert.strictEqual(
      classify("Revenue by geographic area", [], ["United States", "International"]),
      "segment_revenue"
    )
    assert.strictEqual(classify("Headcount by region", [], ["Americas", "Europe"]), "other")
  })
})

describe("through the parser", () => {
  it.effect("finds and classifies a statement in parsed HTML", () =>
    Effect.gen(function*() {
      const html = `<html><body>
<p><b>Item 8. Financial Statements and Supplementary Data</b></p>
<p><b>CONSOLIDATED BALANCE SHEETS</b></p>
<p>(In thousands)</p>
<table>
<tr><td></td><td>December 31, 2024</td><td>December 31, 2023</td></tr>
<tr><td>Total current assets</td><td>$ 500</td><td>$ 400</td></tr>
<tr><td>Total assets</td><td>$ 1,500</td><td>$ 1,400</td></tr>
<tr><td>Total liabilities</td><td>900</td><td>850</td></tr>
<tr><td>Total stockholders&#8217; equity</td><td>600</td><td>550</td></tr>
<tr><td>Total liabilities and stockholders&#8217; equity</td><td>$ 1,500</td><td>$ 1,400</td></tr>
</table>
</body></html>`
      const document = yield* Parser.parse({ bytes: new TextEncoder().encode(html), fileName: "x.htm", form: "10-K" })
      const { tables } = extractTables(document)
      const sheet = tables.find((table) => table.tableType === "balance_sheet")
      assert.isDefined(sheet)
      assert.strictEqual(sheet?.unit, "USD thousands")
      assert.strictEqual(sheet?.title, "CONSOLIDATED BALANCE SHEETS")
      const totalAssets = sheet?.rows.find((row) => row[0] === "Total assets")
      assert.strictEqual(totalAssets?.[1]?.replace(/\s/g, ""), "$1,500")
    }))
})
