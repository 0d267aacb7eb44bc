/**
 * Which leading rows of a table are its header (the column labels), decided once here for every
 * format, so readers of a `TableBlock` take its `headerRows` rather than guess.
 *
 * Filings rarely mark their headers (`<thead>`, `<th>`): financial tables are laid out for print,
 * and their headers are told by their content. A header is written over several rows when a label
 * spans the columns under it (`Three Months Ended` over two dates, `Incorporated by Reference` over
 * form, exhibit and date), and a table may have no header at all (its first row already holds
 * amounts). Where the HTML marks its header rows, `markedHeaderRows` says how many, and the
 * markup wins.
 */

const year = /^(?:FY\s*)?(?:19|20)\d{2}[A-Z]?$/i
const amount = /^[(\-–—+]?\s*[$€£¥]?\s*\(?\s*[\d,.]*\d[\d,.]*\s*\)?\s*%?\)?$/

/** A cell holding an amount (not a year heading): `$1,234`, `(565)`, `6.08`, `12%`. */
export const isAmount = (cell: string): boolean => amount.test(cell.trim()) && !year.test(cell.trim())

const isEmpty = (cell: string): boolean => cell.trim() === ""

const filledCount = (row: ReadonlyArray<string>): number => row.filter((cell) => !isEmpty(cell)).length

/** A row that continues the header: first cell empty (no row label), no amounts, something written. */
const continuesHeader = (row: ReadonlyArray<string>): boolean =>
  isEmpty(row[0] ?? "") && filledCount(row) > 0 && !row.some(isAmount)

/**
 * How many leading rows of a table are header rows, from its cells:
 *
 * - 0 when the first row holds an amount: the table has no header, its first row is data;
 * - else the first row, then the rows under it that continue the header (first cell empty, no
 *   amounts, something written), always leaving at least one row under the header;
 * - a first row mostly empty (`|  |  | Incorporated by Reference |  |  |`) is the top of a
 *   two-row header: the row under it is a header row too when it holds two labels and no amounts.
 */
export const headerRowCount = (rows: ReadonlyArray<ReadonlyArray<string>>): number => {
  const [first, second] = rows
  if (first === undefined || first.some(isAmount)) return 0
  const width = first.length
  let count = 1
  const sparse = isEmpty(first[0] ?? "") && filledCount(first) * 2 < width
  if (sparse && rows.length > 2 && second !== undefined && !second.some(isAmount) && filledCount(second) >= 2) {
    count = 2
  }
  while (count < rows.length - 1 && continuesHeader(rows[count] ?? [])) count++
  return count
}

/**
 * How many leading rows the markup marks as header rows (`<thead>` rows, rows of `<th>` cells),
 * given whether each row is marked; undefined when it marks none of them, or all (a table of
 * `<th>` cells only marks nothing apart): the cells decide then.
 */
export const markedHeaderRows = (marked: ReadonlyArray<boolean>): number | undefined => {
  let count = 0
  while (count < marked.length && marked[count] === true) count++
  return count === 0 || count === marked.length ? undefined : count
}
