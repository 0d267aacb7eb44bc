/**
 * The grid model behind table cleaning, on plain text so it can be reasoned about (and tested)
 * without HTML.
 *
 * EDGAR financial tables are laid out for print: a value is often three cells (`$`, `1,234`, `)`),
 * spacer columns sit between value columns, headers span the cells of the values below them, and
 * rows of the same table disagree about where a column starts. The steps:
 *
 * 1. place every cell on the column grid (colspan and rowspan honoured, as a browser would);
 * 2. in each row, glue currency prefixes (`$`) to the value after them and `)`/`%` to the value
 *    before them, so a value becomes one cell covering a column interval;
 * 3. choose the fewest grid columns such that every non-empty cell covers one of them (greedy
 *    interval stabbing); every other grid column is spacing and disappears;
 * 4. fold neighbouring columns that are never both filled in one row (a value shifted by one grid
 *    column in some rows);
 * 5. put each cell in the first chosen column it covers: every row ends up with the same width.
 */

export interface SourceCell {
  /** Visible text, whitespace collapsed. */
  readonly text: string
  readonly colSpan: number
  readonly rowSpan: number
  /** Whether the cell shows something besides text (an image), which makes it non-empty. */
  readonly media: boolean
}

export interface Slot {
  readonly text: string
  /** Indices (row-major, over all source cells) of the source cells shown in this slot. */
  readonly sources: ReadonlyArray<number>
}

export interface Grid {
  readonly columnCount: number
  /** Non-empty rows only; each has `columnCount` slots. */
  readonly rows: ReadonlyArray<ReadonlyArray<Slot>>
}

interface PlacedCell {
  readonly text: string
  readonly media: boolean
  readonly start: number
  readonly end: number
  readonly sources: ReadonlyArray<number>
}

// Browsers clamp spans to these values; so do we, which also bounds the work per table.
const maxColSpan = 1000
const maxRowSpan = 65534

const currencyPrefix = /^(?:\$|US\$|C\$|A\$|€|£|¥|\(|\$\s*\()$/
const closingSuffix = /^(?:\)|%|\)\s*%|%\s*\))$/
const numberLike = /^[(\-−–—]*\s*[\d.]|^[-–—]+$/
const endsNumberLike = /[\d)\-–—]$/

const clampSpan = (value: number, max: number): number =>
  Number.isFinite(value) && value >= 1 ? Math.min(Math.floor(value), max) : 1

const unbalancedParenthesis = (text: string): boolean => text.lastIndexOf("(") > text.lastIndexOf(")")

/** Step 1: cell positions on the grid, honouring colspan and rowspan. Empty cells are dropped. */
const place = (rows: ReadonlyArray<ReadonlyArray<SourceCell>>): Array<Array<PlacedCell>> => {
  // freeFromRow[column] = first row index in which the column is no longer covered by a rowspan.
  const freeFromRow: Array<number> = []
  let source = 0
  return rows.map((row, rowIndex) => {
    const placed: Array<PlacedCell> = []
    let column = 0
    for (const cell of row) {
      while ((freeFromRow[column] ?? 0) > rowIndex) column++
      const colSpan = clampSpan(cell.colSpan, maxColSpan)
      const rowSpan = clampSpan(cell.rowSpan, maxRowSpan)
      if (cell.text !== "" || cell.media) {
        placed.push({ text: cell.text, media: cell.media, start: column, end: column + colSpan, sources: [source] })
      }
      for (let covered = column; covered < column + colSpan; covered++) freeFromRow[covered] = rowIndex + rowSpan
      column += colSpan
      source++
    }
    return placed
  })
}

const join = (left: PlacedCell, right: PlacedCell): PlacedCell => ({
  text: left.text + right.text,
  media: left.media || right.media,
  start: left.start,
  end: right.end,
  sources: [...left.sources, ...right.sources]
})

/** Step 2: `$` + `1,234` -> `$1,234`; `(1,234` + `)` -> `(1,234)`; `12` + `%` -> `12%`. */
const mergeAffixes = (row: ReadonlyArray<PlacedCell>): Array<PlacedCell> => {
  const merged: Array<PlacedCell> = []
  for (let index = 0; index < row.length; index++) {
    const cell = row[index]
    if (cell === undefined) continue
    const next = row[index + 1]
    if (next !== undefined && currencyPrefix.test(cell.text) && numberLike.test(next.text)) {
      merged.push(join(cell, next))
      index++
      continue
    }
    const previous = merged[merged.length - 1]
    if (
      previous !== undefined && closingSuffix.test(cell.text) &&
      (endsNumberLike.test(previous.text) || (cell.text.startsWith(")") && unbalancedParenthesis(previous.text)))
    ) {
      merged[merged.length - 1] = join(previous, cell)
      continue
    }
    merged.push(cell)
  }
  return merged
}

/** Step 3: the fewest columns such that every cell's interval holds one (sorted ascending). */
const stab = (rows: ReadonlyArray<ReadonlyArray<PlacedCell>>): Array<number> => {
  const intervals = rows.flat().sort((a, b) => a.end - b.end || b.start - a.start)
  const points: Array<number> = []
  let last = -1
  for (const interval of intervals) {
    if (last < interval.start) {
      last = interval.end - 1
      points.push(last)
    }
  }
  return points
}

/** Index of the first point >= start (points sorted ascending). */
const firstPointFrom = (points: ReadonlyArray<number>, start: number): number => {
  let low = 0
  let high = points.length
  while (low < high) {
    const middle = (low + high) >> 1
    if ((points[middle] ?? Infinity) < start) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * Step 4: maps each chosen column to an output column, folding a column into its left neighbour
 * when they are at most two grid columns apart and no row fills both.
 */
const foldColumns = (
  points: ReadonlyArray<number>,
  anchoredRows: ReadonlyArray<Set<number>>
): { readonly output: Array<number>; readonly count: number } => {
  const output: Array<number> = []
  let count = 0
  let groupRows = new Set<number>()
  let groupPoint = -Infinity
  points.forEach((point, index) => {
    const rows = anchoredRows[index] ?? new Set<number>()
    const disjoint = [...rows].every((row) => !groupRows.has(row))
    if (count > 0 && point - groupPoint <= 2 && disjoint) {
      for (const row of rows) groupRows.add(row)
    } else {
      count++
      groupRows = new Set(rows)
    }
    groupPoint = point
    output.push(count - 1)
  })
  return { output, count }
}

export const buildGrid = (rows: ReadonlyArray<ReadonlyArray<SourceCell>>): Grid => {
  const placed = place(rows).map(mergeAffixes).filter((row) => row.length > 0)
  const points = stab(placed)
  const anchors = placed.map((row) => row.map((cell) => firstPointFrom(points, cell.start)))
  const anchoredRows = points.map(() => new Set<number>())
  anchors.forEach((row, rowIndex) => row.forEach((anchor) => anchoredRows[anchor]?.add(rowIndex)))
  const { count, output } = foldColumns(points, anchoredRows)

  const empty: Slot = { text: "", sources: [] }
  const gridRows = placed.map((row, rowIndex) => {
    const slots: Array<Slot> = Array.from({ length: count }, () => empty)
    row.forEach((cell, cellIndex) => {
      const column = output[anchors[rowIndex]?.[cellIndex] ?? 0] ?? 0
      const existing = slots[column] ?? empty
      // Only reachable through folding, which never folds two cells of one row; join defensively.
      slots[column] = existing.sources.length === 0 ? { text: cell.text, sources: cell.sources } : {
        text: `${existing.text} ${cell.text}`.trim(),
        sources: [...existing.sources, ...cell.sources]
      }
    })
    return slots
  })
  return { columnCount: count, rows: gridRows }
}
