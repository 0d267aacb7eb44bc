/**
 * The XBRL facts the development set asks about: a filing's own figures for the period it reports,
 * read from the regulator's company facts (`*-companyfacts.json`, by accession number), from an
 * XBRL instance, or from the inline XBRL of the filing itself. Only facts without dimensions (the
 * company as a whole, not a segment), of the concepts `concepts.ts` knows how analysts name.
 */
import { readFileSync } from "node:fs"

/** One figure of a filing: a concept's value for a period (a duration, or an instant). */
export interface Fact {
  readonly concept: string
  /** The value in its unit (US dollars, shares, dollars per share), unscaled. */
  readonly value: number
  /** The period's first day, for a duration. */
  readonly start?: string | undefined
  /** The period's last day, or the instant. */
  readonly end: string
  /** The figure as the document prints it, when the fact was read from the document (inline XBRL). */
  readonly printed?: string | undefined
}

/** Days between two ISO dates. */
export const daysBetween = (start: string, end: string): number =>
  Math.round((Date.parse(end) - Date.parse(start)) / 86_400_000)

interface CompanyFactsFile {
  readonly facts: Record<
    string,
    Record<string, {
      readonly units: Record<
        string,
        ReadonlyArray<{ start?: string; end: string; val: number; accn: string; form: string }>
      >
    }>
  >
}

/** The us-gaap facts a filing reported, by its accession number, from the regulator's company facts. */
export const fromCompanyFacts = (path: string, accession: string): Array<Fact> => {
  const file = JSON.parse(readFileSync(path, "utf8")) as CompanyFactsFile
  const facts: Array<Fact> = []
  for (const [concept, entry] of Object.entries(file.facts["us-gaap"] ?? {})) {
    for (const values of Object.values(entry.units)) {
      for (const value of values) {
        if (value.accn !== accession) continue
        facts.push({ concept, value: value.val, start: value.start, end: value.end })
      }
    }
  }
  return facts
}

interface Context {
  readonly start?: string | undefined
  readonly end: string
  readonly dimensional: boolean
}

const contextPattern = /<(?:xbrli:)?context\b[^>]*\bid="([^"]+)"[^>]*>([\s\S]*?)<\/(?:xbrli:)?context>/g

/** The contexts of an XBRL instance or inline XBRL document, by id. */
const contextsOf = (text: string): Map<string, Context> => {
  const contexts = new Map<string, Context>()
  for (const [, id, body] of text.matchAll(contextPattern)) {
    const instant = /<(?:xbrli:)?instant>\s*([\d-]+)/.exec(body!)?.[1]
    const start = /<(?:xbrli:)?startDate>\s*([\d-]+)/.exec(body!)?.[1]
    const end = /<(?:xbrli:)?endDate>\s*([\d-]+)/.exec(body!)?.[1]
    const dimensional = /segment|scenario/i.test(body!)
    if (instant !== undefined) contexts.set(id!, { end: instant, dimensional })
    else if (end !== undefined) contexts.set(id!, { start, end, dimensional })
  }
  return contexts
}

const attribute = (attributes: string, name: string): string | undefined =>
  new RegExp(`\\b${name}="([^"]*)"`).exec(attributes)?.[1]

/** The company-wide us-gaap facts of an XBRL instance. */
export const fromInstance = (path: string): Array<Fact> => {
  const text = readFileSync(path, "utf8")
  const contexts = contextsOf(text)
  const facts: Array<Fact> = []
  for (const [, concept, attributes, value] of text.matchAll(/<us-gaap:(\w+)\s([^>]*)>([^<]*)<\/us-gaap:\1>/g)) {
    const context = contexts.get(attribute(attributes!, "contextRef") ?? "")
    const number = Number(value!.trim())
    if (context === undefined || context.dimensional || !Number.isFinite(number) || value!.trim() === "") continue
    facts.push({ concept: concept!, value: number, start: context.start, end: context.end })
  }
  return facts
}

/** The company-wide us-gaap facts an inline XBRL document tags, each with the figure as printed. */
export const fromInlineXbrl = (path: string): Array<Fact> => {
  const text = readFileSync(path, "utf8")
  const contexts = contextsOf(text)
  const facts: Array<Fact> = []
  const pattern = /<ix:nonFraction\b([^>]*)>([\s\S]*?)<\/ix:nonFraction>/g
  for (const [, attributes, inner] of text.matchAll(pattern)) {
    const name = attribute(attributes!, "name") ?? ""
    if (!name.startsWith("us-gaap:")) continue
    const context = contexts.get(attribute(attributes!, "contextRef") ?? "")
    const printed = inner!.replace(/<[^>]*>/g, "").trim()
    const magnitude = Number(printed.replace(/,/g, ""))
    if (context === undefined || context.dimensional || printed === "" || !Number.isFinite(magnitude)) continue
    const scale = Number(attribute(attributes!, "scale") ?? "0")
    const sign = attribute(attributes!, "sign") === "-" ? -1 : 1
    facts.push({
      concept: name.slice("us-gaap:".length),
      value: sign * magnitude * 10 ** scale,
      start: context.start,
      end: context.end,
      printed
    })
  }
  return facts
}
