// The cover-page facts an inline XBRL filing tags in the `dei:` namespace (form, company, central
// index key, ticker, period end, fiscal period), read from the raw HTML, where they sit inside the
// hidden `ix:header` that the Markdown leaves out. A regular expression finds where each `dei:`
// fact opens; the XBRL reader reads it from there, so the whole document is never tokenized twice.
import { Dates } from "@filings/domain"
import { Schema } from "effect"
import type { CoverFacts } from "../ParsedDocument.js"
import { factAt } from "../XbrlFacts.js"

/**
 * The first value of each `dei:` fact, in one pass over the document, and every value of the facts
 * a cover repeats once per class of securities (`dei:TradingSymbol`: GOOGL, then GOOG), in order.
 */
const deiFacts = (
  html: string
): { readonly first: Map<string, string>; readonly repeated: Map<string, Array<string>> } => {
  const first = new Map<string, string>()
  const repeated = new Map<string, Array<string>>()
  const open = /<ix:nonNumeric\b[^>]*\bname\s*=\s*["']dei:(\w+)["'][^>]*>/gi
  for (let match = open.exec(html); match !== null; match = open.exec(html)) {
    const name = match[1]!
    const isRepeated = perClass.has(name)
    if (first.has(name) && !isRepeated) continue
    const fact = factAt(html, match.index)
    if (fact === undefined || !("text" in fact) || fact.text === "") continue
    const value = fact.text
    if (!first.has(name)) first.set(name, value)
    if (isRepeated) {
      const values = repeated.get(name) ?? []
      if (!values.includes(value)) values.push(value)
      repeated.set(name, values)
    }
  }
  return { first, repeated }
}

const months = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december"
]

const monthNumber = (name: string): number | undefined => {
  const index = months.findIndex((month) => month.startsWith(name.toLowerCase().slice(0, 3)))
  return index === -1 ? undefined : index + 1
}

const isoDate = (year: string, month: number | string | undefined, day: string): string | undefined => {
  if (month === undefined) return undefined
  const candidate = `${year}-${String(month).padStart(2, "0")}-${day.padStart(2, "0")}`
  return Schema.is(Dates.IsoDate)(candidate) ? candidate : undefined
}

/** "September 28, 2024", "28 September 2024" or "2024-09-28" as `2024-09-28`. */
export const toIsoDate = (text: string): string | undefined => {
  const trimmed = text.trim()
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(trimmed)
  if (iso !== null) return isoDate(iso[1]!, iso[2], iso[3]!)
  const monthFirst = /^([A-Za-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})$/.exec(trimmed)
  if (monthFirst !== null) return isoDate(monthFirst[3]!, monthNumber(monthFirst[1]!), monthFirst[2]!)
  const dayFirst = /^(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/.exec(trimmed)
  if (dayFirst !== null) return isoDate(dayFirst[3]!, monthNumber(dayFirst[2]!), dayFirst[1]!)
  return undefined
}

/** The `dei:` facts a cover gives once per class of securities, all of whose values are kept. */
const perClass = new Set(["TradingSymbol"])

const facts = {
  documentType: "DocumentType",
  registrantName: "EntityRegistrantName",
  centralIndexKey: "EntityCentralIndexKey",
  tradingSymbol: "TradingSymbol",
  periodEndDate: "DocumentPeriodEndDate",
  fiscalYearFocus: "DocumentFiscalYearFocus",
  fiscalPeriodFocus: "DocumentFiscalPeriodFocus"
} as const

/** The cover facts of an inline XBRL document; none at all (undefined) for other HTML. */
export const readCoverFacts = (html: string): CoverFacts | undefined => {
  // Inline XBRL says so in its root element's namespaces; most HTML can be passed over at once.
  if (!/xmlns:ix\s*=|<ix:/i.test(html.slice(0, 20_000))) return undefined
  const dei = deiFacts(html)
  const found: Record<string, string> = {}
  for (const [field, name] of Object.entries(facts)) {
    const value = dei.first.get(name)
    if (value !== undefined) found[field] = field === "periodEndDate" ? (toIsoDate(value) ?? value) : value
  }
  const tradingSymbols = dei.repeated.get("TradingSymbol")
  if (Object.keys(found).length === 0) return undefined
  return tradingSymbols === undefined ? found : { ...found, tradingSymbols }
}
