/**
 * The company universe: the SEC's `company_tickers.json`, every listed ticker with its company's
 * CIK and name. It is how a ticker a user types becomes the CIK the rest of EDGAR is keyed by.
 *
 * The file is an object keyed "0", "1", ... whose values are `{ cik_str, ticker, title }`; one
 * company can appear under several tickers (share classes, warrants, preferred series). Its sibling
 * `company_tickers_exchange.json` holds the same rows with the exchange of each ticker, written as
 * columns: `{ fields: ["cik", "name", "ticker", "exchange"], data: [[320193, "Apple Inc.", "AAPL", "Nasdaq"]] }`.
 *
 * @module
 */
import { Ids } from "@filings/domain"
import { Effect, Either, Option, Schema } from "effect"
import { decodeJsonResponse, UnreadableResponse } from "./EdgarResponseError.js"

/** One ticker of the list. */
export interface ListedCompany {
  /** Zero-padded to 10 digits. */
  readonly cik: Ids.Cik
  /** Upper case, as `BRK-B` or `AAPL`. */
  readonly ticker: string
  readonly name: string
  /** The exchange the ticker trades on (`Nasdaq`, `NYSE`, `OTC`, `CBOE`), when the list names one. */
  readonly exchange?: string | undefined
}

/** The usable rows, and one warning per row skipped. */
export interface CompanyTickers {
  readonly companies: ReadonlyArray<ListedCompany>
  readonly warnings: ReadonlyArray<string>
}

/** The list's path on `https://www.sec.gov`. */
export const companyTickersPath = "/files/company_tickers.json"

const what = "the company tickers list"

const TickerRows = Schema.Record({ key: Schema.String, value: Schema.Unknown })

const TickerRow = Schema.Struct({
  cik_str: Schema.Union(Schema.Number, Schema.String),
  ticker: Schema.String,
  title: Schema.String
})
const decodeTickerRow = Schema.decodeUnknownOption(TickerRow)

const decodeTickerRows = decodeJsonResponse(what, TickerRows)

/**
 * Reads the list in its order. A row without a usable CIK, ticker or name is skipped with a warning; a document in
 * which no row is usable (another file's shape, as `company_tickers_exchange.json`'s `fields`/`data`),
 * or that is no JSON object, fails with `UnreadableResponse`.
 */
export const readCompanyTickers = (json: string): Effect.Effect<CompanyTickers, UnreadableResponse> =>
  Effect.suspend(() =>
    Either.flatMap(decodeTickerRows(json), (rows) => {
      const companies: Array<ListedCompany> = []
      const warnings: Array<string> = []
      // Integer-like keys come in ascending numeric order, which is the list's own order.
      const entries = Object.entries(rows)
      for (const [key, value] of entries) {
        const row = decodeTickerRow(value)
        const cik = Option.isNone(row) ? undefined : Ids.normalizeCik(row.value.cik_str)
        const ticker = Option.isNone(row) ? "" : row.value.ticker.trim().toUpperCase()
        const name = Option.isNone(row) ? "" : row.value.title.trim()
        if (cik === undefined || ticker === "" || name === "") {
          warnings.push(`entry ${JSON.stringify(key)} has no usable CIK, ticker and name: skipped`)
          continue
        }
        companies.push({ cik, ticker, name })
      }
      const values = entries
      return values.length > 0 && companies.length === 0
        ? Either.left(
          new UnreadableResponse({
            what,
            reason: `none of its ${values.length} entries has a CIK, a ticker and a name`
          })
        )
        : Either.right({ companies, warnings })
    })
  )

/** The list with exchanges: its path on `https://www.sec.gov`. */
export const companyTickersExchangePath = "/files/company_tickers_exchange.json"

const exchangeWhat = "the company tickers and exchanges list"

const ExchangeTable = Schema.Struct({
  fields: Schema.Array(Schema.String),
  data: Schema.Array(Schema.Array(Schema.Unknown))
})
const decodeExchangeTable = decodeJsonResponse(exchangeWhat, ExchangeTable)

const text = (value: unknown): string => (typeof value === "string" ? value.trim() : "")

/**
 * Reads `company_tickers_exchange.json` in its order (the regulator ranks a company's main class
 * first). The columns are found by their names in `fields`, so a reordering does not mix them up. A
 * row without a usable CIK, ticker and name is skipped with a warning; a blank or null exchange is
 * left out. A document without the `cik`, `name` and `ticker` columns, or of another shape, fails
 * with `UnreadableResponse`.
 */
export const readCompanyTickersExchange = (json: string): Effect.Effect<CompanyTickers, UnreadableResponse> =>
  Effect.suspend(() =>
    Either.flatMap(decodeExchangeTable(json), (table) => {
      const column = (name: string) => table.fields.indexOf(name)
      const [cikAt, nameAt, tickerAt, exchangeAt] = [
        column("cik"),
        column("name"),
        column("ticker"),
        column("exchange")
      ]
      if (cikAt === -1 || nameAt === -1 || tickerAt === -1) {
        return Either.left(
          new UnreadableResponse({
            what: exchangeWhat,
            reason: `its fields ${JSON.stringify(table.fields)} lack one of cik, name and ticker`
          })
        )
      }
      const companies: Array<ListedCompany> = []
      const warnings: Array<string> = []
      table.data.forEach((row, index) => {
        const rawCik = row[cikAt]
        const cik = typeof rawCik === "number" || typeof rawCik === "string" ? Ids.normalizeCik(rawCik) : undefined
        const ticker = text(row[tickerAt]).toUpperCase()
        const name = text(row[nameAt])
        if (cik === undefined || ticker === "" || name === "") {
          warnings.push(`row ${index} has no usable CIK, ticker and name: skipped`)
          return
        }
        const exchange = exchangeAt === -1 ? "" : text(row[exchangeAt])
        companies.push({ cik, ticker, name, ...(exchange === "" ? {} : { exchange }) })
      })
      return Either.right({ companies, warnings })
    })
  )
