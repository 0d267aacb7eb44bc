// The XBRL fact reader as htmlparser2 callbacks, so that any parse can feed it: `XbrlFacts.readFacts`
// runs a parse of its own, and the HTML reader feeds it from the document's own parse, so that a
// filing's inline XBRL is read in the same pass as its text.
import { decodeHTML, decodeHTMLAttribute } from "entities"
import { collapseSpaces } from "../characters.js"
import { blockTags } from "../html/blockTags.js"
import { numberOfWords } from "../textFormats.js"
import type { FactSet, NumericFact, TextFact, XbrlContext, XbrlUnit } from "./factSet.js"

const localName = (qname: string): string => qname.slice(qname.indexOf(":") + 1)

/** `iso4217:USD` → `USD`, `xbrli:shares` → `shares`. */
const measureName = (measure: string): string => localName(measure.trim())

/**
 * Normalises a displayed number by an ixt transform into a plain decimal string (`-` never included:
 * the sign comes from the `sign` attribute), or `undefined` when the transform is unknown or the text
 * does not fit it.
 */
export const applyNumberFormat = (format: string | undefined, text: string): string | undefined => {
  const trimmed = text.trim()
  const name = format === undefined ? "" : localName(format).toLowerCase()
  switch (name) {
    case "zerodash":
    case "fixed-zero":
    case "numdash":
      return "0"
    case "numwordsen": {
      const count = numberOfWords(trimmed)
      return count === undefined ? undefined : String(count)
    }
    case "":
    case "num-dot-decimal":
    case "numdotdecimal":
    case "numcommadot": {
      if (name === "" && /^[-–—]$/.test(trimmed)) return undefined
      const digits = trimmed.replace(/[,\s\u00a0]/g, "")
      return /^\d*\.?\d+$|^\d+\.$/.test(digits) ? digits : undefined
    }
    case "num-comma-decimal":
    case "numcommadecimal":
    case "numdotcomma":
    case "numspacecomma": {
      const digits = trimmed.replace(/[.\s\u00a0]/g, "").replace(",", ".")
      return /^\d*\.?\d+$|^\d+\.$/.test(digits) ? digits : undefined
    }
    default:
      return undefined
  }
}

const parseDecimals = (decimals: string | undefined): number | undefined => {
  if (decimals === undefined) return undefined
  if (decimals.trim().toUpperCase() === "INF") return Infinity
  const parsed = Number.parseInt(decimals, 10)
  return Number.isNaN(parsed) ? undefined : parsed
}

/** How the reader finds facts: inline (`ix:nonFraction`, `ix:nonNumeric`) or instance (any element with a contextRef). */
export type ReaderMode = "inline" | "instance"

interface OpenFact {
  readonly kind: "numeric" | "text"
  readonly attributes: Record<string, string>
  readonly concept: string
  readonly depth: number
  text: string
  /** A block element began or ended since the last text: the next text is a word apart. */
  apart: boolean
}

const attributeOf = (attributes: Record<string, string>, name: string): string | undefined => {
  const direct = attributes[name]
  if (direct !== undefined) return direct
  // A parse that lower-cases attribute names (the HTML reader's) gives them as `contextref`.
  const lower = name.toLowerCase()
  const lowered = attributes[lower]
  if (lowered !== undefined) return lowered
  for (const key in attributes) if (key.toLowerCase() === lower) return attributes[key]
  return undefined
}

/** Where the words of a text fact are apart: a block element's start or end, or a line break. */
const isBlockBoundary = (name: string): boolean => name === "br" || blockTags.has(name)

/** Thrown by the fast inline pass on text inside a raw-text element, which htmlparser2 decodes its own way. */
export const undecided = Symbol("undecided")

const specialTags = new Set([
  "script",
  "style",
  "title",
  "textarea",
  "xmp",
  "iframe",
  "noembed",
  "noframes",
  "plaintext"
])

/** How a reader reads: whether entities are still to decode, one fact or all, continuations followed. */
export interface FactReaderOptions {
  /** Whether the parse feeding the reader decodes entities itself (else the reader decodes what it keeps). */
  readonly decodeEntities: boolean
  /** Whether to stop at the end of the first fact (`factAt`). */
  readonly firstFactOnly: boolean
  /** Whether a text fact's `ix:continuation`s are appended to its text. */
  readonly continuations: boolean
}

/** An htmlparser2 parse's events, as the reader takes them. */
export interface FactHandler {
  readonly onopentag: (name: string, attributes: Record<string, string>) => void
  readonly ontext: (text: string) => void
  readonly onclosetag: (name: string, isImplied: boolean) => void
}

/** The callbacks to feed a parse's events to, and the facts read once the parse has ended. */
export interface FactReader {
  readonly handler: FactHandler
  readonly finish: () => FactSet
}

/** Whether an HTML document holds inline XBRL. */
export const holdsInlineXbrl = (html: string): boolean => /<ix:(?:header|nonFraction|nonNumeric)\b/i.test(html)

export const factReader = (
  mode: ReaderMode,
  { continuations: followContinuations, decodeEntities, firstFactOnly }: FactReaderOptions,
  onFirstFact: () => void = () => {}
): FactReader => {
  const contexts = new Map<string, XbrlContext>()
  const units = new Map<string, XbrlUnit>()
  const numericFacts: Array<NumericFact> = []
  const textFacts: Array<TextFact> = []
  const warnings: Array<string> = []

  let depth = 0
  const openFacts: Array<OpenFact> = []
  // The text of each `ix:continuation` by its id, with the id it continues at in turn.
  const continuations = new Map<string, { readonly text: string; readonly next: string | undefined }>()
  const openContinuations: Array<
    { readonly id: string; readonly next: string | undefined; readonly depth: number; text: string; apart: boolean }
  > = []
  // Text facts that continue elsewhere: their index in `textFacts`, and where they continue.
  const continued: Array<{ readonly index: number; readonly at: string }> = []
  // The depth of the `ix:exclude` being read, whose text belongs to no fact; -1 outside one.
  let excludeDepth = -1
  // Where a block element begins or ends, the words on either side are apart.
  const separateOpenText = () => {
    for (const open of openFacts) if (open.kind === "text") open.apart = true
    for (const open of openContinuations) open.apart = true
  }
  const append = (open: { text: string; apart: boolean }, text: string) => {
    if (open.apart) {
      open.text += ` ${text}`
      open.apart = false
    } else {
      open.text += text
    }
  }
  // Context and unit being read.
  let context:
    | { id: string; entity?: string; startDate?: string; endDate?: string; instant?: string; dimensions: Array<string> }
    | undefined
  let unit: { id: string; numerator: Array<string>; denominator: Array<string>; inDenominator: boolean } | undefined
  let capture: { readonly field: string; readonly dimension?: string | undefined; text: string } | undefined
  let instanceRootDepth = -1
  // Inside a raw-text element (`script`, `title`...), where htmlparser2 decodes differently.
  let inSpecial = false

  // The decoding htmlparser2 would have done, with the same library and modes, on the parts read.
  const attribute = (attributes: Record<string, string>, name: string): string | undefined => {
    const value = attributeOf(attributes, name)
    return !decodeEntities && value !== undefined && value.includes("&") ? decodeHTMLAttribute(value) : value
  }
  const decoded = (text: string): string => {
    if (decodeEntities || !text.includes("&")) return text
    if (inSpecial) throw undecided
    return decodeHTML(text)
  }

  const closeFact = (open: OpenFact) => {
    const attributes = open.attributes
    const contextRef = attribute(attributes, "contextRef") ?? ""
    const id = attribute(attributes, "id")
    const where = id === undefined ? {} : { id }
    if (open.kind === "text") {
      const format = mode === "inline" ? attribute(attributes, "format") : undefined
      const continuedAt = mode === "inline" && followContinuations ? attribute(attributes, "continuedAt") : undefined
      if (continuedAt !== undefined) continued.push({ index: textFacts.length, at: continuedAt })
      textFacts.push({
        concept: open.concept,
        contextRef,
        text: collapseSpaces(open.text),
        ...where,
        ...(format === undefined ? {} : { format })
      })
      return
    }
    const unitRef = attribute(attributes, "unitRef") ?? ""
    const decimals = parseDecimals(attribute(attributes, "decimals"))
    const nil = (attribute(attributes, "xsi:nil") ?? "").toLowerCase() === "true"
    if (nil) {
      numericFacts.push({ concept: open.concept, contextRef, unitRef, value: null, decimals, ...where })
      return
    }
    const format = mode === "inline" ? attribute(attributes, "format") : undefined
    // An instance holds the xsd:decimal itself, its sign included.
    const instanceText = open.text.trim()
    const negativeInstance = mode === "instance" && instanceText.startsWith("-")
    const digits = mode === "inline"
      ? applyNumberFormat(format, open.text)
      : /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(instanceText)
      ? instanceText.replace(/^[-+]/, "")
      : undefined
    if (digits === undefined) {
      warnings.push(
        `fact ${open.concept} (context ${contextRef}): cannot read ${JSON.stringify(open.text.trim().slice(0, 40))}` +
          (format === undefined ? "" : ` with format ${format}`) + "; skipped"
      )
      return
    }
    const scale = mode === "inline" ? Number.parseInt(attribute(attributes, "scale") ?? "0", 10) : 0
    // Scaling through the exponent keeps `391035` × 10^6 exact, where `391035 * 1e6` of a decimal may not be.
    const magnitude = Number.isNaN(scale) || scale === 0 ? Number(digits) : Number(`${digits}e${scale}`)
    const negative = mode === "inline" ? attribute(attributes, "sign") === "-" : negativeInstance
    numericFacts.push({
      concept: open.concept,
      contextRef,
      unitRef,
      // A zero with sign="-" stays 0, not -0.
      value: negative && magnitude !== 0 ? -magnitude : magnitude,
      decimals,
      ...where
    })
  }

  // Reading one fact, the feeding parse is paused once it ends (`onFirstFact`); what it still
  // reports is not read.
  let firstFactDone = false

  const handler: FactHandler = {
    onopentag(name, attributes) {
      if (firstFactDone) return
      depth++
      if (!decodeEntities && specialTags.has(name.toLowerCase())) inSpecial = true
      const local = localName(name).toLowerCase()
      const isIx = name.length > 3 && name.slice(0, 3).toLowerCase() === "ix:"
      if (mode === "inline" && (openFacts.length > 0 || openContinuations.length > 0) && isBlockBoundary(local)) {
        separateOpenText()
      }
      if (mode === "inline" && isIx && local === "exclude") {
        if (excludeDepth === -1) excludeDepth = depth
        return
      }
      if (mode === "inline" && isIx && local === "continuation") {
        const id = followContinuations ? attribute(attributes, "id") : undefined
        if (id !== undefined) {
          openContinuations.push({ id, next: attribute(attributes, "continuedAt"), depth, text: "", apart: false })
        }
        return
      }
      if (mode === "inline" && isIx && (local === "nonfraction" || local === "nonnumeric")) {
        openFacts.push({
          kind: local === "nonfraction" ? "numeric" : "text",
          attributes,
          concept: attribute(attributes, "name") ?? "",
          depth,
          text: "",
          apart: false
        })
        return
      }
      if (mode === "instance" && instanceRootDepth === -1 && local === "xbrl") {
        instanceRootDepth = depth
        return
      }
      if (
        mode === "instance" && depth === instanceRootDepth + 1 && attribute(attributes, "contextRef") !== undefined
      ) {
        openFacts.push({
          kind: attribute(attributes, "unitRef") === undefined ? "text" : "numeric",
          attributes,
          concept: name,
          depth,
          text: "",
          apart: false
        })
        return
      }
      switch (local) {
        case "context":
          context = { id: attribute(attributes, "id") ?? "", dimensions: [] }
          return
        case "identifier":
          if (context !== undefined) capture = { field: "entity", text: "" }
          return
        case "startdate":
        case "enddate":
        case "instant":
          if (context !== undefined) capture = { field: local, text: "" }
          return
        case "explicitmember":
          if (context !== undefined) {
            capture = { field: "member", dimension: attribute(attributes, "dimension"), text: "" }
          }
          return
        case "typedmember":
          if (context !== undefined) {
            capture = { field: "member", dimension: attribute(attributes, "dimension"), text: "" }
          }
          return
        case "unit":
          if (!isIx) {
            unit = { id: attribute(attributes, "id") ?? "", numerator: [], denominator: [], inDenominator: false }
          }
          return
        case "unitdenominator":
          if (unit !== undefined) unit.inDenominator = true
          return
        case "measure":
          if (unit !== undefined) capture = { field: "measure", text: "" }
          return
      }
    },
    ontext(raw) {
      if (firstFactDone || (openFacts.length === 0 && openContinuations.length === 0 && capture === undefined)) return
      const text = decoded(raw)
      if (excludeDepth === -1) {
        for (const open of openFacts) append(open, text)
        for (const open of openContinuations) append(open, text)
      }
      if (capture !== undefined) capture.text += text
    },
    onclosetag(name, isImplied) {
      if (firstFactDone) return
      inSpecial = false
      if (mode === "inline" && (openFacts.length > 0 || openContinuations.length > 0)) {
        // Inline XBRL documents are XHTML: their HTML element names are lower-case, unprefixed.
        if (isBlockBoundary(name)) separateOpenText()
        if (excludeDepth === depth) excludeDepth = -1
        const continuation = openContinuations[openContinuations.length - 1]
        if (continuation !== undefined && continuation.depth === depth) {
          openContinuations.pop()
          continuations.set(continuation.id, { text: continuation.text, next: continuation.next })
          depth--
          return
        }
      } else if (excludeDepth === depth) {
        excludeDepth = -1
      }
      const top = openFacts[openFacts.length - 1]
      if (top !== undefined && top.depth === depth) {
        openFacts.pop()
        if (!firstFactOnly) closeFact(top)
        else if (depth === 1) {
          // Reading one fact, the facts nested in it are part of its text, not facts of their own;
          // one closed only by the end of the source never ended.
          if (!isImplied) closeFact(top)
          firstFactDone = true
          onFirstFact()
          return
        }
        depth--
        return
      }
      depth--
      // Outside a context or unit, only facts end.
      if (capture === undefined && context === undefined && unit === undefined) return
      const local = localName(name).toLowerCase()
      if (capture !== undefined) {
        const value = capture.text.trim()
        if (context !== undefined) {
          if (capture.field === "entity") context.entity = value
          else if (capture.field === "startdate") context.startDate = value
          else if (capture.field === "enddate") context.endDate = value
          else if (capture.field === "instant") context.instant = value
          else if (capture.field === "member") context.dimensions.push(`${capture.dimension ?? ""}=${value}`)
        } else if (unit !== undefined && capture.field === "measure") {
          ;(unit.inDenominator ? unit.denominator : unit.numerator).push(measureName(value))
        }
        // A typed member's value sits in a child element: the first close ends the capture.
        capture = undefined
      }
      if (local === "context" && context !== undefined) {
        contexts.set(context.id, { ...context, dimensions: context.dimensions.sort() })
        context = undefined
      } else if (local === "unit" && unit !== undefined) {
        const measure = unit.numerator.join("*") +
          (unit.denominator.length > 0 ? `/${unit.denominator.join("*")}` : "")
        units.set(unit.id, { id: unit.id, measure })
        unit = undefined
      } else if (local === "unitdenominator" && unit !== undefined) {
        unit.inDenominator = false
      }
    }
  }

  const finish = (): FactSet => {
    for (const { at, index } of continued) {
      const fact = textFacts[index]!
      const parts = [fact.text]
      // A chain that comes back to a continuation read already is cut there.
      const visited = new Set<string>()
      for (let next: string | undefined = at; next !== undefined && !visited.has(next);) {
        visited.add(next)
        const continuation = continuations.get(next)
        if (continuation === undefined) {
          warnings.push(
            `fact ${fact.concept} (context ${fact.contextRef}): no continuation ${next}; its text ends before it`
          )
          break
        }
        parts.push(continuation.text)
        next = continuation.next
      }
      textFacts[index] = { ...fact, text: collapseSpaces(parts.join(" ")) }
    }
    return { contexts, units, numericFacts, textFacts, warnings }
  }
  return { handler, finish }
}
