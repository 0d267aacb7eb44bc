/**
 * The `Ingestion` service: turns one filing file into a stored document.
 *
 * A full EDGAR submission (`.txt`) says nearly everything itself: accession number, form, filing
 * date, company and items in its header, the primary document and the exhibits in its body. A
 * bare HTML or inline XBRL document carries the cover facts (`dei:` tags) but neither its
 * accession number nor its filing date, which the caller then gives. What the caller gives always
 * wins. A ticker not found anywhere comes from the company store, by central index key.
 */
import { Admin, ApiError, Dates, DocType, Ids } from "@filings/domain"
import { FilingsParser, SgmlSubmission } from "@filings/filings-parser"
import { CompanyStore, DocumentStore } from "@filings/storage"
import { Effect, Layer, Option, Schema } from "effect"
import * as CoverFacts from "./CoverFacts.js"
import { itemFromTitle } from "./EightKItems.js"
import { Ingestion, type IngestRequest } from "./Ingestion.js"
import * as MarkdownSections from "./MarkdownSections.js"

/** What the file itself says, before the caller's overrides are applied. */
interface FileFacts {
  readonly markdown: string
  readonly wordCount: number
  readonly primaryFileName: string
  readonly accession?: string | undefined
  readonly form?: string | undefined
  readonly filingDate?: string | undefined
  readonly periodOfReport?: string | undefined
  readonly companyName?: string | undefined
  readonly cik?: string | undefined
  readonly ticker?: string | undefined
  readonly fiscalYearFocus?: string | undefined
  readonly fiscalPeriodFocus?: string | undefined
  readonly items: ReadonlyArray<string>
  readonly exhibits: ReadonlyArray<DocumentStore.StoredExhibit>
}

// The caller knows which file it sent, so the message says only what is wrong with it.
const unreadable = (reason: string) => new ApiError.UnreadableFiling({ message: reason })

const isSubmission = (bytes: Uint8Array): boolean =>
  /<SEC-DOCUMENT>|<SEC-HEADER>|<IMS-DOCUMENT>|<IMS-HEADER>/i.test(
    new TextDecoder("latin1").decode(bytes.subarray(0, 4096))
  )

const exhibitNumber = (type: string): string | undefined => /^EX-(\d+(?:\.[0-9A-Z]+)*)$/i.exec(type.trim())?.[1]

const readSubmission = (fileName: string, bytes: Uint8Array) =>
  Effect.gen(function*() {
    const submission = yield* SgmlSubmission.parseBytes(bytes)
    const primary = SgmlSubmission.primaryDocument(submission)
    if (Option.isNone(primary)) return yield* unreadable("the submission has no HTML or text document")
    const converted = yield* SgmlSubmission.documentToMarkdown(primary.value)
    const cover = primary.value.format === "html" ? CoverFacts.read(primary.value.body) : {}
    const exhibitDocuments = submission.documents.flatMap((document) => {
      const number = exhibitNumber(document.type)
      return number !== undefined && (document.format === "html" || document.format === "text")
        ? [{ document, number }]
        : []
    })
    const exhibits = yield* Effect.forEach(exhibitDocuments, ({ document, number }) =>
      SgmlSubmission.documentToMarkdown(document).pipe(
        Effect.map((exhibit): Option.Option<DocumentStore.StoredExhibit> =>
          Option.some({
            exhibitNumber: number,
            title: document.description?.trim() || document.type,
            content: exhibit.markdown
          })
        ),
        // An exhibit that cannot be converted is left out, not the whole filing.
        Effect.catchAll((error) =>
          Effect.as(Effect.logWarning(`${fileName}: exhibit ${document.type} skipped: ${error.message}`), Option.none())
        )
      ))
    const { header } = submission
    const facts: FileFacts = {
      markdown: converted.markdown,
      wordCount: converted.wordCount,
      primaryFileName: primary.value.filename ?? fileName,
      accession: header.accessionNumber,
      form: header.form,
      filingDate: header.filedAsOf,
      periodOfReport: header.periodOfReport,
      companyName: header.companyName ?? cover.registrantName,
      cik: header.cik ?? cover.centralIndexKey,
      ticker: cover.tradingSymbol,
      fiscalYearFocus: cover.fiscalYearFocus,
      fiscalPeriodFocus: cover.fiscalPeriodFocus,
      items: header.items.flatMap((title) =>
        itemFromTitle(title) ?? []
      ),
      exhibits: exhibits.flatMap(Option.toArray)
    }
    return facts
  })

const readDocument = (fileName: string, bytes: Uint8Array, contentType: string | undefined) =>
  Effect.gen(function*() {
    const decoded = yield* FilingsParser.decodeBytes(bytes, contentType)
    const converted = yield* FilingsParser.htmlToMarkdown(decoded.text).pipe(
      Effect.catchIf(
        (error) => error.reason === "not-html",
        () => FilingsParser.textToMarkdown(decoded.text)
      )
    )
    const cover = CoverFacts.read(decoded.text)
    const facts: FileFacts = {
      markdown: converted.markdown,
      wordCount: converted.wordCount,
      primaryFileName: fileName,
      form: cover.documentType,
      periodOfReport: cover.periodEndDate === undefined ? undefined : CoverFacts.toIsoDate(cover.periodEndDate),
      companyName: cover.registrantName,
      cik: cover.centralIndexKey,
      ticker: cover.tradingSymbol,
      fiscalYearFocus: cover.fiscalYearFocus,
      fiscalPeriodFocus: cover.fiscalPeriodFocus,
      items: [],
      exhibits: []
    }
    return facts
  })

/**
 * The period per the project's rules: `FY <fiscal year>` for annual reports, `Q<n> <fiscal year>`
 * for quarterly reports (from the filing's fiscal-period tags where it has them), and the calendar
 * quarter of the report date for everything else.
 */
export const periodOf = (
  docType: DocType.DocType,
  facts: Pick<FileFacts, "fiscalYearFocus" | "fiscalPeriodFocus" | "periodOfReport">,
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

export const secUrl = (cik: Ids.Cik, accession: Ids.PublicationId, primaryFileName: string): string =>
  `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, "")}/${
    encodeURIComponent(primaryFileName)
  }`

export const make = Effect.gen(function*() {
  const documents = yield* DocumentStore.DocumentStore
  const companies = yield* CompanyStore.CompanyStore

  const ingest = Effect.fn("Ingestion.ingest")(function*(request: IngestRequest) {
    const { fileName, overrides } = request
    const facts = yield* (isSubmission(request.bytes)
      ? readSubmission(fileName, request.bytes)
      : readDocument(fileName, request.bytes, request.contentType)).pipe(
        Effect.catchTags({
          UnreadableDocument: (error) => Effect.fail(unreadable(error.detail)),
          MalformedSubmission: (error) => Effect.fail(unreadable(error.message))
        })
      )

    const missing = (what: string, option: string) =>
      unreadable(`the file does not say its ${what}; give it with --${option}`)
    const invalid = (what: string, value: string) =>
      unreadable(`the file gives ${JSON.stringify(value)} as its ${what}, which is not valid`)

    const accessionText = overrides.accession ?? facts.accession
    if (accessionText === undefined) return yield* missing("accession number", "accession")
    const publicationId = yield* Schema.decodeUnknown(Ids.PublicationId)(accessionText.trim()).pipe(
      Effect.mapError(() => invalid("accession number", accessionText))
    )

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

    const cikText = overrides.cik ?? facts.cik
    if (cikText === undefined) return yield* missing("central index key", "cik")
    const cik = Ids.normalizeCik(cikText)
    if (cik === undefined) return yield* invalid("central index key", cikText)

    const known = yield* companies.findByCik(cik)
    const tickerText = overrides.ticker ?? facts.ticker ?? Option.getOrUndefined(Option.map(known, (c) => c.ticker))
    if (tickerText === undefined) return yield* missing("ticker", "ticker")
    const ticker = yield* Schema.decodeUnknown(Ids.Ticker)(tickerText.trim()).pipe(
      Effect.mapError(() => invalid("ticker", tickerText))
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
      title: `${companyName} ${docType} ${period}`,
      filingDate,
      period,
      secUrl: secUrl(cik, publicationId, facts.primaryFileName),
      wordCount: facts.wordCount,
      items: docType === "8-K" ? facts.items : [],
      body: facts.markdown,
      sections: MarkdownSections.split(facts.markdown),
      exhibits: facts.exhibits
    }
    const status = yield* documents.save(document)
    yield* companies.upsert({ cik, ticker, name: companyName })
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
