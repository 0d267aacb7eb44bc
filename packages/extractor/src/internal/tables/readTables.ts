/**
 * The tables of a parsed document with what a reader needs to use them: the section they sit in,
 * a title (the heading or short paragraph just before), one header row (the block's header rows
 * joined), rows padded to the header's width, the unit, and a conservative financial-statement type.
 */
import type { ExtractedValues } from "@filings/domain"
import { Blocks, type ParsedDocument } from "@filings/filings-parser"
import { type DocumentPart, exhibitPart, partsOf, readParts, type TablePart } from "./documentParts.js"

/** The table types the extractor gives: the one declaration of `ExtractedValues.TableType`. */
export type TableType = ExtractedValues.TableType

/** A table as read: the one shape of `ExtractedValues.Table`. */
export type ReadTable = ExtractedValues.Table

/** A table with the text blocks just before it, as found in one section. */
export interface LocatedTable {
  readonly section: string
  readonly sectionItem: string | undefined
  readonly table: TablePart
  /** The text blocks between the previous table (or the section start) and this one, nearest last. */
  readonly before: ReadonlyArray<string>
  /** The nearest heading above the table in its section, when there is one. */
  readonly heading: string | undefined
}

const sameRow = (left: ReadonlyArray<string>, right: ReadonlyArray<string>): boolean =>
  left.length === right.length && left.every((cell, index) => cell === right[index])

/**
 * The exhibits whose tables are the filing's numbers: an annual report to security holders (EX-13,
 * where older 10-Ks put their financial statements) and the press releases and supplements an 8-K
 * furnishes (EX-99.x). Each is one part named after the exhibit.
 */
const financialExhibitsOf = (document: ParsedDocument.ParsedDocument): Array<DocumentPart> =>
  document.exhibits.flatMap((exhibit) =>
    /^(?:13|99)(?:\.|$)/.test(exhibit.exhibitNumber) && exhibit.blocks.some((block) => block.kind === "table") &&
      // An exhibit that is the document's body (its primary document) is read already.
      !isBody(document, exhibit)
      ? [exhibitPart(`Exhibit ${exhibit.exhibitNumber}`, exhibit.blocks)]
      : []
  )

/** How many of an exhibit's first blocks must be the body's, in order, for the exhibit to be the body. */
const sameBlocksNeeded = 8

/**
 * Whether an exhibit is the document's body rather than a document of its own: it is the primary
 * file, or its first blocks are a run of the body's blocks (the same text, block by block).
 */
const isBody = (document: ParsedDocument.ParsedDocument, exhibit: ParsedDocument.ParsedExhibit): boolean => {
  if (exhibit.fileName !== undefined && exhibit.fileName === document.primaryFileName) return true
  const opening = exhibit.blocks.slice(0, sameBlocksNeeded).map(Blocks.blockText)
  if (opening.length === 0) return false
  return document.blocks.some((block, start) =>
    Blocks.blockText(block) === opening[0] &&
    opening.every((text, offset) => {
      const body = document.blocks[start + offset]
      return body !== undefined && Blocks.blockText(body) === text
    })
  )
}

// Tables and the exhibit index both need the located tables of a document: find them once.
const locatedOf = new WeakMap<ParsedDocument.ParsedDocument, ReadonlyArray<LocatedTable>>()

/** The tables of the document in body order; a table continued on the next page is joined to its start. */
export const locateTables = (document: ParsedDocument.ParsedDocument): ReadonlyArray<LocatedTable> => {
  let located = locatedOf.get(document)
  if (located === undefined) {
    located = locateTablesIn(partsOf(document))
    locatedOf.set(document, located)
  }
  return located
}

const locateTablesIn = (parts: ReadonlyArray<DocumentPart>): Array<LocatedTable> => {
  const located: Array<LocatedTable> = []
  for (const section of parts) {
    let before: Array<string> = []
    let heading: string | undefined
    let previous: LocatedTable | undefined
    for (const block of readParts(section)) {
      if (block.kind === "text") {
        before.push(block.text)
        if (block.depth > 0) heading = block.text
        continue
      }
      // A page break repeats the first row: same first row, nothing in between, same table.
      if (previous !== undefined && before.length === 0 && sameRow(previous.table.rows[0] ?? [], block.rows[0] ?? [])) {
        const merged: LocatedTable = {
          ...previous,
          table: {
            ...previous.table,
            rows: [...previous.table.rows, ...rowsAfterRepeatedHeader(previous.table, block)]
          }
        }
        located[located.length - 1] = merged
        previous = merged
        continue
      }
      previous = { section: section.title, sectionItem: section.item, table: block, before, heading }
      located.push(previous)
      before = []
    }
  }
  return located
}

// The continued part's rows after the first (its start's): a header of several rows repeated in full
// is dropped too, as far as both parts have it as header rows.
const rowsAfterRepeatedHeader = (start: TablePart, continued: TablePart): ReadonlyArray<ReadonlyArray<string>> => {
  let skip = 1
  while (
    skip < continued.headerRows && skip < start.headerRows &&
    sameRow(start.rows[skip] ?? [], continued.rows[skip] ?? [])
  ) skip++
  return continued.rows.slice(skip)
}

/**
 * One header row from a table's header rows (none: every label empty). A label written over several
 * columns (`Three Months Ended` over two dates) is in the first of them with empty cells after it:
 * it applies to those empty cells until the next label.
 */
export const mergeHeaderRows = (
  headerRows: ReadonlyArray<ReadonlyArray<string>>,
  width: number
): Array<string> => {
  const merged: Array<Array<string>> = Array.from({ length: width }, () => [])
  headerRows.forEach((row, rowIndex) => {
    const spanning = rowIndex < headerRows.length - 1
    let carried = ""
    for (let column = 0; column < width; column++) {
      const cell = row[column] ?? ""
      if (cell !== "") carried = cell
      const label = cell !== "" ? cell : spanning && column > 0 ? carried : ""
      const labels = merged[column]
      if (label !== "" && labels !== undefined && labels[labels.length - 1] !== label) labels.push(label)
    }
  })
  return merged.map((labels) => labels.join(" "))
}

const scaleWords: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bin\s+billions\b|\bbillions\s+of\b|\$\s*in\s+billions/i, "billions"],
  [/\bin\s+millions\b|\bmillions\s+of\s+(?:u\.?s\.?\s+)?dollars\b|\$\s*in\s+millions|\(\s*millions\b/i, "millions"],
  [
    /\bin\s+thousands\b|\bthousands\s+of\s+(?:u\.?s\.?\s+)?dollars\b|\$\s*in\s+thousands|\(\s*thousands\b|\$000s?\b/i,
    "thousands"
  ]
]

const unitStatement =
  /\(([^()]*\b(?:in|of)\s+(?:billions|millions|thousands)\b[^()]*)\)|\b((?:dollars|amounts|\$)\s+in\s+(?:billions|millions|thousands)[^.:;)]*)/i

const sharesScale =
  /\b(?:shares?\s+(?:are\s+)?in\s+(?:thousands|millions)|in\s+(?:thousands|millions)\s+of\s+shares|(?:thousands|millions)\s+of\s+shares)\b/i
const moneyWord =
  /\$|\bdollars?\b|\bamounts?\b|\bexcept\b|income|revenue|sales|expense|cost|price|value|assets|liabilit/i

// "(shares in thousands)" is a count; "(net income in millions and shares in thousands)" is money.
const isShareCount = (text: string): boolean => {
  const rest = text.replace(sharesScale, " ")
  if (rest !== text) return !scaleWords.some(([pattern]) => pattern.test(rest))
  return /\bshares?\b/i.test(text) && !moneyWord.test(text.replace(/share-based/gi, ""))
}

const currencyOf = (text: string): string => {
  if (/canadian dollars?|\bCAD\b|\bC\$/i.test(text)) return "CAD"
  if (/€|\beuros?\b|\bEUR\b/i.test(text)) return "EUR"
  if (/£|\bpounds?\s+sterling\b|\bGBP\b/i.test(text)) return "GBP"
  if (/\bRMB\b|\brenminbi\b|\bCNY\b/i.test(text)) return "CNY"
  if (/¥|\byen\b|\bJPY\b/i.test(text)) return "JPY"
  return "USD"
}

/**
 * The unit of a table from the unit statement near it (`(In millions, except per share amounts)`)
 * in its caption lines or header cells, else `USD` when its cells carry `$`, else "". When the
 * statement has exceptions, it is returned as the table's `format` so the exceptions are not lost.
 */
export const unitOf = (
  context: ReadonlyArray<string>,
  cells: ReadonlyArray<string>
): { readonly unit: string; readonly format?: string | undefined } => {
  for (const text of context) {
    const scale = scaleWords.find(([pattern]) => pattern.test(text))
    if (scale === undefined) continue
    const statement = unitStatement.exec(text)
    const written = (statement?.[1] ?? statement?.[2])?.trim()
    const sharesOnly = isShareCount(text)
    const unit = sharesOnly ? "shares" : `${currencyOf(text)} ${scale[1]}`
    return written !== undefined && /\bexcept\b/i.test(written) ? { unit, format: written } : { unit }
  }
  const expressed = context.find((text) =>
    /\bexpressed in\b[^.]*\b(?:dollars?|euros?|pounds?|yen|renminbi|RMB)\b/i.test(text)
  )
  if (expressed !== undefined) return { unit: currencyOf(expressed) }
  if (cells.some((cell) => /^\(?\$/.test(cell.trim()))) return { unit: "USD" }
  return { unit: "" }
}

const norm = (label: string): string =>
  label.toLowerCase().replace(/[’‘`]/g, "'").replace(/\s+/g, " ").replace(/[:\s]+$/, "").trim()

interface Evidence {
  readonly name: string
  readonly pattern: RegExp
}

const incomeEvidence: ReadonlyArray<Evidence> = [
  { name: "revenue", pattern: /^(?:total\s+)?(?:net\s+)?(?:sales|revenues?|net sales|operating revenues?)\b/ },
  { name: "cost", pattern: /^(?:total\s+)?cost of (?:sales|revenues?|goods sold|products sold)/ },
  { name: "gross", pattern: /^gross (?:profit|margin)$/ },
  {
    name: "operating",
    pattern:
      /^(?:total\s+)?(?:operating income|income from operations|operating (?:income )?\(?loss\)?|(?:loss|income) \(?(?:loss|income)?\)? from operations)/
  },
  { name: "pretax", pattern: /^(?:income|earnings|loss).{0,30}before (?:provision for )?income tax/ },
  { name: "netIncome", pattern: /^net (?:income|earnings|loss)(?: \(loss\))?(?: attributable to .*)?$/ },
  { name: "eps", pattern: /(?:earnings|income|loss)(?: \(loss\))? per (?:common )?share|^basic$|^diluted$/ }
]

const balanceEvidence: ReadonlyArray<Evidence> = [
  { name: "totalAssets", pattern: /^total assets$/ },
  { name: "totalLiabilities", pattern: /^total liabilities$/ },
  {
    name: "equity",
    pattern:
      /^total (?:stockholders'|shareholders'|share ?owners'|stockholders|shareholders) (?:equity|deficit)|^total equity$/
  },
  {
    name: "liabilitiesAndEquity",
    pattern:
      /^total liabilities(?:,)? (?:and|&) (?:stockholders'|shareholders'|share ?owners'|stockholders|shareholders)? ?(?:equity|deficit)/
  },
  { name: "currentAssets", pattern: /^total current assets$/ },
  { name: "currentLiabilities", pattern: /^total current liabilities$/ }
]

const cashEvidence: ReadonlyArray<Evidence> = [
  { name: "operating", pattern: /operating activities/ },
  { name: "investing", pattern: /investing activities/ },
  { name: "financing", pattern: /financing activities/ }
]

const found = (labels: ReadonlyArray<string>, evidence: ReadonlyArray<Evidence>): Set<string> => {
  const names = new Set<string>()
  for (const label of labels) {
    for (const item of evidence) if (item.pattern.test(label)) names.add(item.name)
  }
  return names
}

const incomeTitle =
  /statements? of (?:consolidated )?(?:operations|income|earnings)(?! and comprehensive)|income statements?|statements? of (?:operations|income|earnings) and comprehensive/i
const comprehensiveOnly = /statements? of comprehensive (?:income|loss)/i
const balanceTitle = /balance sheets?|statements? of financial (?:position|condition)/i
const cashTitle = /statements? of cash flows?|cash flows? statements?/i
const equityTitle =
  /statements? of (?:changes in )?(?:stockholders'|shareholders'|share ?owners'|stockholders|shareholders)?\s*equity/i
const segmentTitle =
  /\b(?:by|per|for each)\s+(?:reportable\s+|operating\s+|business\s+)?(?:segments?|geograph\w*|regions?|countr\w*|products?|categor\w*|markets?|business(?:es)?)|\bsegment (?:information|results|revenues?|net sales|data)|\bdisaggregat|\bgeographic (?:information|data|areas?)|\brevenues? by\b|\bsales by\b/i
const revenueWord = /\b(?:revenues?|net sales|sales)\b/i

/**
 * A table's type from its title and row labels. Conservative: a title alone or a few matching rows
 * alone are not enough, except when the row labels make the statement unmistakable.
 */
export const classify = (
  title: string,
  captions: ReadonlyArray<string>,
  rowLabels: ReadonlyArray<string>,
  values: ReadonlyArray<string> = []
): TableType => {
  // Items as a percentage of revenue are analysis, not the statement.
  const amounts = values.filter(Blocks.isAmountCell)
  if (amounts.length > 0 && amounts.filter((cell) => /%\)?$/.test(cell.trim())).length * 2 > amounts.length) {
    return "other"
  }
  if (/\bas an? (?:percent(?:age)?|%) of\b|\bpercent(?:age)? of (?:total |net )*(?:revenues?|sales)\b/i.test(title)) {
    return "other"
  }
  // Notes that summarise someone else's figures (equity investees, pro forma, quarterly data) are
  // not the company's statements, whatever their rows say.
  const summaryNote =
    /investees?|equity method|pro forma|summar(?:y|ized) (?:of )?(?:unaudited )?financial information|quarterly (?:financial )?(?:data|results)|selected financial data/i
  if (summaryNote.test(title)) return "other"
  const labels = rowLabels.map(norm).filter((label) => label !== "")
  const heading = `${title} ${captions.join(" ")}`.replace(/[’‘]/g, "'")
  const income = found(labels, incomeEvidence)
  const balance = found(labels, balanceEvidence)
  const cash = found(labels, cashEvidence)

  if (cashTitle.test(heading) && cash.size >= 2) return "cash_flow"
  if (
    cash.size === 3 &&
    labels.some((label) =>
      /net (?:increase|decrease|change) in cash|cash.*(?:end|beginning) of (?:the )?(?:period|year)|ending balances?/
        .test(label)
    )
  ) return "cash_flow"

  const assetsAndClaims = balance.has("totalAssets")
    && (balance.has("liabilitiesAndEquity") || balance.has("totalLiabilities"))
  if (assetsAndClaims && (balanceTitle.test(heading) || balance.has("equity") || balance.has("currentAssets"))) {
    return "balance_sheet"
  }

  if (!equityTitle.test(heading) && !(comprehensiveOnly.test(heading) && !incomeTitle.test(heading))) {
    const strongRows = income.has("revenue") && income.has("netIncome")
      && (income.has("eps") || income.has("cost") || income.has("operating")) && income.size >= 4
    if (incomeTitle.test(heading) && income.has("netIncome") && income.size >= 3) return "income_statement"
    if (strongRows && income.size >= 5) return "income_statement"
  }

  const hasNumbers = rowLabels.length >= 2
  if (
    hasNumbers && segmentTitle.test(title) &&
    (revenueWord.test(title) ||
      labels.some((label) => /^total (?:net )?(?:sales|revenues?)|^(?:net )?(?:sales|revenues?)$/.test(label)))
  ) {
    if (!income.has("netIncome") && !balance.has("totalAssets")) return "segment_revenue"
  }
  return "other"
}

const isCaption = (text: string): boolean => text.length > 0 && text.length <= 300

const unitOnly =
  /^\(?\s*(?:(?:dollars|amounts|\$|u\.s\. dollars)\s+)?in\s+(?:billions|millions|thousands)\b[^)]*\)?\.?$/i

/** A title from the blocks before the table: the nearest short paragraph or heading, not a unit line. */
const titleOf = (located: LocatedTable): string => {
  for (let index = located.before.length - 1; index >= 0; index--) {
    const text = located.before[index] ?? ""
    if (unitOnly.test(text) || /^\(?unaudited\)?$|^\(?expressed in [^)]*\)?$/i.test(text)) continue
    if (isCaption(text)) return text.replace(/\s*:$/, "")
    break
  }
  return located.heading ?? located.section
}

const pad = (row: ReadonlyArray<string>, width: number): Array<string> =>
  row.length >= width ? [...row] : [...row, ...Array.from({ length: width - row.length }, () => "")]

/**
 * All tables of a document, numbered `t001`, `t002`, ... in body order, then those of its EX-13 and
 * EX-99 exhibits (section `Exhibit 99.1`).
 */
export const readTables = (
  document: ParsedDocument.ParsedDocument
): { readonly tables: Array<ReadTable>; readonly warnings: Array<string> } => {
  const tables: Array<ReadTable> = []
  const warnings: Array<string> = []
  let previousTitle = ""
  // Tables never continue across sections, so the exhibits' tables simply follow the body's.
  for (const located of [...locateTables(document), ...locateTablesIn(financialExhibitsOf(document))]) {
    const id = `t${String(tables.length + 1).padStart(3, "0")}`
    // The parser says which rows are the header: none when the first row already holds values.
    const { headerRows, rows } = located.table
    const width = Math.max(...rows.map((row) => row.length))
    const ragged = rows.filter((row) => row.length !== width).length
    if (ragged > 0) {
      warnings.push(`table ${id}: ${ragged} row(s) shorter than ${width} columns were padded with empty cells`)
    }
    const headers = mergeHeaderRows(rows.slice(0, headerRows), width)
    const body = rows.slice(headerRows).map((row) => pad(row, width))
    const ownTitle = titleOf(located)
    // A table with nothing written before it continues the previous one's subject.
    const title = located.before.length === 0 && previousTitle !== "" ? previousTitle : ownTitle
    previousTitle = title
    const captions = located.before.slice(-3)
    const { format, unit } = unitOf([
      ...captions.slice().reverse(),
      ...headers,
      ...body.slice(0, 2).map((row) => row[0] ?? "")
    ], body.flat())
    const tableType = classify(title, captions, body.map((row) => row[0] ?? ""), body.flatMap((row) => row.slice(1)))
    tables.push({
      id,
      title,
      section: located.section,
      headers,
      rows: body,
      unit,
      ...(format !== undefined ? { format } : {}),
      tableType
    })
  }
  return { tables, warnings }
}
