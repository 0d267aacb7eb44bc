/**
 * HTML and inline XBRL to blocks, in one streaming pass of htmlparser2's tokenizer: no DOM of the
 * whole document is built, only the blocks, the stack of open elements (an array, so markup nested
 * any depth cannot overflow the call stack) and, while a table is open, its cells.
 *
 * What a reader never sees is dropped (`display:none` and everything inside, `<head>`, scripts,
 * styles, `<ix:header>`); inline XBRL and other namespaced tags are transparent. Block elements
 * end paragraphs; `<b>`/`<i>` become Markdown emphasis; the CSS that marks headings (bold, size,
 * centring) is kept as each block's `TextStyle`. Tables go through `tableGrid.ts` and either stay
 * tables (their header rows as the markup marks them, else as `tableHeader.ts` reads the cells) or,
 * when they only lay out text, become paragraphs and lists. `<pre>` text is read as
 * plain text. Page breaks (CSS, or `<hr>` in documents without CSS breaks) number the pages.
 * Afterwards, page furniture is removed (see `pageFurniture.ts`).
 */
import { Parser } from "htmlparser2"
import type {
  Block,
  CellFacts,
  HeadingBlock,
  Inline,
  ListBlock,
  ListItem,
  ParagraphBlock,
  TextStyle
} from "../blocks.js"
import { dropLeading, inlinesText, joinInlines, pushInline, pushText, text as inlineText } from "../inline.js"
import { buildGrid, type Grid, type Slot, type SourceCell } from "../tableGrid.js"
import { headerRowCount, markedHeaderRows } from "../tableHeader.js"
import { readText } from "../text/readText.js"
import { factReader, holdsInlineXbrl } from "../xbrl/factReader.js"
import type { FactSet } from "../xbrl/factSet.js"
import { blockTags } from "./blockTags.js"
import { headingDepthOf, isPageArtifact, removeFurniture } from "./pageFurniture.js"
import { DeclaredStyle, type Formatting, type Link, readStyle, rootFormatting } from "./style.js"

/** What reading a document gives. */
export interface HtmlReading {
  readonly blocks: Array<Block>
  readonly title?: string | undefined
  readonly pageCount: number
  readonly warnings: Array<string>
  /** The inline XBRL facts, read in the same pass (an inline XBRL document's only). */
  readonly inlineXbrl?: FactSet | undefined
}

const maxCachedStyles = 10_000

/** Thrown (and only thrown) when elements nest deeper than `maxNestingDepth`. */
export class NestingTooDeep {
  readonly _tag = "NestingTooDeep"
  constructor(readonly depth: number) {}
}

/**
 * Deepest element nesting read. Real filings stay far below (a few hundred with unclosed `<font>`
 * tags); htmlparser2's own stack costs time quadratic in the depth, so deeper input is refused.
 */
export const maxNestingDepth = 8192

const invisibleTags: ReadonlySet<string> = new Set([
  "applet",
  "embed",
  "head",
  "iframe",
  "ix:header",
  "math",
  "noscript",
  "object",
  "script",
  "style",
  "svg",
  "template",
  "title"
])

const preformattedTags: ReadonlySet<string> = new Set(["pre", "xmp", "listing", "plaintext"])
const listTags: ReadonlySet<string> = new Set(["ul", "ol", "dl", "menu", "dir"])
const listItemTags: ReadonlySet<string> = new Set(["li", "dt", "dd"])
const headingTags: Readonly<Record<string, 1 | 2 | 3 | 4 | 5 | 6>> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 }

// What each tag is, looked up once per element (filings have hundreds of thousands of them).
const isBlockTag = 1
const isInvisibleTag = 2
const isPreformattedTag = 4
const isListTag = 8
const isListItemTag = 16
const isHeadingTag = 32
const tagKinds = new Map<string, number>()
const addKind = (tags: Iterable<string>, kind: number) => {
  for (const tag of tags) tagKinds.set(tag, (tagKinds.get(tag) ?? 0) | kind)
}
addKind(blockTags, isBlockTag)
addKind(invisibleTags, isInvisibleTag)
addKind(preformattedTags, isPreformattedTag)
addKind(listTags, isListTag)
addKind(listItemTags, isListItemTag)
addKind(Object.keys(headingTags), isHeadingTag)

const fixedSpaces = /[\u00a0\u2002-\u200a\u202f\u205f\u3000]/g
const invisibleCharacters = /[\u00ad\u200b-\u200d\u2060\ufeff]/g
const specialSpace = /[\u00a0\u00ad\u2002-\u200d\u202f\u205f\u2060\u3000\ufeff]/
const whitespaceRun = /\s+/g
const bulletGlyph = /^[•·●◦▪■►‣⁃]\s*/
const cellBullet = /^[•·●◦▪■▫►‣⁃\-–—o]$/
const cellMarker =
  /^(?:\(?(?:\d{1,3}|[a-zA-Z]|[ivxlcIVXLC]{1,6})[.)]|\((?:\d{1,3}|[a-zA-Z]|[ivxlc]{1,6})\)|\*{1,3}|[†‡§¶#☐☒☑✓✔¨ýþ])$/
const hasLetter = /\p{L}/u
// A single-row layout table longer than this is a frame around body text, not a one-line heading.
const maxInlineRowLength = 300

/** The paragraph being read: its inline nodes and text so far, and what all of its text has in common. */
class InlineBuffer {
  nodes: Array<Inline> = []
  text = ""
  hasText = false
  hasMedia = false
  pendingSpace = false
  pendingBreak = false
  allBold = true
  allItalic = true
  allUnderline = true
  allCentered = true
  fontSizePt: number | undefined = undefined
  fragmentLink = false
  headingDepth: 1 | 2 | 3 | 4 | 5 | 6 | undefined = undefined
  page = 1
  /** The ids of the XBRL facts opened since the last block taken: the next block holds them. */
  private factIds: Array<string> = []
  private openLink: Link | undefined = undefined
  // The children of the open link, strong and emphasis nodes (nested in that order), when open.
  private linkChildren: Array<Inline> | undefined = undefined
  private strongChildren: Array<Inline> | undefined = undefined
  private emphasisChildren: Array<Inline> | undefined = undefined

  isEmpty(): boolean {
    return !this.hasText && !this.hasMedia
  }

  private target(): Array<Inline> {
    return this.emphasisChildren ?? this.strongChildren ?? this.linkChildren ?? this.nodes
  }

  private closeMarks(): void {
    this.emphasisChildren = undefined
    this.strongChildren = undefined
    this.linkChildren = undefined
    this.openLink = undefined
  }

  /** Writes a node, or text, inside the marks `formatting` asks for. */
  private writeMarked(node: Inline | string, formatting: Formatting): void {
    // Marks nest link > strong > emphasis: changing an outer one closes and reopens the inner ones.
    if (formatting.link !== this.openLink) {
      this.closeMarks()
    } else if (formatting.strongMark !== (this.strongChildren !== undefined)) {
      this.emphasisChildren = undefined
      this.strongChildren = undefined
    } else if (formatting.emphasisMark !== (this.emphasisChildren !== undefined)) {
      this.emphasisChildren = undefined
    }
    if (this.pendingBreak) pushInline(this.target(), { kind: "break" })
    else if (this.pendingSpace) pushText(this.target(), " ")
    if (formatting.link !== this.openLink && formatting.link !== undefined) {
      const children: Array<Inline> = []
      this.target().push({ kind: "link", url: formatting.link.href, children })
      this.linkChildren = children
      this.openLink = formatting.link
    }
    if (formatting.strongMark && this.strongChildren === undefined) {
      const children: Array<Inline> = []
      this.target().push({ kind: "strong", children })
      this.strongChildren = children
    }
    if (formatting.emphasisMark && this.emphasisChildren === undefined) {
      const children: Array<Inline> = []
      this.target().push({ kind: "emphasis", children })
      this.emphasisChildren = children
    }
    if (typeof node === "string") pushText(this.target(), node)
    else pushInline(this.target(), node)
  }

  appendText(data: string, formatting: Formatting, page: number): void {
    const value = (specialSpace.test(data) ? data.replace(fixedSpaces, " ").replace(invisibleCharacters, "") : data)
      .replace(whitespaceRun, " ")
    if (value === "") return
    const leading = value.charCodeAt(0) === 32
    const trailing = value.length > 1 && value.charCodeAt(value.length - 1) === 32
    const core = leading ? (trailing ? value.slice(1, -1) : value.slice(1)) : trailing ? value.slice(0, -1) : value
    if (leading && (this.hasText || this.hasMedia)) this.pendingSpace = true
    if (core === "") return
    if (this.isEmpty()) this.page = page
    this.writeMarked(core, formatting)
    this.text += (this.pendingSpace || this.pendingBreak) && this.hasText ? ` ${core}` : core
    this.pendingSpace = trailing
    this.pendingBreak = false
    this.hasText = true
    this.allBold &&= formatting.bold
    this.allItalic &&= formatting.italic
    this.allUnderline &&= formatting.underline
    this.allCentered &&= formatting.centered
    if (formatting.fontSizePt !== undefined && (this.fontSizePt ?? 0) < formatting.fontSizePt) {
      this.fontSizePt = formatting.fontSizePt
    }
    this.fragmentLink ||= formatting.fragmentLink
  }

  appendImage(alt: string, src: string, formatting: Formatting, page: number): void {
    if (this.isEmpty()) this.page = page
    const value = alt.replace(whitespaceRun, " ").trim()
    this.writeMarked({ kind: "image", alt: value, src }, formatting)
    this.pendingSpace = false
    this.pendingBreak = false
    this.hasMedia = true
  }

  /** Separates what comes next from the text before it, as a space. */
  separate(): void {
    if (!this.isEmpty()) this.pendingSpace = true
  }

  /** A `<br>`: a hard line break in Markdown, a space in the text; dropped at either end of a paragraph. */
  appendBreak(): void {
    if (!this.isEmpty()) this.pendingBreak = true
  }

  /** An inline XBRL fact opens here: the block being read (or, if none has text yet, the next) holds it. */
  addFact(id: string): void {
    this.factIds.push(id)
  }

  /** The block with the fact ids opened since the last block taken, if any: they are the buffer's no longer. */
  private holdingFactIds<B extends HeadingBlock | ParagraphBlock>(block: B): B {
    if (this.factIds.length === 0) return block
    const factIds = this.factIds
    this.factIds = []
    return { ...block, factIds }
  }

  /** The paragraph (or heading) read so far, if it shows anything; the buffer is reset. */
  take(): Block | undefined {
    if (this.isEmpty()) {
      this.reset()
      return undefined
    }
    const style: TextStyle = {
      bold: this.hasText && this.allBold,
      italic: this.hasText && this.allItalic,
      underline: this.hasText && this.allUnderline,
      centered: this.allCentered,
      fontSizePt: this.fontSizePt
    }
    const block: Block = this.holdingFactIds(
      this.headingDepth !== undefined && this.hasText
        ? {
          kind: "heading",
          depth: this.headingDepth,
          text: this.text,
          inlines: [inlineText(this.text)],
          style,
          page: this.page
        }
        : { kind: "paragraph", text: this.text, inlines: this.nodes, style, page: this.page }
    )
    this.reset()
    return block
  }

  reset(): void {
    this.nodes = []
    this.text = ""
    this.hasText = false
    this.hasMedia = false
    this.pendingSpace = false
    this.pendingBreak = false
    this.allBold = true
    this.allItalic = true
    this.allUnderline = true
    this.allCentered = true
    this.fontSizePt = undefined
    this.fragmentLink = false
    this.headingDepth = undefined
    this.closeMarks()
  }
}

/** Where blocks go: the document, a table cell or a list. */
class Collector {
  readonly blocks: Array<Block> = []
  readonly inline = new InlineBuffer()
  /** A table, list or preformatted block is somewhere inside (for layout-table rules). */
  structural = false
  nestedTable = false
  media = false
  constructor(readonly isDocument: boolean) {}
}

interface CellRecord {
  readonly collector: Collector
  readonly colSpan: number
  readonly rowSpan: number
  /** A `<th>`: the markup says the cell labels others. */
  readonly headerCell: boolean
}

interface TableContainer {
  readonly kind: "table"
  readonly rows: Array<Array<CellRecord>>
  /** Indices of the rows opened inside the table's `<thead>`. */
  readonly headRows: Set<number>
  readonly page: number
}

interface CellContainer {
  readonly kind: "cell"
  readonly collector: Collector
  readonly record: CellRecord
}

interface ListContainer {
  readonly kind: "list"
  readonly ordered: boolean
  readonly collector: Collector
  /** Index in `collector.blocks` where each item starts. */
  readonly itemStarts: Array<number>
}

type Container = TableContainer | CellContainer | ListContainer

/** An open element. Frames are reused as the stack shrinks and grows, so they are mutable. */
interface Frame {
  tag: string
  formatting: Formatting
  container: Container | undefined
  breakAfter: boolean
  isBlock: boolean
  /** A block element opened inside: the element is not a single line (for heading detection). */
  containsBlock: boolean
}

const span = (value: string | undefined): number => {
  if (value === undefined) return 1
  const parsed = Number.parseInt(value, 10)
  return Number.isFinite(parsed) ? parsed : 1
}

const collapse = (value: string): string => value.replace(whitespaceRun, " ").trim()

/** One line of inline content for blocks that must fit in a list item or a paragraph. */
interface InlineSummary {
  readonly text: string
  readonly inlines: Array<Inline>
  readonly style: TextStyle | undefined
  /** The blocks summarized: their fact ids (`factIdsOf`) are read only where a block keeps them. */
  readonly blocks: ReadonlyArray<Block>
}

/** `{ factIds }` when there are any, for a block or an item that holds them. */
const withFactIds = (factIds: ReadonlyArray<string> | undefined): { readonly factIds?: ReadonlyArray<string> } =>
  factIds === undefined || factIds.length === 0 ? {} : { factIds }

const andStyles = (left: TextStyle | undefined, right: TextStyle | undefined): TextStyle | undefined => {
  if (left === undefined) return right
  if (right === undefined) return left
  const size = Math.max(left.fontSizePt ?? 0, right.fontSizePt ?? 0)
  return {
    bold: left.bold && right.bold,
    italic: left.italic && right.italic,
    underline: left.underline && right.underline,
    centered: left.centered && right.centered,
    fontSizePt: size === 0 ? undefined : size
  }
}

/** Whether a block holds the ids of facts tagged in it. */
const tagsFacts = (block: Block): boolean =>
  block.kind === "table"
    ? block.cellFacts !== undefined
    : block.kind === "list"
    ? block.items.some((item) => item.factIds !== undefined)
    : block.kind !== "preformatted" && block.factIds !== undefined

/** The ids of the facts tagged in blocks, in order. */
const noFactIds: ReadonlyArray<string> = []

const factIdsOf = (blocks: ReadonlyArray<Block>): ReadonlyArray<string> => {
  if (!blocks.some(tagsFacts)) return noFactIds
  const factIds: Array<string> = []
  for (const block of blocks) {
    if (!tagsFacts(block)) continue
    if (block.kind === "table") { for (const cell of block.cellFacts ?? []) factIds.push(...cell.factIds) }
    else if (block.kind === "list") { for (const item of block.items) factIds.push(...(item.factIds ?? [])) }
    else if (block.kind !== "preformatted") factIds.push(...(block.factIds ?? []))
  }
  return factIds
}

const summarize = (blocks: ReadonlyArray<Block>): InlineSummary => {
  const texts: Array<string> = []
  const runs: Array<ReadonlyArray<Inline>> = []
  let style: TextStyle | undefined
  for (const block of blocks) {
    switch (block.kind) {
      case "heading":
      case "paragraph":
        if (block.text !== "") texts.push(block.text)
        runs.push(block.inlines)
        if (block.text !== "") style = andStyles(style, block.style)
        break
      case "list":
        for (const item of block.items) runs.push(item.inlines)
        texts.push(block.items.map((item) => item.text).join(" "))
        break
      case "table":
      case "preformatted": {
        const text = collapse(block.kind === "table" ? block.rows.map((row) => row.join(" ")).join(" ") : block.text)
        texts.push(text)
        runs.push([inlineText(text)])
        break
      }
    }
  }
  return { text: texts.join(" "), inlines: joinInlines(runs), style, blocks }
}

const isFilled = (slot: Slot | undefined): boolean => slot !== undefined && slot.sources.length > 0

/**
 * The table's header rows: those its markup marks (`<thead>` rows, rows of `<th>` cells) when it
 * marks some, else as its cells tell. The grid leaves out empty source rows, so each grid row is
 * traced back to the source row of its cells.
 */
const headerRowsOf = (table: TableContainer, grid: Grid): number => {
  const sourceRowOf: Array<number> = []
  table.rows.forEach((row, index) => {
    for (let cell = 0; cell < row.length; cell++) sourceRowOf.push(index)
  })
  const markedRows = table.rows.map((row, index) =>
    table.headRows.has(index) || (row.length > 0 && row.every((cell) => cell.headerCell))
  )
  const marked = grid.rows.map((row) => {
    const source = row.find(isFilled)?.sources[0]
    return source !== undefined && markedRows[sourceRowOf[source] ?? -1] === true
  })
  return markedHeaderRows(marked) ?? headerRowCount(grid.rows.map((row) => row.map((slot) => slot.text)))
}

/** Reads an HTML document into blocks. Throws `NestingTooDeep` past `maxNestingDepth` open elements. */
export const readHtml = (html: string): HtmlReading => {
  const warnings: Array<string> = []
  // An inline XBRL document's facts are read from this parse's events: one pass over the bytes
  // serves the text and the numbers (the hidden `ix:header`'s contexts and units included).
  const xbrl = holdsInlineXbrl(html)
    ? factReader("inline", { decodeEntities: true, firstFactOnly: false, continuations: true })
    : undefined
  const xbrlEvents = xbrl?.handler
  // Filings repeat the same few hundred `style` strings on hundreds of thousands of elements: each
  // is parsed once. The cache is bounded for documents that never repeat themselves.
  const styles = new Map<string, DeclaredStyle>()
  const styleOf = (style: string): DeclaredStyle => {
    const known = styles.get(style)
    if (known !== undefined) return known
    const declared = readStyle(style, new DeclaredStyle())
    if (styles.size < maxCachedStyles) styles.set(style, declared)
    return declared
  }
  // The open elements: `stack[0..depth)`; frames past `depth` wait to be reused.
  const stack: Array<Frame> = []
  let depth = 0
  const pushFrame = (
    tag: string,
    formatting: Formatting,
    container: Container | undefined,
    breakAfter: boolean,
    isBlock: boolean
  ) => {
    const frame = stack[depth]
    if (frame === undefined) {
      stack.push({ tag, formatting, container, breakAfter, isBlock, containsBlock: false })
    } else {
      frame.tag = tag
      frame.formatting = formatting
      frame.container = container
      frame.breakAfter = breakAfter
      frame.isBlock = isBlock
      frame.containsBlock = false
    }
    depth++
  }
  // Whether the element opening now sits in a `<thead>` of the innermost open table.
  const insideTableHead = (): boolean => {
    for (let index = depth - 1; index >= 0; index--) {
      const tag = stack[index]?.tag
      if (tag === "thead") return true
      if (tag === "table") return false
    }
    return false
  }
  const containers: Array<Container> = []
  const document = new Collector(true)
  let collector = document
  let title: string | undefined
  let titleText: string | undefined
  let preDepth = 0
  let preText = ""
  let nestedTables = 0
  // Pages: CSS page breaks and `<hr>` separators are counted apart; a break only counts after
  // content, so a break that EDGAR marks twice (a styled `<hr>` in a styled `<div>`) counts once.
  let cssPage = 1
  let hrPage = 1
  let cssBreaks = 0
  let contentSinceCssBreak = false
  let contentSinceHrBreak = false
  const hrPageOf = new Map<Block, number>()
  let lastList: { readonly ordered: boolean; readonly items: Array<ListItem> } | undefined

  const currentCollector = (): Collector => {
    for (let index = containers.length - 1; index >= 0; index--) {
      const container = containers[index]
      if (container !== undefined && container.kind !== "table") return container.collector
    }
    return document
  }

  let lastBlock: Block | undefined
  const pushDocumentBlock = (block: Block, hr: number) => {
    hrPageOf.set(block, hr)
    document.blocks.push(block)
    lastBlock = block
  }
  const continuesList = (ordered: boolean) =>
    lastList !== undefined && lastList.ordered === ordered && lastBlock !== undefined &&
    document.blocks[document.blocks.length - 1] === lastBlock && lastBlock.kind === "list"

  /** Puts a block in the document: bold lines become headings, bullet paragraphs and lists merge. */
  const addToDocument = (block: Block, hr: number) => {
    if (block.kind === "paragraph") {
      const rest = dropLeading(block.inlines, bulletGlyph)
      if (rest !== undefined && rest.length > 0) {
        const item: ListItem = { text: inlinesText(rest, "omit"), inlines: rest, ...withFactIds(block.factIds) }
        if (continuesList(false)) {
          lastList?.items.push(item)
          return
        }
        const items = [item]
        lastList = { ordered: false, items }
        pushDocumentBlock({ kind: "list", ordered: false, items, page: block.page }, hr)
        return
      }
      const depth = notLines.has(block) ? undefined : headingDepthOf(block)
      if (depth !== undefined) {
        const heading: Block = {
          kind: "heading",
          depth,
          text: block.text,
          inlines: [inlineText(block.text)],
          style: block.style,
          page: block.page,
          ...withFactIds(block.factIds)
        }
        pushDocumentBlock(heading, hr)
        return
      }
    }
    if (block.kind === "list") {
      if (continuesList(block.ordered)) {
        for (const item of block.items) lastList?.items.push(item)
        return
      }
      const items = [...block.items]
      lastList = { ordered: block.ordered, items }
      pushDocumentBlock({ kind: "list", ordered: block.ordered, items, page: block.page }, hr)
      return
    }
    pushDocumentBlock(block, hr)
  }

  const emit = (target: Collector, block: Block) => {
    let hr = hrPageOf.get(block)
    if (hr === undefined) {
      hr = hrPage
      hrPageOf.set(block, hr)
      contentSinceCssBreak = true
      contentSinceHrBreak = true
    }
    if (target.isDocument) addToDocument(block, hr)
    else target.blocks.push(block)
  }

  // Paragraphs that share their element with a block cannot be headings (`<div>OR<table>`).
  const notLines = new WeakSet<Block>()
  const flush = (target: Collector, isLine = true) => {
    const fragmentLink = target.inline.fragmentLink
    const block = target.inline.take()
    if (block === undefined) return
    // A bare page number or a "Table of Contents" back-link between the blocks of the document.
    if (target.isDocument && block.kind === "paragraph" && isPageArtifact(block, fragmentLink)) return
    if (!isLine) notLines.add(block)
    emit(target, block)
  }

  const cssBreak = () => {
    flush(collector)
    if (contentSinceCssBreak) {
      cssPage++
      cssBreaks++
    }
    contentSinceCssBreak = false
  }
  const hrBreak = () => {
    if (contentSinceHrBreak) hrPage++
    contentSinceHrBreak = false
  }

  const finishTable = (table: TableContainer, target: Collector) => {
    const cells: Array<CellRecord> = table.rows.flat()
    const sourceRows: Array<Array<SourceCell>> = table.rows.map((row) =>
      row.map((cell) => ({
        text: collapse(summarize(cell.collector.blocks).text),
        colSpan: cell.colSpan,
        rowSpan: cell.rowSpan,
        media: cell.collector.media
      }))
    )
    const grid = buildGrid(sourceRows)
    const [firstRow] = grid.rows
    if (firstRow === undefined) return
    const blocksOf = (slot: Slot | undefined): Array<Block> =>
      (slot?.sources ?? []).flatMap((source) => cells[source]?.collector.blocks ?? [])
    const emitSlot = (slot: Slot | undefined) => {
      for (const block of blocksOf(slot)) emit(target, block)
    }
    const paragraph = (parts: ReadonlyArray<InlineSummary>): ParagraphBlock => {
      let style: TextStyle | undefined
      for (const part of parts) if (part.text !== "") style = andStyles(style, part.style)
      return {
        kind: "paragraph",
        text: parts.map((part) => part.text).filter((text) => text !== "").join(" "),
        inlines: joinInlines(parts.map((part) => part.inlines)),
        style: style ?? { bold: false, italic: false, underline: false, centered: false },
        page: table.page,
        ...withFactIds(parts.flatMap((part) => factIdsOf(part.blocks)))
      }
    }

    if (grid.columnCount === 1) {
      for (const row of grid.rows) emitSlot(row[0])
      return
    }
    if (grid.rows.length === 1) {
      const filled = firstRow.filter(isFilled)
      const length = filled.reduce((total, slot) => total + slot.text.length, 0)
      const simple = filled.every((slot) =>
        slot.sources.every((source) => cells[source]?.collector.structural !== true)
      )
      if (length <= maxInlineRowLength && simple) {
        emit(target, paragraph(filled.map((slot) => summarize(blocksOf(slot)))))
      } else {
        for (const slot of filled) emitSlot(slot)
      }
      return
    }
    if (grid.columnCount === 2) {
      const rowsAre = (test: (first: Slot, second: Slot) => boolean) =>
        grid.rows.every(([first, second]) => first !== undefined && second !== undefined && test(first, second))
      if (rowsAre((first, second) => cellBullet.test(first.text) && isFilled(second))) {
        const items = grid.rows.map((row): ListItem => {
          const summary = summarize(blocksOf(row[1]))
          return { text: summary.text, inlines: summary.inlines, ...withFactIds(factIdsOf(summary.blocks)) }
        })
        emit(target, { kind: "list", ordered: false, items, page: table.page } satisfies ListBlock)
        return
      }
      if (rowsAre((first, second) => cellMarker.test(first.text) && hasLetter.test(second.text))) {
        for (const row of grid.rows) {
          emit(target, paragraph([summarize(blocksOf(row[0])), summarize(blocksOf(row[1]))]))
        }
        return
      }
    }
    if (cells.some((cell) => cell.collector.nestedTable)) nestedTables++
    const cellFacts: Array<CellFacts> = []
    if (cells.some((cell) => cell.collector.blocks.some(tagsFacts))) {
      grid.rows.forEach((row, rowIndex) =>
        row.forEach((slot, column) => {
          // A source cell stands in one column of the grid (a spanning one in its first): its facts are there.
          const factIds = factIdsOf(blocksOf(slot))
          if (factIds.length > 0) cellFacts.push({ row: rowIndex, column, factIds })
        })
      )
    }
    emit(target, {
      kind: "table",
      rows: grid.rows.map((row) => row.map((slot) => slot.text)),
      headerRows: headerRowsOf(table, grid),
      page: table.page,
      ...(cellFacts.length === 0 ? {} : { cellFacts })
    })
  }

  const finishList = (list: ListContainer, target: Collector) => {
    flush(list.collector)
    const blocks = list.collector.blocks
    const starts = list.itemStarts[0] === 0 ? list.itemStarts : [0, ...list.itemStarts]
    const items: Array<ListItem> = []
    let page: number | undefined
    starts.forEach((start, index) => {
      const itemBlocks = blocks.slice(start, starts[index + 1] ?? blocks.length)
      const own = itemBlocks.filter((block) => block.kind !== "list")
      const summary = summarize(own)
      if (summary.inlines.length > 0) {
        items.push({ text: summary.text, inlines: summary.inlines, ...withFactIds(factIdsOf(summary.blocks)) })
      }
      // A nested list continues the items (a list item is one line here).
      for (const block of itemBlocks) if (block.kind === "list") items.push(...block.items)
      page ??= itemBlocks[0]?.page
    })
    if (items.length > 0) emit(target, { kind: "list", ordered: list.ordered, items, page: page ?? cssPage })
  }

  const onopentag = (name: string, attributes: Record<string, string>) => {
    xbrlEvents?.onopentag(name, attributes)
    const parent = depth === 0 ? undefined : stack[depth - 1]
    const inherited = parent?.formatting ?? rootFormatting
    if (depth >= maxNestingDepth) throw new NestingTooDeep(depth)
    if (inherited.hidden) {
      pushFrame(name, inherited, undefined, false, false)
      if (name === "title" && title === undefined) titleText = ""
      return
    }
    const style = attributes["style"]
    const declared = style === undefined || style === "" ? undefined : styleOf(style)
    if (name === "title" && title === undefined) titleText = ""
    const kind = tagKinds.get(name) ?? 0
    if ((kind & isInvisibleTag) !== 0 || declared?.hidden === true || attributes["hidden"] !== undefined) {
      pushFrame(name, { ...inherited, hidden: true }, undefined, false, false)
      return
    }
    if ((name === "ix:nonfraction" || name === "ix:nonnumeric") && attributes["id"] !== undefined) {
      collector.inline.addFact(attributes["id"])
    }
    let bold = inherited.bold
    let italic = inherited.italic
    let underline = inherited.underline
    let centered = inherited.centered
    let fontSizePt = inherited.fontSizePt
    let strongMark = inherited.strongMark
    let emphasisMark = inherited.emphasisMark
    let link = inherited.link
    let fragmentLink = inherited.fragmentLink
    switch (name) {
      case "b":
      case "strong":
        bold = true
        strongMark = true
        break
      case "i":
      case "em":
        italic = true
        emphasisMark = true
        break
      case "cite":
      case "var":
      case "dfn":
        italic = true
        break
      case "u":
      case "ins":
        underline = true
        break
      case "center":
        centered = true
        break
      case "a": {
        const href = attributes["href"]?.trim()
        if (href !== undefined && href !== "") {
          if (href.startsWith("#")) fragmentLink = true
          else if (!/^\s*(?:javascript|data|vbscript):/i.test(href)) link = { href }
        }
        break
      }
      default:
        if ((kind & isHeadingTag) !== 0) bold = true
    }
    const align = attributes["align"]
    if (align !== undefined) centered = align.toLowerCase() === "center"
    const breakAfter = declared?.breakAfter === true
    if (declared !== undefined) {
      if (declared.bold !== undefined) bold = declared.bold
      if (declared.italic !== undefined) italic = declared.italic
      if (declared.underline !== undefined) underline = declared.underline
      if (declared.centered !== undefined) centered = declared.centered
      if (declared.fontSizePt !== undefined) fontSizePt = declared.fontSizePt
      if (declared.breakBefore) cssBreak()
    }
    // Most elements change nothing: share the parent's formatting instead of copying it.
    const formatting: Formatting = bold === inherited.bold && italic === inherited.italic &&
        underline === inherited.underline && centered === inherited.centered &&
        fontSizePt === inherited.fontSizePt && strongMark === inherited.strongMark &&
        emphasisMark === inherited.emphasisMark && link === inherited.link && fragmentLink === inherited.fragmentLink
      ? inherited
      : {
        hidden: false,
        bold,
        italic,
        underline,
        centered,
        fontSizePt,
        strongMark,
        emphasisMark,
        link,
        fragmentLink
      }

    let container: Container | undefined
    if (preDepth > 0) {
      if (name === "br") preText += "\n"
      else if ((kind & isPreformattedTag) !== 0) preDepth++
      else if ((kind & isBlockTag) !== 0) preText += "\n"
      pushFrame(name, formatting, undefined, breakAfter, false)
      return
    }
    const isBlock = (kind & isBlockTag) !== 0
    if (!isBlock && declared?.spaceBefore === true) collector.inline.separate()
    if (isBlock) {
      // Text before a nested block shares its element with that block: not a line of its own.
      flush(collector, false)
      for (let index = depth - 1; index >= 0; index--) {
        const ancestor = stack[index]
        if (ancestor?.isBlock === true) {
          ancestor.containsBlock = true
          break
        }
      }
    }
    const table = containers[containers.length - 1]
    switch (name) {
      case "table": {
        collector.structural = true
        if (!collector.isDocument) collector.nestedTable = true
        container = { kind: "table", rows: [], headRows: new Set(), page: cssPage }
        break
      }
      case "tr":
        if (table?.kind === "table") {
          if (insideTableHead()) table.headRows.add(table.rows.length)
          table.rows.push([])
        }
        break
      case "td":
      case "th": {
        if (table?.kind !== "table") break
        const cellCollector = new Collector(false)
        const record: CellRecord = {
          collector: cellCollector,
          colSpan: span(attributes["colspan"]),
          rowSpan: span(attributes["rowspan"]),
          headerCell: name === "th"
        }
        if (table.rows.length === 0) {
          if (insideTableHead()) table.headRows.add(0)
          table.rows.push([])
        }
        table.rows[table.rows.length - 1]?.push(record)
        container = { kind: "cell", collector: cellCollector, record }
        break
      }
      case "br":
        if (table?.kind !== "table") collector.inline.appendBreak()
        break
      case "hr":
        if (declared?.breakBefore !== true && !breakAfter) hrBreak()
        else contentSinceHrBreak = false
        break
      case "img":
      case "image": {
        const src = attributes["src"] ?? ""
        if (table?.kind !== "table" && src !== "") {
          collector.inline.appendImage(attributes["alt"] ?? "", src, formatting, cssPage)
          collector.media = true
        }
        break
      }
      default: {
        if ((kind & isListTag) !== 0) {
          collector.structural = true
          container = { kind: "list", ordered: name === "ol", collector: new Collector(false), itemStarts: [] }
        } else if ((kind & isListItemTag) !== 0) {
          if (table?.kind === "list" && collector === table.collector) table.itemStarts.push(collector.blocks.length)
        } else if ((kind & isPreformattedTag) !== 0) {
          collector.structural = true
          preDepth = 1
          preText = ""
        } else if ((kind & isHeadingTag) !== 0) {
          const depth = headingTags[name]
          if (depth !== undefined) collector.inline.headingDepth = depth
        }
      }
    }
    if (container !== undefined) {
      containers.push(container)
      collector = currentCollector()
    }
    pushFrame(name, formatting, container, breakAfter, isBlock)
  }

  // The element closed is the top frame's: the name given is the XBRL reader's only.
  const onclosetag = (closed: string, isImplied: boolean) => {
    xbrlEvents?.onclosetag(closed, isImplied)
    if (depth === 0) return
    depth--
    const frame = stack[depth]
    if (frame === undefined) return
    if (frame.formatting.hidden) {
      if (frame.tag === "title" && titleText !== undefined) {
        const value = collapse(titleText)
        if (value !== "") title = value
        titleText = undefined
      }
      return
    }
    const name = frame.tag
    if (preDepth > 0) {
      if (preformattedTags.has(name)) preDepth--
      if (preDepth > 0) return
      if (preformattedTags.has(name)) {
        const reading = readText(preText, cssPage)
        for (const block of reading.blocks) emit(collector, block)
        if (reading.blocks.length > 0) {
          cssBreaks += reading.pageCount - cssPage
          cssPage = reading.pageCount
        }
        preText = ""
      }
    }
    if (frame.isBlock) flush(collector, !frame.containsBlock)
    const container = frame.container
    if (container !== undefined) {
      containers.pop()
      collector = currentCollector()
      switch (container.kind) {
        case "table":
          finishTable(container, collector)
          break
        case "cell":
          flush(container.collector)
          break
        case "list":
          finishList(container, collector)
          break
      }
    }
    if (frame.breakAfter) cssBreak()
  }

  const ontext = (data: string) => {
    xbrlEvents?.ontext(data)
    if (titleText !== undefined) {
      titleText += data
      return
    }
    const frame = depth === 0 ? undefined : stack[depth - 1]
    const formatting = frame?.formatting ?? rootFormatting
    if (formatting.hidden) return
    if (preDepth > 0) {
      preText += data
      return
    }
    // Text between a table's cells belongs to no cell (a browser moves it before the table).
    if (containers[containers.length - 1]?.kind === "table") return
    collector.inline.appendText(data, formatting, cssPage)
  }

  const parser = new Parser(
    { onopentag, onclosetag, ontext },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true }
  )
  parser.parseComplete(html)
  flush(document)

  if (nestedTables > 0) warnings.push(`${nestedTables} table(s) nested in a data table cell were flattened to text`)
  // Without CSS page breaks, `<hr>` rules are how the document separates its pages.
  const useRules = cssBreaks === 0 && hrPage > 1
  const paged = useRules
    ? document.blocks.map((block) => ({ ...block, page: hrPageOf.get(block) ?? block.page }))
    : document.blocks
  const lastPage = paged.reduce((last, block) => Math.max(last, block.page), 1)
  const cleaned = removeFurniture(paged, lastPage)
  warnings.push(...cleaned.warnings)
  return {
    blocks: cleaned.blocks,
    title,
    pageCount: lastPage,
    warnings,
    ...(xbrl === undefined ? {} : { inlineXbrl: xbrl.finish() })
  }
}
