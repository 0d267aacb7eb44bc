/**
 * What a file says it is, with what the caller says of it: its form, filing date, company (central
 * index key, ticker, name) and id, worked out from the caller's options first, then the file (a
 * submission's SGML header says nearly everything; a bare inline XBRL document carries its cover
 * facts but neither its accession number nor its filing date), then the company store (a ticker
 * found nowhere comes from the company's record, by central index key). Every missing or invalid
 * piece is found before anything is refused, so that one message names all the caller must add; a
 * caller's value that contradicts the file, or the company store, is refused at once.
 */
import { ApiError, Dates, DocType, Ids } from "@filings/domain"
import { FiscalPeriod, type ParsedDocument } from "@filings/filings-parser"
import { CompanyStore, type StorageError } from "@filings/storage"
import { Effect, Option, Schema } from "effect"
import { createHash } from "node:crypto"
import type { Overrides } from "./Ingestion.js"
import { headlineOf } from "./PressReleases.js"

// The caller knows which file it sent, so messages say only what is wrong with it.
export const unreadable = (reason: string) => new ApiError.UnreadableFiling({ message: reason })

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
export const isFiling = (docType: DocType.DocType): boolean =>
  docType !== "EARNINGS_CALL" && docType !== "PRESS_RELEASE" && docType !== "PRESENTATION" && docType !== "NEWS"

export const isAccessionNumber = (id: string): boolean => /^\d{10}-\d{2}-\d{6}$/.test(id)

/** 16 hexadecimal digits of a hash of the parts, for the id of a release stored on its own. */
const hashOf = (...parts: ReadonlyArray<string>): string =>
  createHash("sha256").update(parts.join("\n")).digest("hex").slice(0, 16)

/** What the file itself says about its metadata, before the caller's overrides are applied. */
export const factsOf = (parsed: ParsedDocument.ParsedDocument) => {
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

/** What the file says of itself, before the caller's options are applied. */
export type FileFacts = ReturnType<typeof factsOf>

/** What is missing or wrong, gathered over every piece of metadata so one message names all of it. */
interface Findings {
  readonly lacking: Array<MetadataField>
  readonly problems: Array<string>
}

const invalid = (what: string, value: string) =>
  `the file gives ${JSON.stringify(value)} as its ${what}, which is not valid`

/** The document type: the caller's form, else the file's. */
const docTypeOf = (overrides: Overrides, facts: FileFacts, found: Findings): DocType.DocType | undefined => {
  const formText = overrides.form ?? facts.form
  if (formText === undefined) {
    found.lacking.push("form")
    return undefined
  }
  const docType = Option.getOrUndefined(decodeDocType(formText.trim()))
  if (docType === undefined) {
    found.problems.push(
      `form ${formText} is not one of the supported document types (${DocType.DocumentTypes.join(", ")})`
    )
  }
  return docType
}

/** The filing date: the caller's, else the file's. */
const filingDateOf = (overrides: Overrides, facts: FileFacts, found: Findings): Dates.IsoDate | undefined => {
  const text = overrides.filing_date ?? facts.filingDate
  if (text === undefined) {
    found.lacking.push("filing_date")
    return undefined
  }
  const filingDate = Option.getOrUndefined(decodeIsoDate(text))
  if (filingDate === undefined) found.problems.push(invalid("filing date", text))
  return filingDate
}

/** The ticker and key the caller gives, refused when they are none. */
const givenIdsOf = (overrides: Overrides) =>
  Effect.gen(function*() {
    const givenTicker = overrides.ticker === undefined ? undefined : yield* Schema.decodeUnknown(Ids.Ticker)(
      overrides.ticker.trim()
    ).pipe(Effect.mapError(() => unreadable(`--ticker ${JSON.stringify(overrides.ticker)} is not a ticker symbol`)))
    const givenCik = overrides.cik === undefined ? undefined : Ids.normalizeCik(overrides.cik)
    if (overrides.cik !== undefined && givenCik === undefined) {
      return yield* unreadable(`--cik ${JSON.stringify(overrides.cik)} is not a central index key`)
    }
    return { givenTicker, givenCik }
  })

/** The ticker and key the file gives, with every class of shares its cover lists (its first is primary). */
const fileIdsOf = (facts: FileFacts) => {
  const fileCik = facts.cik === undefined ? undefined : Ids.normalizeCik(facts.cik)
  const fileTicker = Option.getOrUndefined(decodeTicker(facts.ticker?.trim() ?? ""))
  const fileTickers = fileTicker === undefined ? [] : [
    ...new Set([fileTicker, ...facts.tickers.flatMap((symbol) => Option.toArray(decodeTicker(symbol.trim())))])
  ]
  return { fileCik, fileTicker, fileTickers }
}

type GivenIds = Effect.Effect.Success<ReturnType<typeof givenIdsOf>>
type FileIds = ReturnType<typeof fileIdsOf>

/**
 * What the file says of itself wins: a caller's key or ticker that contradicts it is refused rather
 * than written over the company's own (and over its stored filings).
 */
const contradictionWithFile = ({ givenCik, givenTicker }: GivenIds, { fileCik, fileTicker, fileTickers }: FileIds) => {
  if (givenCik !== undefined && fileCik !== undefined && givenCik !== fileCik) {
    return contradicts("central index key", fileCik, "cik", givenCik)
  }
  if (givenTicker === undefined || fileTicker === undefined || fileTickers.includes(givenTicker)) return undefined
  return fileTickers.length > 1
    ? contradicts("tickers", listed(fileTickers), "ticker", givenTicker)
    : contradicts("ticker", fileTicker, "ticker", givenTicker)
}

/**
 * The company is known under another ticker, or the ticker belongs to another company: storing
 * would move the company's documents, or another's, under the wrong ticker.
 */
const contradictionWithStore = (
  ids: GivenIds & FileIds & { readonly cik: Ids.Cik | undefined; readonly ticker: Ids.Ticker | undefined },
  known: Option.Option<CompanyStore.Company>,
  byTicker: Option.Option<CompanyStore.Company>
) => {
  const { cik, fileTicker, givenTicker, ticker } = ids
  if (givenTicker !== undefined && fileTicker === undefined && Option.isSome(known)) {
    const isAlias = Option.isSome(byTicker) && byTicker.value.cik === known.value.cik
    if (known.value.ticker !== givenTicker && !isAlias) {
      return unreadable(
        `--ticker ${givenTicker} contradicts the file: central index key ${cik} is ${known.value.ticker} ` +
          `(${known.value.name}); nothing was stored`
      )
    }
  }
  if (Option.isSome(byTicker) && cik !== undefined && byTicker.value.cik !== cik && cik !== UnknownCik) {
    return unreadable(
      `ticker ${ticker} belongs to central index key ${byTicker.value.cik} (${byTicker.value.name}), ` +
        `but the file is filed by ${cik}; nothing was stored`
    )
  }
  return undefined
}

/** Whether the document is one a caller names by ticker (and name) rather than its filer's key. */
const namedByCaller = (docType: DocType.DocType | undefined): boolean =>
  docType === "EARNINGS_CALL" || docType === "PRESS_RELEASE"

/**
 * The company the document is stored under: a filing's by its central index key, a transcript's or
 * a release's by the ticker the caller gives (under `UnknownCik` for a company the service does not
 * know yet, named by ticker and name), the ticker and name of a known company from its record.
 */
const companyOf = (overrides: Overrides, facts: FileFacts, docType: DocType.DocType | undefined, found: Findings) =>
  Effect.gen(function*() {
    const companies = yield* CompanyStore.CompanyStore
    const given = yield* givenIdsOf(overrides)
    const file = fileIdsOf(facts)
    const againstFile = contradictionWithFile(given, file)
    if (againstFile !== undefined) return yield* againstFile
    const { givenCik, givenTicker } = given
    const byTicker = givenTicker === undefined ? Option.none() : yield* companies.findByTicker(givenTicker)
    const cik = file.fileCik ?? givenCik ?? Option.getOrUndefined(Option.map(byTicker, (c) => c.cik)) ??
      (namedByCaller(docType) && givenTicker !== undefined && overrides.company_name !== undefined
        ? UnknownCik
        : undefined)
    if (cik === undefined) {
      if (facts.cik !== undefined) found.problems.push(invalid("central index key", facts.cik))
      else found.lacking.push("cik")
    }
    const known = cik === undefined || cik === UnknownCik ? Option.none() : yield* companies.findByCik(cik)
    // The given ticker may be another class of a known company: the document takes the primary one.
    const ticker = file.fileTicker ?? Option.getOrUndefined(Option.map(known, (c) => c.ticker)) ?? givenTicker
    if (ticker === undefined) {
      if (facts.ticker !== undefined) found.problems.push(invalid("ticker", facts.ticker))
      else found.lacking.push("ticker")
    }
    const againstStore = contradictionWithStore({ ...given, ...file, cik, ticker }, known, byTicker)
    if (againstStore !== undefined) return yield* againstStore
    const companyName = overrides.company_name ?? facts.companyName ??
      Option.getOrUndefined(Option.map(known, (c) => c.name)) ??
      // A transcript or release of a new company named by its ticker and key: the ticker names it
      // until a filing of the company says its name.
      (namedByCaller(docType) && givenTicker !== undefined && givenCik !== undefined ? givenTicker : undefined)
    if (companyName === undefined) found.lacking.push("company_name")
    return { cik, ticker, companyName, known, fileTickers: file.fileTickers }
  })

/**
 * The document's id: the caller's, else the file's accession number. A transcript has none: its id
 * is its company's and its date (`call-aapl-2022-01-27`). A release on its own has none either: its
 * id is a hash of its company, date and headline.
 */
const publicationIdOf = (
  overrides: Overrides,
  facts: FileFacts,
  named: {
    readonly docType: DocType.DocType | undefined
    readonly ticker: Ids.Ticker | undefined
    readonly filingDate: Dates.IsoDate | undefined
    readonly headline: string | undefined
    readonly fileName: string
  },
  found: Findings
): Ids.PublicationId | undefined => {
  const { docType, filingDate, ticker } = named
  const dated = ticker !== undefined && filingDate !== undefined
  const text = overrides.accession ?? facts.accession ??
    (docType === "EARNINGS_CALL" && dated ? Ids.callDocumentId(ticker, filingDate) : undefined) ??
    (docType === "PRESS_RELEASE" && dated
      ? Ids.releaseDocumentId(hashOf(ticker, filingDate, named.headline ?? named.fileName))
      : undefined)
  // A transcript's or a release's id follows from its ticker and date: it lacks only what they lack.
  if (text === undefined && !namedByCaller(docType)) found.lacking.push("accession")
  const publicationId = text === undefined ? undefined : Option.getOrUndefined(decodePublicationId(text.trim()))
  if (text !== undefined && publicationId === undefined) found.problems.push(invalid("accession number", text))
  return publicationId
}

/** The metadata of a file, every piece found. */
export interface ResolvedMetadata {
  readonly docType: DocType.DocType
  readonly filingDate: Dates.IsoDate
  readonly cik: Ids.Cik
  readonly ticker: Ids.Ticker
  readonly companyName: string
  readonly publicationId: Ids.PublicationId
  /** Every class of shares the file's cover lists, its primary ticker first; empty when it lists none. */
  readonly fileTickers: ReadonlyArray<Ids.Ticker>
  /** The company as the store knew it before this file. */
  readonly known: Option.Option<CompanyStore.Company>
  /** A release's headline, from its blocks. */
  readonly headline: string | undefined
  /** What the file says of itself, for its period. */
  readonly facts: FileFacts
}

/**
 * The metadata of a parsed file, from the caller's options, the file and the company store; fails
 * with `UnreadableFiling` naming everything that is missing or invalid, or the contradiction found.
 */
export const resolveMetadata = (
  parsed: ParsedDocument.ParsedDocument,
  request: { readonly fileName: string; readonly overrides: Overrides }
): Effect.Effect<ResolvedMetadata, ApiError.UnreadableFiling | StorageError.StorageError, CompanyStore.CompanyStore> =>
  Effect.gen(function*() {
    const { fileName, overrides } = request
    const facts = factsOf(parsed)
    const found: Findings = { lacking: [], problems: [] }
    const docType = docTypeOf(overrides, facts, found)
    const filingDate = filingDateOf(overrides, facts, found)
    const { cik, companyName, fileTickers, known, ticker } = yield* companyOf(overrides, facts, docType, found)
    const headline = docType === "PRESS_RELEASE" ? headlineOf(parsed.blocks) : undefined
    const publicationId = publicationIdOf(overrides, facts, { docType, ticker, filingDate, headline, fileName }, found)
    if (
      found.lacking.length > 0 || found.problems.length > 0 || docType === undefined || filingDate === undefined ||
      cik === undefined || ticker === undefined || companyName === undefined || publicationId === undefined
    ) {
      const lacking = found.lacking.length === 0 ? [] : [lackingMetadata(found.lacking)]
      return yield* unreadable([...lacking, ...found.problems, "nothing was stored"].join("; "))
    }
    return { docType, filingDate, cik, ticker, companyName, publicationId, fileTickers, known, headline, facts }
  })
