/**
 * Page layout for PDF text: positioned text items (pdfjs `getTextContent`) grouped into lines,
 * lines into paragraphs, headings, lists and tables, with the repeated page furniture (running
 * headers, footers, bare page numbers) taken out. Pure functions over plain data, so they can be
 * tested without pdfjs.
 */
import type { Block, TextStyle } from "../blocks.js"
import { text } from "../inline.js"
import { headerRowCount } from "../tableHeader.js"

/** One positioned piece of text on a page, in PDF user space (y grows upwards, at the baseline). */
export interface PositionedText {
  readonly text: string
  readonly x: number
  readonly y: number
  readonly width: number
  readonly fontSize: number
  readonly bold: boolean
  readonly italic: boolean
}

/** The text of one PDF page. */
export interface PageText {
  /** 1-based page number. */
  readonly page: number
  readonly width: number
  readonly height: number
  readonly items: ReadonlyArray<PositionedText>
}

/** A stretch of a line without a wide gap: a table cell candidate. */
export interface Run {
  readonly text: string
  readonly x0: number
  readonly x1: number
}

export interface Line {
  readonly page: number
  /** Baseline, PDF user space. */
  readonly y: number
  readonly x0: number
  readonly x1: number
  readonly fontSize: number
  readonly bold: boolean
  readonly italic: boolean
  readonly text: string
  readonly runs: ReadonlyArray<Run>
  readonly pageWidth: number
  readonly pageHeight: number
}

/** A gap this wide (in ems) between two pieces of a line separates columns. */
const columnGapEm = 1.2
/** A gap this wide (in ems) between two pieces of a line is a word space. */
const wordGapEm = 0.12

const round1 = (value: number) => Math.round(value * 10) / 10

/** Group the items of a page into lines, top to bottom, items left to right. */
export const pageLines = (page: PageText): Array<Line> => {
  const items = page.items.filter((item) => item.text.trim() !== "" && item.fontSize > 0)
  const sorted = [...items].sort((a, b) => b.y - a.y || a.x - b.x)
  const groups: Array<Array<PositionedText>> = []
  let current: Array<PositionedText> = []
  let baseline = 0
  for (const item of sorted) {
    // Superscripts and slightly offset numbers (common in tables) share the line.
    const tolerance = Math.max(1, 0.35 * item.fontSize)
    if (current.length > 0 && Math.abs(item.y - baseline) <= tolerance) {
      current.push(item)
    } else {
      if (current.length > 0) groups.push(current)
      current = [item]
      baseline = item.y
    }
  }
  if (current.length > 0) groups.push(current)
  return groups.map((group) => makeLine(page, group.sort((a, b) => a.x - b.x)))
}

interface MutableRun {
  text: string
  x0: number
  x1: number
}

const makeLine = (page: PageText, items: ReadonlyArray<PositionedText>): Line => {
  const runs: Array<MutableRun> = []
  let previous: PositionedText | undefined
  for (const item of items) {
    const text = item.text.replace(/\s+/g, " ").trim()
    const run = runs[runs.length - 1]
    if (previous === undefined || run === undefined) {
      runs.push({ text, x0: item.x, x1: item.x + item.width })
    } else {
      const em = Math.max(previous.fontSize, item.fontSize)
      const gap = item.x - (previous.x + previous.width)
      if (gap > columnGapEm * em) {
        runs.push({ text, x0: item.x, x1: item.x + item.width })
      } else {
        // `$` set close to its amount stays attached, as in a table cell.
        const currency = /(?:^|\s)[$€£¥]$/.test(run.text) && /^[\d(]/.test(text)
        const space = !currency && (gap > wordGapEm * em || /\s$/.test(previous.text) || /^\s/.test(item.text))
        run.text = space ? `${run.text} ${text}` : run.text + text
        run.x1 = Math.max(run.x1, item.x + item.width)
      }
    }
    previous = item
  }
  const first = items[0]
  const y = first?.y ?? 0
  return {
    page: page.page,
    y,
    x0: first?.x ?? 0,
    x1: Math.max(...items.map((item) => item.x + item.width)),
    fontSize: round1(Math.max(...items.map((item) => item.fontSize))),
    bold: items.every((item) => item.bold),
    italic: items.every((item) => item.italic),
    text: runs.map((run) => run.text).join(" "),
    runs: mergeCurrencyRuns(runs),
    pageWidth: page.width,
    pageHeight: page.height
  }
}

/** `$` and `(` set apart from their amount, and a trailing `%` or `)`, belong to the amount. */
const mergeCurrencyRuns = (runs: ReadonlyArray<Run>): Array<Run> => {
  const merged: Array<Run> = []
  let pending: Run | undefined
  for (const run of runs) {
    let current = run
    if (pending !== undefined) {
      current = { text: pending.text + run.text, x0: pending.x0, x1: run.x1 }
      pending = undefined
    }
    const last = merged[merged.length - 1]
    if (/^[$€£¥(]+$/.test(current.text)) {
      pending = current
    } else if (last !== undefined && /^[%)]+$/.test(current.text)) {
      merged[merged.length - 1] = { text: last.text + current.text, x0: last.x0, x1: current.x1 }
    } else {
      merged.push(current)
    }
  }
  if (pending !== undefined) merged.push(pending)
  return merged
}

// --- page furniture -------------------------------------------------------------------------

/** The top and bottom bands of a page where running headers and footers live. */
const marginBand = 0.12

const inMargin = (line: Line): boolean => {
  const fromTop = line.pageHeight - line.y
  return fromTop < marginBand * line.pageHeight || fromTop > (1 - marginBand) * line.pageHeight
}

const barePageNumber = /^(?:page\s+)?[-–—]?\s*(?:\d{1,4}|[ivxlcdm]{1,7})\s*[-–—]?(?:\s*(?:of|\/)\s*\d{1,4})?$/i

/** The first and last lines of a page: where furniture printed in the flow (HTML printed to PDF) ends up. */
const edgeLines = 2

/**
 * Drop page furniture: bare page numbers at the top or bottom of a page, and lines that repeat
 * (digits ignored) on at least half of the pages (three at least), either at the same position in
 * the top or bottom band, or among the first or last lines of the page wherever it ends.
 */
export const dropPageFurniture = (pages: ReadonlyArray<ReadonlyArray<Line>>): {
  readonly pages: Array<Array<Line>>
  readonly removed: number
} => {
  const normalized = (line: Line) => line.text.toLowerCase().replace(/\d+/g, "#")
  const positionKey = (line: Line) => `${Math.round((line.pageHeight - line.y) / 6)}|${normalized(line)}`
  const edgeKey = (line: Line) => `edge|${normalized(line)}`
  const isEdge = (lines: ReadonlyArray<Line>, index: number) => index < edgeLines || index >= lines.length - edgeLines
  const pagesPerKey = new Map<string, Set<number>>()
  const count = (key: string, page: number) => {
    const seen = pagesPerKey.get(key) ?? new Set<number>()
    seen.add(page)
    pagesPerKey.set(key, seen)
  }
  for (const lines of pages) {
    lines.forEach((line, index) => {
      if (inMargin(line)) count(positionKey(line), line.page)
      if (isEdge(lines, index)) count(edgeKey(line), line.page)
    })
  }
  const threshold = Math.max(3, Math.ceil(pages.length / 2))
  const repeated = (key: string) => (pagesPerKey.get(key)?.size ?? 0) >= threshold
  let removed = 0
  const kept = pages.map((lines) =>
    lines.filter((line, index) => {
      const edge = isEdge(lines, index)
      const margin = inMargin(line)
      const furniture = ((margin || edge) && barePageNumber.test(line.text)) ||
        (margin && repeated(positionKey(line))) || (edge && repeated(edgeKey(line)))
      if (furniture) removed++
      return !furniture
    })
  )
  return { pages: kept, removed }
}

// --- blocks ---------------------------------------------------------------------------------

/**
 * The body text size: the font size carrying the most characters (0.5 pt buckets) in lines of
 * running text (one run, 40 characters or more), so that small print in tables does not count.
 */
export const bodyFontSize = (lines: ReadonlyArray<Line>): number => {
  const weight = new Map<number, number>()
  const prose = lines.filter((line) => line.runs.length === 1 && line.text.length >= 40)
  for (const line of prose.length > 0 ? prose : lines) {
    const size = Math.round(line.fontSize * 2) / 2
    weight.set(size, (weight.get(size) ?? 0) + line.text.length)
  }
  let best = 10
  let bestWeight = -1
  for (const [size, chars] of weight) {
    if (chars > bestWeight) [best, bestWeight] = [size, chars]
  }
  return best
}

const bulletPattern = /^([•●▪■◦‣∙·–])\s*/

type Segment =
  | { readonly kind: "lines"; readonly lines: Array<Line> }
  | { readonly kind: "table"; readonly lines: Array<Line> }

/** Split the lines of a page into table regions and the rest. */
const segmentTables = (lines: ReadonlyArray<Line>): Array<Segment> => {
  const segments: Array<Segment> = []
  const pushLine = (line: Line) => {
    const last = segments[segments.length - 1]
    if (last?.kind === "lines") last.lines.push(line)
    else segments.push({ kind: "lines", lines: [line] })
  }
  let index = 0
  while (index < lines.length) {
    const region = tableRegion(lines, index)
    if (region > 0) {
      segments.push({ kind: "table", lines: lines.slice(index, index + region) })
      index += region
    } else {
      pushLine(lines[index]!)
      index++
    }
  }
  return segments
}

/** The number of lines from `start` that make a table, 0 when they do not. */
const tableRegion = (lines: ReadonlyArray<Line>, start: number): number => {
  const first = lines[start]
  if (first === undefined || first.runs.length < 2) return 0
  let end = start + 1
  while (end < lines.length) {
    const line = lines[end]!
    const previous = lines[end - 1]!
    const closeEnough = previous.y - line.y > 0 && previous.y - line.y <= 3 * Math.max(line.fontSize, previous.fontSize)
    if (!closeEnough) break
    if (line.runs.length >= 2) {
      end++
      continue
    }
    // A one-cell row (a label such as `Operating expenses:`) inside the table, if the table goes on.
    const next = lines[end + 1]
    if (
      next !== undefined && next.runs.length >= 2 && line.y - next.y > 0 &&
      line.y - next.y <= 3 * Math.max(line.fontSize, next.fontSize)
    ) {
      end += 2
      continue
    }
    break
  }
  const wide = lines.slice(start, end).filter((line) => line.runs.length >= 3).length
  return wide >= 3 ? end - start : 0
}

/** The cells of a table region: columns from the rows with the most common run count. */
export const tableRows = (lines: ReadonlyArray<Line>): Array<Array<string>> | undefined => {
  const counts = new Map<number, number>()
  for (const line of lines) {
    if (line.runs.length >= 3) counts.set(line.runs.length, (counts.get(line.runs.length) ?? 0) + 1)
  }
  const modal = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0]
  if (modal === undefined) return undefined
  const intervals = lines.filter((line) => line.runs.length === modal).flatMap((line) =>
    line.runs.map((run) => [run.x0, run.x1] as const)
  )
    .sort((a, b) => a[0] - b[0])
  const columns: Array<[number, number]> = []
  for (const [x0, x1] of intervals) {
    const last = columns[columns.length - 1]
    if (last !== undefined && x0 <= last[1] + 1) last[1] = Math.max(last[1], x1)
    else columns.push([x0, x1])
  }
  if (columns.length < 3) return undefined
  const columnOf = (run: Run): number => {
    let best = 0
    let bestScore = Number.NEGATIVE_INFINITY
    columns.forEach(([x0, x1], column) => {
      const overlap = Math.min(x1, run.x1) - Math.max(x0, run.x0)
      const distance = Math.abs((x0 + x1) / 2 - (run.x0 + run.x1) / 2)
      const score = overlap > 0 ? overlap : -distance
      if (score > bestScore) [best, bestScore] = [column, score]
    })
    return best
  }
  const rows = lines.map((line) => {
    const cells = columns.map(() => "")
    line.runs.forEach((run, position) => {
      // A row's label is its first run when it starts left of the second column.
      const column = position === 0 && run.x0 < (columns[1]?.[0] ?? 0) ? 0 : columnOf(run)
      cells[column] = cells[column] === "" ? run.text : `${cells[column]} ${run.text}`
    })
    return cells
  })
  const used = columns.map((_, column) => rows.some((row) => row[column] !== ""))
  const compact = rows.map((row) => row.filter((_, column) => used[column]))
  const filled = compact.filter((row) => row.filter((cell) => cell !== "").length >= 3).length
  return filled >= 3 ? compact : undefined
}

const styleOf = (line: Line, centered: boolean): TextStyle => ({
  bold: line.bold,
  italic: line.italic,
  underline: false,
  centered,
  fontSizePt: line.fontSize
})

const isCentered = (line: Line): boolean => {
  const middle = (line.x0 + line.x1) / 2
  return line.x1 - line.x0 < 0.7 * line.pageWidth && Math.abs(middle - line.pageWidth / 2) < 0.04 * line.pageWidth
}

const headingDepth = (line: Line, body: number): 1 | 2 | 3 | 4 | undefined => {
  if (line.text.length > 200 || !/\p{L}/u.test(line.text)) return undefined
  const ratio = line.fontSize / body
  if (ratio >= 1.6) return 1
  if (ratio >= 1.3) return 2
  if (ratio >= 1.15) return 3
  const words = line.text.split(" ").length
  // A short bold line: `Item 8.01. Other Events.` may end with a full stop, a bold sentence may not.
  if (line.bold && ratio > 0.95 && words <= 16 && !/[,;]$/.test(line.text) && (words <= 8 || !/\.$/.test(line.text))) {
    return 4
  }
  return undefined
}

/**
 * Join two lines of one paragraph. A line-end hyphen between lower-case letters splits a word
 * (`prod-` + `ucts`) and goes; before a capital or a digit it belongs to a compound (`non-` +
 * `GAAP`, `S-` + `T`) and stays, without a space; a free-standing dash keeps its spaces.
 */
export const joinLines = (text: string, next: string): string => {
  if (/[a-z]{2}-$/.test(text) && /^[a-z]/.test(next)) return text.slice(0, -1) + next
  if (/\p{L}-$/u.test(text) && /^[\p{Lu}\d]/u.test(next)) return text + next
  return `${text} ${next}`
}

interface Draft {
  kind: "heading" | "paragraph" | "list"
  depth: 1 | 2 | 3 | 4
  page: number
  text: string
  items: Array<string>
  first: Line
  last: Line
  maxX1: number
}

/** Lines of a paragraph are this close (baseline to baseline, in the line's ems). */
const lineSpacingEm = 1.45

const continues = (draft: Draft, line: Line, body: number): boolean => {
  const previous = draft.last
  if (line.page !== previous.page) return false
  const gap = previous.y - line.y
  const em = Math.max(previous.fontSize, line.fontSize)
  if (gap <= 0 || gap > lineSpacingEm * em) return false
  if (Math.abs(previous.fontSize - line.fontSize) > 0.6 || previous.bold !== line.bold) return false
  if (draft.kind === "heading") return headingDepth(line, body) === draft.depth && draft.text.length < 160
  // First-line indent, or the previous line ended short with a full stop: a new paragraph.
  const ended = /[.!?:"”]$/.test(previous.text)
  if (ended && line.x0 > previous.x0 + 1.5 * line.fontSize) return false
  const width = draft.maxX1 - draft.first.x0
  if (ended && draft.first !== previous && previous.x1 < draft.maxX1 - 0.2 * width) return false
  return true
}

/** A paragraph at the end of a page that goes on at the top of the next. */
const continuesOnNextPage = (draft: Draft, line: Line): boolean =>
  draft.kind === "paragraph" && line.page === draft.last.page + 1 && !/[.!?:"”]$/.test(draft.text) &&
  /^[a-z]/.test(line.text) && Math.abs(line.fontSize - draft.last.fontSize) <= 0.6 && line.bold === draft.last.bold

const finish = (draft: Draft): Block => {
  if (draft.kind === "list") {
    return {
      kind: "list",
      page: draft.page,
      ordered: false,
      items: draft.items.map((item) => ({ text: item, inlines: [text(item)] }))
    }
  }
  const style = styleOf(draft.first, isCentered(draft.first))
  const inlines = [text(draft.text)]
  if (draft.kind === "heading") {
    return { kind: "heading", page: draft.page, depth: draft.depth, text: draft.text, inlines, style }
  }
  return {
    kind: "paragraph",
    page: draft.page,
    text: draft.text,
    inlines: style.bold ? [{ kind: "strong", children: inlines }] : inlines,
    style
  }
}

/** Blocks of a document from its lines (page furniture already removed). */
export const linesToBlocks = (pages: ReadonlyArray<ReadonlyArray<Line>>): Array<Block> => {
  const documentBody = bodyFontSize(pages.flat())
  const blocks: Array<Block> = []
  let draft: Draft | undefined
  const flush = () => {
    if (draft !== undefined) blocks.push(finish(draft))
    draft = undefined
  }
  for (const lines of pages) {
    // A page of small print (notes, disclaimers) must not make the document's body text look like
    // headings, nor a page of larger text make it small: the larger of the two body sizes counts.
    const body = Math.max(documentBody, bodyFontSize(lines))
    for (const segment of segmentTables(lines)) {
      if (segment.kind === "table") {
        const rows = tableRows(segment.lines)
        if (rows !== undefined) {
          flush()
          blocks.push({ kind: "table", page: segment.lines[0]!.page, rows, headerRows: headerRowCount(rows) })
          continue
        }
      }
      for (const line of segment.lines) {
        const bullet = bulletPattern.exec(line.text)
        if (
          draft !== undefined && (continues(draft, line, body) || continuesOnNextPage(draft, line)) && bullet === null
        ) {
          if (draft.kind === "list") {
            const index = draft.items.length - 1
            draft.items[index] = joinLines(draft.items[index] ?? "", line.text)
          } else {
            draft.text = joinLines(draft.text, line.text)
          }
          draft.last = line
          draft.maxX1 = Math.max(draft.maxX1, line.x1)
          continue
        }
        if (bullet !== null) {
          const item = line.text.slice(bullet[0].length)
          if (draft?.kind === "list" && draft.last.page === line.page) {
            draft.items.push(item)
            draft.last = line
            continue
          }
          flush()
          draft = {
            kind: "list",
            depth: 4,
            page: line.page,
            text: "",
            items: [item],
            first: line,
            last: line,
            maxX1: line.x1
          }
          continue
        }
        flush()
        const depth = headingDepth(line, body)
        draft = {
          kind: depth === undefined ? "paragraph" : "heading",
          depth: depth ?? 4,
          page: line.page,
          text: line.text,
          items: [],
          first: line,
          last: line,
          maxX1: line.x1
        }
      }
    }
  }
  flush()
  return blocks
}
