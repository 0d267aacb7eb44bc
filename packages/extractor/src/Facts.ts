/**
 * Every fact a filing tags: from the inline XBRL of its primary document, else from the XBRL
 * instance (`EX-101.INS`) of its full submission. Each fact with its concept as the filing writes
 * it, the company's label for it (the submission's label linkbase, else a readable form of the
 * name), its value (a number with scale and sign applied, or text), unit, precision, period and
 * dimensions, and the id of the element that tags it. A fact tagged twice (the same concept,
 * context, unit and value in two places) is one fact, at its first place.
 *
 * @example
 * ```ts
 * import { Facts } from "@filings/extractor"
 * import { Effect } from "effect"
 *
 * const { facts } = await Effect.runPromise(Facts.facts({ bytes }))
 * facts.find((fact) => fact.concept === "us-gaap:Revenues" && Object.keys(fact.dimensions).length === 0)
 * // { concept: "us-gaap:Revenues", label: "Net sales", value: 383285000000, unit: "USD", decimals: -6,
 * //   period: { start: "2022-09-25", end: "2023-09-30" }, dimensions: {}, ... }
 * ```
 *
 * @module
 */
import type { ExtractedValues } from "@filings/domain"
import type { Blocks, ParsedDocument, SgmlSubmission } from "@filings/filings-parser"
import { XbrlFacts, XbrlLinkbases } from "@filings/filings-parser"
import { Effect } from "effect"
import { findStructuredData } from "./internal/xbrl/structuredData.js"

/** A fact's period: a day, or a span of days (both as written, `YYYY-MM-DD`). */
export type FactPeriod = ExtractedValues.FactPeriod

/** Where a fact stands in the parsed document: the section and chunk of the block that tags it. */
export type FactLocation = ExtractedValues.FactLocation

/** One fact of a filing: `ExtractedValues.Fact`, whose encoded side is the JSON the CLI prints. */
export type Fact = ExtractedValues.Fact

/** What `facts` reads: a filing's bytes (a full submission or its primary document). */
export interface FactsInput {
  readonly bytes: Uint8Array
  /** The submission the bytes hold, when the caller has split it already: it is not split again. */
  readonly submission?: SgmlSubmission.Submission | undefined
  /** What `Parser.parse` made of the same bytes: each fact is then located in it (`location`). */
  readonly parsed?: ParsedDocument.ParsedDocument | undefined
}

/** The facts of a filing (its numbers, then its text facts, each in document order), and what could not be read. */
export interface FactsOutput {
  readonly facts: ReadonlyArray<Fact>
  /** Facts skipped (an unreadable number, a context that is not there): data, never a failure. */
  readonly warnings: ReadonlyArray<string>
}

/** Text facts (a note's text block runs to pages) are served this long at most. */
export const maxTextLength = 1000

/** The text cut at a word at most `maxTextLength` characters in, `…` after. */
const shortened = (text: string): string => {
  if (text.length <= maxTextLength) return text
  const cut = text.slice(0, maxTextLength)
  const lastSpace = cut.lastIndexOf(" ")
  return `${(lastSpace > maxTextLength / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`
}

const periodOf = (context: XbrlFacts.XbrlContext): FactPeriod | undefined => {
  if (context.instant !== undefined) return { instant: context.instant }
  if (context.startDate !== undefined && context.endDate !== undefined) {
    return { start: context.startDate, end: context.endDate }
  }
  return undefined
}

const dimensionsOf = (context: XbrlFacts.XbrlContext): Record<string, string> => {
  const dimensions: Record<string, string> = {}
  for (const pair of context.dimensions) {
    const separator = pair.indexOf("=")
    dimensions[pair.slice(0, separator)] = pair.slice(separator + 1)
  }
  return dimensions
}

const decimalsOf = (decimals: number | undefined): number | "INF" | null =>
  decimals === undefined ? null : decimals === Infinity ? "INF" : decimals

/**
 * The facts of a read XBRL fact set, labelled by `labels`: the numeric facts, then the text facts,
 * each in document order. A fact whose context or unit is missing is skipped with a warning.
 */
export const factsOf = (set: XbrlFacts.FactSet, labels: XbrlLinkbases.Labels = new Map()): FactsOutput => {
  const warnings: Array<string> = [...set.warnings]
  const facts: Array<Fact> = []
  const seen = new Set<string>()
  const missingContexts = new Set<string>()
  const labelOf = (concept: string) => XbrlLinkbases.labelOf(labels, concept)
  const add = (
    concept: string,
    contextRef: string,
    unit: string | null,
    value: number | string | null,
    rest: Pick<Fact, "decimals" | "textLength" | "elementId">,
    // What makes two tags one fact: the whole text of a text fact, not its shortened value.
    whole: number | string | null = value
  ) => {
    const context = set.contexts.get(contextRef)
    const period = context === undefined ? undefined : periodOf(context)
    if (context === undefined || period === undefined) {
      missingContexts.add(contextRef)
      return
    }
    const key = JSON.stringify([concept, contextRef, unit, whole])
    if (seen.has(key)) return
    seen.add(key)
    facts.push({
      concept,
      label: labelOf(concept),
      value,
      ...(rest.textLength === undefined ? {} : { textLength: rest.textLength }),
      unit,
      decimals: rest.decimals,
      period,
      dimensions: dimensionsOf(context),
      ...(rest.elementId === undefined ? {} : { elementId: rest.elementId })
    })
  }
  for (const fact of set.numericFacts) {
    const unit = set.units.get(fact.unitRef)?.measure
    if (unit === undefined) {
      warnings.push(`fact ${fact.concept} (context ${fact.contextRef}): no unit ${fact.unitRef}; skipped`)
      continue
    }
    add(fact.concept, fact.contextRef, unit, fact.value, {
      decimals: decimalsOf(fact.decimals),
      elementId: fact.id
    })
  }
  for (const fact of set.textFacts) {
    const formatted = fact.format === undefined ? undefined : XbrlFacts.applyTextFormat(fact.format, fact.text)
    if (fact.format !== undefined && formatted === undefined) {
      warnings.push(
        `fact ${fact.concept} (context ${fact.contextRef}): ${JSON.stringify(fact.text.slice(0, 40))} ` +
          `is not read by ${fact.format}; its text is kept`
      )
    }
    add(fact.concept, fact.contextRef, null, formatted ?? shortened(fact.text), {
      decimals: null,
      textLength: fact.text.length,
      elementId: fact.id
    }, fact.text)
  }
  for (const contextRef of missingContexts) {
    warnings.push(`facts of context ${contextRef}: no such context with a period; skipped`)
  }
  return { facts, warnings }
}

type Tagged = { readonly block: number; readonly cell?: { readonly row: number; readonly column: number } }

/** Where each fact id is tagged among the blocks (`factIds` of text blocks and items, `cellFacts` of tables). */
const taggedBlocks = (blocks: ReadonlyArray<Blocks.Block>): Map<string, Tagged> => {
  const tagged = new Map<string, Tagged>()
  const mark = (ids: ReadonlyArray<string> | undefined, where: Tagged) => {
    for (const id of ids ?? []) if (!tagged.has(id)) tagged.set(id, where)
  }
  blocks.forEach((block, index) => {
    switch (block.kind) {
      case "heading":
      case "paragraph":
        mark(block.factIds, { block: index })
        break
      case "list":
        for (const item of block.items) mark(item.factIds, { block: index })
        break
      case "table":
        for (const cell of block.cellFacts ?? []) {
          mark(cell.factIds, { block: index, cell: { row: cell.row, column: cell.column } })
        }
        break
    }
  })
  return tagged
}

/** The facts located in the parsed document: each tagged block's chunk and innermost section. */
const locate = (facts: ReadonlyArray<Fact>, parsed: ParsedDocument.ParsedDocument): Array<Fact> => {
  const tagged = taggedBlocks(parsed.blocks)
  const chunkOf = (block: number) =>
    parsed.chunks.find((chunk) => chunk.blockRange.start <= block && block < chunk.blockRange.end)
  // Sections may nest (an item within a part): the one that starts last holds the block most closely.
  const sectionOf = (block: number) =>
    parsed.sections.filter((section) => section.blockRange.start <= block && block < section.blockRange.end)
      .sort((a, b) => b.blockRange.start - a.blockRange.start)[0]
  return facts.map((fact) => {
    const where = fact.elementId === undefined ? undefined : tagged.get(fact.elementId)
    const chunk = where === undefined ? undefined : chunkOf(where.block)
    if (where === undefined || chunk === undefined) return fact
    const location: FactLocation = {
      section: sectionOf(where.block)?.title ?? null,
      chunkId: chunk.id,
      block: where.block,
      ...(where.cell === undefined ? {} : { cell: where.cell })
    }
    return { ...fact, location }
  })
}

/**
 * Every fact of a filing: its inline XBRL, else its XBRL instance, labelled by its label linkbase
 * when the submission carries one, and located in the parsed document when given it. A filing
 * without XBRL has no facts (and says so in `warnings`).
 */
export const facts = (input: FactsInput): Effect.Effect<FactsOutput> =>
  Effect.map(findStructuredData(input.bytes, input.submission), (data) => {
    const labels = data.labelLinkbase === undefined ? new Map() : XbrlLinkbases.readLabels(data.labelLinkbase)
    // The parse read the primary document's inline facts already, in its own pass.
    const read = data.inlineXbrl !== undefined
      ? factsOf(input.parsed?.inlineXbrl ?? XbrlFacts.readFacts(data.inlineXbrl, "inline"), labels)
      : data.instanceXml !== undefined
      ? factsOf(XbrlFacts.readFacts(data.instanceXml, "instance"), labels)
      : undefined
    if (read === undefined) return { facts: [], warnings: ["the filing has no XBRL: no facts"] }
    // Only the primary document's inline facts are tagged in its blocks.
    return input.parsed === undefined || data.inlineXbrl === undefined
      ? read
      : { facts: locate(read.facts, input.parsed), warnings: read.warnings }
  })
