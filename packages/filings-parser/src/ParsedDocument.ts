/**
 * What the parser makes of a document: its blocks (the document model, see `Blocks`), the
 * Markdown rendered from them, its labeled sections and stable chunks for citations (each a range
 * of the blocks, with its pages), the exhibits of a submission, and the warnings met on the way.
 *
 * @module
 */
import { Chunk as DocumentChunk, Exhibit, LabeledSection } from "@filings/domain/Document"
import { Schema } from "effect"
import { StatedPeriod } from "./FiscalPeriod.js"
import { Block, BlockRange } from "./internal/blocks.js"
import type { FactSet } from "./internal/xbrl/factSet.js"
import { SubmissionHeader } from "./SgmlSubmission.js"

/**
 * A labeled part of a document: `Item 1A. Risk Factors`, `Item 2.02 Results of Operations ...`.
 * The domain's `LabeledSection` (its `title`, `item`, `content`, word count and pages, as the stores
 * keep it and the API serves it), with where it lies in the document's blocks.
 */
export const Section = Schema.Struct({
  ...LabeledSection.fields,
  /** Where the section lies in the document's `blocks`; `content` is that range rendered. */
  blockRange: BlockRange
})
export type Section = typeof Section.Type

/**
 * A passage of the body, a few hundred words at block boundaries, that a citation can point to.
 * Ids are `c0001`, `c0002`, ... in body order; the same input always gives the same chunks.
 */
export const Chunk = Schema.Struct({
  // Its blocks are the range of the document's `blocks`; the stored chunk carries them itself.
  ...DocumentChunk.omit("blocks").fields,
  wordCount: Schema.Int,
  /** Where the chunk lies in the document's `blocks`; `text` is that range rendered. */
  blockRange: BlockRange
})
export type Chunk = typeof Chunk.Type

/**
 * An exhibit document of a full submission (`EX-99.1`, `EX-10.2`), parsed as the body is: the
 * domain's `Exhibit` (its `exhibitNumber`, `title` and Markdown `content`, as the stores keep it and
 * the API serves it), with its file name, its blocks and its word count.
 */
export const ParsedExhibit = Schema.Struct({
  ...Exhibit.fields,
  /** The file name in the submission, when it has one. */
  fileName: Schema.optional(Schema.String),
  /** The exhibit's document as blocks, as the body's are; `content` is them rendered. */
  blocks: Schema.Array(Block),
  wordCount: Schema.Int
})
export type ParsedExhibit = typeof ParsedExhibit.Type

/**
 * The cover-page facts an inline XBRL filing tags (`dei:DocumentType`, `dei:TradingSymbol`, ...),
 * as written in the document. Dates are ISO (`2024-09-28`) when the text could be read as one.
 */
export const CoverFacts = Schema.Struct({
  documentType: Schema.optional(Schema.String),
  registrantName: Schema.optional(Schema.String),
  centralIndexKey: Schema.optional(Schema.String),
  /** The first trading symbol the cover lists. */
  tradingSymbol: Schema.optional(Schema.String),
  /**
   * Every trading symbol the cover lists (`dei:TradingSymbol` is repeated once per class of
   * securities: GOOGL, then GOOG), in the cover's order, each once.
   */
  tradingSymbols: Schema.optional(Schema.Array(Schema.String)),
  periodEndDate: Schema.optional(Schema.String),
  fiscalYearFocus: Schema.optional(Schema.String),
  fiscalPeriodFocus: Schema.optional(Schema.String)
})
export type CoverFacts = typeof CoverFacts.Type

/** A document's inline XBRL facts as `XbrlFacts.readFacts` gives them (maps of contexts and units, arrays of facts). */
export const InlineXbrlFacts = Schema.declare(
  (input: unknown): input is FactSet =>
    typeof input === "object" && input !== null && "contexts" in input && input.contexts instanceof Map &&
    "units" in input && input.units instanceof Map && "numericFacts" in input && Array.isArray(input.numericFacts) &&
    "textFacts" in input && Array.isArray(input.textFacts),
  { identifier: "InlineXbrlFacts" }
)

/** The whole of what `Parser.parse` makes of a document. */
export const ParsedDocument = Schema.Struct({
  /** The form the document was parsed as (`10-K`, `8-K`, `EARNINGS_CALL`, ...), when known. */
  form: Schema.optional(Schema.String),
  /** The body as blocks, in reading order: the document model that sections and chunks are ranges of. */
  blocks: Schema.Array(Block),
  /** The body rendered as GFM Markdown from `blocks`, ending with one newline. */
  markdown: Schema.String,
  wordCount: Schema.Int,
  title: Schema.optional(Schema.String),
  /** Pages found (page breaks in HTML, pages of a PDF); 1 when the source has none. */
  pageCount: Schema.Int,
  sections: Schema.Array(Section),
  chunks: Schema.Array(Chunk),
  exhibits: Schema.Array(ParsedExhibit),
  /** The file name of the primary document, when the input was a full submission that names it. */
  primaryFileName: Schema.optional(Schema.String),
  /** The SGML header, when the input was a full submission. */
  header: Schema.optional(SubmissionHeader),
  /** The inline XBRL cover facts, when the document has them. */
  cover: Schema.optional(CoverFacts),
  /**
   * The end of the period a filing reports on (ISO), from its inline XBRL cover, its submission
   * header, else the date its cover page prints ("For the fiscal year ended December 31, 2018").
   */
  periodEndDate: Schema.optional(Schema.String),
  /**
   * The fiscal period an earnings call, a press release or an 8-K reporting results discusses, as
   * the company counts it: the transcript's own quarter and year where its format has them, else
   * what its opening states ("the second quarter of fiscal 2025"). See `FiscalPeriod`.
   */
  discussedPeriod: Schema.optional(StatedPeriod),
  /**
   * Every fact of the primary document's inline XBRL (contexts, units, numeric and text facts, text
   * facts with their continuations), read in the same pass as its text; absent when it has none.
   * The extractor's metrics and facts read these instead of the document again. See `XbrlFacts`.
   */
  inlineXbrl: Schema.optional(InlineXbrlFacts),
  warnings: Schema.Array(Schema.String)
})
export type ParsedDocument = typeof ParsedDocument.Type
