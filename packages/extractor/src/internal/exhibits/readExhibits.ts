/**
 * Exhibit references from the exhibit index (the table of exhibit numbers and descriptions in
 * Item 15 of a 10-K, Item 6 of a 10-Q, Item 9.01 of an 8-K) and from the exhibit documents of a
 * full submission, one per number, ordered by number.
 */
import type { ExtractedValues } from "@filings/domain"
import type { Blocks, ParsedDocument } from "@filings/filings-parser"
import { locateTables, mergeHeaderRows } from "../tables/readTables.js"

/** An entry of the exhibit index: an exhibit reference before its url is known. */
export type ExhibitEntry = Omit<ExtractedValues.ExhibitReference, "url">

const exhibitNumber =
  /^(?:ex(?:hibit)?\.?\s*)?(\d{1,3}(?:\.\d{1,3}){0,2}(?:\.?[A-Z]{1,3})?|\d{1,3}\([a-z0-9]+\)(?:\([a-z0-9]+\))?)(?=$|[\s*†‡#+^§]|\(\d\))/i

/** `4.1**` → `4.1`, `10.19*, **` → `10.19`, `Exhibit 99.1` → `99.1`; undefined when it is no number. */
export const cleanNumber = (cell: string): string | undefined => {
  // `4.` in older indexes: a trailing period closes the number.
  const trimmed = cell.trim().replace(/\s*\+$/, "").replace(/(\d)\.$/, "$1")
  const match = exhibitNumber.exec(trimmed)
  if (match?.[1] === undefined) return undefined
  const rest = trimmed.slice(match[0].length).replace(/[\s*†‡#+^§,]|\(\d\)/g, "")
  return rest === "" ? match[1].replace(/\.?[a-z]+$/i, (suffix) => suffix.toUpperCase()) : undefined
}

const herewith =
  /[(\[]?\s*(?:filed|furnished|submitted|included)\s+(?:herewith|electronically herewith|with this report)\s*\.?\s*[)\]]?\.?/gi

/** Description cleaned of footnote marks, `Filed herewith` notes and extra whitespace. */
export const cleanDescription = (text: string): string =>
  text
    .replace(herewith, " ")
    .replace(/[*†‡§]+/g, " ")
    .replace(/\s*\((?:\d|[a-z])\)\s*$/i, "")
    .replace(/\s+/g, " ")
    .replace(/\s+([.,;:])/g, "$1")
    .trim()

const numberHeader = /exhibit\s*(?:no\.?|number|#)?$|^no\.?$|^number$|^exhibit$/i
const descriptionHeader = /description|exhibit title|^document$|^title$|^exhibit$/i

/** Exhibit rows from the document's exhibit index tables. */
export const readExhibitIndex = (document: ParsedDocument.ParsedDocument): Array<ExhibitEntry> => {
  const entries: Array<ExhibitEntry> = []
  for (const located of locateTables(document)) {
    const { headerRows, rows } = located.table
    const width = Math.max(...rows.map((row) => row.length))
    let headers = mergeHeaderRows(rows.slice(0, headerRows), width)
    let body: ReadonlyArray<ReadonlyArray<string>> = rows.slice(headerRows)
    let numberColumn = headers.findIndex((cell) => numberHeader.test(cell.trim()))
    if (numberColumn < 0 && body.length > 0) {
      // The column names may sit in the row under a title written across the table (`EXHIBIT INDEX`).
      const withNext = mergeHeaderRows(rows.slice(0, headerRows + 1), width)
      const column = withNext.findIndex((cell) => numberHeader.test(cell.trim()))
      if (column >= 0) {
        headers = withNext
        body = rows.slice(headerRows + 1)
        numberColumn = column
      }
    }
    const exhibitSection = /^(?:15|16|part2item6|9\.01|19)$/i.test(located.sectionItem ?? "")
      || /exhibit/i.test(located.heading ?? "") || /exhibit/i.test(located.before.join(" "))
    if (numberColumn < 0) {
      // No column names: a table in an exhibit section whose first column, below its header (or its
      // first row), is mostly exhibit numbers. Every row is read as an entry, the header's too.
      const under = rows.slice(Math.max(1, headerRows))
      const numbered = under.filter((row) => cleanNumber(row[0] ?? "") !== undefined).length
      if (!exhibitSection || width < 2 || numbered < Math.max(1, Math.ceil(under.length * 0.6))) continue
      numberColumn = 0
      headers = []
      body = rows
    }
    let descriptionColumn = headers.findIndex((cell, index) => index !== numberColumn && descriptionHeader.test(cell))
    if (descriptionColumn < 0) descriptionColumn = numberColumn + 1
    for (const row of body) {
      const number = cleanNumber(row[numberColumn] ?? "")
      if (number === undefined) continue
      const description = cleanDescription(row[descriptionColumn] ?? "")
      entries.push({ number, description })
    }
  }
  return entries
}

const numberKey = (number: string): Array<number | string> =>
  number.split(/[.()]/).filter((part) => part !== "").flatMap((part) => {
    const match = /^(\d+)([A-Z]*)$/i.exec(part)
    return match === null ? [part] : [Number(match[1]), match[2] ?? ""]
  })

/** Orders exhibit numbers as an index lists them: 3.1, 3.2, 4.1, 4.10, 10.1, 31.1, 101. */
export const compareNumbers = (left: string, right: string): number => {
  const a = numberKey(left)
  const b = numberKey(right)
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    const x = a[index]
    const y = b[index]
    if (x === y) continue
    if (x === undefined || x === "") return -1
    if (y === undefined || y === "") return 1
    if (typeof x === "number" && typeof y === "number") return x - y
    return String(x).localeCompare(String(y))
  }
  return 0
}

/** Lines of inline content as Markdown writes it: one more after each hard break, nested ones too. */
const lineCount = (nodes: ReadonlyArray<Blocks.Inline>): number =>
  nodes.reduce(
    (count, node) =>
      count +
      (node.kind === "break" ? 1 : node.kind === "text" || node.kind === "image" ? 0 : lineCount(node.children) - 1),
    1
  )

/** How many lines a block takes in Markdown, the blank line after it included. */
const markdownLines = (block: Blocks.Block): number => {
  switch (block.kind) {
    case "heading":
      return 2
    case "paragraph":
      return lineCount(block.inlines) + 1
    case "list":
      return block.items.reduce((count, item) => count + lineCount(item.inlines), 1)
    case "table":
      return block.rows.length + 2
    case "preformatted":
      return block.text.split("\n").length + 3
  }
}

// Only the top of an exhibit's document is its title page.
const titleLines = 40

// A submission's exhibit is often described only by its type: the document's first heading says more.
const describeExhibit = (exhibit: ParsedDocument.ParsedExhibit): string => {
  const given = cleanDescription(exhibit.title)
  if (given !== "" && !/^EX-\d/i.test(given)) return given
  let line = 0
  for (const block of exhibit.blocks) {
    if (line >= titleLines) break
    line += markdownLines(block)
    if (block.kind !== "heading") continue
    const text = cleanDescription(block.text)
    if (text !== "" && !/^exhibit\s+[\d.]+[a-z]?\.?$/i.test(text)) return text
  }
  return given
}

/** Exhibits from the index and the submission, one per number, ordered by number. */
export const readExhibits = (document: ParsedDocument.ParsedDocument): Array<ExhibitEntry> => {
  const byNumber = new Map<string, ExhibitEntry>()
  for (const entry of readExhibitIndex(document)) {
    const known = byNumber.get(entry.number)
    if (known === undefined || (known.description === "" && entry.description !== "")) byNumber.set(entry.number, entry)
  }
  for (const exhibit of document.exhibits) {
    const number = exhibit.exhibitNumber.toUpperCase()
    const indexed = byNumber.get(number)
    if (indexed !== undefined && indexed.description !== "") continue
    byNumber.set(number, { number, description: describeExhibit(exhibit) })
  }
  return [...byNumber.values()].sort((left, right) => compareNumbers(left.number, right.number))
}
