/**
 * A second reading of an inline XBRL document's numeric facts, for checking the product's reader:
 * written from the Inline XBRL 1.1 specification (ix:nonFraction with its contextRef, unitRef,
 * decimals, scale, sign, format and xsi:nil; contexts and units in ix:resources) and the
 * Transformation Registry's number formats, on parse5's standard HTML tree, not on htmlparser2 or
 * any code of the product.
 */
import { parse } from "parse5"
import type { DefaultTreeAdapterMap } from "parse5"

type Node = DefaultTreeAdapterMap["node"]
type Element = DefaultTreeAdapterMap["element"]

/** A numeric fact as the specification defines it: concept, value (scale and sign applied), unit, period, dimensions. */
export interface SpecFact {
  readonly concept: string
  readonly value: number | null
  readonly unit: string
  readonly period: { readonly instant: string } | { readonly start: string; readonly end: string }
  readonly dimensions: Readonly<Record<string, string>>
}

const isElement = (node: Node): node is Element => "tagName" in node

const attributeOf = (element: Element, name: string): string | undefined =>
  element.attrs.find((attribute) => attribute.name === name.toLowerCase())?.value

/** Every element below `node`, in document order. */
const elementsOf = (node: Node): Array<Element> => {
  const found: Array<Element> = []
  const walk = (current: Node) => {
    if (isElement(current)) found.push(current)
    if ("childNodes" in current) { for (const child of current.childNodes) walk(child) }
    // A <template>'s children are in its content fragment.
    if (isElement(current) && current.tagName === "template") {
      walk((current as DefaultTreeAdapterMap["template"]).content)
    }
  }
  walk(node)
  return found
}

const textOf = (node: Node): string => {
  if (node.nodeName === "#text") return (node as DefaultTreeAdapterMap["textNode"]).value
  return "childNodes" in node ? node.childNodes.map(textOf).join("") : ""
}

const named = (element: Element, local: string): boolean => element.tagName.toLowerCase().endsWith(`:${local}`)
const childrenNamed = (element: Element, local: string) => elementsOf(element).filter((child) => named(child, local))
const withoutPrefix = (qname: string) => qname.trim().slice(qname.trim().indexOf(":") + 1)

/**
 * The Transformation Registry's number formats that SEC filings use, on the displayed text, as a
 * plain decimal string (the sign comes from the `sign` attribute); `undefined` for another format.
 */
const transform = (format: string | undefined, displayed: string): string | undefined => {
  const text = displayed.trim()
  switch (format === undefined ? "" : withoutPrefix(format).toLowerCase()) {
    case "":
    case "num-dot-decimal":
    case "numdotdecimal":
      // Registry 3/4: digits with comma (or space) grouping and a dot as the decimal separator.
      return /^[\d,\s\u00a0]*\.?\d*$/.test(text) && /\d/.test(text) ? text.replace(/[,\s\u00a0]/g, "") : undefined
    case "num-comma-decimal":
    case "numcommadecimal":
      return /\d/.test(text) ? text.replace(/[.\s\u00a0]/g, "").replace(",", ".") : undefined
    case "fixed-zero":
    case "zerodash":
      return "0"
    case "numwordsen": {
      // SEC's registry: "no", "none" and number words as their number.
      const words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
      const lower = text.toLowerCase()
      if (lower === "no" || lower === "none") return "0"
      const index = words.indexOf(lower)
      return index >= 0 ? String(index) : undefined
    }
    default:
      return undefined
  }
}

/** The contexts of the document by id: each one's period and dimensions. */
const contextsOf = (all: ReadonlyArray<Element>): Map<string, Pick<SpecFact, "period" | "dimensions">> => {
  const contexts = new Map<string, Pick<SpecFact, "period" | "dimensions">>()
  for (const context of all.filter((element) => named(element, "context"))) {
    const first = (local: string) => {
      const found = childrenNamed(context, local)[0]
      return found === undefined ? undefined : textOf(found).trim()
    }
    const instant = first("instant")
    const start = first("startdate")
    const end = first("enddate")
    const dimensions: Record<string, string> = {}
    for (const member of [...childrenNamed(context, "explicitmember"), ...childrenNamed(context, "typedmember")]) {
      dimensions[attributeOf(member, "dimension") ?? ""] = textOf(member).trim()
    }
    const period = instant !== undefined
      ? { instant }
      : start !== undefined && end !== undefined
      ? { start, end }
      : undefined
    if (period !== undefined) contexts.set(attributeOf(context, "id") ?? "", { period, dimensions })
  }
  return contexts
}

/** A text fact without a transformation: its concept, period, dimensions and content (Inline XBRL 1.1, 4.4 and 4.7). */
export interface SpecTextFact {
  readonly concept: string
  readonly period: SpecFact["period"]
  readonly dimensions: SpecFact["dimensions"]
  /** The text content: descendants' text but `ix:exclude`'s, then each `ix:continuation` of its `continuedAt` chain. */
  readonly text: string
}

/** An element's text content without the text of `ix:exclude` elements inside it. */
const contentOf = (node: Node): string => {
  if (node.nodeName === "#text") return (node as DefaultTreeAdapterMap["textNode"]).value
  if (isElement(node) && node.tagName.toLowerCase() === "ix:exclude") return ""
  return "childNodes" in node ? node.childNodes.map(contentOf).join(" ") : ""
}

/**
 * The text facts of an inline XBRL document that name no transformation (`format`): their values
 * are their content as the specification defines it, whitespace aside.
 */
export const readTextFactsBySpec = (html: string): Array<SpecTextFact> => {
  const all = elementsOf(parse(html))
  const contexts = contextsOf(all)
  const continuations = new Map<string, Element>()
  for (const element of all.filter((candidate) => candidate.tagName.toLowerCase() === "ix:continuation")) {
    continuations.set(attributeOf(element, "id") ?? "", element)
  }
  const facts: Array<SpecTextFact> = []
  for (const element of all.filter((candidate) => candidate.tagName.toLowerCase() === "ix:nonnumeric")) {
    const context = contexts.get(attributeOf(element, "contextRef") ?? "")
    if (context === undefined || attributeOf(element, "format") !== undefined) continue
    const parts = [contentOf(element)]
    const seen = new Set<string>()
    for (let next = attributeOf(element, "continuedAt"); next !== undefined && !seen.has(next);) {
      seen.add(next)
      const continuation = continuations.get(next)
      if (continuation === undefined) break
      parts.push(contentOf(continuation))
      next = attributeOf(continuation, "continuedAt")
    }
    facts.push({ concept: attributeOf(element, "name") ?? "", ...context, text: parts.join(" ") })
  }
  return facts
}

/** The numeric facts of an inline XBRL document, with the formats `transform` does not know counted apart. */
export const readNumericFactsBySpec = (html: string): { facts: Array<SpecFact>; unknownFormats: Set<string> } => {
  const all = elementsOf(parse(html))
  const contexts = contextsOf(all)
  const units = new Map<string, string>()
  for (const unit of all.filter((element) => named(element, "unit"))) {
    const measures = (within: Element | undefined) =>
      within === undefined ? [] : childrenNamed(within, "measure").map((measure) => withoutPrefix(textOf(measure)))
    const numerator = childrenNamed(unit, "unitnumerator")[0]
    const denominator = childrenNamed(unit, "unitdenominator")[0]
    units.set(
      attributeOf(unit, "id") ?? "",
      numerator !== undefined
        ? `${measures(numerator).join("*")}/${measures(denominator).join("*")}`
        : measures(unit).join("*")
    )
  }
  const facts: Array<SpecFact> = []
  const unknownFormats = new Set<string>()
  for (const element of all.filter((candidate) => candidate.tagName.toLowerCase() === "ix:nonfraction")) {
    const context = contexts.get(attributeOf(element, "contextRef") ?? "")
    const unit = units.get(attributeOf(element, "unitRef") ?? "")
    if (context === undefined || unit === undefined) continue
    const concept = attributeOf(element, "name") ?? ""
    if (attributeOf(element, "xsi:nil") === "true") {
      facts.push({ concept, value: null, unit, ...context })
      continue
    }
    const format = attributeOf(element, "format")
    const digits = transform(format, textOf(element))
    if (digits === undefined) {
      unknownFormats.add(`${format ?? "(none)"}: ${textOf(element).trim().slice(0, 20)}`)
      continue
    }
    const scale = Number(attributeOf(element, "scale") ?? "0")
    // value = displayed number × 10^scale, negated when sign="-" (Inline XBRL 1.1, 4.6.7).
    const magnitude = Number(`${digits}e${scale}`)
    const value = attributeOf(element, "sign") === "-" && magnitude !== 0 ? -magnitude : magnitude
    facts.push({ concept, value, unit, ...context })
  }
  return { facts, unknownFormats }
}

/** The ids of the facts inside `ix:hidden` (Inline XBRL 1.1, 4.5): tagged, but not shown in the document. */
export const hiddenFactIds = (html: string): Set<string> => {
  const hidden = elementsOf(parse(html)).filter((element) => element.tagName.toLowerCase() === "ix:hidden")
  return new Set(
    hidden.flatMap((element) => elementsOf(element)).map((element) => attributeOf(element, "id")).filter((id) =>
      id !== undefined
    )
  )
}
