/**
 * The fiscal period an earnings call or a results release discusses, as the company counts it.
 *
 * NVIDIA's call of August 2024 is about "the second quarter of fiscal 2025": the calendar quarter of
 * its date (Q3 2024) names another period. The period is read from the document's own fields where
 * its format has them (a JSON transcript's `quarter` and `year`), else from its opening (the
 * operator's welcome and the first remarks; a release's headline and first paragraph), where
 * explicit statements count most and a period compared with ("up from the third quarter last
 * year") or looked forward to ("outlook for the third quarter", "fiscal 2026 guidance") counts not.
 *
 * @module
 */
import type { IsoDate, Period } from "@filings/domain/Dates"
import { Schema } from "effect"
import { type Block, lines as blockLines } from "./Blocks.js"
import { inlineLines } from "./internal/inline.js"
import { inlinePlainText } from "./internal/markdown/plainText.js"
import {
  mentionRole,
  type PeriodMention,
  periodMentions,
  type Quarter,
  reportsResults,
  speaksOfItself
} from "./internal/periodMentions.js"

/**
 * The period as the document states it: a quarter and its fiscal year, a fiscal year alone (an
 * annual results release), or a quarter alone ("The Buckle reports third quarter net income"),
 * whose year then comes from the document's date (`periodOf`).
 */
export const StatedPeriod = Schema.Struct({
  quarter: Schema.optional(Schema.Literal(1, 2, 3, 4)),
  fiscalYear: Schema.optional(Schema.Int),
  /** Where it was read: the format's own fields, or the text. */
  source: Schema.Literal("fields", "text")
})
export type StatedPeriod = typeof StatedPeriod.Type

/** How `fromText` reads a document: a call's text, or a release's or an 8-K's. */
export interface FromTextOptions {
  /**
   * Only sentences that report results count (a release or an 8-K: "patient screening will begin
   * in the first quarter of 2025" names no period it reports on). A call is about its results.
   */
  readonly reportsResults?: boolean | undefined
}

// The opening: a call's welcome and first remarks, a release's headline and first paragraphs.
const openingSentences = 100
const openingCharacters = 16_000

/** Plain lines to sentences, as many as the opening holds. */
const openingOf = (lines: Iterable<string>): ReadonlyArray<string> => {
  const sentences: Array<string> = []
  let characters = 0
  for (const rawLine of lines) {
    const line = rawLine.trim()
    if (line === "") continue
    for (const sentence of line.split(/(?<=[.?!]["”’)]?)\s+(?=["“(]?[A-Z0-9])/)) {
      sentences.push(sentence)
      characters += sentence.length
      if (sentences.length >= openingSentences || characters >= openingCharacters) return sentences
    }
  }
  return sentences
}

/**
 * The lines of a document's blocks but its tables (figures of several periods side by side), as
 * they are read, one block at a time (the opening is a small part of a long filing).
 */
function* linesOfBlocks(blocks: ReadonlyArray<Block>): Generator<string> {
  for (const block of blocks) {
    if (block.kind === "table") continue
    yield* block.kind === "paragraph" ? inlineLines(block.inlines, "omit") : blockLines(block)
  }
}

/**
 * Markdown to plain lines, for text that has no blocks (the Markdown of a stored exhibit): a line
 * the renderer starts with `|` is a table row and is left out, a leading `#`, `-` or `1.` is a
 * heading's or a list item's mark, and inline marks are undone by the parser's plain-text reading.
 */
function* linesOfMarkdown(text: string): Generator<string> {
  for (const rawLine of text.slice(0, openingCharacters * 2).split(/\n/)) {
    if (/^\s*\|/.test(rawLine)) continue
    yield inlinePlainText(rawLine.replace(/^\s*(?:#{1,6}|[-*+]|\d+\.)\s+/, ""), "omit")
  }
}

interface Candidate extends PeriodMention {
  readonly score: number
  readonly order: number
}

const isPlausibleYear = (year: number | undefined): boolean => year === undefined || (year >= 1990 && year <= 2099)

// The period the opening's sentences state (see `fromText`).
const fromSentences = (sentences: ReadonlyArray<string>, options: FromTextOptions): StatedPeriod | undefined => {
  const candidates: Array<Candidate> = []
  sentences.forEach((sentence, index) => {
    if (options.reportsResults === true && !reportsResults.test(sentence)) return
    for (const mention of periodMentions(sentence)) {
      if (!isPlausibleYear(mention.fiscalYear) || mentionRole(sentence, mention) !== "stated") continue
      const score = (mention.fiscalYear === undefined ? 0 : mention.quarter === undefined ? 1 : 2) +
        (speaksOfItself.test(sentence) ? 3 : 0) +
        (index < 8 ? 1 : 0) +
        (index === 0 ? 1 : 0)
      candidates.push({ ...mention, score, order: candidates.length })
    }
  })
  // A quarter named again and again is the one the call is about ("In the first quarter, ...").
  const repeated = (quarter: Quarter | undefined) =>
    quarter === undefined ? 0 : Math.min(2, (candidates.filter((other) => other.quarter === quarter).length - 1) / 2)
  const best = candidates.reduce<{ readonly candidate: Candidate; readonly weight: number } | undefined>(
    (chosen, candidate) => {
      const weight = candidate.score + repeated(candidate.quarter)
      return chosen === undefined || weight > chosen.weight ? { candidate, weight } : chosen
    },
    undefined
  )?.candidate
  if (best === undefined) return undefined
  // A year's results discussed with its fourth quarter ("the fourth quarter capped a record 2020"):
  // the call is the fourth quarter's.
  const quarter = best.quarter ??
    (candidates.some((candidate) =>
        candidate.quarter === 4 && (candidate.fiscalYear ?? best.fiscalYear) === best.fiscalYear
      )
      ? 4
      : undefined)
  const fiscalYear = quarter === undefined
    ? best.fiscalYear
    : latestStatedYear(candidates.filter((candidate) => candidate.quarter === quarter)) ?? best.fiscalYear
  return {
    ...(quarter === undefined ? {} : { quarter }),
    ...(fiscalYear === undefined ? {} : { fiscalYear }),
    source: "text"
  }
}

/**
 * The period the text says it discusses, when it says one. Of the periods named in the opening and
 * neither compared with nor looked forward to, the one stated with most weight: a year beside the
 * quarter, a sentence about the call or its results, an early place. A quarter named without its
 * year takes the year stated elsewhere in the opening for the same quarter, if any.
 */
export const fromText = (text: string, options: FromTextOptions = {}): StatedPeriod | undefined =>
  fromSentences(openingOf(linesOfMarkdown(text)), options)

/**
 * `fromText` of a document's blocks, as the parser read them (tables left out): what the parser
 * uses, and what a reader of a stored document with its chunks' blocks should.
 */
export const fromBlocks = (blocks: ReadonlyArray<Block>, options: FromTextOptions = {}): StatedPeriod | undefined =>
  fromSentences(openingOf(linesOfBlocks(blocks)), options)

/**
 * The latest year stated beside the quarter: a call names the same quarter of earlier years to
 * compare with it ("net income of $14 million in the fourth quarter of 2018"), and the same quarter
 * of a later year only to look ahead, which is told apart already.
 */
const latestStatedYear = (candidates: ReadonlyArray<Candidate>): number | undefined =>
  candidates.reduce<number | undefined>(
    (latest, { fiscalYear }) =>
      fiscalYear !== undefined && (latest === undefined || fiscalYear > latest) ? fiscalYear : latest,
    undefined
  )

const asNumber = (value: unknown): number | undefined => {
  if (typeof value === "number" && Number.isInteger(value)) return value
  if (typeof value === "string" && /^\s*\d{1,4}\s*$/.test(value)) return Number(value)
  return undefined
}

/**
 * The period of a transcript's own fields (`{ year: 2025, quarter: 2 }`, `"Q2"`, `"2025"`): the
 * quarter and fiscal year its provider files the call under. Undefined when they are not a quarter
 * and a year.
 */
export const fromFields = (
  fields: { readonly year?: unknown; readonly quarter?: unknown }
): StatedPeriod | undefined => {
  const year = asNumber(fields.year)
  const quarterText = typeof fields.quarter === "string" ? fields.quarter.replace(/^\s*Q/i, "") : fields.quarter
  const quarter = asNumber(quarterText)
  if (year === undefined || year < 1990 || year > 2099) return undefined
  if (quarter === undefined || quarter < 1 || quarter > 4) return undefined
  return { quarter: quarter as Quarter, fiscalYear: year, source: "fields" }
}

/**
 * The stated period as the API writes it (`Q2 2025`, `FY 2023`). A quarter stated without its year
 * is placed in the latest year in which that quarter, counted as calendar quarters, had ended by the
 * document's date: the third quarter reported in November 2024 is `Q3 2024`, the fourth reported in
 * January 2022 `Q4 2021`. Undefined when nothing was stated.
 */
export const periodOf = (stated: StatedPeriod | undefined, documentDate: IsoDate): Period | undefined => {
  if (stated === undefined) return undefined
  if (stated.quarter === undefined) return stated.fiscalYear === undefined ? undefined : `FY ${stated.fiscalYear}`
  if (stated.fiscalYear !== undefined) return `Q${stated.quarter} ${stated.fiscalYear}`
  const year = Number(documentDate.slice(0, 4))
  const month = Number(documentDate.slice(5, 7))
  return `Q${stated.quarter} ${month > stated.quarter * 3 ? year : year - 1}`
}
