/**
 * A company's filing history from `https://data.sec.gov/submissions/CIK##########.json`: who the
 * company is and its recent filings (about the last thousand), with the names of the older pages
 * (`CIK##########-submissions-001.json`, ...) that hold the rest.
 *
 * EDGAR writes the filings as columns (`accessionNumber[]`, `form[]`, `filingDate[]`, ...) that are
 * read row by row here. Columns of unequal length fail the response instead of being cut to the
 * shortest: with one value missing somewhere, every later row could pair an accession number with
 * another filing's form and date, and no row could be trusted.
 *
 * @module
 */
import { Ids } from "@filings/domain"
import { Effect, Either, Schema } from "effect"
import { decodeJsonResponse, UnreadableResponse } from "./EdgarResponseError.js"
import { AccessionNumber } from "./FilingIndex.js"

/** One filing of the history. */
export interface FilingSummary {
  readonly accessionNumber: AccessionNumber
  /** As EDGAR writes it: `10-K`, `8-K/A`, `SC 13G`, `4`. */
  readonly form: string
  /** `YYYY-MM-DD`. */
  readonly filingDate: string
  /** The period or event the filing reports on, `YYYY-MM-DD`, when it has one. */
  readonly reportDate?: string | undefined
  /** When EDGAR accepted it, `2024-11-01T10:01:36.000Z`. */
  readonly acceptanceDateTime?: string | undefined
  /** The main document's file name in the filing's folder, `aapl-20240928.htm`. */
  readonly primaryDocument?: string | undefined
  /** The 8-K items reported, `["2.02", "9.01"]`; empty for other forms. */
  readonly items: ReadonlyArray<string>
}

/** One page of older filings, named in the company's submissions. */
export interface OlderSubmissionsPage {
  /** The file name, `CIK0000320193-submissions-001.json`, under `/submissions/`. */
  readonly name: string
  readonly filingCount?: number | undefined
  readonly filingFrom?: string | undefined
  readonly filingTo?: string | undefined
}

/** A name the company was registered under before, and when. */
export interface FormerName {
  readonly name: string
  /** The first day EDGAR knew the name, `YYYY-MM-DD`, when it says. */
  readonly from?: string | undefined
  /** The last day the name was in use, `YYYY-MM-DD`, when it says. */
  readonly to?: string | undefined
}

/** A company and its recent filings, newest first as EDGAR lists them. */
export interface CompanySubmissions {
  readonly cik: Ids.Cik
  readonly name: string
  readonly tickers: ReadonlyArray<string>
  /** The exchange of each ticker, in the order of `tickers` (`Nasdaq`, `NYSE`); blank ones left out. */
  readonly exchanges: ReadonlyArray<string>
  /** The fiscal year's last day as `MMDD` (`0926`), when EDGAR has one. */
  readonly fiscalYearEnd?: string | undefined
  /** The standard industrial classification code, four digits (`3571`), when EDGAR has one. */
  readonly sic?: string | undefined
  /** What the SIC code stands for (`Electronic Computers`), when EDGAR has it. */
  readonly sicDescription?: string | undefined
  /** The state or country of incorporation as EDGAR codes it (`CA`, `DE`, `E9`), when it has one. */
  readonly stateOfIncorporation?: string | undefined
  /** Earlier names, newest first as EDGAR lists them. */
  readonly formerNames: ReadonlyArray<FormerName>
  readonly filings: ReadonlyArray<FilingSummary>
  readonly olderPages: ReadonlyArray<OlderSubmissionsPage>
}

/** `/submissions/CIK0000320193.json` on `https://data.sec.gov`. */
export const submissionsPath = (cik: Ids.Cik): string => `/submissions/CIK${cik}.json`

/** The path of an older page on `https://data.sec.gov`: `/submissions/CIK0000320193-submissions-001.json`. */
export const submissionsPagePath = (page: Pick<OlderSubmissionsPage, "name">): string =>
  `/submissions/${encodeURIComponent(page.name)}`

const IsoDate = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}$/, {
    message: (issue) => `must be a date YYYY-MM-DD, got ${JSON.stringify(issue.actual)}`
  })
)

// EDGAR writes "" for a value a filing lacks; null is accepted as the same.
const OptionalColumn = Schema.optional(Schema.Array(Schema.NullOr(Schema.String)))

const FilingColumns = Schema.Struct({
  accessionNumber: Schema.Array(AccessionNumber),
  form: Schema.Array(Schema.String),
  filingDate: Schema.Array(IsoDate),
  reportDate: OptionalColumn,
  acceptanceDateTime: OptionalColumn,
  primaryDocument: OptionalColumn,
  items: OptionalColumn
})
type FilingColumns = typeof FilingColumns.Type

const OlderPage = Schema.Struct({
  name: Schema.String.pipe(
    Schema.pattern(/^CIK\d{10}-submissions-\d{1,6}\.json$/, {
      message: (issue) => `must name a submissions page file, got ${JSON.stringify(issue.actual)}`
    })
  ),
  filingCount: Schema.optional(Schema.NullOr(Schema.Number)),
  filingFrom: Schema.optional(Schema.NullOr(Schema.String)),
  filingTo: Schema.optional(Schema.NullOr(Schema.String))
})

const OptionalText = Schema.optional(Schema.NullOr(Schema.String))

const FormerNameJson = Schema.Struct({ name: OptionalText, from: OptionalText, to: OptionalText })

const SubmissionsJson = Schema.Struct({
  cik: Schema.Union(Schema.String, Schema.Number),
  name: Schema.String,
  tickers: Schema.optional(Schema.NullOr(Schema.Array(Schema.NullOr(Schema.String)))),
  exchanges: Schema.optional(Schema.NullOr(Schema.Array(Schema.NullOr(Schema.String)))),
  fiscalYearEnd: OptionalText,
  sic: OptionalText,
  sicDescription: OptionalText,
  stateOfIncorporation: OptionalText,
  formerNames: Schema.optional(Schema.NullOr(Schema.Array(FormerNameJson))),
  filings: Schema.Struct({
    recent: FilingColumns,
    files: Schema.optional(Schema.NullOr(Schema.Array(OlderPage)))
  })
})

const present = (value: string | null | undefined): string | undefined => {
  const trimmed = value?.trim()
  return trimmed ? trimmed : undefined
}

// EDGAR writes the bounds of a former name as timestamps at midnight UTC: the date is what it means.
const dayOf = (value: string | null | undefined): string | undefined => {
  const day = present(value)?.slice(0, 10)
  return day !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : undefined
}

const formerNamesOf = (names: ReadonlyArray<typeof FormerNameJson.Type>): ReadonlyArray<FormerName> =>
  names.flatMap((former) => {
    const name = present(former.name)
    if (name === undefined) return []
    const from = dayOf(former.from)
    const to = dayOf(former.to)
    return [{ name, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) }]
  })

const itemsOf = (items: string | null | undefined): ReadonlyArray<string> =>
  items ? items.split(",").map((item) => item.trim()).filter((item) => item !== "") : []

/** Turns the columns into rows, or says which columns disagree in length. */
const filingsOf = (columns: FilingColumns, what: string, at: string) => {
  const count = columns.accessionNumber.length
  const lengths: Array<readonly [string, number]> = [
    ["form", columns.form.length],
    ["filingDate", columns.filingDate.length],
    ...(["reportDate", "acceptanceDateTime", "primaryDocument", "items"] as const).flatMap((name) => {
      const column = columns[name]
      return column === undefined ? [] : [[name, column.length] as const]
    })
  ]
  const unequal = lengths.filter(([, length]) => length !== count)
  if (unequal.length > 0) {
    const described = [`accessionNumber ${count}`, ...unequal.map(([name, length]) => `${name} ${length}`)]
    return Either.left(
      new UnreadableResponse({ what, reason: `the columns of ${at} differ in length (${described.join(", ")})` })
    )
  }
  const filings: Array<FilingSummary> = []
  for (let row = 0; row < count; row++) {
    const reportDate = present(columns.reportDate?.[row])
    const acceptanceDateTime = present(columns.acceptanceDateTime?.[row])
    const primaryDocument = present(columns.primaryDocument?.[row])
    filings.push({
      accessionNumber: columns.accessionNumber[row]!,
      form: columns.form[row]!.trim(),
      filingDate: columns.filingDate[row]!,
      ...(reportDate === undefined ? {} : { reportDate }),
      ...(acceptanceDateTime === undefined ? {} : { acceptanceDateTime }),
      ...(primaryDocument === undefined ? {} : { primaryDocument }),
      items: itemsOf(columns.items?.[row])
    })
  }
  return Either.right(filings)
}

const companyWhat = "the company's submissions"
const decodeSubmissionsJson = decodeJsonResponse(companyWhat, SubmissionsJson)

/**
 * Reads `CIK##########.json`: the company, its recent filings in EDGAR's order (newest first) and
 * its older pages. A company without filings has empty lists. Fails with `UnreadableResponse` on JSON
 * of another shape, an HTML error page, a malformed accession number or date, or ragged columns.
 */
export const readSubmissions = (json: string): Effect.Effect<CompanySubmissions, UnreadableResponse> =>
  Effect.suspend(() =>
    Either.flatMap(decodeSubmissionsJson(json), (submissions) => {
      const cik = Ids.normalizeCik(submissions.cik)
      if (cik === undefined) {
        return Either.left(
          new UnreadableResponse({
            what: companyWhat,
            reason: `its cik ${JSON.stringify(submissions.cik)} is not a central index key`
          })
        )
      }
      return Either.map(filingsOf(submissions.filings.recent, companyWhat, "filings.recent"), (filings) => {
        const fiscalYearEnd = present(submissions.fiscalYearEnd)
        const sic = present(submissions.sic)
        const sicDescription = present(submissions.sicDescription)
        const stateOfIncorporation = present(submissions.stateOfIncorporation)
        return {
          cik,
          name: submissions.name.trim(),
          tickers: (submissions.tickers ?? []).flatMap((ticker) => {
            const symbol = present(ticker)
            return symbol === undefined ? [] : [symbol.toUpperCase()]
          }),
          exchanges: (submissions.exchanges ?? []).flatMap((exchange) => {
            const named = present(exchange)
            return named === undefined ? [] : [named]
          }),
          ...(fiscalYearEnd !== undefined && /^\d{4}$/.test(fiscalYearEnd) ? { fiscalYearEnd } : {}),
          ...(sic !== undefined && /^\d{3,4}$/.test(sic) ? { sic } : {}),
          ...(sicDescription === undefined ? {} : { sicDescription }),
          ...(stateOfIncorporation === undefined ? {} : { stateOfIncorporation }),
          formerNames: formerNamesOf(submissions.formerNames ?? []),
          filings,
          olderPages: (submissions.filings.files ?? []).map((page) => {
            const filingFrom = present(page.filingFrom)
            const filingTo = present(page.filingTo)
            return {
              name: page.name,
              ...(page.filingCount == null ? {} : { filingCount: page.filingCount }),
              ...(filingFrom === undefined ? {} : { filingFrom }),
              ...(filingTo === undefined ? {} : { filingTo })
            }
          })
        }
      })
    })
  )

const pageWhat = "the page of older submissions"
const decodePageJson = decodeJsonResponse(pageWhat, FilingColumns)

/**
 * Reads an older page, `CIK##########-submissions-001.json`, whose columns sit at the top level.
 * Fails as `readSubmissions` does.
 */
export const readSubmissionsPage = (json: string): Effect.Effect<ReadonlyArray<FilingSummary>, UnreadableResponse> =>
  Effect.suspend(() => Either.flatMap(decodePageJson(json), (columns) => filingsOf(columns, pageWhat, "the page")))
