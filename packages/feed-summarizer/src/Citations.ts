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

/** Checks and repairs the citations of `summary` against the document it summarises. */
export const checkCitations = (summary: Summary, input: SummaryInput): CheckedSummary => {
  const chunkText = new Map(input.chunks.map((chunk) => [chunk.id, plainText(chunk.text)]))
  const corrections: Array<string> = []
  const highlights: Array<Feed.Highlight> = []

  summary.highlights.forEach((highlight, position) => {
    const name = `highlight ${position + 1}`
    const text = highlight.text.trim()
    if (text === "") {
      corrections.push(`${name} dropped: it is empty`)
      return
    }
    const valid = highlight.citations.filter((citation) =>
      citation.source === input.source && chunkText.has(citation.chunkId)
    )
    for (const citation of highlight.citations) {
      if (!valid.includes(citation)) {
        corrections.push(`${name}: citation ${citation.source}/${citation.chunkId} names no chunk of this document`)
      }
    }
    if (supports(text, valid.map((citation) => chunkText.get(citation.chunkId)!))) {
      highlights.push(Feed.Highlight.make({ text, citations: valid }))
      return
    }
    // Look for the passage the highlight does come from: the chunk that states all its figures and
    // shares most of its words.
    let best: { readonly id: string; readonly share: number } | undefined
    for (const [id, passage] of chunkText) {
      if (!supports(text, [passage])) continue
      const share = shareOfWords(text, passage)
      if (best === undefined || share > best.share) best = { id, share }
    }
    if (best === undefined) {
      const missing = unsupportedFigures(text, [...chunkText.values()])
      corrections.push(
        missing.length > 0
          ? `${name} dropped: the document does not state ${missing.join(", ")}`
          : `${name} dropped: no passage of the document supports it`
      )
      return
    }
    corrections.push(`${name}: cited ${best.id} instead, the passage that states it`)
    highlights.push(
      Feed.Highlight.make({ text, citations: [Feed.Citation.make({ source: input.source, chunkId: best.id })] })
    )
  })
  return { summary: { ...summary, highlights }, corrections }
}
