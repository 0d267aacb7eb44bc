/**
 * Identifiers of the Filings domain: the regulator's accession number (our `publication_id`),
 * company tickers and central index keys. Each is a branded string so that a ticker can never be
 * passed where an accession number is expected.
 *
 * @module
 */
import { Schema } from "effect"

/**
 * The id of every document: the regulator's accession number, `0000320193-24-000123`. A document
 * the service makes of one exhibit of a filing (the press release an 8-K furnishes as EX-99.1) has
 * no accession number of its own; its id is the filing's with the exhibit: `0000320193-24-000123-ex99.1`.
 * An earnings call transcript, which is no filing, is identified by its company and date:
 * `call-aapl-2022-01-27`. A news item, which has neither, is named by a hash of its feed entry and
 * the company it is about: `news-3f2a9c0d17b4e581`; a press release stored on its own (from the
 * company's site rather than a filing) by a hash of its company, date and headline:
 * `release-9b1c0e44d2a7f310`.
 */
export const PublicationId = Schema.String.pipe(
  Schema.pattern(
    /^(?:\d{10}-\d{2}-\d{6}(?:-ex\d{1,3}(?:\.\d{1,3})?)?|call-[a-z0-9][a-z0-9.-]{0,11}-\d{4}-\d{2}-\d{2}|(?:news|release)-[0-9a-f]{16})$/,
    {
      message: (issue) =>
        `must be an accession number of the form 0000000000-00-000000, got ${JSON.stringify(issue.actual)}`
    }
  ),
  Schema.brand("PublicationId"),
  Schema.annotations({
    identifier: "PublicationId",
    description:
      "The regulator's accession number (10 digits, 2 digits and 6 digits separated by dashes); for a press release taken from a filing's exhibit, the filing's accession number followed by the exhibit, as in 0000320193-24-000123-ex99.1; for an earnings call transcript, call-<ticker>-<date>, as in call-aapl-2022-01-27; for a news item, news- and 16 hexadecimal digits, as in news-3f2a9c0d17b4e581; for a press release stored on its own, release- and 16 hexadecimal digits"
  })
)
export type PublicationId = typeof PublicationId.Type

/** The id of the document made of a filing's exhibit: `0000320193-24-000123-ex99.1`. */
export const exhibitDocumentId = (filing: PublicationId, exhibitNumber: string): PublicationId | undefined => {
  const id = `${filing}-ex${exhibitNumber}`
  return Schema.is(PublicationId)(id) ? id : undefined
}

/** The id of an earnings call transcript: `call-aapl-2022-01-27`. */
export const callDocumentId = (ticker: string, callDate: string): string => `call-${ticker.toLowerCase()}-${callDate}`

/** The id of a news item from the 16 hexadecimal digits of its hash: `news-3f2a9c0d17b4e581`. */
export const newsDocumentId = (hashHex: string): PublicationId | undefined => {
  const id = `news-${hashHex.toLowerCase()}`
  return Schema.is(PublicationId)(id) ? id : undefined
}

/** The id of a press release stored on its own, from 16 hexadecimal digits of a hash: `release-9b1c0e44d2a7f310`. */
export const releaseDocumentId = (hashHex: string): PublicationId | undefined => {
  const id = `release-${hashHex.toLowerCase()}`
  return Schema.is(PublicationId)(id) ? id : undefined
}

/**
 * A stock ticker as the regulator lists it: upper case letters and digits, with `.` or `-` for share
 * classes (`BRK-B`, `BF.B`). Lower-case input is accepted and upper-cased.
 */
// One transformation and one pattern: tickers are checked on every stored row read and every
// response written, so the upper-casing of client input is not a refinement of its own.
export const Ticker = Schema.transform(
  Schema.String,
  Schema.String.pipe(
    Schema.pattern(/^[A-Z0-9][A-Z0-9.-]{0,11}$/, {
      message: (issue) => `must be a ticker symbol such as AAPL or BRK-B, got ${JSON.stringify(issue.actual)}`
    })
  ),
  { strict: true, decode: (input) => input.toUpperCase(), encode: (ticker) => ticker }
).pipe(
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
