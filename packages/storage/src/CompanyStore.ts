/**
 * The company store: the companies the service knows, keyed by central index key, with their
 * current ticker and name: those of the newest filing seen.
 *
 * A company may have several tickers, one per listed class of shares (Alphabet's GOOGL and GOOG).
 * Each is an alias of the company: `findByTicker`, `findProfile` and `aliasesOf` find the company
 * by any of them. Its **primary ticker**, the one answers carry, is the first its newest filing's
 * cover lists (`dei:TradingSymbol`, repeated per class, in the cover's order); for a company no
 * filing has named yet, the first the regulator's list gives its key. The other tickers come from
 * that cover and from the regulator's list. A company renames itself over the years
 * (APPLE COMPUTER INC became Apple Inc.), so storing an old filing after a newer one must not bring
 * the old name back; each document keeps the name it was filed under on its own.
 *
 * It also keeps the regulator's list of listed companies (every ticker with its exchange, saved
 * whole by `saveListing`), what the regulator says of each company beyond its name (industry,
 * state of incorporation, former names: `saveDetails`, filled in the background), and answers the
 * company search of `GET /v1/companies`.
 *
 * @module
 */
import { Ids } from "@filings/domain"
import { Context, type Effect, type Option, Schema } from "effect"
import type { StorageError } from "./StorageError.js"

/** A company: its key, its current ticker and name. Encoded, its keys are the SQL columns'. */
export const Company = Schema.Struct({
  cik: Ids.Cik,
  ticker: Ids.Ticker,
  name: Schema.String,
  /**
   * The filing date (`YYYY-MM-DD`) the ticker and name are taken from. Absent for a company known
   * from a listing rather than a filing.
   */
  asOf: Schema.optional(Schema.String).pipe(Schema.fromKey("as_of")),
  /**
   * Every ticker the cover of the filing the ticker is taken from lists, in its order, `ticker`
   * (the primary) first: a second class of shares (`GOOG` beside `GOOGL`). Absent when that filing
   * listed none (a record with only `ticker`).
   */
  tickers: Schema.optional(Schema.Array(Ids.Ticker))
})
export type Company = typeof Company.Type

/**
 * Every ticker of a company, each once: its primary one, then the others its cover lists, then the
 * ones the regulator lists for it (`listed`, in the list's order).
 */
export const everyTicker = (company: Company, listed: ReadonlyArray<Ids.Ticker> = []): ReadonlyArray<Ids.Ticker> => [
  ...new Set([company.ticker, ...(company.tickers ?? []), ...listed])
]

/**
 * Whether `next` replaces `current`: a dated record gives way only to one of the same date or
 * later, and an undated one (a listing) to anything; an undated one never replaces a dated one.
 */
export const supersedes = (next: Company, current: Company): boolean =>
  current.asOf === undefined || next.asOf !== undefined && next.asOf >= current.asOf

/** One ticker of the regulator's list, with its company and the exchange it trades on. */
export interface ListedTicker {
  readonly cik: Ids.Cik
  readonly ticker: Ids.Ticker
  readonly name: string
  /** `Nasdaq`, `NYSE`, `OTC`, `CBOE`, when the list names one. */
  readonly exchange?: string | undefined
}

/** How many companies and tickers a listing held, once saved. */
export interface ListingSaved {
  readonly companies: number
  readonly tickers: number
}

/** A name the company was registered under before; `from` and `to` are dates, `YYYY-MM-DD`. */
export const FormerName = Schema.Struct({
  name: Schema.String,
  from: Schema.optional(Schema.String),
  to: Schema.optional(Schema.String)
})
export type FormerName = typeof FormerName.Type

/**
 * What the regulator says of a company beyond its name and tickers (its submissions record). A field
 * absent here is one the regulator has none for. Encoded, its keys are the SQL columns'.
 */
export const CompanyDetails = Schema.Struct({
  /** Standard industrial classification, four digits (`3571`). */
  sic: Schema.optional(Schema.String),
  sicDescription: Schema.optional(Schema.String).pipe(Schema.fromKey("sic_description")),
  /** As the regulator codes it: `DE`, `CA`, `E9` (Cayman Islands). */
  stateOfIncorporation: Schema.optional(Schema.String).pipe(Schema.fromKey("state_of_incorporation")),
  /** The fiscal year's last day, `MMDD` (`0926`). */
  fiscalYearEnd: Schema.optional(Schema.String).pipe(Schema.fromKey("fiscal_year_end")),
  /** Newest first. */
  formerNames: Schema.Array(FormerName).pipe(Schema.propertySignature, Schema.fromKey("former_names"))
})
export type CompanyDetails = typeof CompanyDetails.Type

/** A company as the search lists it: key, current ticker and name, and its exchange when listed. */
export const CompanySummary = Schema.Struct({
  cik: Ids.Cik,
  ticker: Ids.Ticker,
  name: Schema.String,
  exchange: Schema.optional(Schema.String)
})
export type CompanySummary = typeof CompanySummary.Type

/** A company with everything the store knows of it. */
export interface CompanyProfile {
  readonly company: Company
  /** The exchange of the company's main listed ticker; absent when the regulator lists none. */
  readonly exchange?: string | undefined
  /** Every ticker of the company (see `everyTicker`): its primary one first, then its cover's, then its listed ones. */
  readonly tickers: ReadonlyArray<Ids.Ticker>
  /** Absent until `saveDetails` has been given them: not known yet, rather than known to be empty. */
  readonly details?: CompanyDetails | undefined
}

/** Which companies `search` reads: those `q` matches, on one exchange, one page of them. */
export interface CompanySearch {
  /**
   * A ticker (any of the company's exactly, or the beginning of its primary or listed ones), a
   * central index key (with or without its leading zeros), or words that begin words of the name
   * (`micro soft`). Blank or absent: every company.
   */
  readonly q?: string | undefined
  /** Only companies whose exchange this is, in any case (`nasdaq`). */
  readonly exchange?: string | undefined
  readonly limit: number
  readonly offset: number
}

/** A page of companies and the number of every match. */
export interface CompanyPage {
  readonly companies: ReadonlyArray<CompanySummary>
  readonly total: number
}

/** Which companies `detailsBacklog` reads. */
export interface DetailsBacklogQuery {
  readonly limit: number
  /** Tickers to take first (the watch list). */
  readonly preferred: ReadonlyArray<Ids.Ticker>
  /**
   * Also the companies whose details were read before this instant, to be read again: after every
   * company never read, the longest ago first. Only those never read when absent.
   */
  readonly readBefore?: Date | undefined
}

/**
 * The words of a company name as search matches them: runs of ASCII letters and digits, lower
 * case. Every other character (punctuation, spaces, accented letters) separates words, the same way
 * on every adapter and in every locale.
 */
export const nameWords = (text: string): ReadonlyArray<string> =>
  text.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word !== "")

/** The ticker `q` may be (upper case), when it has a ticker's shape. */
export const tickerQuery = (q: string): string | undefined => {
  const upper = q.trim().toUpperCase()
  return /^[A-Z0-9][A-Z0-9.-]{0,11}$/.test(upper) ? upper : undefined
}

/** The central index key `q` may be, padded to 10 digits, when it is 1 to 10 digits. */
export const cikQuery = (q: string): Ids.Cik | undefined => {
  const digits = q.trim()
  return /^\d{1,10}$/.test(digits) ? digits.padStart(10, "0") as Ids.Cik : undefined
}

/**
 * How well `q` matches: 0 an exact ticker, 1 the central index key, 2 the beginning of a ticker,
 * 3 the name's words, 4 the words of its former names (each word of `q` begins a word of one of
 * its former names, not necessarily the same one); a search lists matches in this order, then by
 * ticker and key.
 */
export type MatchRank = 0 | 1 | 2 | 3 | 4

/**
 * What a company store does. Absent companies are none, never an error; every operation fails with
 * `StorageError` only when the backing store does.
 */
export interface Service {
  /**
   * Adds the company, or, when the key is known, replaces its ticker, tickers and name if the
   * record given is not older than the stored one (see `supersedes`). A record without `tickers`
   * keeps the stored ones when its ticker is the stored one, and drops them when it is another.
   */
  readonly upsert: (company: Company) => Effect.Effect<void, StorageError>
  /** The company with this central index key, with its current ticker, tickers and name. */
  readonly findByCik: (cik: Ids.Cik) => Effect.Effect<Option.Option<Company>, StorageError>
  /**
   * The company this ticker names: the one whose primary ticker it is (the most recently updated,
   * should two have it), else one whose cover lists it (the newest filing's), else the one the
   * regulator's list gives it to. After a ticker change, the old one finds nothing (unless the
   * list still gives it to the company).
   */
  readonly findByTicker: (ticker: Ids.Ticker) => Effect.Effect<Option.Option<Company>, StorageError>
  /**
   * Each ticker given with every ticker of the company it names (as `findByTicker` finds it; see
   * `everyTicker`): what a filter by ticker matches, so that `GOOG` finds the documents stored under
   * `GOOGL`. A ticker that names no company maps to itself alone. One read for all the tickers.
   */
  readonly aliasesOf: (
    tickers: ReadonlyArray<Ids.Ticker>
  ) => Effect.Effect<ReadonlyMap<Ids.Ticker, ReadonlyArray<Ids.Ticker>>, StorageError>
  /**
   * Replaces the regulator's list with `listed`, in its order (a company's first ticker is its main
   * one; a ticker given twice counts once, the first time). Each company is added, or takes the
   * listing's ticker and name when no filing has named it (see `supersedes`: a filing's dated name
   * wins); its exchange is the one of its main ticker. Companies the list no longer names keep
   * their name and ticker, but lose their exchange and listed tickers.
   */
  readonly saveListing: (listed: ReadonlyArray<ListedTicker>) => Effect.Effect<ListingSaved, StorageError>
  /**
   * Companies matching `q` (see `CompanySearch`), each once, under its best `MatchRank`: an exact
   * ticker first, then the key, then tickers it begins, then name matches, then former names' ones; ties by ticker, then
   * key, so pages at any offset neither skip nor repeat. `total` counts every match.
   */
  readonly search: (query: CompanySearch) => Effect.Effect<CompanyPage, StorageError>
  /**
   * The company this ticker names (as `findByTicker` finds it: a second class, `GOOG`, finds
   * Alphabet), with its exchange, tickers and details.
   */
  readonly findProfile: (ticker: Ids.Ticker) => Effect.Effect<Option.Option<CompanyProfile>, StorageError>
  /** Records what the regulator says of a known company (nothing when the key is unknown). */
  readonly saveDetails: (cik: Ids.Cik, details: CompanyDetails) => Effect.Effect<void, StorageError>
  /**
   * Keys of companies whose details are not known yet, most-followed first: the preferred tickers,
   * then companies with a stored filing, then in the list's order (the regulator ranks the largest
   * first), then by key. With `readBefore`, then those whose details are older, oldest first.
   */
  readonly detailsBacklog: (query: DetailsBacklogQuery) => Effect.Effect<ReadonlyArray<Ids.Cik>, StorageError>
}

/** The company store as an Effect service, provided by `MemoryStorage.companyStore` or an adapter's layer. */
export class CompanyStore extends Context.Tag("@filings/storage/CompanyStore")<CompanyStore, Service>() {}
