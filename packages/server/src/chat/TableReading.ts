/**
 * A financial table read from the parser's structure (a `TableBlock`: rows of cells and how many of
 * them are the header), as the chat answer states its figures: each row's label and values, the
 * period each column reports (its header cells, a label spanning several columns carried over the
 * columns under it: `Three Months Ended` over `July 1, 2023`), the table's scale (`In millions`,
 * from its header or the paragraph just before it), and each value as a figure to state: with its
 * scale (`$391,035 million`), and a value an expense row shows in parentheses (a deduction) stated
 * as the amount it is, not as a negative figure.
 */
import { Blocks } from "@filings/filings-parser"

/** The scale a table's amounts are written in. */
export type Scale = "thousand" | "million" | "billion"

/** What a column reports over: a quarter, the year to date, a year, or a point in time or not known. */
export type Span = "quarter" | "year-to-date" | "year" | "other"

/** A column of values: its header's words (what period it reports) and the span and years they name. */
export interface Column {
  readonly index: number
  readonly heading: string
  readonly span: Span
  readonly years: ReadonlyArray<string>
}

/** One value of a row: the cell as printed, its column, and the figure as the answer states it. */
export interface Value {
  readonly cell: string
  readonly column: Column
  readonly stated: string
}

/** A row of values under its label. */
export interface Row {
  readonly label: string
  /**
   * The label of the row of no values the row stands under (`Net sales:` above `Products`,
   * `Services` and `Total net sales`), when it stands under one: what its own label is a part of.
   */
  readonly group?: string | undefined
  readonly values: ReadonlyArray<Value>
  /** Whether its values are percentages (a table its caption says is "as a percentage of revenue"). */
  readonly percent: boolean
}

/** A table as read: its title, its scale (when it says one), its columns and its rows of values. */
export interface Reading {
  /**
   * What the passage says the table is, from the headings and the caption right before it
   * (`Consolidated Statements of Operations`, `Net sales by category ...`); empty when nothing does.
   */
  readonly title: string
  /**
   * Whether a heading of the title names a primary financial statement (`Consolidated Statements
   * of Income`, `Balance Sheets`): its rows are the figures the filing reports, where a note's table
   * repeats a line (`Research and development`) for a part of it.
   */
  readonly statement: boolean
  readonly scale: Scale | undefined
  readonly columns: ReadonlyArray<Column>
  readonly rows: ReadonlyArray<Row>
}

const scalePattern =
  /\b(?:in|\$\s*in|dollars\s+in|amounts\s+in)\s+(thousands|millions|billions)\b|(?:^|\()\s*(?:\$\s*)?(thousands|millions|billions)\b/i
const exceptPattern = /\bexcept\b([^)]*)/i

/** A word as the exceptions are matched: lower case, a plural's `s` dropped. */
const stem = (word: string) => word.toLowerCase().replace(/(?<=[a-z]{3})s$/, "")

const wordsIn = (text: string): ReadonlyArray<string> => (text.match(/[A-Za-z]{4,}/g) ?? []).map(stem)

/** The words of what a scale note excepts (`except number of shares ... and per-share amounts`). */
const exceptedWords = (text: string): ReadonlySet<string> => {
  const clause = exceptPattern.exec(text)?.[1] ?? ""
  const ignored = new Set(["which", "where", "noted", "otherwise", "amount", "data", "number", "reflected", "thousand"])
  return new Set(wordsIn(clause).filter((word) => !ignored.has(word)))
}

/** The scale a text says amounts are in (`(In millions, except per share amounts)`), if it says one. */
export const scaleIn = (text: string): Scale | undefined => {
  const match = scalePattern.exec(text)
  return match === null ? undefined : ((match[1] ?? match[2])!.toLowerCase().slice(0, -1) as Scale)
}

const yearPattern = /\b(?:19|20)\d\d\b/g
const quarterPattern = /\b(?:three months|quarter|thirteen weeks|13 weeks|Q[1-4])\b/i
const yearToDatePattern = /\b(?:six months|nine months|twenty-six weeks|thirty-nine weeks|26 weeks|39 weeks)\b/i
const yearSpanPattern = /\b(?:years?|fiscal|twelve months|52 weeks|53 weeks|full year)\b/i

/** The span a period's words name. */
export const spanOf = (text: string): Span =>
  quarterPattern.test(text)
    ? "quarter"
    : yearToDatePattern.test(text)
    ? "year-to-date"
    : yearSpanPattern.test(text)
    ? "year"
    : "other"

const yearsOf = (text: string): ReadonlyArray<string> => [...new Set(text.match(yearPattern) ?? [])]

/**
 * The column groups of the last header row when it is a row of periods that starts over
 * (`2018 2017 2016 2018 2017 2016` is two groups of three columns): the first column of each group.
 */
const groupStarts = (row: ReadonlyArray<string>): ReadonlyArray<number> => {
  const starts: Array<number> = []
  let first = ""
  let previous = ""
  for (let column = 1; column < row.length; column++) {
    const cell = (row[column] ?? "").trim()
    if (cell === "") continue
    if (starts.length === 0) first = cell
    if (starts.length === 0 || cell === first || cell >= previous) starts.push(column)
    previous = cell
  }
  return starts
}

/**
 * Each column's heading from the header rows: the cells above it, a label carried right over the
 * empty cells after it (a label spans the columns it heads). A row with one label per group of
 * periods in the last header row sets each label over its group, where the cells' places do not
 * (a table printed to PDF: `Capital Spending` over the second `2018 2017 2016`).
 */
const headingsOf = (header: ReadonlyArray<ReadonlyArray<string>>, width: number): ReadonlyArray<string> => {
  const parts: Array<Array<string>> = Array.from({ length: width }, () => [])
  const last = header.at(-1) ?? []
  const groups = groupStarts(last)
  for (const row of header) {
    // A note of the scale (`($ in millions)`) is no part of a column's period.
    const cells = row.map((cell) => (scaleIn(cell) === undefined ? cell.trim() : ""))
    const labels = cells.slice(1).filter((cell) => cell !== "")
    const byGroup = row !== last && groups.length > 1 && labels.length === groups.length
    let carried = ""
    for (let column = 1; column < width; column++) {
      const cell = cells[column] ?? ""
      if (cell !== "") carried = cell
      const group = groups.filter((start) => start <= column).length - 1
      const text = byGroup ? (group >= 0 ? labels[group]! : "") : cell !== "" ? cell : carried
      if (text !== "" && parts[column]!.at(-1) !== text) parts[column]!.push(text)
    }
  }
  return parts.map((words) => words.join(" "))
}

const percentCaption = /\b(?:as a )?percent(?:age)? of\b/i

/** Words a caption has at most; a longer paragraph before a table is prose about something else. */
const captionWords = 60

/**
 * Whether a row ends the group it stands under: its total (`Total net sales`), or a row naming
 * what the group's label ends with (`Net cash used in financing activities` under `Cash flows from
 * financing activities`). The rows after it stand under the table, or the next group.
 */
const closesGroup = (label: string, group: string): boolean => {
  const words = group.toLowerCase().match(/[a-z&]+/g) ?? []
  const tail = words.length >= 2 ? words.slice(-2).join(" ") : undefined
  return /^total\b/i.test(label) || (tail !== undefined && label.toLowerCase().replace(/\s+/g, " ").includes(tail))
}

/**
 * The blocks that title a table: the headings and short paragraphs right before it, in reading
 * order. A paragraph above a heading is the end of what came before it, not the table's title.
 */
const titleBlocks = (
  before: ReadonlyArray<Blocks.Block>
): ReadonlyArray<Blocks.HeadingBlock | Blocks.ParagraphBlock> => {
  const said: Array<Blocks.HeadingBlock | Blocks.ParagraphBlock> = []
  for (let index = before.length - 1; index >= 0 && index >= before.length - 3; index--) {
    const block = before[index]!
    const underHeading = said.some((taken) => taken.kind === "heading")
    if (
      block.kind === "heading" || (block.kind === "paragraph" && !underHeading && wordCount(block.text) <= captionWords)
    ) {
      said.unshift(block)
    } else {
      break
    }
  }
  return said
}

const wordCount = (text: string) => text.split(/\s+/).length

const statementTitle =
  /\b(?:statements?|balance sheets?)\s+of\s+(?:consolidated\s+)?(?:operations|income|earnings|comprehensive (?:income|loss)|cash flows|financial (?:position|condition))\b|\bbalance sheets?\b/i

// A heading, or a line as short as one (`Consolidated Balance Sheets`), names the statement; a
// footnote that mentions "the accompanying Statement of Consolidated Operations" does not.
const namesStatement = (block: Blocks.HeadingBlock | Blocks.ParagraphBlock) =>
  (block.kind === "heading" || wordCount(block.text) <= 12) && statementTitle.test(block.text)

/** The caption of a table: the paragraph right before it, past any heading. */
const captionOf = (before: ReadonlyArray<Blocks.Block>): string | undefined => {
  for (let index = before.length - 1; index >= 0 && index >= before.length - 3; index--) {
    const block = before[index]!
    if (block.kind === "heading") continue
    return block.kind === "paragraph" ? block.text : undefined
  }
  return undefined
}

/** The scale of a table: said in its header cells, or else in the paragraph just before it. */
const scaleOfTable = (
  table: Blocks.TableBlock,
  before: ReadonlyArray<Blocks.Block>
): { readonly scale: Scale | undefined; readonly except: ReadonlySet<string> } => {
  const noted = table.rows.slice(0, table.headerRows).flat().find((cell) => scaleIn(cell) !== undefined)
  if (noted !== undefined) return { scale: scaleIn(noted), except: exceptedWords(noted) }
  const caption = captionOf(before) ?? ""
  const scale = scaleIn(caption)
  return { scale, except: scale === undefined ? new Set() : exceptedWords(caption) }
}

// Rows of costs and expenses: what they show in parentheses is deducted, an amount spent.
const expenseLabel =
  /\b(?:costs?|expenses?|research and development|selling|general and administrative|depreciation|amortization|impairment|restructuring|provision for|income taxes)\b/i
// Values that are never amounts of the table's scale: per-share amounts, ratios, percentages.
const unscaledLabel = /\bper[\s-]share\b|\bratio\b|%|\bpercent/i
const parenthesized = /^\s*\$?\s*\(\s*\$?\s*([\d,.]+)\s*\)\s*$/

/**
 * A value as the answer states it: scaled, unless its row or column is what the scale note excepts
 * (`except per share data`, `except Employees`), and a deduction shown in parentheses as its amount.
 */
export const statedValue = (
  cell: string,
  label: string,
  scale: Scale | undefined,
  except: ReadonlySet<string> = new Set(),
  heading = ""
): string => {
  const trimmed = cell.trim()
  const deduction = parenthesized.exec(trimmed)
  const amount = deduction !== null && expenseLabel.test(label)
    ? `${trimmed.includes("$") ? "$" : ""}${deduction[1]}`
    : trimmed
  const excepted = [...wordsIn(label), ...wordsIn(heading)].some((word) => except.has(word))
  const unscaled = trimmed.includes("%") || excepted || unscaledLabel.test(label)
  return scale === undefined || unscaled ? amount : `${amount} ${scale}`
}

const isValue = (cell: string) => Blocks.isAmountCell(cell) || /^\s*\$?\s*[—–-]\s*$/.test(cell)

/**
 * Reads `table`, with the blocks `before` it in its passage (the last of them its caption, when
 * one says its scale).
 */
export const readTable = (table: Blocks.TableBlock, before: ReadonlyArray<Blocks.Block> = []): Reading => {
  const width = Math.max(0, ...table.rows.map((row) => row.length))
  const header = table.rows.slice(0, table.headerRows)
  const headings = headingsOf(header, width)
  const columns: Array<Column> = headings.map((heading, index) => ({
    index,
    heading,
    span: spanOf(heading),
    years: yearsOf(heading)
  }))
  const { except, scale } = scaleOfTable(table, before)
  // A table of percentages (`expressed as a percentage of revenue`) states each value as one.
  const percent = percentCaption.test(captionOf(before) ?? "")
  const rows: Array<Row> = []
  let group: string | undefined
  for (const cells of table.rows.slice(table.headerRows)) {
    const label = (cells[0] ?? "").trim().replace(/\s*:$/, "")
    if (label === "" || Blocks.isAmountCell(label)) continue
    const values = cells.flatMap((cell, index) =>
      index === 0 || !isValue(cell)
        ? []
        : [{
          cell: cell.trim(),
          column: columns[index]!,
          stated: percent && !cell.includes("%")
            ? `${cell.trim()}%`
            : statedValue(cell, label, scale, except, columns[index]!.heading)
        }]
    )
    if (values.length === 0) {
      // A row of no values that names a period is a header row the table did not mark, no group.
      group = /\b(?:19|20)\d\d\b/.test(label) ? undefined : label
      continue
    }
    rows.push({ label, ...(group === undefined ? {} : { group }), values, percent })
    if (group !== undefined && closesGroup(label, group)) group = undefined
  }
  const title = titleBlocks(before)
  return {
    title: title.map((block) => block.text).join(" "),
    statement: title.some(namesStatement),
    scale,
    columns,
    rows
  }
}

/**
 * What a question asks of a table: the years it names, the span it asks about, and whether it asks
 * for a percentage.
 */
export interface PeriodAsked {
  readonly years: ReadonlyArray<string>
  /** Whether the question asks for a share or a rate (`what percentage`, `margin`), which a table of percentages holds. */
  readonly percent?: boolean | undefined
  /** `quarter` ("in the second quarter"), `year` ("in fiscal 2024"), or none said. */
  readonly span: Span | undefined
}

/** The period a question asks about. */
export const periodAsked = (question: string): PeriodAsked => {
  const years = yearsOf(question)
  const span = quarterPattern.test(question) || /\bQ[1-4]\b/i.test(question)
    ? "quarter"
    : yearToDatePattern.test(question)
    ? "year-to-date"
    : years.length > 0 || /\b(?:fiscal|annual|year)\b/i.test(question)
    ? "year"
    : undefined
  return { years, span, percent: /%|\bpercent|\bmargin\b|\brate\b|\bshare of\b/i.test(question) }
}

/** How well a row's values chosen for a question fit its period: 1 when they do, less when they do not. */
export interface Chosen {
  readonly values: ReadonlyArray<Value>
  readonly fit: number
}

/**
 * The values of `row` that answer for the period asked: the columns of an asked year (else the
 * latest year the table shows), of the span asked when some are (a year's column, not a quarter's,
 * for "in fiscal 2024"). `fit` is lower when the row holds no column of the year or span asked.
 */
export const valuesFor = (row: Row, asked: PeriodAsked): Chosen => {
  const chosen = valuesOfPeriod(row, asked)
  // A percentage is no answer to a question for an amount.
  return row.percent && asked.percent !== true ? { ...chosen, fit: chosen.fit * 0.5 } : chosen
}

const valuesOfPeriod = (row: Row, asked: PeriodAsked): Chosen => {
  const dated = row.values.filter((value) => value.column.years.length > 0)
  if (dated.length === 0) return { values: row.values.slice(0, 1), fit: asked.years.length > 0 ? 0.6 : 1 }
  const ofYear = asked.years.length > 0
    ? dated.filter((value) => value.column.years.some((year) => asked.years.includes(year)))
    : (() => {
      const latest = dated.map((value) => value.column.years.at(-1)!).sort().at(-1)
      return dated.filter((value) => value.column.years.includes(latest!))
    })()
  if (ofYear.length === 0) return { values: [], fit: 0 }
  // A year's figure is in a column of the year, or of no span said (`2024` alone).
  const fitting = (value: Value) =>
    asked.span === "year"
      ? value.column.span === "year" || value.column.span === "other"
      : value.column.span === asked.span
  const ofSpan = asked.span === undefined ? ofYear : ofYear.filter(fitting)
  if (ofSpan.length > 0) return { values: ofSpan, fit: 1 }
  return { values: ofYear, fit: 0.5 }
}

/** A row as the answer's sentence: `Total net sales: $391,035 million (Years ended September 28, 2024).` */
export const sentenceOf = (label: string, values: ReadonlyArray<Value>): string =>
  `${label}: ${
    values.map((value) => value.column.heading === "" ? value.stated : `${value.stated} (${value.column.heading})`)
      .join("; ")
  }.`
