/**
 * The `Ingestion` service: turns one filing file into a stored document.
 *
 * The parser reads the file (a full EDGAR submission, HTML or inline XBRL, plain text, PDF or a
 * transcript) into Markdown, labeled sections and exhibits. The metadata comes from what the caller
 * gives first, then from the file: a submission's SGML header says nearly everything (accession
 * number, form, filing date, company, items); a bare inline XBRL document carries its cover facts
 * (`dei:` tags) but neither its accession number nor its filing date. A ticker found nowhere comes
 * from the company store, by central index key.
 */
import { Admin, ApiError, Dates, DocType, Ids } from "@filings/domain"
import { Extractor } from "@filings/extractor"
import type { SummaryModel } from "@filings/feed-summarizer"
import { type ParsedDocument, Parser, SgmlSubmission } from "@filings/filings-parser"
import {
  CompanyStore,
  DocumentStore,
  type EventStore,
  ExtractionStore,
  type FeedStore,
  type JobQueue
} from "@filings/storage"
import { Effect, Either, Layer, Option, Schema } from "effect"
import { writeFeedItem } from "../feed/FeedWriter.js"
import type { MarketData } from "../market/MarketData.js"
import { announce } from "./Announcements.js"
import { Ingestion, type IngestRequest } from "./Ingestion.js"
import { publishedAtOf } from "./PressReleases.js"
import { eightKItems, filingSecUrl, storedContent, toStoredExtraction } from "./StoredForms.js"

// The caller knows which file it sent, so messages say only what is wrong with it.
const unreadable = (reason: string) => new ApiError.UnreadableFiling({ message: reason })

/** What the file itself says about its metadata, before the caller's overrides are applied. */
const factsOf = (parsed: ParsedDocument.ParsedDocument) => {
  const { cover, header } = parsed
  return {
    accession: header?.accessionNumber,
    form: header?.form ?? cover?.documentType ?? parsed.form,
    filingDate: header?.filedAsOf,
    // Without a header or inline XBRL, the period its cover page prints (a PDF, an old HTML filing).
    periodOfReport: header?.periodOfReport ?? cover?.periodEndDate ?? parsed.periodEndDate,
    companyName: header?.companyName ?? cover?.registrantName,
    cik: header?.cik ?? cover?.centralIndexKey,
    ticker: cover?.tradingSymbol,
    fiscalYearFocus: cover?.fiscalYearFocus,
    fiscalPeriodFocus: cover?.fiscalPeriodFocus
  }
}

/**
 * The period per the project's rules: `FY <fiscal year>` for annual reports, `Q<n> <fiscal year>`
 * for quarterly reports (from the filing's fiscal-period tags where it has them), and the calendar
 * quarter of the report date for everything else.
 */
export const periodOf = (
  docType: DocType.DocType,
  facts: {
    readonly fiscalYearFocus?: string | undefined
    readonly fiscalPeriodFocus?: string | undefined
    readonly periodOfReport?: string | undefined
  },
  filingDate: Dates.IsoDate
): Dates.Period => {
  const reportDate = facts.periodOfReport !== undefined && Schema.is(Dates.IsoDate)(facts.periodOfReport)
    ? facts.periodOfReport
    : filingDate
  const fiscalYear = facts.fiscalYearFocus !== undefined && /^\d{4}$/.test(facts.fiscalYearFocus.trim())
    ? facts.fiscalYearFocus.trim()
    : undefined
  if (DocType.isAnnualReport(docType)) return `FY ${fiscalYear ?? reportDate.slice(0, 4)}`
  const quarter = /^Q([1-4])$/i.exec(facts.fiscalPeriodFocus?.trim() ?? "")?.[1]
  if (docType === "10-Q" && quarter !== undefined && fiscalYear !== undefined) return `Q${quarter} ${fiscalYear}`
  return Dates.calendarQuarterOf(reportDate)
}

export const make = Effect.gen(function*() {
  const documents = yield* DocumentStore.DocumentStore
  const companies = yield* CompanyStore.CompanyStore
  const extractions = yield* ExtractionStore.ExtractionStore
  // What announcing and the feed need, captured once so the service's method needs nothing more.
  const announcing = yield* Effect.context<
    | DocumentStore.DocumentStore
    | ExtractionStore.ExtractionStore
    | EventStore.EventStore
    | JobQueue.JobQueue
    | FeedStore.FeedStore
    | SummaryModel.SummaryModel
    | MarketData
  >()

  const ingest = Effect.fn("Ingestion.ingest")(function*(request: IngestRequest) {
    const { fileName, overrides } = request
    // A submission is split once, for the parser, the extractor and its exhibits' documents; one
    // that does not split is left to the parser, which says why.
    const submission = SgmlSubmission.looksLikeSubmission(request.bytes)
      ? Either.getRight(yield* Effect.either(SgmlSubmission.parseBytes(request.bytes)))
      : Option.none()
    const parsed = yield* Parser.parse({
      bytes: request.bytes,
      fileName,
      ...(request.contentType === undefined ? {} : { contentType: request.contentType }),
      ...(overrides.form === undefined ? {} : { form: overrides.form }),
      submission: Option.getOrUndefined(submission)
    }).pipe(Effect.mapError((error) => unreadable(error.message)))
    const facts = factsOf(parsed)

    const missing = (what: string, option: string) =>
      unreadable(`the file does not say its ${what}; give it with --${option}`)
    const invalid = (what: string, value: string) =>
      unreadable(`the file gives ${JSON.stringify(value)} as its ${what}, which is not valid`)

    const formText = overrides.form ?? facts.form
    if (formText === undefined) return yield* missing("form type", "form")
    const docType = yield* Schema.decodeUnknown(DocType.DocType)(formText.trim()).pipe(
      Effect.mapError(() =>
        unreadable(`form ${formText} is not one of the supported document types (${DocType.DocumentTypes.join(", ")})`)
      )
    )

    const filingDateText = overrides.filing_date ?? facts.filingDate
    if (filingDateText === undefined) return yield* missing("filing date", "filing-date")
    const filingDate = yield* Schema.decodeUnknown(Dates.IsoDate)(filingDateText).pipe(
      Effect.mapError(() => invalid("filing date", filingDateText))
    )

    // A transcript names its company by the ticker the caller gives; a filing by its central index key.
    const isCall = docType === "EARNINGS_CALL"
    const byTicker = isCall && overrides.cik === undefined && overrides.ticker !== undefined
      ? yield* companies.findByTicker(overrides.ticker)
      : Option.none()
    const cikText = overrides.cik ?? facts.cik ?? Option.getOrUndefined(Option.map(byTicker, (c) => c.cik))
    if (cikText === undefined) return yield* missing("central index key", "cik")
    const cik = Ids.normalizeCik(cikText)
    if (cik === undefined) return yield* invalid("central index key", cikText)

    const known = yield* companies.findByCik(cik)
    const tickerText = overrides.ticker ?? facts.ticker ?? Option.getOrUndefined(Option.map(known, (c) => c.ticker))
    if (tickerText === undefined) return yield* missing("ticker", "ticker")
    const ticker = yield* Schema.decodeUnknown(Ids.Ticker)(tickerText.trim()).pipe(
      Effect.mapError(() => invalid("ticker", tickerText))
    )

    // A transcript has no accession number: its id is its company's and its date (`call-aapl-2022-01-27`).
    const accessionText = overrides.accession ?? facts.accession ??
      (isCall ? Ids.callDocumentId(ticker, filingDate) : undefined)
    if (accessionText === undefined) return yield* missing("accession number", "accession")
    const publicationId = yield* Schema.decodeUnknown(Ids.PublicationId)(accessionText.trim()).pipe(
      Effect.mapError(() => invalid("accession number", accessionText))
    )

    const companyName = overrides.company_name ?? facts.companyName ??
      Option.getOrUndefined(Option.map(known, (c) => c.name))
    if (companyName === undefined) return yield* missing("company name", "company-name")

    const period = periodOf(docType, facts, filingDate)
    const document: DocumentStore.StoredDocument = {
      publicationId,
      ticker,
      companyName,
      cik,
      docType,
      title: isCall ? `${companyName} ${period} earnings call` : `${companyName} ${docType} ${period}`,
      filingDate,
      period,
      // A transcript is not in the regulator's archive.
      secUrl: isCall ? "" : filingSecUrl(cik, publicationId, parsed.primaryFileName),
      items: docType === "8-K" ? eightKItems(parsed) : [],
      exhibits: parsed.exhibits.map((exhibit) => ({
        exhibitNumber: exhibit.number,
        title: exhibit.description,
        content: exhibit.markdown
      })),
      ...storedContent(parsed)
    }
    // Text the database refuses fails the same way every time: the file's fault (422), not an outage (503).
    const status = yield* documents.save(document).pipe(
      Effect.catchTag("UnstorableValue", (refused) => Effect.fail(unreadable(refused.message)))
    )
    yield* companies.upsert({ cik, ticker, name: companyName })
    // The document is stored first: an extraction that fails to save is redone by ingesting again.
    const extraction = yield* Extractor.extract({
      bytes: request.bytes,
      parsed,
      publicationId,
      submission: Option.getOrUndefined(submission)
    })
    yield* extractions.save(publicationId, toStoredExtraction(extraction))
    const { body: _body, chunks: _chunks, exhibits: _exhibits, sections: _sections, ...metadata } = document
    const acceptedAt = request.acceptedAt ?? parsed.header?.acceptedAt
    yield* writeFeedItem(document, publishedAtOf(metadata, acceptedAt)).pipe(Effect.provide(announcing))
    yield* announce({
      document: metadata,
      submission,
      acceptedAt,
      recordEvents: overrides.history !== true
    }).pipe(Effect.provide(announcing))
    for (const warning of parsed.warnings) yield* Effect.logDebug(`${fileName}: ${warning}`)
    yield* Effect.logInfo(`${status} ${publicationId} ${ticker} ${docType} from ${fileName}`)
    return new Admin.IngestResult({
      publication_id: publicationId,
      status,
      ticker,
      company_name: companyName,
      doc_type: docType,
      filing_date: filingDate,
      title: document.title,
      word_count: document.wordCount
    })
  })

  return Ingestion.of({ ingest })
})

export const layer = Layer.effect(Ingestion, make)
