/** Tickers for synthetic companies. */
import type { Ids } from "@filings/domain"

const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

/** A distinct ticker of letters for each index, as short as can be: A to Z, then AA (bijective base 26). */
export const letterTicker = (index: number): Ids.Ticker => {
  let n = index + 1
  let ticker = ""
  while (n > 0) {
    n -= 1
    ticker = letters[n % 26] + ticker
    n = Math.floor(n / 26)
  }
  return ticker as Ids.Ticker
}
