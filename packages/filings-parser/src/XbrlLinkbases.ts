/**
 * What a filing's XBRL linkbases say of its concepts: the labels the company gave them (the label
 * linkbase, `EX-101.LAB` of a full submission, `*_lab.xml` of an XBRL set). Read in one SAX pass,
 * as `XbrlFacts` reads facts: locators name concepts, label resources hold the text, and arcs join
 * the two.
 *
 * @example
 * ```ts
 * import { XbrlLinkbases } from "@filings/filings-parser"
 *
 * const labels = XbrlLinkbases.readLabels(labelLinkbaseXml)
 * XbrlLinkbases.labelOf(labels, "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax") // "Net sales"
 * ```
 *
 * @module
 */
import { Parser } from "htmlparser2"
import { collapseSpaces } from "./internal/characters.js"

/** The label roles of XBRL 2.1 a reader meets most, by their short names. */
export const labelRoles = {
  label: "http://www.xbrl.org/2003/role/label",
  terseLabel: "http://www.xbrl.org/2003/role/terseLabel",
  verboseLabel: "http://www.xbrl.org/2003/role/verboseLabel",
  totalLabel: "http://www.xbrl.org/2003/role/totalLabel",
  periodStartLabel: "http://www.xbrl.org/2003/role/periodStartLabel",
  periodEndLabel: "http://www.xbrl.org/2003/role/periodEndLabel",
  documentation: "http://www.xbrl.org/2003/role/documentation"
} as const

/** Each concept's labels by role (the role's URI), as the linkbase gives them. */
export type Labels = ReadonlyMap<string, ReadonlyMap<string, string>>

/**
 * The concept a locator points at, from its `href` fragment: `...us-gaap-2023.xsd#us-gaap_Revenues`
 * is `us-gaap:Revenues`. The fragment is the concept's element id, which the taxonomies and filers
 * write as the prefix, `_`, then the name.
 */
export const conceptOfHref = (href: string): string | undefined => {
  const fragment = href.slice(href.indexOf("#") + 1)
  const separator = fragment.indexOf("_")
  if (href.indexOf("#") === -1 || separator <= 0 || separator === fragment.length - 1) return undefined
  return `${fragment.slice(0, separator)}:${fragment.slice(separator + 1)}`
}

/**
 * Every concept's labels in a label linkbase. A label in another language than English is kept only
 * where the concept has no English one of the same role.
 */
export const readLabels = (xml: string): Labels => {
  // xlink:label of a locator → concept; of a label resource → its role, language and text.
  const locators = new Map<string, string>()
  const resources = new Map<
    string,
    Array<{ readonly role: string; readonly english: boolean; readonly text: string }>
  >()
  const arcs: Array<{ readonly from: string; readonly to: string }> = []
  let open: { key: string; role: string; english: boolean; text: string } | undefined

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const local = name.slice(name.indexOf(":") + 1)
        if (local === "loc") {
          const concept = conceptOfHref(attributes["xlink:href"] ?? "")
          const key = attributes["xlink:label"]
          if (concept !== undefined && key !== undefined) locators.set(key, concept)
        } else if (local === "label" && attributes["xlink:label"] !== undefined) {
          const lang = (attributes["xml:lang"] ?? "en").toLowerCase()
          open = {
            key: attributes["xlink:label"],
            role: attributes["xlink:role"] ?? labelRoles.label,
            english: lang === "en" || lang.startsWith("en-"),
            text: ""
          }
        } else if (local === "labelArc") {
          const from = attributes["xlink:from"]
          const to = attributes["xlink:to"]
          if (from !== undefined && to !== undefined) arcs.push({ from, to })
        }
      },
      ontext(text) {
        if (open !== undefined) open.text += text
      },
      onclosetag(name) {
        if (open === undefined || name.slice(name.indexOf(":") + 1) !== "label") return
        const list = resources.get(open.key) ?? []
        list.push({ role: open.role, english: open.english, text: collapseSpaces(open.text) })
        resources.set(open.key, list)
        open = undefined
      }
    },
    { xmlMode: true, decodeEntities: true }
  )
  parser.end(xml)

  const labels = new Map<string, Map<string, string>>()
  const english = new Map<string, Set<string>>()
  for (const { from, to } of arcs) {
    const concept = locators.get(from)
    const found = resources.get(to)
    if (concept === undefined || found === undefined) continue
    const byRole = labels.get(concept) ?? new Map<string, string>()
    const rolesInEnglish = english.get(concept) ?? new Set<string>()
    for (const { english: isEnglish, role, text } of found) {
      if (text === "" || rolesInEnglish.has(role)) continue
      if (isEnglish) rolesInEnglish.add(role)
      if (isEnglish || !byRole.has(role)) byRole.set(role, text)
    }
    labels.set(concept, byRole)
    english.set(concept, rolesInEnglish)
  }
  return labels
}

/**
 * A readable form of a concept's name, for a filing without a label linkbase:
 * `us-gaap:AccountsPayableCurrent` is "Accounts payable current", `us-gaap:EarningsPerShareBasic`
 * "Earnings per share basic"; a run of capitals stays one word (`NetIncomeLossAvailableToCommonStockholdersBasic`,
 * `IncreaseDecreaseInAccountsReceivable`, `ProceedsFromIssuanceOfIPO` → "... of IPO").
 */
export const readableName = (concept: string): string => {
  const name = concept.slice(concept.indexOf(":") + 1)
  const words = name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? [name]
  return words
    .map((word, index) => (index === 0 || /^[A-Z]{2,}$/.test(word) ? word : word.toLowerCase()))
    .join(" ")
}

// The labels a company writes for its own statements come first: the terse label is the line's
// wording ("Net sales"), the standard label often the taxonomy's ("Revenue from Contract with
// Customer, Excluding Assessed Tax").
const shownFirst = [labelRoles.terseLabel, labelRoles.label, labelRoles.verboseLabel, labelRoles.totalLabel]

/**
 * The label to show for a concept: the given role's when it has one, else its terse label, its
 * standard label, its verbose or total label, any other but documentation, else the readable form
 * of its name.
 */
export const labelOf = (labels: Labels, concept: string, role?: string): string => {
  const byRole = labels.get(concept)
  if (byRole === undefined) return readableName(concept)
  for (const wanted of role === undefined ? shownFirst : [role, ...shownFirst]) {
    const found = byRole.get(wanted)
    if (found !== undefined) return found
  }
  return [...byRole.entries()].find(([key]) => key !== labelRoles.documentation)?.[1] ?? readableName(concept)
}
