/**
 * A table block's `headerRows`: from the markup where the HTML marks its header (`<thead>`, rows of
 * `<th>`), else from the cells; and Markdown rendering, which has one header row, unchanged by it.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import { Blocks } from "../src/index.js"
import { headerRowCount } from "../src/internal/tableHeader.js"
import { parseHtml } from "./support/parse.js"

/** The table blocks of an HTML document. */
const tablesOf = (html: string) =>
  parseHtml(html).pipe(
    Effect.map((reading) => reading.blocks.filter((block): block is Blocks.TableBlock => block.kind === "table"))
  )

const row = (cell: "td" | "th", ...cells: ReadonlyArray<string>): string =>
  `<tr>${cells.map((text) => `<${cell}>${text}</${cell}>`).join("")}</tr>`

describe("headerRows of HTML tables", () => {
  it.effect("counts the rows of a two-row <thead>, even where the cells alone would say one", () =>
    Effect.gen(function*() {
      // The second header row has something in its first cell: by its cells it would be a body row.
      const tables = yield* tablesOf(
        `<table><thead>${row("th", "Region", "Revenue", "Growth")}${row("th", "(in millions)", "2024", "vs. 2023")}` +
          `</thead><tbody>${row("td", "Americas", "$1,200", "14%")}${row("td", "Europe", "800", "5%")}</tbody></table>`
      )
      assert.lengthOf(tables, 1)
      assert.strictEqual(tables[0]?.headerRows, 2)
      assert.deepStrictEqual(tables[0]?.rows.slice(0, 2), [["Region", "Revenue", "Growth"], [
        "(in millions)",
        "2024",
        "vs. 2023"
      ]])
      assert.strictEqual(headerRowCount(tables[0]?.rows ?? []), 1)
    }))

  it.effect("takes a leading row of <th> cells as the header when there is no <thead>", () =>
    Effect.gen(function*() {
      // The second row continues the header by its cells (no row label, no amount), but the markup says one row.
      const tables = yield* tablesOf(
        `<table>${row("th", "Name", "Position")}${row("td", "", "(since 2019)")}${
          row("td", "Pat Lee", "Chief Financial Officer")
        }</table>`
      )
      assert.strictEqual(tables[0]?.headerRows, 1)
    }))

  it.effect("without markup, takes the label rows above the first row of values as the header", () =>
    Effect.gen(function*() {
      const tables = yield* tablesOf(
        `<table>${row("td", "", "Three Months Ended", "", "Six Months Ended", "")}${
          row("td", "", "March 31, 2024", "March 31, 2023", "March 31, 2024", "March 31, 2023")
        }${row("td", "Revenue", "$1,200", "$1,000", "$2,300", "$2,000")}${
          row("td", "Net income", "$210", "$(15)", "$400", "$20")
        }</table>`
      )
      assert.strictEqual(tables[0]?.headerRows, 2)
      assert.deepStrictEqual(tables[0]?.rows[2], ["Revenue", "$1,200", "$1,000", "$2,300", "$2,000"])
    }))

  it.effect("gives a table whose first row already holds amounts no header", () =>
    Effect.gen(function*() {
      const tables = yield* tablesOf(
        `<table>${row("td", "Revenue", "$1,200", "$1,000")}${row("td", "Net income", "$210", "$(15)")}</table>`
      )
      assert.strictEqual(tables[0]?.headerRows, 0)
    }))

  it.effect("a table of one row is no table block: its cells become a paragraph", () =>
    Effect.gen(function*() {
      const reading = yield* parseHtml(`<table>${row("td", "Name", "Position")}</table>`)
      assert.deepStrictEqual(reading.blocks.map((block) => block.kind), ["paragraph"])
    }))
})

describe("headerRowCount", () => {
  it("takes a one-row table's row as its header, unless it holds an amount", () => {
    assert.strictEqual(headerRowCount([["Name", "Position"]]), 1)
    assert.strictEqual(headerRowCount([["Revenue", "$1,200"]]), 0)
    assert.strictEqual(headerRowCount([]), 0)
  })

  it("does not take year headings for amounts", () => {
    assert.strictEqual(headerRowCount([["", "2024", "2023"], ["Revenue", "$10", "$9"]]), 1)
  })

  it("always leaves a row under the header", () => {
    assert.strictEqual(headerRowCount([["", "Year Ended"], ["", "2024"]]), 1)
    assert.strictEqual(headerRowCount([["", "Year Ended"], ["", "2024"], ["Revenue", "$10"]]), 2)
  })

  it("takes a mostly empty top row and the two labels under it as a two-row header", () => {
    assert.strictEqual(
      headerRowCount([
        ["", "", "Incorporated by Reference", "", ""],
        ["Exhibit Number", "Exhibit Description", "Form", "Exhibit", "Filing Date"],
        ["3.1", "Restated Articles of Incorporation", "8-K", "3.1", "8/7/20"]
      ]),
      2
    )
  })
})

describe("TableBlock", () => {
  const table = (headerRows: number) => ({
    kind: "table" as const,
    page: 1,
    rows: [["", "Year Ended"], ["", "2024"], ["Revenue", "$10"]],
    headerRows
  })

  it("renders the first row as Markdown's header row whatever headerRows says", () => {
    const expected = "|  | Year Ended |\n| --- | --- |\n|  | 2024 |\n| Revenue | $10 |\n"
    for (const headerRows of [0, 1, 2]) assert.strictEqual(Blocks.toMarkdown([table(headerRows)]), expected)
  })

  it("rejects more header rows than rows, and a negative or fractional count", () => {
    const decode = Schema.decodeUnknownEither(Blocks.TableBlock)
    assert.isTrue(Either.isRight(decode(table(3))))
    assert.isTrue(Either.isLeft(decode(table(4))))
    assert.isTrue(Either.isLeft(decode(table(-1))))
    assert.isTrue(Either.isLeft(decode(table(1.5))))
  })
})
