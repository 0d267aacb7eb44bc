/**
 * The companies a news item names the way newswires do: the exchange and the ticker in
 * parentheses after the company's name, `Apple Inc. (NASDAQ: AAPL)`, `(NYSE: BRK.B, TSX: XYZ)`.
 * Only United States exchanges count, since a ticker of another exchange may be another company's
 * symbol here.
 */

// Longest names first, so `NYSE American` is not read as `NYSE` followed by noise.
const usExchanges = [
  "Nasdaq Global Select Market",
  "Nasdaq Global Market",
  "Nasdaq Capital Market",
  "NYSE American",
  "NYSE Arca",
  "NYSE MKT",
  "NasdaqGS",
  "NasdaqGM",
  "NasdaqCM",
  "Nasdaq GS",
  "Nasdaq GM",
  "Nasdaq CM",
  "Cboe BZX",
  "OTC Pink",
  "OTCQX",
  "OTCQB",
  "Nasdaq",
  "NYSE",
  "AMEX",
  "OTC"
]

const escapeForPattern = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+")

/** `NASDAQ: AAPL` within a parenthesis' text: the exchange (any case), a colon, and the symbol. */
const listing = new RegExp(
  `(?:^|[(,;]\\s*)(?:${
    usExchanges.map(escapeForPattern).join("|")
  })\\s*:\\s*([A-Z][A-Z0-9]{0,5}(?:[.-][A-Z]{1,2})?)(?=\\s*(?:[,;]|$))`,
  "gi"
)

/** A parenthesis that may hold listings: short, no nested parentheses. */
const parenthesized = /\(([^()]{3,120})\)/g

/**
 * The tickers `text` names in exchange listings, in the order they first appear, each once,
 * upper-cased as the regulator lists them.
 */
export const tickersNamedIn = (text: string): ReadonlyArray<string> => {
  const found: Array<string> = []
  for (const group of text.matchAll(parenthesized)) {
    for (const match of group[1]!.matchAll(listing)) {
      const symbol = match[1]!
      // The exchange's name may be in any case, the symbol not: `(Nasdaq: buy)` is no listing.
      if (symbol !== symbol.toUpperCase()) continue
      if (!found.includes(symbol)) found.push(symbol)
    }
  }
  return found
}
