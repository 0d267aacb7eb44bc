/**
 * Facts of a standalone XBRL instance document (filings before inline XBRL, around 2019), in the same
 * model as the inline reader: every child of the root with a `contextRef` is a fact.
 */
import { type FactSet, readFacts } from "@filings/filings-parser/XbrlFacts"

export const readInstanceFacts = (xml: string): FactSet => readFacts(xml, "instance")
