/**
 * Daily closes from a CSV file the operator keeps (`FILINGS_MARKET_DATA_CSV`): for deployments without
 * a quote provider, for history, and for tests. The file is read once at start-up and held in memory,
 * indexed by ticker; a changed file takes effect at the next start.
 *
 * The first line names the columns, in any order and any case: `ticker`, `date` (YYYY-MM-DD) and
 * `close` are required; others (`adj_close`, `volume`, ...) are ignored: the move of one session is
 * read from the closes as traded. Fields may be quoted. A row that cannot be read (a bad ticker, date
 * or close, a second close for the same day) is skipped and reported in one warning, so one bad line
 * costs one day, not the whole file; a file that cannot be read or has no usable header stops the
 * start, since the operator asked for it.
 */
import { FileSystem } from "@effect/platform"
import type { PlatformError } from "@effect/platform/Error"
import { Dates, Ids } from "@filings/domain"
import { ConfigError, Effect, Either, Layer, Option, Schema } from "effect"
import { fieldsOf } from "../CsvLine.js"
import { type DailyClose, MarketData, type Service } from "./MarketData.js"

/** A row skipped, with its 1-based line number in the file. */
export interface BadRow {
  readonly line: number
  readonly reason: string
}

export interface ParsedCloses {
  /** Per upper-case ticker, its closes in date order. */
  readonly closes: ReadonlyMap<string, ReadonlyArray<DailyClose>>
  readonly badRows: ReadonlyArray<BadRow>
}

/** The bad rows a warning lists by line; the count covers them all. */
const listedBadRows = 5

const decodeTicker = Schema.decodeUnknownOption(Ids.Ticker)
const isDate = Schema.is(Dates.IsoDate)
const decimalPattern = /^(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i

/** One data row as a ticker's close of a day, or why it cannot be one. */
const readRow = (
  fields: ReadonlyArray<string>,
  column: { readonly ticker: number; readonly date: number; readonly close: number }
): Either.Either<{ readonly ticker: string; readonly date: string; readonly close: number }, string> => {
  const tickerText = fields[column.ticker] ?? ""
  const date = fields[column.date] ?? ""
  const closeText = fields[column.close] ?? ""
  const ticker = decodeTicker(tickerText)
  if (Option.isNone(ticker)) return Either.left(`${JSON.stringify(tickerText)} is not a ticker`)
  if (!isDate(date)) return Either.left(`${JSON.stringify(date)} is not a date YYYY-MM-DD`)
  const close = decimalPattern.test(closeText) ? Number(closeText) : Number.NaN
  if (!(Number.isFinite(close) && close > 0)) return Either.left(`${JSON.stringify(closeText)} is not a positive price`)
  return Either.right({ ticker: ticker.value, date, close })
}

/**
 * Reads the text of a closes file: the closes by ticker and the rows skipped, or why the file is
 * unusable as a whole (no header, a required column missing).
 */
export const parse = (text: string): Either.Either<ParsedCloses, string> => {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/)
  const headerIndex = lines.findIndex((line) => line.trim() !== "")
  if (headerIndex === -1) {
    return Either.left("the file is empty; its first line must name the columns ticker,date,close")
  }
  const header = fieldsOf(lines[headerIndex]!).map((name) => name.toLowerCase())
  const column = { ticker: header.indexOf("ticker"), date: header.indexOf("date"), close: header.indexOf("close") }
  const missing = Object.entries(column).filter(([, index]) => index === -1).map(([name]) => name)
  if (missing.length > 0) {
    return Either.left(
      `the first line must name the columns ticker, date and close; ${missing.join(", ")} missing in "${
        lines[headerIndex]!.trim()
      }"`
    )
  }

  const byTicker = new Map<string, Map<string, number>>()
  const badRows: Array<BadRow> = []
  for (let index = headerIndex + 1; index < lines.length; index++) {
    const raw = lines[index]!
    if (raw.trim() === "") continue
    const line = index + 1
    const row = readRow(fieldsOf(raw), column)
    if (Either.isLeft(row)) {
      badRows.push({ line, reason: row.left })
      continue
    }
    const { close, date, ticker } = row.right
    const days = byTicker.get(ticker) ?? new Map<string, number>()
    // Two closes for one day cannot both be right; the first one read is kept.
    if (days.has(date)) {
      badRows.push({ line, reason: `a second close for ${ticker} on ${date}` })
      continue
    }
    days.set(date, close)
    byTicker.set(ticker, days)
  }

  const closes = new Map<string, ReadonlyArray<DailyClose>>()
  for (const [ticker, days] of byTicker) {
    closes.set(
      ticker,
      [...days].map(([date, close]) => ({ date, close })).sort((a, b) => (a.date < b.date ? -1 : 1))
    )
  }
  return Either.right({ closes, badRows })
}

/** The port answered from closes already in memory. */
const serviceOf = (closes: ReadonlyMap<string, ReadonlyArray<DailyClose>>): Service =>
  MarketData.of({
    dailyCloses: (ticker, fromDate, toDate) =>
      Effect.succeed(
        (closes.get(ticker.trim().toUpperCase()) ?? []).filter((close) =>
          close.date >= fromDate && close.date <= toDate
        )
      )
  })

const unreadable = (path: string, error: PlatformError): string => {
  const why = error._tag !== "SystemError"
    ? error.message
    : error.reason === "NotFound"
    ? "no such file"
    : error.reason === "PermissionDenied"
    ? "permission denied"
    : error.message
  return `cannot read the market-data file ${path}: ${why}`
}

/**
 * Reads and indexes the file at `path` once. A file that cannot be used fails start-up with a
 * `ConfigError` saying why, to which the caller adds where the path came from.
 */
export const make = (path: string): Effect.Effect<Service, ConfigError.ConfigError, FileSystem.FileSystem> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const text = yield* fs.readFileString(path).pipe(
      Effect.mapError((error) => ConfigError.InvalidData([], unreadable(path, error)))
    )
    const parsed = parse(text)
    if (Either.isLeft(parsed)) {
      return yield* Effect.fail(ConfigError.InvalidData([], `market-data file ${path}: ${parsed.left}`))
    }
    const { badRows, closes } = parsed.right
    if (badRows.length > 0) {
      const listed = badRows.slice(0, listedBadRows).map((row) => `line ${row.line}: ${row.reason}`).join("; ")
      const more = badRows.length > listedBadRows ? "; ..." : ""
      const rows = badRows.length === 1 ? "1 bad row" : `${badRows.length} bad rows`
      yield* Effect.logWarning(`market-data file ${path}: ${rows} skipped (${listed}${more})`)
    }
    const count = [...closes.values()].reduce((sum, days) => sum + days.length, 0)
    yield* Effect.logInfo(`market data from ${path}: ${count} daily closes of ${closes.size} tickers`)
    return serviceOf(closes)
  })

/** The port on the closes file at `path`. */
export const layer = (path: string): Layer.Layer<MarketData, ConfigError.ConfigError, FileSystem.FileSystem> =>
  Layer.effect(MarketData, make(path))
