import { assert, describe, it } from "@effect/vitest"
import { buildGrid, type SourceCell } from "../src/internal/tableGrid.js"

/** A row of cells: a string is a one-column cell, `[text, colSpan]` spans columns. */
const row = (...cells: ReadonlyArray<string | readonly [string, number]>): Array<SourceCell> =>
  cells.map((cell) => {
    const [text, colSpan] = typeof cell === "string" ? [cell, 1] : cell
    return { text, colSpan, rowSpan: 1, media: false }
  })

const texts = (rows: ReadonlyArray<ReadonlyArray<SourceCell>>): Array<Array<string>> =>
  buildGrid(rows).rows.map((slots) => slots.map((slot) => slot.text))

describe("buildGrid", () => {
  it("merges currency, parenthesis and percent cells into their values", () => {
    assert.deepStrictEqual(
      texts([
        row("", ["2024", 3], "", ["Change", 2]),
        row("Revenue", "$", "(1,234", ")", "", "12", "%"),
        row("Margin", "", "56", "", "", "(3", ")%")
      ]),
      [
        ["", "2024", "Change"],
        ["Revenue", "$(1,234)", "12%"],
        ["Margin", "56", "(3)%"]
      ]
    )
  })

  it("keeps a lone $ that is a column label, and a $ before text", () => {
    assert.deepStrictEqual(texts([row("", "$", "%"), row("Change", "12", "3")]), [["", "$", "%"], [
      "Change",
      "12",
      "3"
    ]])
    assert.deepStrictEqual(texts([row("$", "in millions"), row("a", "b")]), [["$", "in millions"], ["a", "b"]])
  })

  it("drops empty rows and columns that are empty in every row", () => {
    const grid = buildGrid([row("", "", "", ""), row("a", "", "1", ""), row("", "", "", ""), row("b", "", "2", "")])
    assert.strictEqual(grid.columnCount, 2)
    assert.deepStrictEqual(grid.rows.map((slots) => slots.map((slot) => slot.text)), [["a", "1"], ["b", "2"]])
  })

  it("expands colspans so that every row has the same width", () => {
    const grid = buildGrid([row(["Title spanning everything", 4]), row("a", "1", "2", "3")])
    assert.strictEqual(grid.columnCount, 4)
    assert.isTrue(grid.rows.every((slots) => slots.length === 4))
    assert.deepStrictEqual(grid.rows[0]?.map((slot) => slot.text), ["Title spanning everything", "", "", ""])
  })

  it("honours rowspan when placing the cells below it", () => {
    const rows: Array<Array<SourceCell>> = [
      [{ text: "Segment", colSpan: 1, rowSpan: 2, media: false }, ...row(["Revenue", 2])],
      row("2024", "2023"),
      row("Widgets", "100", "90")
    ]
    assert.deepStrictEqual(texts(rows), [["Segment", "Revenue", ""], ["", "2024", "2023"], ["Widgets", "100", "90"]])
  })

  it("folds a value shifted by one grid column into its column", () => {
    assert.deepStrictEqual(texts([row("Label", ["Amount", 2]), row("First", "$", "10"), row("Second", "", "20")]), [
      ["Label", "Amount"],
      ["First", "$10"],
      ["Second", "20"]
    ])
  })

  it("never folds columns that one row fills both of", () => {
    assert.deepStrictEqual(texts([row("a", "1", ""), row("b", "", "2"), row("c", "3", "4")]), [
      ["a", "1", ""],
      ["b", "", "2"],
      ["c", "3", "4"]
    ])
  })

  it("records which source cells each slot shows", () => {
    const grid = buildGrid([row("x", "$", "5")])
    assert.deepStrictEqual(grid.rows[0]?.map((slot) => slot.sources), [[0], [1, 2]])
  })

  it("clamps absurd spans", () => {
    const grid = buildGrid([row(["wide", 1_000_000]), row("a", "b")])
    assert.strictEqual(grid.columnCount, 2)
  })
})
