/**
 * Companies as the API serves them: the searchable list of `GET /v1/companies` and the profile of
 * `GET /v1/companies/{ticker}`, with the query parameters of the list, and the regulator's list of
 * listed companies as an operator hands it to a running server.
 *
 * @module
 */
import { Schema } from "effect"
import { IsoDate } from "./Dates.js"
import { Cik, PublicationId, Ticker } from "./Ids.js"
import { IntegerInRange, NonNegativeInteger, Text, wholeValueMessage, withoutNul } from "./QueryParams.js"

/** The longest `q` a company search takes. */
export const MaxQueryLength = 100

/**
 * The query of `GET /v1/companies`: `q` (a ticker, exactly or its beginning; a central index key,
 * with or without its leading zeros; or words that begin words of the name, or of its former names), `exchange` (`Nasdaq`,
 * `NYSE`, `OTC`, `CBOE`, in any case), `limit` 1 to 100 (default 50) and `offset` (default 0).
 */
export const CompanySearchParams = Schema.Struct({
  q: Schema.optionalWith(
    Schema.String.pipe(Schema.maxLength(MaxQueryLength, {
      message: () => `must be at most ${MaxQueryLength} characters`
    })),
    { exact: true }
  ),
  exchange: Schema.optionalWith(
    Schema.NonEmptyTrimmedString.pipe(Schema.maxLength(20), withoutNul).annotations({
      message: wholeValueMessage((actual) =>
        `must name an exchange such as Nasdaq or NYSE, got ${JSON.stringify(actual)}`
      )
    }),
    { exact: true }
  ),
  limit: Schema.optionalWith(IntegerInRange(1, 100), { exact: true }),
  offset: Schema.optionalWith(NonNegativeInteger, { exact: true })
})
export type CompanySearchParams = typeof CompanySearchParams.Type

/** A company in the list: its current ticker and name, key and exchange, and where its profile is. */
export class CompanyListItem extends Schema.Class<CompanyListItem>("CompanyListItem")({
  ticker: Ticker,
  cik: Cik,
  company_name: Schema.String,
  /** `null` when the regulator lists no security of the company (known from its filings only). */
  exchange: Schema.NullOr(Schema.String),
  /** The profile's relative path, `/v1/companies/<ticker>`. */
  url: Schema.String
}, { identifier: "CompanyListItem" }) {}

/**
 * A page of `GET /v1/companies`: the best matches first (an exact ticker, the key, tickers `q`
 * begins, then name matches), ties by ticker. `total` counts every match; page on by adding `limit`
 * to `offset` until `offset + limit >= total`.
 */
export class CompanyList extends Schema.Class<CompanyList>("CompanyList")({
  companies: Schema.Array(CompanyListItem),
  total: Schema.Int,
  limit: Schema.Int,
  offset: Schema.Int
}, { identifier: "CompanyList" }) {}

/** A name the company went by before, and the last day it did (`null` when the regulator does not say). */
export class FormerName extends Schema.Class<FormerName>("FormerName")({
  name: Schema.String,
  until: Schema.NullOr(IsoDate)
}, { identifier: "FormerName" }) {}

/** The newest value of a metric, with its period and the document it was reported in. */
export class LatestMetric extends Schema.Class<LatestMetric>("LatestMetric")({
  value: Schema.Number,
  unit: Schema.String,
  /** The document's reporting period, `FY 2024` or `Q3 2024`. */
  period: Schema.String,
  /** The date a balance or share count is measured at; absent for flows. */
  as_of: Schema.optionalWith(IsoDate, { exact: true }),
  publication_id: PublicationId,
  doc_type: Schema.String,
  filing_date: IsoDate
}, { identifier: "LatestMetric" }) {}

/** The fields of a profile that come from the regulator's submissions record, filled in the background. */
export const DetailFields = [
  "former_names",
  "sic",
  "sic_description",
  "state_of_incorporation",
  "fiscal_year_end"
] as const

/**
 * `GET /v1/companies/{ticker}`. The details (`former_names`, `sic`, `sic_description`,
 * `state_of_incorporation`, `fiscal_year_end`) are read from the regulator in the background; until
 * they are, `pending_fields` names them and they are `null` (`[]` for `former_names`). Once read, a
 * `null` means the regulator has none. `document_counts` and `latest` are keyed by document type;
 * `latest_metrics` by metric name (from the newest 10-K, 10-Q, 20-F or 6-K that reports each).
 */
export class CompanyProfile extends Schema.Class<CompanyProfile>("CompanyProfile")({
  ticker: Ticker,
  cik: Cik,
  company_name: Schema.String,
  former_names: Schema.Array(FormerName),
  /**
   * Every ticker of the company: the primary one first (the first its newest filing's cover lists,
   * else the regulator's first for its key), then the other classes on that cover, then the listed ones.
   */
  tickers: Schema.Array(Ticker),
  exchange: Schema.NullOr(Schema.String),
  /** Standard industrial classification code, four digits. */
  sic: Schema.NullOr(Schema.String),
  sic_description: Schema.NullOr(Schema.String),
  /** As the regulator codes it: `DE`, `CA`; a country code such as `E9` for a foreign issuer. */
  state_of_incorporation: Schema.NullOr(Schema.String),
  /** The fiscal year's last day as `MMDD` (`0926`). */
  fiscal_year_end: Schema.NullOr(Schema.String),
  document_counts: Schema.Record({ key: Schema.String, value: Schema.Int }),
  latest: Schema.Record({ key: Schema.String, value: PublicationId }),
  latest_metrics: Schema.Record({ key: Schema.String, value: LatestMetric }),
  /** The details not read from the regulator yet (see {@link DetailFields}); empty once they are. */
  pending_fields: Schema.Array(Schema.Literal(...DetailFields))
}, { identifier: "CompanyProfile" }) {}

/** The path of `GET /v1/companies/{ticker}`: a ticker, any case. */
export const CompanyPath = Schema.Struct({ ticker: Ticker })

/** The relative API path of a company's profile. */
export const companyPath = (ticker: Ticker): string => `/v1/companies/${ticker}`

/** One ticker of the regulator's list, as an operator hands the list to a running server. */
export const ListedTicker = Schema.Struct({
  cik: Cik,
  ticker: Ticker,
  name: Text,
  exchange: Schema.optional(Text)
})

/** The regulator's list, in its order: `POST /admin/companies/listing`, which replaces the stored one. */
export class CompanyListing extends Schema.Class<CompanyListing>("CompanyListing")({
  companies: Schema.Array(ListedTicker)
}) {}

/** What a saved listing held. */
export class CompanyListingSaved extends Schema.Class<CompanyListingSaved>("CompanyListingSaved")({
  companies: Schema.Int,
  tickers: Schema.Int
}) {}
