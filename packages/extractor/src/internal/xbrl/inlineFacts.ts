/**
 * Facts of an inline XBRL document (an iXBRL 10-K or 10-Q): `ix:nonFraction` with its scale, sign
 * and ixt format, `ix:nonNumeric` for the dei cover facts, and the contexts and units of the hidden
 * `ix:header`, read in one htmlparser2 pass.
 */
import { type FactSet, readFacts } from "./facts.js"

export const readInlineFacts = (html: string): FactSet => readFacts(html, "inline")
