// What the XBRL reader gives: contexts, units, numeric and text facts (see `XbrlFacts`).

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
