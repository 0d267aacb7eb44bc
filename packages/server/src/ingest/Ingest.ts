/**
 * The `Ingestion` service: turns one filing file into a stored document.
 *
 * The parser reads the file (a full EDGAR submission, HTML or inline XBRL, plain text, PDF or a
 * transcript) into blocks, Markdown, labeled sections and exhibits; its metadata is worked out from
 * what the caller gives, the file and the company store (`IngestMetadata`); the document is stored,
 * with its company, extraction, feed item, an 8-K's releases and decks and its events, by the
 * `DocumentSink`.
 */
import { Admin, type DocType } from "@filings/domain"
import { type ParsedDocument, Parser, SgmlSubmission } from "@filings/filings-parser"
import { CompanyStore, type DocumentStore } from "@filings/storage"
import { Effect, Either, Layer, Option } from "effect"
import { type CompanyRecord, DocumentSink } from "./DocumentSink.js"
import * as DocumentSinkLayer from "./DocumentSinkLayer.js"
import { Ingestion, type IngestRequest } from "./Ingestion.js"
import {
  isAccessionNumber,
  isFiling,
  periodOf,
  type ResolvedMetadata,
  resolveMetadata,
  UnknownCik,
  unreadable
} from "./IngestMetadata.js"
import { publishedAtOf } from "./PressReleases.js"
import { eightKItems, filingSecUrl, storedContent, storedExhibits } from "./StoredForms.js"

export { discussesResults, lackingMetadata, type MetadataField, periodOf, UnknownCik } from "./IngestMetadata.js"

/** The file split into its submission's documents, when it is a submission that splits. */
const splitSubmission = (bytes: Uint8Array) =>
  SgmlSubmission.looksLikeSubmission(bytes)
    ? Effect.map(Effect.either(SgmlSubmission.parseBytes(bytes)), Either.getRight)
    : Effect.succeed(Option.none<SgmlSubmission.Submission>())

/** The document's title: a call's company and period, a release's headline, else its company, form and period. */
const titleOf = (metadata: ResolvedMetadata, period: string): string => {
  const { companyName, docType, filingDate, headline } = metadata
  if (docType === "EARNINGS_CALL") return `${companyName} ${period} earnings call`
  if (docType === "PRESS_RELEASE") return headline ?? `${companyName} press release ${filingDate}`
  return `${companyName} ${docType} ${period}`
}

/** The document as stored, from the parse and its metadata. */
const documentOf = (
  parsed: ParsedDocument.ParsedDocument,
  metadata: ResolvedMetadata
): DocumentStore.StoredDocument => {
  const { cik, companyName, docType, filingDate, publicationId, ticker } = metadata
  const items = docType === "8-K" ? eightKItems(parsed) : []
  const period = periodOf(docType, metadata.facts, filingDate, items)
  return {
    publicationId,
    ticker,
    companyName,
    cik,
    docType,
    title: titleOf(metadata, period),
    filingDate,
    period,
    // A transcript, or a release that came on its own, is not in the regulator's archive.
    secUrl: isAccessionNumber(publicationId) && cik !== UnknownCik
      ? filingSecUrl(cik, publicationId, parsed.primaryFileName)
      : "",
    items,
    exhibits: storedExhibits(parsed),
    ...storedContent(parsed)
  }
}

/**
 * How the company is kept: a filing names its company as of its date; a transcript or release names
 * only a company the service did not know.
 */
const companyRecordOf = (docType: DocType.DocType, metadata: ResolvedMetadata): CompanyRecord | undefined =>
  isFiling(docType)
    ? { _tag: "filer", tickers: metadata.fileTickers }
    : Option.isNone(metadata.known)
    ? { _tag: "new" }
    : undefined

export const make = Effect.gen(function*() {
  const sink = yield* DocumentSink
  const companies = yield* CompanyStore.CompanyStore

  const ingest = Effect.fn("Ingestion.ingest")(function*(request: IngestRequest) {
    const { bytes, fileName, overrides } = request
    // A submission is split once, for the parser, the extractor and its exhibits' documents; one
    // that does not split is left to the parser, which says why.
    const submission = yield* splitSubmission(bytes)
    const parsed = yield* Parser.parse({
      bytes,
      fileName,
      ...(request.contentType === undefined ? {} : { contentType: request.contentType }),
      ...(overrides.form === undefined ? {} : { form: overrides.form }),
      submission: Option.getOrUndefined(submission)
    }).pipe(Effect.mapError((error) => unreadable(error.message)))
    const metadata = yield* resolveMetadata(parsed, request).pipe(
      Effect.provideService(CompanyStore.CompanyStore, companies)
    )
    const document = documentOf(parsed, metadata)
    const acceptedAt = request.acceptedAt ?? parsed.header?.acceptedAt
    const { status } = yield* sink.store({
      document,
      company: companyRecordOf(document.docType, metadata),
      extraction: { bytes, parsed, submission: Option.getOrUndefined(submission) },
      publishedAt: publishedAtOf(document, acceptedAt),
      follow: { submission, exhibits: parsed.exhibits, acceptedAt, recordEvents: overrides.history !== true }
    }).pipe(
      // Text the database refuses fails the same way every time: the file's fault (422), not an outage (503).
      Effect.catchTag("UnstorableValue", (refused) => Effect.fail(unreadable(refused.message)))
    )
    for (const warning of parsed.warnings) yield* Effect.logDebug(`${fileName}: ${warning}`)
    yield* Effect.logInfo(`${status} ${document.publicationId} ${document.ticker} ${document.docType} from ${fileName}`)
    return new Admin.IngestResult({
      publication_id: document.publicationId,
      status,
      ticker: document.ticker,
      company_name: document.companyName,
      doc_type: document.docType,
      filing_date: document.filingDate,
      title: document.title,
      word_count: document.wordCount
    })
  })

  return Ingestion.of({ ingest })
})

/** The `Ingestion` service, storing through its own `DocumentSink`. */
export const layer = Layer.effect(Ingestion, make).pipe(Layer.provide(DocumentSinkLayer.layer))
