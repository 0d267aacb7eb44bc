/**
 * The front door of the parser: any document we serve, as bytes, to a `ParsedDocument` with its
 * Markdown body, labeled sections, pages, chunks and exhibits.
 *
 * What the bytes are is worked out from them (and from the content type, file name and form when
 * given): a PDF, a full EDGAR submission (`<SEC-DOCUMENT>`: its primary document is the body, its
 * `EX-` documents the exhibits), an earnings call transcript (JSON with speaker turns, or text
 * when the form says `EARNINGS_CALL`), or an HTML, inline XBRL or plain-text document. Sections
 * follow the form: items for 10-K, 10-Q, 8-K and 20-F, headings for the others, prepared remarks
 * and Q&A for transcripts.
 *
 * @module
 */
import { Effect, Option } from "effect"
import * as FiscalPeriod from "./FiscalPeriod.js"
import { assemble, type SectionSpan } from "./internal/assemble.js"
import type { Block } from "./internal/blocks.js"
import { readCoverFacts } from "./internal/coverFacts.js"
import { printedPeriodEnd } from "./internal/coverPeriod.js"
import { countBlockWords, renderMarkdown } from "./internal/markdown/render.js"
import { looksLikePdf, type PdfUnreadable, readPdf } from "./internal/pdf/readPdf.js"
import type { DocumentBlocks } from "./internal/readDocument.js"
import { decodeBytes, readHtmlBlocks, readTextBlocks, UnreadableDocument } from "./internal/readInput.js"
import { detectSections } from "./internal/sections/detectSections.js"
import { looksLikeHtml } from "./internal/sniff.js"
import { storableData } from "./internal/storableText.js"
import { readTranscript, type TranscriptUnusable } from "./internal/transcripts/readTranscript.js"
import type { ParsedDocument, ParsedExhibit } from "./ParsedDocument.js"
import * as SgmlSubmission from "./SgmlSubmission.js"

export { decodeBytes, DecodedText, UnreadableDocument, UnreadableReason } from "./internal/readInput.js"

/** What `parse` reads. */
export interface ParseInput {
  readonly bytes: Uint8Array
  /** The content type the bytes were served with, when known (`text/html`, `application/pdf`). */
  readonly contentType?: string | undefined
  /** The file name, when known: `.pdf` and `.json` help tell formats apart. */
  readonly fileName?: string | undefined
  /**
   * The form, when the caller knows it (`10-K`, `8-K`, `EARNINGS_CALL`). Otherwise the document's
   * own: its submission header, its inline XBRL cover, or the `FORM 10-K` line of its cover page.
   */
  readonly form?: string | undefined
  /**
   * The submission the bytes hold, when the caller has split it already (`SgmlSubmission.parseBytes`)
   * for uses of its own: it is read rather than split again.
   */
  readonly submission?: SgmlSubmission.Submission | undefined
}

/** Why `parse` failed: the document cannot be read, or the submission is malformed. */
export type ParseError = UnreadableDocument | SgmlSubmission.MalformedSubmission

const transcriptForm = "EARNINGS_CALL"

const exhibitNumber = (type: string): string | undefined => /^EX-(\d+(?:\.[0-9A-Z]+)*)$/i.exec(type.trim())?.[1]

const coverFormLine = /^\s*FORM\s+(10-K|10-Q|8-K|20-F|6-K|S-1|DEF\s*14A)\b/i

/** The form a cover page names (`FORM 10-K`), from the first blocks. */
const formOnCover = (blocks: ReadonlyArray<Block>): string | undefined => {
  for (const block of blocks.slice(0, 60)) {
    if (block.kind !== "heading" && block.kind !== "paragraph") continue
    const match = coverFormLine.exec(block.text)
    if (match?.[1] !== undefined) return match[1].toUpperCase().replace(/^DEF\s*14A$/, "DEF 14A")
  }
  return undefined
}

const isTranscriptForm = (form: string | undefined): boolean =>
  form !== undefined && /^(EARNINGS_CALL|TRANSCRIPT)$/i.test(form.trim())

const declaredJson = (input: ParseInput): boolean =>
  /\bjson\b/i.test(input.contentType ?? "") || /\.json$/i.test(input.fileName ?? "")

const declaredPdf = (input: ParseInput): boolean =>
  /\bpdf\b/i.test(input.contentType ?? "") || /\.pdf$/i.test(input.fileName ?? "")

const fromPdfError = (error: PdfUnreadable) =>
  new UnreadableDocument({
    reason: error.reason === "too-large"
      ? "too-complex"
      : error.reason === "pdfjs-missing"
      ? "missing-dependency"
      : "unsupported-format",
    detail: `PDF ${error.reason}: ${error.detail}`
  })

const fromTranscriptError = (error: TranscriptUnusable) =>
  new UnreadableDocument({
    reason: error.reason === "empty" || error.reason === "binary" ? error.reason : "unsupported-format",
    detail: `transcript ${error.reason}: ${error.detail}`
  })

interface Extras {
  readonly exhibits?: ReadonlyArray<ParsedExhibit> | undefined
  readonly header?: ParsedDocument["header"] | undefined
  readonly cover?: ParsedDocument["cover"] | undefined
  readonly primaryFileName?: string | undefined
  readonly periodEndDate?: string | undefined
  /** The period a transcript's own fields state. */
  readonly statedPeriod?: FiscalPeriod.StatedPeriod | undefined
}

const isReleaseForm = (form: string | undefined): boolean => /^PRESS_RELEASE$/i.test(form?.trim() ?? "")
const isEightK = (form: string | undefined): boolean => /^8-K(?:\/A)?$/i.test(form?.trim() ?? "")
const isPressExhibit = (exhibit: ParsedExhibit): boolean => /^99(?:\.|$)/.test(exhibit.exhibitNumber)

/**
 * The fiscal period a call, a release or an 8-K discusses: a transcript's own fields, else its
 * opening; a release's headline and first paragraphs; an 8-K's Item 2.02, else its releases (EX-99).
 */
const discussedPeriodOf = (
  form: string | undefined,
  blocks: ReadonlyArray<Block>,
  exhibits: ReadonlyArray<ParsedExhibit>,
  statedPeriod: FiscalPeriod.StatedPeriod | undefined
): FiscalPeriod.StatedPeriod | undefined => {
  if (isTranscriptForm(form)) return statedPeriod ?? FiscalPeriod.fromBlocks(blocks)
  if (isReleaseForm(form)) return FiscalPeriod.fromBlocks(blocks, { reportsResults: true })
  if (!isEightK(form)) return undefined
  const fromBody = FiscalPeriod.fromBlocks(blocks, { reportsResults: true })
  if (fromBody !== undefined) return fromBody
  for (const exhibit of exhibits.filter(isPressExhibit)) {
    const fromRelease = FiscalPeriod.fromBlocks(exhibit.blocks, { reportsResults: true })
    if (fromRelease !== undefined) return fromRelease
  }
  return undefined
}

/**
 * The parsed document, made from inputs cleaned of text no store can keep (`storableText`): every
 * format passes through here, so no NUL from a PDF's font reaches the database.
 */
const build = (
  dirtyReading: DocumentBlocks,
  form: string | undefined,
  dirtySections: ReadonlyArray<SectionSpan>,
  dirtyWarnings: ReadonlyArray<string>,
  dirtyExtras: Extras = {}
): ParsedDocument => {
  const { extras, reading, sections, warnings } = storableData({
    reading: dirtyReading,
    sections: dirtySections,
    warnings: dirtyWarnings,
    extras: dirtyExtras
  })
  const assembled = assemble({
    blocks: reading.blocks,
    sections,
    form,
    title: reading.title,
    pageCount: reading.pageCount,
    exhibits: extras.exhibits ?? [],
    warnings: [...reading.warnings, ...warnings]
  })
  const discussedPeriod = discussedPeriodOf(form, assembled.blocks, assembled.exhibits, extras.statedPeriod)
  return {
    ...assembled,
    ...(reading.inlineXbrl === undefined ? {} : { inlineXbrl: reading.inlineXbrl }),
    ...(discussedPeriod === undefined ? {} : { discussedPeriod }),
    ...(extras.header === undefined ? {} : { header: extras.header }),
    ...(extras.cover === undefined ? {} : { cover: extras.cover }),
    ...(extras.primaryFileName === undefined ? {} : { primaryFileName: extras.primaryFileName }),
    ...(extras.periodEndDate === undefined ? {} : { periodEndDate: extras.periodEndDate })
  }
}

const isoDate = (text: string | undefined): string | undefined =>
  text !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : undefined

// Only a periodic report's cover prints its period; an 8-K's "results for the quarter ended" is no report date.
const printsItsPeriod = (form: string | undefined): boolean => /^(?:10-?K|10-?Q|20-?F)/i.test(form?.trim() ?? "")

/** The period a filing reports on: its inline XBRL cover, its submission header, else its printed cover page. */
const periodEndOf = (reading: DocumentBlocks, form: string | undefined, extras: Extras): string | undefined =>
  isoDate(extras.cover?.periodEndDate) ?? isoDate(extras.header?.periodOfReport) ??
    (printsItsPeriod(form) ? printedPeriodEnd(reading.blocks) : undefined)

/** Blocks of a filing, with the sections its form has. */
const withSections = (reading: DocumentBlocks, form: string | undefined, extras: Extras = {}) => {
  const periodEndDate = periodEndOf(reading, form, extras)
  // Item titles follow the filing's era (a 2018 10-K's Item 6 is "Selected Financial Data").
  const detected = detectSections(reading.blocks, form, periodEndDate)
  return build(reading, form, detected.sections, detected.warnings, { ...extras, periodEndDate })
}

const parsePdf = (input: ParseInput) =>
  readPdf(input.bytes).pipe(
    Effect.mapError(fromPdfError),
    Effect.map((pdf) => withSections(pdf, input.form ?? formOnCover(pdf.blocks)))
  )

const parseTranscript = (input: ParseInput, text: string | Uint8Array) =>
  readTranscript(text, declaredJson(input) ? { format: "json" } : {}).pipe(
    Effect.mapError(fromTranscriptError),
    Effect.map((transcript) =>
      build({ ...transcript, pageCount: 1 }, input.form ?? transcriptForm, transcript.sections, [], {
        statedPeriod: transcript.period
      })
    )
  )

const readSubmissionDocument = (document: SgmlSubmission.SubmissionDocument) =>
  document.format === "html" ? readHtmlBlocks(document.body) : readTextBlocks(document.body)

const parseSubmission = (input: ParseInput) =>
  Effect.gen(function*() {
    const submission = input.submission ?? (yield* SgmlSubmission.parseBytes(input.bytes))
    const primary = SgmlSubmission.primaryDocument(submission)
    if (Option.isNone(primary)) {
      return yield* new SgmlSubmission.MalformedSubmission({
        reason: "no-primary-document",
        detail: "no HTML or text document in the submission"
      })
    }
    const reading = yield* readSubmissionDocument(primary.value)
    const cover = primary.value.format === "html" ? readCoverFacts(primary.value.body) : undefined
    const warnings = [...submission.warnings]
    const exhibits: Array<ParsedExhibit> = []
    for (const document of submission.documents) {
      const number = exhibitNumber(document.type)
      if (number === undefined || (document.format !== "html" && document.format !== "text")) continue
      // An exhibit that cannot be read is left out, not the whole filing.
      const exhibit = yield* Effect.either(readSubmissionDocument(document))
      if (exhibit._tag === "Left") {
        warnings.push(`exhibit ${document.type} left out: ${exhibit.left.message}`)
        continue
      }
      exhibits.push({
        exhibitNumber: number,
        title: document.description?.trim() || document.type,
        content: renderMarkdown(exhibit.right.blocks),
        ...(document.filename === undefined ? {} : { fileName: document.filename }),
        blocks: exhibit.right.blocks,
        wordCount: countBlockWords(exhibit.right.blocks)
      })
    }
    const form = input.form ?? submission.header.form ?? cover?.documentType ?? formOnCover(reading.blocks)
    return withSections({ ...reading, warnings: [...warnings, ...reading.warnings] }, form, {
      exhibits,
      header: submission.header,
      cover,
      primaryFileName: primary.value.filename
    })
  })

const parseDocument = (input: ParseInput) =>
  Effect.gen(function*() {
    const decoded = yield* decodeBytes(input.bytes, input.contentType)
    const html = looksLikeHtml(decoded.text)
    const reading = yield* (html ? readHtmlBlocks(decoded.text) : readTextBlocks(decoded.text))
    const cover = html ? readCoverFacts(decoded.text) : undefined
    const form = input.form ?? cover?.documentType ?? formOnCover(reading.blocks)
    return withSections({ ...reading, warnings: [...decoded.warnings, ...reading.warnings] }, form, { cover })
  })

/** What `fromBlocks` assembles: blocks read already, with what `parse` would know of their document. */
export interface FromBlocksInput {
  /** The document's blocks, in reading order: an exhibit's `ParsedExhibit.blocks`, say. */
  readonly blocks: ReadonlyArray<Block>
  /** The form to find sections for (`PRESS_RELEASE`, `PRESENTATION`, `8-K`), as `ParseInput.form`. */
  readonly form?: string | undefined
  /** The document's title, when known (an HTML `<title>`). */
  readonly title?: string | undefined
  /** Pages of the source; the last page a block starts on when not given. */
  readonly pageCount?: number | undefined
  /** What was met reading the blocks, kept in the document's `warnings`. */
  readonly warnings?: ReadonlyArray<string> | undefined
}

/**
 * The `ParsedDocument` of blocks read already, assembled as `parse` assembles what it reads: the
 * form's sections, Markdown rendered once, chunks, word counts and the period a release or a call
 * discusses. A submission's exhibit becomes a document of its own this way without being read a
 * second time: `fromBlocks({ blocks: exhibit.blocks, form: "PRESS_RELEASE" })` is what `parse` makes
 * of the exhibit's bytes with that form.
 *
 * @example
 * const filing = yield* Parser.parse({ bytes })
 * const release = filing.exhibits.find((exhibit) => exhibit.exhibitNumber === "99.1")
 * const parsed = release && Parser.fromBlocks({ blocks: release.blocks, form: "PRESS_RELEASE" })
 */
export const fromBlocks = (input: FromBlocksInput): ParsedDocument =>
  withSections({
    blocks: input.blocks,
    title: input.title,
    pageCount: input.pageCount ?? input.blocks.reduce((last, block) => Math.max(last, block.page), 1),
    warnings: input.warnings ?? []
  }, input.form)

/** Reads any document we serve into a `ParsedDocument` (see the module comment for how the format is told). */
export const parse: (input: ParseInput) => Effect.Effect<ParsedDocument, ParseError> = Effect.fn("Parser.parse")(
  function*(input: ParseInput) {
    if (looksLikePdf(input.bytes) || declaredPdf(input)) return yield* parsePdf(input)
    if (input.submission !== undefined || SgmlSubmission.looksLikeSubmission(input.bytes)) {
      return yield* parseSubmission(input)
    }
    if (declaredJson(input)) return yield* parseTranscript(input, input.bytes)
    if (isTranscriptForm(input.form)) {
      const decoded = yield* decodeBytes(input.bytes, input.contentType)
      return yield* parseTranscript(input, decoded.text)
    }
    return yield* parseDocument(input)
  }
)
