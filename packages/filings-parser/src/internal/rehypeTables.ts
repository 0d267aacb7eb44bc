/**
 * rehype plugin: rewrites every `<table>` either as a clean data table or, when it only lays out
 * text, as the text itself.
 *
 * Data tables come out with one text-only cell per column, the first row as header row, and
 * no spans, so that the GFM table that rehype-remark makes of them is rectangular and free of
 * spacer columns (see `tableGrid.ts` for how the columns are found). Layout tables are common
 * in EDGAR HTML: a one-cell frame around a paragraph, a one-row "Item 1A. | Risk Factors"
 * heading, "• | text" bullets, "(1) | footnote" rows, "☐ | Written communications ..." check
 * boxes. They become paragraphs and lists.
 *
 * Tables are rewritten innermost first; a data table nested in another data table's cell is
 * flattened to its text, and a warning says how often that happened.
 */
import type { Element, ElementContent, Parents, Root } from "hast"
import type { Plugin } from "unified"
import { containsTag, element, styleOf, text, textContent, toPhrasing } from "./hast.js"
import { buildGrid, type Grid, type Slot, type SourceCell } from "./tableGrid.js"

const bullet = /^[•·●◦▪■▫►‣⁃\-–—o]$/
const marker =
  /^(?:\(?(?:\d{1,3}|[a-zA-Z]|[ivxlcIVXLC]{1,6})[.)]|\((?:\d{1,3}|[a-zA-Z]|[ivxlc]{1,6})\)|\*{1,3}|[†‡§¶#☐☒☑✓✔¨ýþ])$/
const hasLetter = /\p{L}/u
// A single-row layout table longer than this is a frame around body text, not a one-line heading.
const maxInlineRowLength = 300

const mediaTags: ReadonlySet<string> = new Set(["img", "image"])
const structuralTags: ReadonlySet<string> = new Set(["table", "ul", "ol", "dl", "pre"])
const sectionTags: ReadonlySet<string> = new Set(["thead", "tbody", "tfoot"])
const tableTag: ReadonlySet<string> = new Set(["table"])

/** The rows of a table in source order, without entering nested tables. */
const tableRows = (table: Element): Array<Element> =>
  table.children.flatMap((child) => {
    if (child.type !== "element") return []
    if (child.tagName === "tr") return [child]
    if (sectionTags.has(child.tagName)) {
      return child.children.filter((row): row is Element => row.type === "element" && row.tagName === "tr")
    }
    return []
  })

const rowCells = (row: Element): Array<Element> =>
  row.children.filter((cell): cell is Element =>
    cell.type === "element" && (cell.tagName === "td" || cell.tagName === "th")
  )

const span = (value: unknown): number => {
  const parsed = typeof value === "number" ? value : Number.parseInt(String(value ?? "1"), 10)
  return Number.isFinite(parsed) ? parsed : 1
}

const cellContent = (sources: ReadonlyArray<Source>, slot: Slot | undefined): Array<ElementContent> =>
  (slot?.sources ?? []).flatMap((index, position) => {
    const cell = sources[index]?.cell
    if (cell === undefined) return []
    return position === 0 ? cell.children : [text(" "), ...cell.children]
  })

interface Source {
  readonly cell: Element
  /** Inline style of the table, row and cell together, so bold set on any of them survives the rewrite. */
  readonly style: string
}

const cellProperties = (sources: ReadonlyArray<Source>, slot: Slot | undefined): Element["properties"] => {
  const first = slot?.sources[0]
  const style = first === undefined ? "" : sources[first]?.style ?? ""
  return style === "" ? {} : { style }
}

const isFilled = (slot: Slot | undefined): boolean => slot !== undefined && slot.sources.length > 0

const dataTable = (grid: Grid): Element => {
  const row = (slots: ReadonlyArray<Slot>, cellTag: string): Element =>
    element("tr", {}, slots.map((slot) => element(cellTag, {}, slot.text === "" ? [] : [text(slot.text)])))
  const [header, ...body] = grid.rows
  return element("table", {}, [
    element("thead", {}, header === undefined ? [] : [row(header, "th")]),
    element("tbody", {}, body.map((slots) => row(slots, "td")))
  ])
}

const convertTable = (table: Element, nested: { count: number }): Array<ElementContent> => {
  const rowElements = tableRows(table)
  const rows = rowElements.map(rowCells)
  const tableStyle = styleOf(table)
  const sources: Array<Source> = rowElements.flatMap((row, rowIndex) =>
    (rows[rowIndex] ?? []).map((cell) => ({
      cell,
      style: [tableStyle, styleOf(row), styleOf(cell)].filter((style) => style !== "").join(";")
    }))
  )
  const cells = sources.map((source) => source.cell)
  const sourceRows: Array<Array<SourceCell>> = rows.map((row) =>
    row.map((cell) => ({
      text: textContent(cell),
      colSpan: span(cell.properties["colSpan"]),
      rowSpan: span(cell.properties["rowSpan"]),
      media: containsTag(cell, mediaTags)
    }))
  )
  const grid = buildGrid(sourceRows)
  const [firstRow] = grid.rows
  if (firstRow === undefined) return []

  const block = (slot: Slot | undefined): Element =>
    element("div", cellProperties(sources, slot), cellContent(sources, slot))
  const inline = (slot: Slot | undefined): Element =>
    element("span", cellProperties(sources, slot), toPhrasing(cellContent(sources, slot)))

  if (grid.columnCount === 1) return grid.rows.map((row) => block(row[0]))

  if (grid.rows.length === 1) {
    const filled = firstRow.filter(isFilled)
    const length = filled.reduce((total, slot) => total + slot.text.length, 0)
    const simple = filled.every((slot) =>
      slot.sources.every((source) => {
        const cell = cells[source]
        return cell === undefined || !containsTag(cell, structuralTags)
      })
    )
    if (length <= maxInlineRowLength && simple) {
      return [
        element("p", {}, filled.flatMap((slot, index) => index === 0 ? [inline(slot)] : [text(" "), inline(slot)]))
      ]
    }
    return filled.map(block)
  }

  if (grid.columnCount === 2) {
    const rowsAre = (test: (first: Slot, second: Slot) => boolean) =>
      grid.rows.every(([first, second]) => first !== undefined && second !== undefined && test(first, second))
    if (rowsAre((first, second) => bullet.test(first.text) && isFilled(second))) {
      return [element("ul", {}, grid.rows.map((row) => element("li", {}, cellContent(sources, row[1]))))]
    }
    if (rowsAre((first, second) => marker.test(first.text) && hasLetter.test(second.text))) {
      return grid.rows.map((row) => element("p", {}, [inline(row[0]), text(" "), inline(row[1])]))
    }
  }

  if (cells.some((cell) => containsTag(cell, tableTag))) nested.count++
  return [dataTable(grid)]
}

const rewrite = (parent: Parents, nested: { count: number }): void => {
  let changed = false
  const children: Array<ElementContent> = []
  for (const child of parent.children) {
    if (child.type !== "element") {
      if (child.type !== "doctype") children.push(child)
      continue
    }
    rewrite(child, nested)
    if (child.tagName === "table") {
      for (const replacement of convertTable(child, nested)) children.push(replacement)
      changed = true
    } else {
      children.push(child)
    }
  }
  if (changed) parent.children = children
}

export const rehypeTables: Plugin<[], Root> = function() {
  return (tree, file) => {
    const nested = { count: 0 }
    rewrite(tree, nested)
    if (nested.count > 0) {
      file.message(`${nested.count} table(s) nested in a data table cell were flattened to text`)
    }
  }
}
