/**
 * Facts of an inline XBRL document (an iXBRL 10-K or 10-Q): `ix:nonFraction` with its scale, sign
 * and ixt format, `ix:nonNumeric` for the dei cover facts, and the contexts and units of the hidden
 * `ix:header`, read by the parser's XBRL reader in one pass.
 */
import { type FactSet, readFacts } from "@filings/filings-parser/XbrlFacts"

// The metrics read numbers and the cover's short text facts: the notes' continued text is not read.
export const readInlineFacts = (html: string): FactSet => readFacts(html, "inline", { continuations: false })
