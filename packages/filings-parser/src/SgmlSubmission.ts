/**
 * Reads an EDGAR full submission, the `<accession>.txt` file that holds a filing's header and all
 * of its documents (`<SEC-DOCUMENT>` / `<SEC-HEADER>` / `<DOCUMENT>` SGML), and finds its primary
 * document. `Parser.parse` reads a submission whole (its primary document and its exhibits).
 *
 * Header values keep EDGAR's spelling (CIK with leading zeros, fiscal year end as "MMDD"); dates
 * become ISO `YYYY-MM-DD`. uuencoded documents (images, PDFs, ZIP, Excel) are listed with format
 * `"binary"` and can be decoded with `decodeBinary`.
 *
 * @module
 */
import { Effect, Either, Option, Schema } from "effect"
import { decodeBytes, type UnreadableDocument } from "./internal/readInput.js"
import { parseSubmission } from "./internal/sgml.js"
import { uudecode } from "./internal/uuencode.js"

/** Why a submission could not be read. */
export const MalformedReason = Schema.Literal(
  "empty",
  "not-a-submission",
  "no-documents",
  "no-primary-document",
  "invalid-uuencode"
)
export type MalformedReason = typeof MalformedReason.Type

/** An input that is not a usable SGML submission, with the reason. */
export class MalformedSubmission extends Schema.TaggedError<MalformedSubmission>()("MalformedSubmission", {
  reason: MalformedReason,
  detail: Schema.String
}) {
  override get message(): string {
    return `Malformed submission (${this.reason}): ${this.detail}`
  }
}

/** The errors of this module. */
export type SgmlSubmissionError = MalformedSubmission | UnreadableDocument

/** A company (or person) named in the header: the filer, subject company, reporting owner, ... */
export const SubmissionEntity = Schema.Struct({
  /** The header section it came from: "FILER", "SUBJECT COMPANY", "FILED BY", "REPORTING-OWNER", ... */
  role: Schema.String,
  companyName: Schema.optional(Schema.String),
  /** Central Index Key, ten digits with leading zeros as EDGAR writes it. */
  cik: Schema.optional(Schema.String),
  /** "MMDD", e.g. "0928". */
  fiscalYearEnd: Schema.optional(Schema.String),
  standardIndustrialClassification: Schema.optional(Schema.String),
  fileNumber: Schema.optional(Schema.String)
})
export type SubmissionEntity = typeof SubmissionEntity.Type

/** The submission's `<SEC-HEADER>`: form, accession number, dates, 8-K items and the filer entities. */
export const SubmissionHeader = Schema.Struct({
  accessionNumber: Schema.optional(Schema.String),
  /** CONFORMED SUBMISSION TYPE, e.g. "8-K", "10-K/A". */
  form: Schema.optional(Schema.String),
  publicDocumentCount: Schema.optional(Schema.Int),
  /** CONFORMED PERIOD OF REPORT as YYYY-MM-DD. */
  periodOfReport: Schema.optional(Schema.String),
  /** FILED AS OF DATE as YYYY-MM-DD. */
  filedAsOf: Schema.optional(Schema.String),
  /** ACCEPTANCE-DATETIME as YYYY-MM-DDThh:mm:ss, EDGAR's local time (America/New_York). */
  acceptedAt: Schema.optional(Schema.String),
  /** The ITEM INFORMATION lines of an 8-K, e.g. "Results of Operations and Financial Condition". */
  items: Schema.Array(Schema.String),
  /** Name, CIK and fiscal year end of the primary entity (the first FILER, else SUBJECT COMPANY, ...). */
  companyName: Schema.optional(Schema.String),
  cik: Schema.optional(Schema.String),
  fiscalYearEnd: Schema.optional(Schema.String),
  entities: Schema.Array(SubmissionEntity)
})
export type SubmissionHeader = typeof SubmissionHeader.Type

/** What a document's body is; `"binary"` bodies are uuencoded text. */
export const DocumentFormat = Schema.Literal("html", "text", "xml", "json", "binary")
export type DocumentFormat = typeof DocumentFormat.Type

/** One `<DOCUMENT>` of a submission: its type, sequence, file name, description, format and body. */
export const SubmissionDocument = Schema.Struct({
  /** `<TYPE>`: the form for the primary document, "EX-99.1", "GRAPHIC", "XML", ... */
  type: Schema.String,
  sequence: Schema.optional(Schema.Int),
  filename: Schema.optional(Schema.String),
  description: Schema.optional(Schema.String),
  format: DocumentFormat,
  /** The `<TEXT>` content without the `<TEXT>` and `<XBRL>`/`<XML>`/`<PDF>`/`<JSON>` wrappers. */
  body: Schema.String
})
export type SubmissionDocument = typeof SubmissionDocument.Type

/** A full EDGAR submission split into its header and documents, with the warnings met. */
export const Submission = Schema.Struct({
  header: SubmissionHeader,
  documents: Schema.Array(SubmissionDocument),
  warnings: Schema.Array(Schema.String)
})
export type Submission = typeof Submission.Type

/**
 * Parses a full submission. Fails when the text is neither a header nor documents, or has a header
 * but no `<DOCUMENT>`. A submission without a header (a document extracted on its own) parses,
 * with empty header fields and a warning.
 */
export const parse: (text: string) => Effect.Effect<Submission, MalformedSubmission> = Effect.fn(
  "SgmlSubmission.parse"
)(function*(text: string) {
  const parsed = parseSubmission(text)
  if (Either.isLeft(parsed)) return yield* new MalformedSubmission(parsed.left)
  return parsed.right
})

/** Decodes (UTF-8, else windows-1252) and parses a full submission. */
export const parseBytes: (bytes: Uint8Array) => Effect.Effect<Submission, SgmlSubmissionError> = Effect.fn(
  "SgmlSubmission.parseBytes"
)(function*(bytes: Uint8Array) {
  const decoded = yield* decodeBytes(bytes, "text/plain")
  const submission = yield* parse(decoded.text)
  return { ...submission, warnings: [...decoded.warnings, ...submission.warnings] }
})

/**
 * Whether `bytes` are a submission, by their first 4 KB: one has its SGML header, and a document cut
 * out of one (the 1990s way) starts `<DOCUMENT>`.
 */
export const looksLikeSubmission = (bytes: Uint8Array): boolean =>
  /<SEC-DOCUMENT>|<SEC-HEADER>|<IMS-DOCUMENT>|<IMS-HEADER>|^\s*<DOCUMENT>\s*<TYPE>/i.test(
    new TextDecoder("latin1").decode(bytes.subarray(0, 4096))
  )

/**
 * The main document of the filing: sequence 1, else the document whose type is the form, else the
 * first HTML or text document. Binary documents never qualify.
 */
export const primaryDocument = (submission: Submission): Option.Option<SubmissionDocument> => {
  const readable = submission.documents.filter((document) => document.format !== "binary")
  const form = submission.header.form?.trim().toUpperCase()
  return Option.fromNullable(
    readable.find((document) => document.sequence === 1) ??
      readable.find((document) => form !== undefined && document.type.trim().toUpperCase() === form) ??
      readable.find((document) => document.format === "html" || document.format === "text")
  )
}

/** Decodes a uuencoded (`format: "binary"`) document to its bytes: a JPEG, PDF, ZIP, ... */
export const decodeBinary: (document: SubmissionDocument) => Effect.Effect<Uint8Array, MalformedSubmission> = Effect
  .fn("SgmlSubmission.decodeBinary")(function*(document: SubmissionDocument) {
    const decoded = uudecode(document.body)
    if (Either.isLeft(decoded)) {
      return yield* new MalformedSubmission({
        reason: "invalid-uuencode",
        detail: `document ${document.sequence ?? "?"} (${document.type}): ${decoded.left}`
      })
    }
    return decoded.right
  })
