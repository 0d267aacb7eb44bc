import { assert, describe, it } from "@effect/vitest"
import { Blocks } from "@filings/filings-parser"
import * as ExtractiveAnswer from "../src/chat/ExtractiveAnswer.js"
import { headingBlock } from "./support/blocks.js"

const passage = (chunkId: string, text: string, rank = 0): ExtractiveAnswer.Passage => ({
  source: "0000999999-25-000010",
  chunkId,
  text,
  context: "CTC Contract Test Corp 10-K",
  rank
})

/** A passage of a heading and the table under it (one header row), as the store keeps its blocks. */
const tablePassage = (chunkId: string, heading: string, rows: Array<Array<string>>): ExtractiveAnswer.Passage => ({
  ...passage(chunkId, heading),
  blocks: [headingBlock(heading), { kind: "table", page: 1, rows, headerRows: 1 }]
})

const balanceSheet = [
  "| | December 31, 2024 | December 31, 2023 |",
  "| --- | --- | --- |",
  "| Cash and cash equivalents | 410 | 380 |",
  "| Total current assets | 1,020 | 950 |",
  "| Property and equipment, net | 2,200 | 2,050 |",
  "| Total assets | 3,220 | 3,000 |",
  "| Total current liabilities | 640 | 600 |"
].join("\n")

describe("ExtractiveAnswer.tableRowsOf", () => {
  it("reads each row in the latest period, or in the period asked when the columns hold it", () => {
    const blocks = Blocks.fromMarkdown(balanceSheet)
    const all = ExtractiveAnswer.tableRowsOf(blocks)
    assert.deepStrictEqual(
      all.find((row) => row.label === "Total assets")?.text,
      "Total assets: 3,220 (December 31, 2024)."
    )
    const focused = ExtractiveAnswer.tableRowsOf(blocks, { years: ["2023"], span: undefined })
    assert.strictEqual(
      focused.find((row) => row.label === "Total assets")?.text,
      "Total assets: 3,000 (December 31, 2023)."
    )
  })

  it("reads the passage's own blocks when it has them, not its Markdown", () => {
    const table: Blocks.Block = {
      kind: "table",
      page: 3,
      rows: [["", "2024"], ["Total assets", "7,777"]],
      headerRows: 1
    }
    const withBlocks = { ...passage("c1", balanceSheet), blocks: [table] }
    assert.deepStrictEqual(ExtractiveAnswer.blocksOfPassage(withBlocks), [table])
    const answer = ExtractiveAnswer.answer("What were Contract Test Corp's total assets in 2024?", [withBlocks])
    assert.strictEqual(answer[0]?.text, "Total assets: 7,777 (2024).")
  })
})

describe("ExtractiveAnswer.answer", () => {
  it("answers with the row whose label is what is asked, not a part of it", () => {
    const answer = ExtractiveAnswer.answer("What were Contract Test Corp's total assets at December 31, 2024?", [
      passage("c1", balanceSheet)
    ])
    assert.strictEqual(answer[0]?.text, "Total assets: 3,220 (December 31, 2024).")
    assert.deepStrictEqual(answer[0]?.citations.map((citation) => citation.chunkId), ["c1"])
  })

  it("takes the row of a financial statement over a note's row of the same name, and says its group", () => {
    const heading = (text: string) => headingBlock(text, 40)
    const grid = (rows: Array<Array<string>>): Blocks.Block => ({ kind: "table", page: 40, rows, headerRows: 1 })
    const note = {
      ...passage("c0143", "stock-based compensation table"),
      blocks: [
        heading("Note 4 - Stock-Based Compensation"),
        grid([["", "Year Ended Jan 28, 2024"], ["Cost of revenue", "141"], ["Research and development", "2,532"]])
      ]
    }
    const statement = {
      ...passage("c0125", "income statement", 2),
      blocks: [
        heading("Consolidated Statements of Income"),
        grid([
          ["", "Year Ended Jan 28, 2024"],
          ["Revenue", "60,922"],
          ["Operating expenses", ""],
          ["Research and development", "8,675"],
          ["Total operating expenses", "11,329"]
        ])
      ]
    }
    const answer = ExtractiveAnswer.answer(
      "How much did Contract Test Corp spend on research and development in fiscal year 2024?",
      [note, statement]
    )
    assert.strictEqual(
      answer[0]?.text,
      "Operating expenses — Research and development: 8,675 (Year Ended Jan 28, 2024)."
    )
    assert.deepStrictEqual(answer[0]?.citations.map((citation) => citation.chunkId), ["c0125"])
  })

  it("reads a phrase asked where its words stand together, and a row's column as the quarter asked", () => {
    const comprehensive: Blocks.Block = {
      kind: "table",
      page: 50,
      rows: [
        ["", "Three Months Ended March 31, 2019"],
        ["Reclassification of realized loss on available-for-sale securities included in net income", "1.0"],
        ["Net sales", "15,077"]
      ],
      headerRows: 1
    }
    const answer = ExtractiveAnswer.answer(
      "What were Contract Test Corp's net sales in the first quarter of 2019?",
      [
        { ...passage("c1", "prose"), blocks: [comprehensive] },
        passage("c2", "Net sales grew in the first quarter of 2019 as widgets sold well across every region.", 1)
      ]
    )
    assert.strictEqual(answer[0]?.text, "Net sales: 15,077 (Three Months Ended March 31, 2019).")
  })

  it("answers a year asked from the annual report before a quarterly report's sentence of that year", () => {
    const answer = ExtractiveAnswer.answer("How many employees did Contract Test Corp have in 2023?", [
      { ...passage("c1", "As of June 30, 2023, Contract Test Corp had 1,798 employees."), docType: "10-Q" },
      { ...passage("c2", "As of December 31, 2023, Contract Test Corp had 1,802 employees.", 1), docType: "10-K" }
    ])
    assert.include(answer[0]?.text ?? "", "1,802")
    assert.deepStrictEqual(answer[0]?.citations.map((citation) => citation.chunkId), ["c2"])
  })

  it("answers a count with a sentence that names what is counted, asked at the end of a year it states as a date", () => {
    const income = tablePassage("c1", "Segment operating income", [
      ["", "Year Ended December 31, 2023"],
      ["Operating income", "84,293"]
    ])
    const answer = ExtractiveAnswer.answer("How many employees did Contract Test Corp have at the end of 2023?", [
      income,
      passage("c2", "As of December 31, 2023, Contract Test Corp had 182,502 employees.", 1)
    ])
    assert.strictEqual(answer[0]?.text, "As of December 31, 2023, Contract Test Corp had 182,502 employees.")
  })

  it("answers how many of a thing with a sentence that names it, not one that holds more of the question", () => {
    const answer = ExtractiveAnswer.answer("How many employees worked at Contract Test Corp's Ohio plant in 2023?", [
      passage("c1", "The Ohio plant of Contract Test Corp worked three shifts and made 2,000 widgets in 2023."),
      passage("c2", "In 2023, the plant had 1,450 employees.", 1)
    ])
    assert.strictEqual(answer[0]?.text, "In 2023, the plant had 1,450 employees.")
  })

  it("tells an ending balance from a beginning one by the point of the period asked", () => {
    const cashFlows = tablePassage("c1", "Consolidated Statements of Cash Flows", [
      ["", "Year Ended December 31, 2023"],
      ["Cash and cash equivalents, beginning of period", "21,879"],
      ["Cash and cash equivalents, end of period", "24,048"]
    ])
    const answer = ExtractiveAnswer.answer("How much cash did Contract Test Corp have at the end of 2023?", [cashFlows])
    assert.strictEqual(
      answer[0]?.text,
      "Cash and cash equivalents, end of period: 24,048 (Year Ended December 31, 2023)."
    )
  })

  it("prefers the sentence of the year asked over one that names only another year", () => {
    const answer = ExtractiveAnswer.answer(
      "What was Contract Test Corp's capital spending on its Ohio plant in 2024?",
      [
        passage("c1", "Capital spending on the Ohio plant was $900 million in 2021."),
        passage("c2", "Capital spending was $1,200 million in 2024.", 1)
      ]
    )
    assert.include(answer[0]?.text ?? "", "1,200")
    assert.deepStrictEqual(answer[0]?.citations.map((citation) => citation.chunkId), ["c2"])
  })

  it("answers nothing when no passage holds enough of what is asked", () => {
    assert.deepStrictEqual(
      ExtractiveAnswer.answer("What is the weather at Contract Test Corp's offices?", [passage("c1", balanceSheet)]),
      []
    )
  })
})

describe("ExtractiveAnswer.withoutPointOfPeriod", () => {
  it("leaves out the words of a point of a period, and is undefined for a question without them", () => {
    assert.strictEqual(
      ExtractiveAnswer.withoutPointOfPeriod("How many employees did Alphabet have at the end of 2023?")?.replace(
        /\s+/g,
        " "
      ),
      "How many employees did Alphabet have 2023?"
    )
    assert.strictEqual(
      ExtractiveAnswer.withoutPointOfPeriod("What was cash as of the beginning of fiscal 2024?")?.replace(/\s+/g, " "),
      "What was cash fiscal 2024?"
    )
    assert.isUndefined(ExtractiveAnswer.withoutPointOfPeriod("What were net sales in 2024?"))
    // A query of nothing but those words is left whole.
    assert.isUndefined(ExtractiveAnswer.withoutPointOfPeriod("at the end of"))
  })
})

describe("ExtractiveAnswer.searchQueryOf", () => {
  it("leaves out the verbs of asking and writes fiscal years as filings do", () => {
    assert.strictEqual(
      ExtractiveAnswer.searchQueryOf("How much did 3M spend on R&D in FY2018?").replace(/\s+/g, " "),
      "How much did 3M on R&D in fiscal year 2018?"
    )
  })
})
