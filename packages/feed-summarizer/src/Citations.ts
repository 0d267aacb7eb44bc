/**
 * The check every summary passes before it reaches the feed, whoever wrote it: each citation
 * names this document and one of its chunks, and every figure of a highlight is stated in a chunk
 * it cites. A model that cites a chunk that does not exist, or quotes a number its passage does not
 * hold, is repaired where the document itself shows where the highlight comes from (the one chunk
 * stating all its figures, or failing that the chunk sharing most of its words), and otherwise loses
 * that highlight. A misquoted number is the worst error a feed can make.
 *
 * @module
 */
import { Feed } from "@filings/domain"
import { figuresOf, unsupportedFigures } from "./internal/figures.js"
import { plainText, wordsOf } from "./internal/sentences.js"
import type { Summary, SummaryInput } from "./Summary.js"

/** A summary whose citations were checked against the document, with what was repaired or dropped. */
export interface CheckedSummary {
  readonly summary: Summary
  /** What was repaired or dropped, one line each, for the log. */
  readonly corrections: ReadonlyArray<string>
}

/**
 * How much of a highlight's wording its passage must share: a highlight without figures can only be
 * checked by its words; one with figures is checked by them, and needs only to speak of the same
 * things, since a model may paraphrase.
 */
const wordShareWithoutFigures = 0.6
const wordShareWithFigures = 0.3

const shareOfWords = (highlight: string, passage: string): number => {
  const words = new Set(wordsOf(highlight).filter((word) => word.length > 3))
  if (words.size === 0) return 0
  const present = new Set(wordsOf(passage))
  let shared = 0
  for (const word of words) if (present.has(word)) shared++
  return shared / words.size
}

/** Whether the cited passages support the highlight: every figure stated, and enough of its wording there. */
const supports = (highlight: string, passages: ReadonlyArray<string>): boolean => {
  if (passages.length === 0 || unsupportedFigures(highlight, passages).length > 0) return false
  const needed = figuresOf(highlight).length > 0 ? wordShareWithFigures : wordShareWithoutFigures
  return passages.some((passage) => shareOfWords(highlight, passage) >= needed)
}

/** A passage a statement may rest on: its document (`source`), its chunk and its plain text. */
export interface Passage {
  readonly source: string
  readonly chunkId: string
  readonly text: string
}

/** A statement (a highlight, a sentence of an answer) with the passages it cites. */
export interface CitedStatement {
  readonly text: string
  readonly citations: ReadonlyArray<Feed.Citation>
}

/** Statements whose citations were checked against the passages given, with what was repaired or dropped. */
export interface CheckedStatements {
  readonly statements: ReadonlyArray<CitedStatement>
  readonly corrections: ReadonlyArray<string>
}

/** How the corrections speak of what is checked: `highlight 2`, "the document". */
export interface Wording {
  /** The name of the statement at `position` (from 0): `highlight 1`, `sentence 3`. */
  readonly statement: (position: number) => string
  /** What the passages are, all together: "the document", "the sources". */
  readonly passages: string
  /** What a citation must name a chunk of: "this document", "the sources". */
  readonly citable: string
}

const key = (source: string, chunkId: string) => `${source}\u0000${chunkId}`

/**
 * Checks each statement against the passages it cites: every citation names one of `passages`,
 * every figure of the statement is in a passage it cites, and enough of its wording is there. A
 * statement that fails cites instead the one passage that supports it best, if one does, and is
 * dropped otherwise. The passages' text is read as plain text (Markdown removed).
 */
export const checkStatements = (
  statements: ReadonlyArray<CitedStatement>,
  passages: ReadonlyArray<Passage>,
  wording: Wording
): CheckedStatements => {
  const texts = new Map(passages.map((passage) => [key(passage.source, passage.chunkId), plainText(passage.text)]))
  const sources = new Set(passages.map((passage) => passage.source))
  const corrections: Array<string> = []
  const checked: Array<CitedStatement> = []
  const nameOf = (citation: Feed.Citation) =>
    sources.size === 1 && sources.has(citation.source) ? citation.chunkId : `${citation.source}/${citation.chunkId}`

  statements.forEach((statement, position) => {
    const name = wording.statement(position)
    const text = statement.text.trim()
    if (text === "") {
      corrections.push(`${name} dropped: it is empty`)
      return
    }
    const valid = statement.citations.filter((citation) => texts.has(key(citation.source, citation.chunkId)))
    for (const citation of statement.citations) {
      if (!valid.includes(citation)) {
        corrections.push(
          `${name}: citation ${citation.source}/${citation.chunkId} names no chunk of ${wording.citable}`
        )
      }
    }
    if (supports(text, valid.map((citation) => texts.get(key(citation.source, citation.chunkId))!))) {
      checked.push({ text, citations: valid })
      return
    }
    // Look for the passage the statement does come from: the one that states all its figures and
    // shares most of its words.
    let best: { readonly passage: Passage; readonly share: number } | undefined
    for (const passage of passages) {
      const passageText = texts.get(key(passage.source, passage.chunkId))!
      if (!supports(text, [passageText])) continue
      const share = shareOfWords(text, passageText)
      if (best === undefined || share > best.share) best = { passage, share }
    }
    if (best === undefined) {
      const missing = unsupportedFigures(text, [...texts.values()])
      corrections.push(
        missing.length > 0
          ? `${name} dropped: ${wording.passages} do${wording.passages.endsWith("s") ? "" : "es"} not state ${
            missing.join(", ")
          }`
          : `${name} dropped: no passage of ${wording.passages} supports it`
      )
      return
    }
    const citation = Feed.Citation.make({ source: best.passage.source, chunkId: best.passage.chunkId })
    corrections.push(`${name}: cited ${nameOf(citation)} instead, the passage that states it`)
    checked.push({ text, citations: [citation] })
  })
  return { statements: checked, corrections }
}

/** Checks and repairs the citations of `summary` against the document it summarises. */
export const checkCitations = (summary: Summary, input: SummaryInput): CheckedSummary => {
  const { corrections, statements } = checkStatements(
    summary.highlights,
    input.chunks.map((chunk) => ({ source: input.source, chunkId: chunk.id, text: chunk.text })),
    { statement: (position) => `highlight ${position + 1}`, passages: "the document", citable: "this document" }
  )
  const highlights = statements.map((statement) =>
    Feed.Highlight.make({ text: statement.text, citations: [...statement.citations] })
  )
  return { summary: { ...summary, highlights }, corrections }
}
