/**
 * Identifiers of the Filings domain: the regulator's accession number (our `publication_id`),
 * company tickers and central index keys. Each is a branded string so that a ticker can never be
 * passed where an accession number is expected.
 */
import { Schema } from "effect"

/** The regulator's accession number, `0000320193-24-000123`: the id of every document. */
export const PublicationId = Schema.String.pipe(
  Schema.pattern(/^\d{10}-\d{2}-\d{6}$/, {
    message: (issue) =>
      `must be an accession number of the form 0000000000-00-000000, got ${JSON.stringify(issue.actual)}`
  }),
  Schema.brand("PublicationId"),
  Schema.annotations({
    identifier: "PublicationId",
    description: "The regulator's accession number: 10 digits, 2 digits and 6 digits separated by dashes"
  })
)
export type PublicationId = typeof PublicationId.Type

/**
 * A stock ticker as the regulator lists it: upper case letters and digits, with `.` or `-` for share
 * classes (`BRK-B`, `BF.B`). Lower-case input is accepted and upper-cased.
 */
export const Ticker = Schema.Uppercase.pipe(
  Schema.compose(Schema.String.pipe(
    Schema.pattern(/^[A-Z0-9][A-Z0-9.-]{0,11}$/, {
      message: (issue) => `must be a ticker symbol such as AAPL or BRK-B, got ${JSON.stringify(issue.actual)}`
    })
  )),
  Schema.brand("Ticker"),
  Schema.annotations({ identifier: "Ticker", description: "Stock ticker symbol, for example AAPL" })
)
export type Ticker = typeof Ticker.Type

/** The regulator's central index key of a company, always written with 10 digits (`0000320193`). */
export const Cik = Schema.String.pipe(
  Schema.pattern(/^\d{10}$/, {
    message: (issue) => `must be a 10-digit central index key, got ${JSON.stringify(issue.actual)}`
  }),
  Schema.brand("Cik"),
  Schema.annotations({ identifier: "Cik", description: "Central index key, zero-padded to 10 digits" })
)
export type Cik = typeof Cik.Type

/** Pads a central index key given as a number or a short string (`320193`) to its canonical form. */
export const normalizeCik = (value: string | number): Cik | undefined => {
  const digits = String(value).trim()
  if (!/^\d{1,10}$/.test(digits)) return undefined
  return Cik.make(digits.padStart(10, "0"))
}
