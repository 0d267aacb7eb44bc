/**
 * The vocabulary of financial reporting a search query may use for what a filing words otherwise:
 * an analyst asks for `capex` or `COGS`, a 10-K prints "Purchases of property, plant and equipment"
 * or "Cost of sales". Each group lists ways of writing one thing; a query that writes one of them
 * also finds the others (see `SearchText.parseQuery`). The groups are the field's common usage,
 * not any one company's wording.
 *
 * @module
 */

/** Ways of writing one thing, as a query or a filing may. */
export type SynonymGroup = ReadonlyArray<string>

/** Every group; a phrase may be in several. */
export const synonymGroups: ReadonlyArray<SynonymGroup> = [
  [
    "capex",
    "capital expenditures",
    "capital spending",
    "purchases of property plant and equipment",
    "payments for acquisition of property plant and equipment",
    "additions to property and equipment"
  ],
  ["cogs", "cost of goods sold", "cost of sales", "cost of revenue"],
  ["pp&e", "property plant and equipment", "property and equipment"],
  ["eps", "earnings per share", "net income per share"],
  ["r&d", "research and development"],
  ["sg&a", "selling general and administrative"],
  ["d&a", "depreciation and amortization"],
  ["revenue", "net sales", "net revenues", "total revenues"],
  ["net income", "net earnings", "net profit"],
  ["operating income", "income from operations", "operating profit"],
  ["ebit", "operating income"],
  ["buyback", "buybacks", "share repurchases", "stock repurchases", "repurchases of common stock"],
  ["free cash flow", "fcf"],
  ["operating cash flow", "cash flow from operations", "net cash provided by operating activities"],
  ["share count", "shares outstanding", "weighted average shares"],
  ["stock based compensation", "share based compensation", "stock compensation", "sbc"],
  ["accounts receivable", "trade receivables", "receivables"],
  ["accounts payable", "trade payables"],
  ["long term debt", "term debt", "notes payable", "borrowings"],
  ["gross margin", "gross profit"],
  ["accumulated deficit", "retained earnings"],
  ["headcount", "employees"],
  ["guidance", "outlook"],
  ["m&a", "mergers and acquisitions"],
  ["yoy", "year over year"],
  ["effective tax rate", "income tax rate"],
  ["cash and equivalents", "cash and cash equivalents"],
  ["ppe", "property plant and equipment"]
]
