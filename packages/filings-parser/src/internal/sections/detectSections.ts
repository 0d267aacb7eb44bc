/**
 * Section detection: finds the labeled parts of a filing in its blocks. Item forms (10-K, 10-Q,
 * 8-K, 20-F) are cut at their item headings and named from the form's catalog; other forms (S-1,
 * DEF 14A, 6-K) at their top-level headings.
 *
 * Rules, in short:
 * - A boundary is a block that starts with an item label (`Item 1A.`, `ITEM 1A -`, `I TEM 1A:`,
 *   `Item1A.`, `Items 1 and 2.`, `Part II, Item 1.`) and looks like a heading: a heading block; a
 *   short paragraph (bold, underlined, centred, all caps or in large type rank higher); a run-in
 *   heading whose text starts with the item's catalog title; or the one labelled row of a small
 *   table. Cross-references ("see Item 7", "Item 8 of this report") are not: the text after the
 *   label starts in lower case, or the label is not at the start of the block.
 * - Tables of contents are never boundaries: tables with two or more item rows, lines ending in a
 *   page number, and runs of five or more item lines with (almost) no text between them whose
 *   items come again later (a run of short items "incorporated by reference" does not).
 * - Each item is used once: of all its occurrences, the choice is the longest run of items in
 *   catalog order, preferring heading-like occurrences followed by body text, then the first.
 * - An item runs to the next item (a `PART` heading between them stays in it, as in the labels);
 *   the last item runs to `SIGNATURES`. Blocks before the first item (cover page, TOC) belong to
 *   no section; `SIGNATURES` and what follows it (exhibit index) is a section named `Signatures`
 *   without an item key.
 * - `Items 1 and 2. Business and Properties` and `Items 10 through 14.` are one section keyed by
 *   the first item; every item covered is listed in `combinedItems`.
 * - 10-Q items are keyed by part (`part1item2`, `part2item1a`): Part II starts at a `PART II`
 *   heading, at a `Part II, Item` label, at an item only Part II has, or where numbering goes back.
 * - Names use the catalog's canonical titles; where a form renamed an item (10-K Items 4, 6, 14
 *   before 2010/2021/2003) the title of the filer's era is used.
 * - Headings mode (S-1, DEF 14A, 6-K, or an unknown form whose labels fit no catalog): the
 *   top level is a tier of large type holding known titles, else known titles and proposals, else
 *   the shallowest headings; running headers, `(continued)` lines and cover-page lines are not.
 */
import { type Block, blockText } from "../blocks.js"
import { nonWhitespaceLength } from "../characters.js"
import {
  canonicalTitle,
  catalogFor,
  type CatalogItem,
  type FormCatalog,
  type ItemForm,
  itemFormOf,
  itemSectionName,
  normalizeQuery
} from "./catalog.js"

export interface DetectedSection {
  /** `Item 1A. Risk Factors`, `Item 2.02 Results of Operations and Financial Condition`, `Risk Factors`. */
  readonly title: string
  /** The item key (`1A`, `2.02`, `part2item1a`) when the section is an item. */
  readonly item?: string | undefined
  /** Every item key a combined heading (`Items 1 and 2.`) covers, the first being `item`. */
  readonly combinedItems?: ReadonlyArray<string> | undefined
  /** Index of the section's first block (its heading). */
  readonly startBlock: number
  /** Index after the section's last block. */
  readonly endBlock: number
}

export interface DetectedSections {
  readonly sections: ReadonlyArray<DetectedSection>
  readonly warnings: ReadonlyArray<string>
}

// ---------------------------------------------------------------------------------------------
// Text helpers

const oddSpaces = /[\u00a0\u2000-\u200b\u202f\u205f\u3000\ufeff]/g
// What makes a text need more than trimming: an odd space, whitespace other than a space, or two
// spaces. Most blocks' text needs none, and is then not copied twice.
const needsCleaning = /[\u00a0\u2000-\u200b\u202f\u205f\u3000\ufeff]|[^\S ]| {2}/

/** Non-breaking and other odd spaces as plain spaces, whitespace collapsed, dashes kept. */
const cleanText = (text: string): string =>
  needsCleaning.test(text) ? text.replace(oddSpaces, " ").replace(/\s+/g, " ").trim() : text.trim()

/** Headings are short: only a block's start is read for labels and titles (long paragraphs stay cheap). */
const headLength = 600
const cleanHead = (text: string): string => cleanText(text.length > headLength ? text.slice(0, headLength) : text)

const letters = (text: string): string => text.replace(/[^A-Za-z]/g, "")

const isAllCaps = (text: string): boolean => {
  const onlyLetters = letters(text)
  return onlyLetters.length >= 3 && onlyLetters === onlyLetters.toUpperCase()
}

/** A trailing page number (`12`, `F-1`, `A-3`, `ii`): the mark of a TOC line. */
const endsWithPageNumber = (text: string): boolean =>
  /\s(?:\d{1,3}|[A-Z]-\d{1,3}|[ivx]{1,5})$/.test(text) && !/\b(?:19|20)\d\d$/.test(text)

// ---------------------------------------------------------------------------------------------
// Item labels

interface ItemLabel {
  /** `II` → 2 when the label names its part (`Part II, Item 1`). */
  readonly part?: 1 | 2 | undefined
  /** Item numbers as printed, upper-cased: `["1A"]`, `["1", "2"]`. */
  readonly numbers: ReadonlyArray<string>
  /** The text after the label: the filer's title, maybe the start of the body. */
  readonly rest: string
  /** The number had a sub-part (`14(a)(1)`, `9.01(d)`). */
  readonly subPart: boolean
  /** `Items 10 through 14`: the numbers are the ends of a range. */
  readonly range: boolean
}

const itemNumber = String.raw`\d{1,2}(?:\.\d{1,2})?[A-Za-z]?(?![A-Za-z0-9])(?:\s?\([A-Za-z0-9]{1,3}\))*`
const labelPattern = new RegExp(
  String.raw`^(?:part\s*(IV|I{1,3}|[1-4])\b[\s,.:;\-–—]*)?I\s?TEMS?\s*[-–—:.]?\s*(${itemNumber})` +
    String.raw`((?:\s*(?:,|and|&|through|to|-|–|—)\s*${itemNumber})*)(.*)$`,
  "is"
)

const romanPart = (part: string | undefined): 1 | 2 | undefined => {
  if (part === undefined) return undefined
  const upper = part.toUpperCase()
  if (upper === "I" || upper === "1") return 1
  if (upper === "II" || upper === "2") return 2
  return undefined
}

const cleanNumber = (number: string): string => number.replace(/\s?\(.*$/, "").toUpperCase()

// 8-Ks group items under `Section 5 – Corporate Governance and Management`, often run into the item heading.
const eightKSectionPrefix = /^\s*section\s+\d{1,2}\b[^]{0,120}?(?=\bi\s?tem\s*[-–—]?\s*\d)/i

/** Reads the item label a text starts with, if any. */
export const parseItemLabel = (original: string): ItemLabel | undefined => {
  const text = original.replace(eightKSectionPrefix, "")
  if (!/^\W{0,3}(?:part|i\s?tem)/i.test(text.trimStart().slice(0, 12))) return undefined
  const match = labelPattern.exec(cleanHead(text))
  if (match === null) return undefined
  const [, part, first = "", more = "", rest = ""] = match
  const others = more.match(new RegExp(itemNumber, "g")) ?? []
  return {
    part: romanPart(part),
    numbers: [first, ...others].map(cleanNumber),
    subPart: first.includes("("),
    range: others.length === 1 && /^\s*(?:through|to|-|–|—)\s*/i.test(more),
    rest: rest.replace(/^[\s.:;\-–—)]+/, "").trim()
  }
}

const partPattern = /^part\s*(IV|I{1,3}|[1-4])\b(?!\s*,?\s*items?\b)/i

// ---------------------------------------------------------------------------------------------
// Heading-likeness

/** The text a block offers as a heading, and whether it is a TOC entry. */
interface HeadingText {
  readonly text: string
  readonly quality: number
  readonly toc: boolean
}

const maxShortHeading = 250

/** Running text after the label (`Item 7 of this report`, `Item 8 below`) starts in lower case. */
const looksLikeCrossReference = (rest: string): boolean => /^[a-z]/.test(rest)

/** Whether a title starts like the catalog title (the first two significant words). */
const startsWithTitle = (rest: string, item: CatalogItem | undefined): boolean => {
  if (item === undefined) return false
  const words = (title: string) =>
    title.toLowerCase().replace(/[’']/g, "'").split(/[^a-z0-9']+/).filter((word) => word.length > 0).slice(0, 2)
  const expected = words(item.title).join(" ")
  const found = words(rest).join(" ")
  return expected.length > 0 && found === expected
}

/** A block's candidacy as an item heading: its label text and how heading-like it is. */
const headingTextOf = (block: Block, bodySize: number | undefined): HeadingText | undefined => {
  switch (block.kind) {
    case "heading":
      return { text: cleanHead(block.text), quality: 30, toc: endsWithPageNumber(cleanHead(block.text)) }
    case "paragraph": {
      const text = cleanHead(block.text)
      const short = block.text.length <= headLength && text.length <= maxShortHeading
      const styled = block.style.bold || block.style.underline || block.style.centered || isLarge(block, bodySize)
      const quality = short ? (styled ? 20 : isAllCaps(text) ? 15 : 5) : 0
      return { text, quality, toc: short && endsWithPageNumber(text) }
    }
    case "table": {
      const labelled = block.rows.filter((row) => parseItemLabel(row.join(" ")) !== undefined)
      if (labelled.length !== 1 || block.rows.length > 3) return undefined
      const cells = (labelled[0] ?? []).map(cleanText).filter((cell) => cell.length > 0)
      const text = cells.join(" ")
      return { text, quality: 10, toc: endsWithPageNumber(text) }
    }
    case "list":
    case "preformatted":
      return undefined
  }
}

/** Tables that list two or more items are tables of contents (or cross-reference indexes). */
const isTocTable = (block: Block): boolean =>
  block.kind === "table"
  && block.rows.filter((row) => parseItemLabel(row.filter((cell) => cell.trim().length > 0).join(" ")) !== undefined)
      .length >= 2

/**
 * The body text's font size: the size most of the paragraph text is set in. Blocks set clearly
 * larger are headings even without bold (proxy statements set their part titles in 20+ points).
 */
const bodyFontSize = (blocks: ReadonlyArray<Block>): number | undefined => {
  const weights = new Map<number, number>()
  for (const block of blocks) {
    if (block.kind !== "paragraph" || block.style.fontSizePt === undefined) continue
    weights.set(block.style.fontSizePt, (weights.get(block.style.fontSizePt) ?? 0) + block.text.length)
  }
  let best: number | undefined
  for (const [size, weight] of weights) if (best === undefined || weight > (weights.get(best) ?? 0)) best = size
  return best
}

const isLarge = (block: Block, bodySize: number | undefined): boolean =>
  block.kind === "paragraph" && bodySize !== undefined && (block.style.fontSizePt ?? 0) >= bodySize * 1.25

const isHeadingLikeShort = (block: Block, bodySize?: number | undefined): string | undefined => {
  if (block.kind === "heading") return cleanHead(block.text)
  if (block.kind !== "paragraph" || block.text.length > headLength) return undefined
  const text = cleanText(block.text)
  if (text.length > 120) return undefined
  const { bold, centered, underline } = block.style
  if (bold || underline || centered || isAllCaps(text) || isLarge(block, bodySize)) return text
  return undefined
}

/** `SIGNATURES` alone on its line (its style is often lost; the bare word is cue enough). */
const isSignatures = (block: Block): boolean =>
  (block.kind === "heading" || block.kind === "paragraph")
  && block.text.length < 40 && /^signatures?\.?$/i.test(cleanText(block.text).replace(/\s+/g, ""))

const partHeading = (block: Block): 1 | 2 | 3 | 4 | undefined => {
  const text = isHeadingLikeShort(block)
  if (text === undefined || text.length > 100 || endsWithPageNumber(text)) return undefined
  const match = partPattern.exec(text)
  if (match === null) return undefined
  const part = (match[1] ?? "").toUpperCase()
  return part === "I" || part === "1" ? 1 : part === "II" || part === "2" ? 2 : part === "III" || part === "3" ? 3 : 4
}

// ---------------------------------------------------------------------------------------------
// Item detection

interface Candidate {
  readonly block: number
  /** Catalog indexes of the items the heading covers, ascending. */
  readonly indexes: ReadonlyArray<number>
  readonly quality: number
  /** The filer's title after the label. */
  readonly title: string
  toc: boolean
}

const lookupItems = (
  catalog: FormCatalog,
  label: ItemLabel,
  part: 1 | 2
): ReadonlyArray<number> | undefined => {
  const indexes: Array<number> = []
  let currentPart = label.part ?? part
  for (const number of label.numbers) {
    let index = catalog.items.findIndex((item) =>
      item.number.toUpperCase() === number && (item.part === undefined || item.part === currentPart)
    )
    // A 10-Q item only Part II has (1A, 5, 6) means Part II began without a heading.
    if (index < 0 && catalog.form === "10-Q" && currentPart === 1) {
      index = catalog.items.findIndex((item) => item.number.toUpperCase() === number && item.part === 2)
      if (index >= 0) currentPart = 2
    }
    if (index < 0) return undefined
    indexes.push(index)
  }
  const [from, to] = indexes
  if (label.range && from !== undefined && to !== undefined && to > from) {
    return Array.from({ length: to - from + 1 }, (_, offset) => from + offset)
  }
  return indexes
}

/** 20-F `Item 16.A` / `ITEM 16 A.` is Item 16A. */
const joinSubItem = (label: ItemLabel): ItemLabel => {
  const match = /^([A-K])(?=$|[\s.:\-–—])[\s.:\-–—]*/.exec(label.rest)
  if (label.numbers.length !== 1 || label.numbers[0] !== "16" || match === null) return label
  return { ...label, numbers: [`16${match[1]}`], rest: label.rest.slice(match[0].length) }
}

const findCandidates = (blocks: ReadonlyArray<Block>, catalog: FormCatalog): Array<Candidate> => {
  const candidates: Array<Candidate> = []
  let part: 1 | 2 = 1
  // The catalog index of the last item heading since the last PART heading: a 10-Q whose numbering
  // goes back (`Item 1` after `Item 4`) has started its other part, even without a PART heading.
  let previous: number | undefined
  const bodySize = bodyFontSize(blocks)
  blocks.forEach((block, index) => {
    const heading = partHeading(block)
    if (heading !== undefined && block.kind !== "table") {
      part = heading === 2 ? 2 : 1
      previous = undefined
    }
    if (isTocTable(block)) return
    const headingText = headingTextOf(block, bodySize)
    if (headingText === undefined) return
    const parsed = parseItemLabel(headingText.text)
    if (parsed === undefined) return
    const label = catalog.form === "20-F" ? joinSubItem(parsed) : parsed
    // 20-F `Item 4.A History and Development` is a part of Item 4 (unlike `Item 4A`).
    if (catalog.form === "20-F" && label.numbers[0] !== "16" && /^[A-K](?=$|[\s.:\-–—])/.test(label.rest)) return
    if (label.rest.length > 0 && looksLikeCrossReference(label.rest)) return
    if (/^\(?continued\)?/i.test(label.rest)) return
    // `Item 14(a)(1):` with no title is a subdivision inside the item, not its heading.
    if (label.subPart && letters(label.rest).length === 0) return
    let indexes = lookupItems(catalog, label, label.part ?? part)
    if (indexes === undefined) return
    if (catalog.form === "10-Q" && label.part === undefined && previous !== undefined && (indexes[0] ?? 0) < previous) {
      indexes = lookupItems(catalog, label, part === 1 ? 2 : 1) ?? indexes
    }
    const first = catalog.items[indexes[0] ?? -1]
    // Long text is a heading only when it is a run-in heading starting with the item's title.
    const runIn = startsWithTitle(label.rest, first)
    const quality = headingText.quality > 0 ? headingText.quality : runIn ? 5 : 0
    if (quality === 0) return
    if (first?.part !== undefined) part = first.part
    const sorted = [...indexes].sort((a, b) => a - b)
    previous = sorted[sorted.length - 1]
    candidates.push({ block: index, indexes: sorted, quality, title: label.rest, toc: headingText.toc })
  })
  return candidates
}

// Non-whitespace characters before each block, PART headings not counted (they sit between items
// in tables of contents and in the body alike); cached per blocks array.
const prefixCache = new WeakMap<ReadonlyArray<Block>, Array<number>>()

const textBefore = (blocks: ReadonlyArray<Block>): Array<number> => {
  const cached = prefixCache.get(blocks)
  if (cached !== undefined) return cached
  const prefix = [0]
  blocks.forEach((block, index) => {
    const counted = partHeading(block) === undefined ? nonWhitespaceLength(blockText(block)) : 0
    prefix.push((prefix[index] ?? 0) + counted)
  })
  prefixCache.set(blocks, prefix)
  return prefix
}

/** Text between two blocks, both excluded. */
const gapChars = (blocks: ReadonlyArray<Block>, from: number, to: number): number => {
  const prefix = textBefore(blocks)
  return Math.max(0, (prefix[to] ?? 0) - (prefix[from + 1] ?? 0))
}

const tocRunLength = 5
const tocGap = 20

/** Marks runs of item lines with almost no text between them: a table of contents in paragraphs. */
const markTocRuns = (blocks: ReadonlyArray<Block>, candidates: Array<Candidate>): void => {
  // How many of the candidates after the current run start with each catalog item; the runs
  // partition the candidates, so the whole pass is linear in them (a long filing has thousands).
  const later = new Map<number, number>()
  for (const candidate of candidates) {
    const first = candidate.indexes[0] ?? 0
    later.set(first, (later.get(first) ?? 0) + 1)
  }
  let passed = 0
  let runStart = 0
  for (let index = 0; index <= candidates.length; index++) {
    const current = candidates[index]
    const next = candidates[index + 1]
    // A TOC lists items in order: a repeated or earlier item starts the body, not the same run.
    const dense = current !== undefined && next !== undefined
      && (next.indexes[0] ?? 0) > (current.indexes[current.indexes.length - 1] ?? 0)
      && gapChars(blocks, current.block, next.block) < tocGap
    if (dense) continue
    for (; passed <= index && passed < candidates.length; passed++) {
      const first = candidates[passed]?.indexes[0] ?? 0
      later.set(first, (later.get(first) ?? 0) - 1)
    }
    // candidates[runStart..index] are linked by small gaps; a TOC's items come again later, while
    // a run of short items "incorporated by reference" does not.
    const run = candidates.slice(runStart, index + 1)
    const repeated = run.filter((member) => (later.get(member.indexes[0] ?? 0) ?? 0) > 0).length
    if (run.length >= tocRunLength && repeated * 2 >= run.length) {
      for (let member = runStart; member <= index; member++) {
        const candidate = candidates[member]
        if (candidate !== undefined) candidate.toc = true
      }
    }
    runStart = index + 1
  }
}

/** The longest run of candidates in catalog order, heavier for heading quality and body text. */
const chooseCandidates = (blocks: ReadonlyArray<Block>, candidates: ReadonlyArray<Candidate>): Array<Candidate> => {
  const usable = candidates.filter((candidate) => !candidate.toc)
  const weight = usable.map((candidate, index) => {
    const next = usable[index + 1]
    const body = gapChars(blocks, candidate.block, next?.block ?? blocks.length)
    return 1000 + candidate.quality + (body >= tocGap ? 50 : 0)
  })
  const best: Array<number> = []
  const previous: Array<number> = []
  // The best run so far ending in each catalog item, and the first candidate that ends it: a
  // candidate extends the best run ending before its first item (of equal runs, the one ending at
  // the earliest candidate), so the choice costs the catalog's size per candidate, not the
  // candidates before it.
  const endingAt: Array<{ score: number; at: number } | undefined> = []
  usable.forEach((candidate, index) => {
    const own = weight[index] ?? 0
    best[index] = own
    previous[index] = -1
    const first = candidate.indexes[0] ?? 0
    let extended: { score: number; at: number } | undefined
    for (let item = 0; item < first; item++) {
      const run = endingAt[item]
      if (
        run !== undefined &&
        (extended === undefined || run.score > extended.score || (run.score === extended.score && run.at < extended.at))
      ) {
        extended = run
      }
    }
    if (extended !== undefined) {
      best[index] = extended.score + own
      previous[index] = extended.at
    }
    const last = candidate.indexes[candidate.indexes.length - 1] ?? 0
    const ending = endingAt[last]
    if (ending === undefined || (best[index] ?? 0) > ending.score) {
      endingAt[last] = { score: best[index] ?? 0, at: index }
    }
  })
  let end = -1
  best.forEach((score, index) => {
    if (end < 0 || score > (best[end] ?? 0)) end = index
  })
  const chosen: Array<Candidate> = []
  for (let index = end; index >= 0; index = previous[index] ?? -1) {
    const candidate = usable[index]
    if (candidate !== undefined) chosen.unshift(candidate)
  }
  return chosen
}

const combinedName = (
  form: ItemForm,
  items: ReadonlyArray<CatalogItem>,
  filerTitle: string,
  periodEnd: string | undefined
): string => {
  const [first] = items
  if (items.length === 1 && first !== undefined) return itemSectionName(form, first, filerTitle, periodEnd)
  const numbers = items.map((item) => item.number)
  const titles = items.map((item) => canonicalTitle(form, item, filerTitle, periodEnd))
  const join = (parts: ReadonlyArray<string>) =>
    parts.length <= 2 ? parts.join(" and ") : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`
  return `Items ${join(numbers)}. ${join(titles)}`
}

const detectItems = (
  blocks: ReadonlyArray<Block>,
  form: ItemForm,
  periodEnd?: string | undefined
): Array<DetectedSection> => {
  const catalog = catalogFor(form)
  const candidates = findCandidates(blocks, catalog)
  markTocRuns(blocks, candidates)
  const chosen = chooseCandidates(blocks, candidates)
  const sections: Array<DetectedSection> = []
  chosen.forEach((candidate, index) => {
    const next = chosen[index + 1]
    // Like the labels: an item runs to the next item, `PART` headings between them included.
    const end = next?.block ?? blocks.length
    const items = candidate.indexes.flatMap((at) => catalog.items[at] ?? [])
    const [first] = items
    if (first === undefined) return
    sections.push({
      title: combinedName(form, items, candidate.title, periodEnd),
      item: first.key,
      ...(items.length > 1 ? { combinedItems: items.map((item) => item.key) } : {}),
      startBlock: candidate.block,
      endBlock: end
    })
  })
  return sections
}

const signaturesSection = (
  blocks: ReadonlyArray<Block>,
  after: number
): DetectedSection | undefined => {
  for (let index = after; index < blocks.length; index++) {
    const block = blocks[index]
    if (block !== undefined && isSignatures(block)) {
      return { title: "Signatures", startBlock: index, endBlock: blocks.length }
    }
  }
  return undefined
}

// ---------------------------------------------------------------------------------------------
// Heading-named sections (S-1, DEF 14A, 6-K, unknown forms)

const knownTitles: ReadonlyArray<string> = [
  // S-1 and other prospectuses
  "About This Prospectus",
  "Prospectus Summary",
  "Summary",
  "The Offering",
  "Summary Financial Data",
  "Summary Consolidated Financial Data",
  "Risk Factors",
  "Special Note Regarding Forward-Looking Statements",
  "Cautionary Note Regarding Forward-Looking Statements",
  "Forward-Looking Statements",
  "Use of Proceeds",
  "Dividend Policy",
  "Market for Common Stock and Dividend Policy",
  "Capitalization",
  "Dilution",
  "Management's Discussion and Analysis of Financial Condition and Results of Operations",
  "Business",
  "Proposed Business",
  "Management",
  "Executive Compensation",
  "Executive and Director Compensation",
  "Certain Relationships and Related Party Transactions",
  "Certain Relationships and Related Transactions",
  "Principal Stockholders",
  "Principal Shareholders",
  "Selling Stockholder",
  "Selling Stockholders",
  "Selling Shareholders",
  "The Private Placement",
  "Description of Capital Stock",
  "Description of Securities",
  "Description of Our Securities",
  "Description of Our Securities to be Registered",
  "Shares Eligible for Future Sale",
  "Taxation",
  "Material U.S. Federal Income Tax Considerations",
  "Underwriting",
  "Plan of Distribution",
  "Legal Matters",
  "Experts",
  "Where You Can Find More Information",
  "Incorporation of Certain Information by Reference",
  "Index to Financial Statements",
  "Index to Consolidated Financial Statements",
  "Our Business",
  "Industry Overview",
  "Market and Industry Data",
  "Corporate History and Structure",
  "Enforceability of Civil Liabilities",
  "Expenses Related to This Offering",
  "Determination of Offering Price",
  "Selected Financial Data",
  "Selected Consolidated Financial Data",
  "Summary Historical Financial Data",
  "Description of Share Capital",
  "Description of American Depositary Shares",
  "Certain Material U.S. Federal Income Tax Considerations",
  "Material United States Federal Income Tax Considerations",
  "Interests of Named Experts and Counsel",
  "Disclosure of Commission Position on Indemnification for Securities Act Liabilities",
  // DEF 14A
  "Proxy Statement",
  "Proxy Summary",
  "Notice of Annual Meeting of Stockholders",
  "Notice of Annual Meeting of Shareholders",
  "About the Annual Meeting",
  "Questions and Answers About the Annual Meeting",
  "General Information",
  "Corporate Governance",
  "Board of Directors",
  "Director Compensation",
  "Compensation Discussion and Analysis",
  "Compensation Committee Report",
  "Pay Versus Performance",
  "CEO Pay Ratio",
  "Equity Compensation Plan Information",
  "Security Ownership of Certain Beneficial Owners and Management",
  "Stock Ownership",
  "Beneficial Ownership",
  "Related Person Transactions",
  "Transactions with Related Persons",
  "Audit Committee Report",
  "Report of the Audit Committee",
  "Delinquent Section 16(a) Reports",
  "Stockholder Proposals",
  "Shareholder Proposals",
  "Householding",
  "Other Matters",
  "Election of Directors",
  "Compensation of Directors",
  "Questions and Answers About the Proxy Materials and the Annual Meeting",
  "Information About the Annual Meeting",
  "Solicitation of Proxies",
  "Principal Accountant Fees and Services",
  "Section 16(a) Beneficial Ownership Reporting Compliance",
  // 6-K and exhibits
  "Exhibit Index",
  "Exhibits"
]

const knownByKey = new Map(knownTitles.map((title) => [normalizeQuery(title), title]))

const proposalPattern = /^proposal\s*(?:no\.?|number)?\s*(\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b/i

const proposalLine =
  /^\(\s*proposal\s*(?:no\.?|number)?\s*(\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s*\)$/i

const boilerplate =
  /^(?:united states|securities and exchange commission|washington,? d\.? ?c\.?.*|form [\w-]+|current report|table of contents|index|page|\d+|(?:the )?securities (?:exchange )?act of \d{4}|under|registration statement|prospectus|copies to:?)$/i

const coverLine =
  /^(?:pursuant to\b|report of foreign|for the month of|commission file|\(exact name|(?:january|february|march|april|may|june|july|august|september|october|november|december)\s+\d{1,2},\s+\d{4}$)/i

/** Cover-page lines: the SEC's address, form names, dates, the filer's address. */
const isBoilerplate = (text: string): boolean =>
  boilerplate.test(text) || coverLine.test(text) ||
  (/\d/.test(text) && text.includes(",") && !proposalPattern.test(text))

const smallWords = new Set(["a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to", "with"])

/** `PROSPECTUS SUMMARY` → `Prospectus Summary`; other spellings stay as written. */
const displayName = (text: string): string => {
  const known = knownByKey.get(normalizeQuery(text))
  if (known !== undefined) return known
  if (!isAllCaps(text)) return text
  return text
    .toLowerCase()
    .split(" ")
    .map((word, index) =>
      index > 0 && smallWords.has(word)
        ? word
        : word.replace(/(^\W*|[-/])(\p{L})/gu, (_, lead: string, letter: string) => lead + letter.toUpperCase())
    )
    .join(" ")
}

const headingLikeText = (block: Block, bodySize: number | undefined): string | undefined => {
  // A proposal title is a heading even where its style was lost (`Proposal 1 — Election of Directors`).
  const proposal = block.kind === "paragraph" && block.text.length <= headLength
    && proposalPattern.test(cleanText(block.text)) && cleanText(block.text).length <= 150
  const text = proposal ? cleanText(block.text) : isHeadingLikeShort(block, bodySize)
  if (text !== undefined && /\(continued\)$/i.test(text)) return undefined
  if (text === undefined || text.length < 3 || text.length > 120 || endsWithPageNumber(text)) return undefined
  if (letters(text).length < 3 || /[.,;]$/.test(text) && !/^proposal/i.test(text)) return undefined
  return text
}

interface HeadingCandidate {
  readonly block: number
  readonly text: string
  readonly depth: number
  /** Font size of a paragraph set larger than the body text. */
  readonly largeSize?: number | undefined
  /** While joining a title set over several blocks: the block of its first line. */
  readonly first?: number | undefined
}

/** Keeps the first heading of each name: later ones are running headers or mentions. */
const firstOfEachName = (headings: ReadonlyArray<HeadingCandidate>): Array<HeadingCandidate> => {
  const seen = new Set<string>()
  return headings.filter((heading) => {
    const key = normalizeQuery(displayName(heading.text))
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** A title set over several lines is several blocks in a row: one heading, unless the next is a title of its own. */
const joinSplitTitles = (
  headings: ReadonlyArray<HeadingCandidate>,
  isKnown: (text: string) => boolean
): Array<HeadingCandidate> => {
  const joined: Array<HeadingCandidate> = []
  for (const heading of headings) {
    const last = joined[joined.length - 1]
    if (last !== undefined && heading.block === last.block + 1 && !isKnown(heading.text)) {
      // `block` moves on so a third line joins too; the section still starts at the first line.
      joined[joined.length - 1] = {
        ...last,
        text: `${displayName(last.text)} ${displayName(heading.text)}`,
        block: heading.block
      }
    } else {
      joined.push({ ...heading, first: heading.block })
    }
  }
  return joined.map((heading) => ({ ...heading, block: heading.first ?? heading.block }))
}

/**
 * The headings that start top-level sections: a tier of large type holding known titles (the
 * document's own top level), else the known titles and proposals, else the shallowest headings.
 */
const topLevelHeadings = (blocks: ReadonlyArray<Block>): Array<HeadingCandidate> => {
  const bodySize = bodyFontSize(blocks)
  const headings: Array<HeadingCandidate> = []
  const counts = new Map<string, number>()
  blocks.forEach((block, index) => {
    const text = headingLikeText(block, bodySize)
    if (text === undefined || proposalLine.test(text)) return
    counts.set(text.toLowerCase(), (counts.get(text.toLowerCase()) ?? 0) + 1)
    const largeSize = isLarge(block, bodySize) && block.kind === "paragraph" ? block.style.fontSizePt : undefined
    // `ELECTION OF DIRECTORS` over `(Proposal No. 1)`: a proposal's title.
    const next = blocks[index + 1]
    const proposal = next !== undefined && (next.kind === "paragraph" || next.kind === "heading")
      ? proposalLine.exec(cleanHead(next.text))
      : null
    const titled = proposal === null ? text : `${displayName(text)} (Proposal No. ${proposal[1]})`
    headings.push({ block: index, text: titled, depth: block.kind === "heading" ? block.depth : 7, largeSize })
  })
  // Running headers (`2024 PROXY STATEMENT` on every page) and cover-page lines are not sections.
  const isKnown = (text: string) =>
    knownByKey.has(normalizeQuery(text)) || proposalPattern.test(text) || /\S \(Proposal No\. \w+\)$/.test(text)
  const usable = headings.filter((heading) =>
    ((counts.get(heading.text.toLowerCase()) ?? 0) < 3 || isKnown(heading.text)) && !isBoilerplate(heading.text)
  )
  const tiers = new Map<number, Array<HeadingCandidate>>()
  for (const heading of usable) {
    if (heading.largeSize !== undefined) {
      tiers.set(heading.largeSize, [...(tiers.get(heading.largeSize) ?? []), heading])
    }
  }
  let best: { readonly size: number; readonly known: number } | undefined
  for (const [size, members] of tiers) {
    const known = firstOfEachName(members.filter((heading) => isKnown(heading.text))).length
    if (known >= 2 && (best === undefined || known > best.known || (known === best.known && size > best.size))) {
      best = { size, known }
    }
  }
  if (best !== undefined) return firstOfEachName(joinSplitTitles(tiers.get(best.size) ?? [], isKnown))
  const known = firstOfEachName(usable.filter((heading) => isKnown(heading.text)))
  if (known.length >= 2) return known
  const minDepth = Math.min(...usable.map((heading) => heading.depth))
  return usable.filter((heading) => heading.depth === minDepth)
}

const detectHeadings = (blocks: ReadonlyArray<Block>): Array<DetectedSection> => {
  const boundaries = topLevelHeadings(blocks)
  const signature = blocks.findIndex((block, index) => index > (boundaries[0]?.block ?? 0) && isSignatures(block))
  const sections: Array<DetectedSection> = boundaries.map((heading, index) => ({
    title: displayName(heading.text),
    startBlock: heading.block,
    endBlock: boundaries[index + 1]?.block ?? blocks.length
  }))
  const last = sections[sections.length - 1]
  if (last !== undefined && signature > last.startBlock && signature < last.endBlock) {
    sections[sections.length - 1] = { ...last, endBlock: signature }
  }
  return sections
}

// ---------------------------------------------------------------------------------------------

/** Forms whose parts are named by headings, not items; an unknown form may be either. */
const hasNoItems = (form: string | undefined): boolean =>
  form !== undefined && /^(?:S-\d|F-\d|6-K|DEF|DEFA|PRE|DEFM|PREM|424B|SC\s)/i.test(form.trim())

/** Guesses the item form of a document whose form is unknown, from the labels it has. */
const guessItemForm = (blocks: ReadonlyArray<Block>): ItemForm | undefined => {
  const eightK = detectItems(blocks, "8-K").filter((section) => section.item?.includes(".") === true)
  if (eightK.length > 0) return "8-K"
  // A periodic report has its first items; a registration statement's Part II (Items 13-17) does not.
  const plausible = (sections: ReadonlyArray<DetectedSection>) =>
    sections.length >= 3 && sections.some((section) => /^(?:part1item)?[123]$/.test(section.item ?? ""))
  const tenK = detectItems(blocks, "10-K")
  const tenQ = detectItems(blocks, "10-Q")
  const twentyF = detectItems(blocks, "20-F")
  if (
    plausible(tenQ) && tenQ.some((section) => section.item?.startsWith("part2") === true) && tenQ.length >= tenK.length
  ) {
    return "10-Q"
  }
  if (plausible(twentyF) && twentyF.length > tenK.length) return "20-F"
  return plausible(tenK) ? "10-K" : undefined
}

/**
 * Finds the labeled sections of a document. `form` picks the item catalog (10-K, 10-Q, 8-K, 20-F
 * and their variants); other forms get sections from their top-level headings, and an unknown
 * form whatever catalog its labels fit, else headings. `periodEnd` (ISO), the end of the period the
 * filing reports on, gives items the titles of the filing's era when its headings do not say them.
 */
export const detectSections = (
  blocks: ReadonlyArray<Block>,
  form: string | undefined,
  periodEnd?: string | undefined
): DetectedSections => {
  const warnings: Array<string> = []
  const itemForm = itemFormOf(form) ?? (hasNoItems(form) ? undefined : guessItemForm(blocks))
  if (itemForm !== undefined) {
    const items = detectItems(blocks, itemForm, periodEnd)
    if (items.length > 0) {
      const last = items[items.length - 1]
      const signatures = last === undefined ? undefined : signaturesSection(blocks, last.startBlock + 1)
      if (last !== undefined && signatures !== undefined && signatures.startBlock < last.endBlock) {
        items[items.length - 1] = { ...last, endBlock: signatures.startBlock }
      }
      return { sections: signatures === undefined ? items : [...items, signatures], warnings }
    }
    if (itemFormOf(form) !== undefined) warnings.push(`no ${itemForm} item headings found; sections from headings`)
  }
  return { sections: detectHeadings(blocks), warnings }
}
