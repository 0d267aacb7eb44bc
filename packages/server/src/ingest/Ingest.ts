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
import { FiscalPeriod, type ParsedDocument, Parser, SgmlSubmission } from "@filings/filings-parser"
import {
  CompanyStore,
  DocumentStore,
  type EventStore,
  ExtractionStore,
  type FeedStore,
  type JobQueue
} from "@filings/storage"
import { Effect, Either, Layer, Option, Schema } from "effect"
import { createHash } from "node:crypto"
import { writeFeedItem } from "../feed/FeedWriter.js"
import type { MarketData } from "../market/MarketData.js"
import { announce } from "./Announcements.js"
import { Ingestion, type IngestRequest } from "./Ingestion.js"
import { headlineOf, publishedAtOf } from "./PressReleases.js"
import { eightKItems, filingSecUrl, storedContent, storedExhibits, toStoredExtraction } from "./StoredForms.js"

// The caller knows which file it sent, so messages say only what is wrong with it.
const unreadable = (reason: string) => new ApiError.UnreadableFiling({ message: reason })

const contradicts = (what: string, fileValue: string, option: string, givenValue: string) =>
  unreadable(`the file gives ${fileValue} as its ${what}, but --${option} says ${givenValue}; nothing was stored`)

const decodeTicker = Schema.decodeOption(Ids.Ticker)
const decodeDocType = Schema.decodeUnknownOption(DocType.DocType)
const decodeIsoDate = Schema.decodeUnknownOption(Dates.IsoDate)
const decodePublicationId = Schema.decodeUnknownOption(Ids.PublicationId)

/** A piece of metadata a caller can give, by its field in `Admin.IngestMetadata`. */
export type MetadataField = "form" | "filing_date" | "cik" | "ticker" | "company_name" | "accession"

/** What each field is called in a message, and the option of `filings ingest` that gives it. */
const metadataWords: Record<MetadataField, { readonly what: string; readonly option: string }> = {
  form: { what: "form type", option: "--form" },
  filing_date: { what: "filing date", option: "--filing-date" },
  cik: { what: "central index key", option: "--cik" },
  ticker: { what: "ticker", option: "--ticker" },
  company_name: { what: "company name", option: "--company-name" },
  accession: { what: "accession number", option: "--accession" }
}

/** `a`, `a and b`, `a, b and c`. */
const listed = (words: ReadonlyArray<string>): string =>
  words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`

/**
 * One sentence naming every piece of metadata the file lacks and the option that gives each. The
 * ticker and name of a company already stored come from its record, so with a key they may be
 * left out; the sentence says so rather than asking for more than is needed.
 */
export const lackingMetadata = (fields: ReadonlyArray<MetadataField>): string => {
  const words = fields.map((field) => metadataWords[field])
  const fromRecord = fields.includes("cik") && (fields.includes("ticker") || fields.includes("company_name"))
  return `the file does not say its ${listed(words.map(({ what }) => what))}; ` +
    `give ${fields.length === 1 ? "it" : "them"} with ${listed(words.map(({ option }) => option))}` +
    (fromRecord ? " (for a company already stored, --cik alone will do: its ticker and name come from its record)" : "")
}

/**
 * The key of documents of a company the service has no central index key for: a transcript or a
 * release of a company named only by its ticker and name. No company record is kept under it.
 */
export const UnknownCik = Ids.Cik.make("0000000000")

/** The regulator's forms, as against transcripts, releases, decks and news: they name their filer. */
const isFiling = (docType: DocType.DocType): boolean =>
  docType !== "EARNINGS_CALL" && docType !== "PRESS_RELEASE" && docType !== "PRESENTATION" && docType !== "NEWS"

const isAccessionNumber = (id: string): boolean => /^\d{10}-\d{2}-\d{6}$/.test(id)

/** 16 hexadecimal digits of a hash of the parts, for the id of a release stored on its own. */
const hashOf = (...parts: ReadonlyArray<string>): string =>
  createHash("sha256").update(parts.join("\n")).digest("hex").slice(0, 16)

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
    // One per listed class of shares, in the cover's order (GOOGL, then GOOG).
    tickers: cover?.tradingSymbols ?? [],
    fiscalYearFocus: cover?.fiscalYearFocus,
    fiscalPeriodFocus: cover?.fiscalPeriodFocus,
    discussedPeriod: parsed.discussedPeriod
  }
}

/** Documents that discuss a fiscal period of their own: calls, releases, 8-Ks reporting results. */
export const discussesResults = (docType: DocType.DocType, items: ReadonlyArray<string>): boolean =>
  docType === "EARNINGS_CALL" || docType === "PRESS_RELEASE" || (docType === "8-K" && items.includes("Item 2.02"))

/**
 * The period per the project's rules: `FY <fiscal year>` for annual reports, `Q<n> <fiscal year>`
 * for quarterly reports (from the filing's fiscal-period tags where it has them); for earnings
 * calls, releases and 8-Ks reporting results (Item 2.02), the fiscal period they discuss as the
 * document states it; the calendar quarter of the report date for everything else, and for those
 * that state nothing.
 */
export const periodOf = (
  docType: DocType.DocType,
  facts: {
    readonly fiscalYearFocus?: string | undefined
    readonly fiscalPeriodFocus?: string | undefined
    readonly periodOfReport?: string | undefined
    readonly discussedPeriod?: FiscalPeriod.StatedPeriod | undefined
  },
  filingDate: Dates.IsoDate,
  items: ReadonlyArray<string> = []
): Dates.Period => {
  const discussed = discussesResults(docType, items)
    ? FiscalPeriod.periodOf(facts.discussedPeriod, filingDate)
    : undefined
  if (discussed !== undefined) return discussed
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

    // Every piece of metadata is worked out before anything is refused for lack of one, so that one
    // run names all the caller must add (a bare PDF lacks four).
    const lacking: Array<MetadataField> = []
    const problems: Array<string> = []
    const invalid = (what: string, value: string) =>
      `the file gives ${JSON.stringify(value)} as its ${what}, which is not valid`

    const formText = overrides.form ?? facts.form
    if (formText === undefined) lacking.push("form")
    const docType = formText === undefined ? undefined : Option.getOrUndefined(decodeDocType(formText.trim()))
    if (formText !== undefined && docType === undefined) {
      problems.push(`form ${formText} is not one of the supported document types (${DocType.DocumentTypes.join(", ")})`)
    }

    const filingDateText = overrides.filing_date ?? facts.filingDate
    if (filingDateText === undefined) lacking.push("filing_date")
    const filingDate = filingDateText === undefined ? undefined : Option.getOrUndefined(decodeIsoDate(filingDateText))
    if (filingDateText !== undefined && filingDate === undefined) problems.push(invalid("filing date", filingDateText))

    // A transcript or a release names its company by the ticker the caller gives; a filing by its
    // central index key. What the file says of itself wins: a caller's ticker or key that contradicts
    // it is refused rather than written over the company's own (and over its stored filings).
    const isCall = docType === "EARNINGS_CALL"
    const isRelease = docType === "PRESS_RELEASE"
    const fileCik = facts.cik === undefined ? undefined : Ids.normalizeCik(facts.cik)
    const fileTicker = Option.getOrUndefined(decodeTicker(facts.ticker?.trim() ?? ""))
    // Every class the cover lists is the company's: its first is the primary ticker (see `CompanyStore`).
    const fileTickers = fileTicker === undefined ? [] : [
      ...new Set([fileTicker, ...facts.tickers.flatMap((symbol) => Option.toArray(decodeTicker(symbol.trim())))])
    ]
    const givenTicker = overrides.ticker === undefined ? undefined : yield* Schema.decodeUnknown(Ids.Ticker)(
      overrides.ticker.trim()
    ).pipe(Effect.mapError(() => unreadable(`--ticker ${JSON.stringify(overrides.ticker)} is not a ticker symbol`)))
    const givenCik = overrides.cik === undefined ? undefined : Ids.normalizeCik(overrides.cik)
    if (overrides.cik !== undefined && givenCik === undefined) {
      return yield* unreadable(`--cik ${JSON.stringify(overrides.cik)} is not a central index key`)
    }
    if (givenCik !== undefined && fileCik !== undefined && givenCik !== fileCik) {
      return yield* contradicts("central index key", fileCik, "cik", givenCik)
    }
    if (givenTicker !== undefined && fileTicker !== undefined && !fileTickers.includes(givenTicker)) {
      return yield* fileTickers.length > 1
        ? contradicts("tickers", listed(fileTickers), "ticker", givenTicker)
        : contradicts("ticker", fileTicker, "ticker", givenTicker)
    }
    const byTicker = givenTicker === undefined ? Option.none() : yield* companies.findByTicker(givenTicker)
    const cik = fileCik ?? givenCik ?? Option.getOrUndefined(Option.map(byTicker, (c) => c.cik)) ??
      // A transcript or release of a company the service does not know yet, named by ticker and name.
      ((isCall || isRelease) && givenTicker !== undefined && overrides.company_name !== undefined
        ? UnknownCik
        : undefined)
    if (cik === undefined) {
      if (facts.cik !== undefined) problems.push(invalid("central index key", facts.cik))
      else lacking.push("cik")
    }

    const known = cik === undefined || cik === UnknownCik ? Option.none() : yield* companies.findByCik(cik)
    // The given ticker may be another class of a known company: the document takes the primary one.
    const ticker = fileTicker ?? Option.getOrUndefined(Option.map(known, (c) => c.ticker)) ?? givenTicker
    if (ticker === undefined) {
      if (facts.ticker !== undefined) problems.push(invalid("ticker", facts.ticker))
      else lacking.push("ticker")
    }
    // The company is known under another ticker, or the ticker belongs to another company: storing
    // would move the company's documents, or another's, under the wrong ticker.
    if (givenTicker !== undefined && fileTicker === undefined && Option.isSome(known)) {
      const isAlias = Option.isSome(byTicker) && byTicker.value.cik === known.value.cik
      if (known.value.ticker !== givenTicker && !isAlias) {
        return yield* unreadable(
          `--ticker ${givenTicker} contradicts the file: central index key ${cik} is ${known.value.ticker} ` +
            `(${known.value.name}); nothing was stored`
        )
      }
    }
    if (Option.isSome(byTicker) && cik !== undefined && byTicker.value.cik !== cik && cik !== UnknownCik) {
      return yield* unreadable(
        `ticker ${ticker} belongs to central index key ${byTicker.value.cik} (${byTicker.value.name}), ` +
          `but the file is filed by ${cik}; nothing was stored`
      )
    }

    const companyName = overrides.company_name ?? facts.companyName ??
      Option.getOrUndefined(Option.map(known, (c) => c.name)) ??
      // A transcript or release of a new company named by its ticker and key: the ticker names it
      // until a filing of the company says its name.
      ((isCall || isRelease) && givenTicker !== undefined && givenCik !== undefined ? givenTicker : undefined)
    if (companyName === undefined) lacking.push("company_name")

    // A transcript has no accession number: its id is its company's and its date (`call-aapl-2022-01-27`).
    // A release on its own has none either: its id is a hash of its company, date and headline.
    const headline = isRelease ? headlineOf(parsed.blocks) : undefined
    const accessionText = overrides.accession ?? facts.accession ??
      (isCall && ticker !== undefined && filingDate !== undefined
        ? Ids.callDocumentId(ticker, filingDate)
        : undefined) ??
      (isRelease && ticker !== undefined && filingDate !== undefined
        ? Ids.releaseDocumentId(hashOf(ticker, filingDate, headline ?? fileName))
        : undefined)
    // A transcript's or a release's id follows from its ticker and date: it lacks only what they lack.
    if (accessionText === undefined && !isCall && !isRelease) lacking.push("accession")
    const publicationId = accessionText === undefined
      ? undefined
      : Option.getOrUndefined(decodePublicationId(accessionText.trim()))
    if (accessionText !== undefined && publicationId === undefined) {
      problems.push(invalid("accession number", accessionText))
    }

    if (
      lacking.length > 0 || problems.length > 0 || docType === undefined || filingDate === undefined ||
      cik === undefined || ticker === undefined || companyName === undefined || publicationId === undefined
    ) {
      return yield* unreadable(
        [...(lacking.length === 0 ? [] : [lackingMetadata(lacking)]), ...problems, "nothing was stored"].join("; ")
      )
    }

    const items = docType === "8-K" ? eightKItems(parsed) : []
    const period = periodOf(docType, facts, filingDate, items)
    const document: DocumentStore.StoredDocument = {
      publicationId,
      ticker,
      companyName,
      cik,
      docType,
      title: isCall
        ? `${companyName} ${period} earnings call`
        : isRelease
        ? headline ?? `${companyName} press release ${filingDate}`
        : `${companyName} ${docType} ${period}`,
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
    // Text the database refuses fails the same way every time: the file's fault (422), not an outage (503).
    const status = yield* documents.save(document).pipe(
      Effect.catchTag("UnstorableValue", (refused) => Effect.fail(unreadable(refused.message)))
    )
    // A filing names its company as of its date: the newest filing's name and ticker stand (an older
    // one stored later renames nothing). A transcript or release names a company only the service
    // did not know; a company without a key is not kept.
    if (isFiling(docType)) {
      yield* companies.upsert({
        cik,
        ticker,
        name: companyName,
        asOf: filingDate,
        ...(fileTickers.length === 0 ? {} : { tickers: fileTickers })
      })
    } else if (Option.isNone(known) && cik !== UnknownCik) yield* companies.upsert({ cik, ticker, name: companyName })
    // What speaks of the company now (its feed item, its events) uses its current name; the
    // document keeps the name it was filed under.
    const currentName = cik === UnknownCik
      ? companyName
      : Option.getOrElse(Option.map(yield* companies.findByCik(cik), (company) => company.name), () => companyName)
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
    yield* writeFeedItem({ ...document, companyName: currentName }, publishedAtOf(metadata, acceptedAt)).pipe(
      Effect.provide(announcing)
    )
    yield* announce({
      document: metadata,
      currentName,
      submission,
      exhibits: parsed.exhibits,
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
