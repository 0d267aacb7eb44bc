/**
 * The XBRL facts of a filing, as the filer tagged them: contexts, units, numeric and text facts, and
 * the warnings met while reading. One reader serves inline XBRL (`ix:nonFraction`, `ix:nonNumeric`
 * in an HTML document) and XBRL instance documents alike, in one SAX pass (htmlparser2 callbacks, no
 * DOM). The parser reads its cover facts (the `dei:` facts) with it, `factAt` reading each where it
 * stands without passing over the whole document; the extractor reads its metrics' facts with
 * `readFacts`.
 *
 * @example
 * ```ts
 * import { XbrlFacts } from "@filings/filings-parser"
 *
 * const { numericFacts, contexts } = XbrlFacts.readFacts(html, "inline")
 * numericFacts.find((fact) => fact.concept === "us-gaap:Revenues")?.value // 391035000000
 * ```
 *
 * @module
 */
import { decodeHTML, decodeHTMLAttribute } from "entities"
import { Parser } from "htmlparser2"
import { collapseSpaces } from "./internal/characters.js"
import { blockTags } from "./internal/html/blockTags.js"
import { numberOfWords } from "./internal/textFormats.js"

/**
 * The value a text fact's displayed text stands for under its inline XBRL transformation (`format`):
 * an ISO date for `ixt:date-monthname-day-year-en`, `true`/`false` for `ixt-sec:boolballotbox` and the
 * fixed values, an ISO 8601 duration for `ixt-sec:duryear` and `durwordsen`, the dei code for
 * `ixt-sec:exchnameen` and `stateprovnameen`; `undefined` for another format or a text that does not fit.
 *
 * @example
 * ```ts
 * XbrlFacts.applyTextFormat("ixt:date-monthname-day-year-en", "July 1, 2023") // "2023-07-01"
 * ```
 */
export { applyTextFormat } from "./internal/textFormats.js"

/** A context: the period of a fact and whether it carries dimensions (a segment or scenario member). */
export interface XbrlContext {
  /** The context's `id`, which facts name in `contextRef`. */
  readonly id: string
  /** The entity identifier (a CIK), as written. */
  readonly entity?: string | undefined
  /** The first day of a duration, as written (`2023-10-01`). */
  readonly startDate?: string | undefined
  /** The last day of a duration, as written. */
  readonly endDate?: string | undefined
  /** The day of an instant, as written. */
  readonly instant?: string | undefined
  /** The explicit and typed members, `dimension=member`, sorted; empty for a total. */
  readonly dimensions: ReadonlyArray<string>
}

/** A unit: `USD`, `shares`, or a ratio such as `USD/shares`, with namespace prefixes removed. */
export interface XbrlUnit {
  /** The unit's `id`, which numeric facts name in `unitRef`. */
  readonly id: string
  /** The measure, a ratio's parts joined by `/` and a product's by `*`. */
  readonly measure: string
}

/** A numeric fact: the value with scale and sign applied, or `null` for a nil fact. */
export interface NumericFact {
  /** The concept's qualified name (`us-gaap:Revenues`). */
  readonly concept: string
  /** The id of the fact's context. */
  readonly contextRef: string
  /** The id of the fact's unit. */
  readonly unitRef: string
  /** The value with scale and sign applied; `null` for a nil fact. */
  readonly value: number | null
  /** `Infinity` for `INF`; `undefined` when the filer gave no precision. */
  readonly decimals?: number | undefined
  /** The tagging element's `id`, when it has one: where the fact stands in an inline document. */
  readonly id?: string | undefined
}

/** A non-numeric fact (dei cover facts and text blocks), its text trimmed. */
export interface TextFact {
  /** The concept's qualified name (`dei:DocumentType`). */
  readonly concept: string
  /** The id of the fact's context. */
  readonly contextRef: string
  /**
   * The fact's text as displayed: nested markup left out (a space where a block element such as a
   * paragraph or a cell begins or ends), `ix:exclude`d text left out, the `ix:continuation`s it
   * continues at appended, entities decoded and runs of whitespace single spaces.
   */
  readonly text: string
  /** The tagging element's `id`, when it has one: where the fact stands in an inline document. */
  readonly id?: string | undefined
  /** The transformation its displayed text is read by (`ixt:date-monthname-day-year-en`), when it names one. */
  readonly format?: string | undefined
}

/** What `readFacts` found in a document. */
export interface FactSet {
  /** The contexts by id. */
  readonly contexts: ReadonlyMap<string, XbrlContext>
  /** The units by id. */
  readonly units: ReadonlyMap<string, XbrlUnit>
  /** The numeric facts, in document order of their ends. */
  readonly numericFacts: ReadonlyArray<NumericFact>
  /** The text facts, in document order of their ends. */
  readonly textFacts: ReadonlyArray<TextFact>
  /** The facts that could not be read, each skipped with a warning. */
  readonly warnings: ReadonlyArray<string>
}

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
  const lower = name.toLowerCase()
  for (const key in attributes) if (key.toLowerCase() === lower) return attributes[key]
  return undefined
}

/** Where the words of a text fact are apart: a block element's start or end, or a line break. */
const isBlockBoundary = (name: string): boolean => name === "br" || blockTags.has(name)

/** Thrown by the fast inline pass on text inside a raw-text element, which htmlparser2 decodes its own way. */
const undecided = Symbol("undecided")

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

/** How `readFacts` reads text facts. */
export interface ReadOptions {
  /**
   * Whether a text fact's `ix:continuation`s are appended to its text (the default). A reader of
   * the cover's short facts alone (the metrics) leaves them out: a 10-K's notes continue over
   * pages, and their whole text triples what is read.
   */
  readonly continuations?: boolean | undefined
}

/** Reads contexts, units and facts from an inline XBRL document or an XBRL instance in one pass. */
export const readFacts = (source: string, mode: ReaderMode, options: ReadOptions = {}): FactSet =>
  readFast(source, mode, false, options.continuations ?? true)

const inlineFactTag = /^<ix:non(?:Fraction|Numeric)\b/i

/**
 * The inline fact (`ix:nonFraction` or `ix:nonNumeric`) whose opening tag starts at `start` in
 * `html`, read from there to its end and no further; `undefined` when no fact starts there or it
 * never ends.
 *
 * @example
 * ```ts
 * const start = html.search(/<ix:nonNumeric[^>]*name="dei:DocumentType"/)
 * XbrlFacts.factAt(html, start) // { concept: "dei:DocumentType", contextRef: "c-1", text: "10-K" }
 * ```
 */
export const factAt = (html: string, start: number): NumericFact | TextFact | undefined => {
  if (!inlineFactTag.test(html.slice(start, start + 20))) return undefined
  const { numericFacts, textFacts } = readFast(html.slice(start), "inline", true, false)
  return numericFacts[0] ?? textFacts[0]
}

const readFast = (source: string, mode: ReaderMode, firstFactOnly: boolean, continuations: boolean): FactSet => {
  if (mode === "inline") {
    // Decoding entities in htmlparser2 costs half its time on a 10-K: decode only the text and attributes
    // read, and read again the usual way when one of them is uncertain.
    try {
      return readFactsIn(source, mode, { decodeEntities: false, firstFactOnly, continuations })
    } catch (error) {
      if (error !== undecided) throw error
    }
  }
  return readFactsIn(source, mode, { decodeEntities: true, firstFactOnly, continuations })
}

const readFactsIn = (
  source: string,
  mode: ReaderMode,
  { continuations: followContinuations, decodeEntities, firstFactOnly }: {
    readonly decodeEntities: boolean
    readonly firstFactOnly: boolean
    readonly continuations: boolean
  }
): FactSet => {
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

  // Reading one fact, the parser is paused once it ends (not thrown out of: an exception through
  // htmlparser2's loop costs every later parse); what it still reports is not read.
  let firstFactDone = false

  const parser = new Parser(
    {
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
            parser.pause()
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
    },
    mode === "inline"
      ? {
        xmlMode: false,
        lowerCaseTags: false,
        lowerCaseAttributeNames: false,
        recognizeSelfClosing: true,
        decodeEntities
      }
      : { xmlMode: true }
  )
  parser.end(source)
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
