/**
 * The offline answer to a question: the sentences and table rows of the passages found that say
 * what the question asks, each citing its passage. A unit answers when it holds most of what the
 * question asks for (its words, their derived forms and the financial vocabulary's synonyms, as the
 * search reads them), counting the passage's company and form, which its own text seldom repeats.
 * The same question over the same passages always gives the same answer, and nothing in it is
 * anything but the passages' own words and figures.
 */
import { Feed } from "@filings/domain"
import { ExtractiveModel } from "@filings/feed-summarizer"
import { Blocks } from "@filings/filings-parser"
import { SearchText } from "@filings/storage"
import * as TableReading from "./TableReading.js"

/** A passage the answer may be taken from, with its place among those found (0 is the best). */
export interface Passage {
  readonly source: string
  readonly chunkId: string
  readonly text: string
  readonly section?: string | undefined
  /** The words a passage's text does not repeat but is about: its company, ticker and form. */
  readonly context: string
  readonly rank: number
  /** The form of the passage's document (`10-K`, `10-Q`, `8-K` ...), when known. */
  readonly docType?: string | undefined
  /** The passage's blocks, when the store kept them (see `blocksOfPassage`). */
  readonly blocks?: ReadonlyArray<Blocks.Block> | undefined
}

export interface AnswerSentence {
  readonly text: string
  readonly citations: ReadonlyArray<Feed.Citation>
}

/** At most this many sentences answer. */
export const MaxSentences = 3

/** A unit must hold at least this share of what the question asks for (by weight) to answer it. */
export const MinCoverage = 0.5

/** Units within this share of the best one's score answer too. */
const closeToBest = 0.85

/** Two units sharing more of their words than this say the same thing. */
const repeatOverlap = 0.6

interface Unit {
  readonly text: string
  readonly passage: Passage
  readonly terms: ReadonlySet<string>
  /** A table row's label terms (what the row is), with the passage's context; none for prose. */
  readonly labelTerms?: ReadonlySet<string> | undefined
  /** A table row's label terms alone, to tell `Total assets` from `Total current assets`. */
  readonly ownLabelTerms?: ReadonlySet<string> | undefined
  /**
   * A table row's label with its group, its text (label, values and their columns' headings) and
   * its table's title, as terms in order: a phrase asked (`net sales`) is held where its words stand
   * together, not where a long label happens to hold each of them.
   */
  readonly phrases?: ReadonlyArray<ReadonlyArray<string>> | undefined
  /** A table row's own label as terms in order. */
  readonly labelSequence?: ReadonlyArray<string> | undefined
  /** Whether the unit is a row of a financial statement (its table's title names one). */
  readonly statement?: boolean | undefined
  /** How well a table row's values fit the period asked (1 for prose). */
  readonly fit: number
  /** Words of a prose sentence. */
  readonly words: number
  readonly index: number
}

/**
 * The blocks of a passage: the one place the answer obtains them. The stores keep each chunk's
 * blocks; a chunk stored before they were kept has none, and its Markdown is read back into blocks
 * by the parser (`Blocks.fromMarkdown`), which gives the same blocks for what the answer reads
 * (tables with their rows, paragraphs and list items; pages and styles it does not read).
 */
export const blocksOfPassage = (passage: Passage): ReadonlyArray<Blocks.Block> =>
  passage.blocks ?? Blocks.fromMarkdown(passage.text)

/** A table row as a sentence of the answer, with its label and how well its values fit the period asked. */
export interface TableRowSentence {
  readonly text: string
  readonly label: string
  /** The label of the row of no values it stands under (see `TableReading.Row.group`). */
  readonly group?: string | undefined
  /** What the passage says the row's table is (see `TableReading.Reading.title`). */
  readonly title: string
  /** Whether the row's table is a financial statement (see `TableReading.Reading.statement`). */
  readonly statement: boolean
  readonly fit: number
}

/**
 * The rows of the tables of `blocks` as sentences: the row's label, then the values of the period
 * asked (`Total net sales: $391,035 million (Years ended September 28, 2024).`), each with its
 * scale and the period its column reports.
 */
export const tableRowsOf = (
  blocks: ReadonlyArray<Blocks.Block>,
  asked: TableReading.PeriodAsked = { years: [], span: undefined }
): ReadonlyArray<TableRowSentence> => {
  const sentences: Array<TableRowSentence> = []
  blocks.forEach((block, index) => {
    if (block.kind !== "table") return
    const reading = TableReading.readTable(block, blocks.slice(0, index))
    for (const row of reading.rows) {
      const chosen = TableReading.valuesFor(row, asked)
      if (chosen.values.length === 0 || !chosen.values.some((value) => /\d/.test(value.cell))) continue
      // `Services` under `Net sales:` is said as `Net sales — Services`, unless its label says it.
      const shown = row.group === undefined || row.label.toLowerCase().includes(row.group.toLowerCase())
        ? row.label
        : `${row.group} — ${row.label}`
      sentences.push({
        text: TableReading.sentenceOf(shown, chosen.values),
        label: row.label,
        ...(row.group === undefined ? {} : { group: row.group }),
        title: reading.title,
        statement: reading.statement,
        fit: chosen.fit
      })
    }
  })
  return sentences
}

const sequenceOf = (text: string): ReadonlyArray<string> => SearchText.tokens(text).map((token) => token.term)
const termsOf = (text: string): Set<string> => new Set(sequenceOf(text))

// A note reference after a label (`Sales (C & E)`, `Total revenues(1)`, `Goodwill (Note 7)`) says
// where to read more, not what the row is.
const noteReference = /\s*\((?:[A-Z](?:\s*(?:&|and|,)\s*[A-Z])*|\d{1,2}|notes?\s[^)]*)\)\s*$/i
const ownLabelOf = (label: string): string => label.replace(noteReference, "")

/** The units of the passages: prose sentences and table rows, in the passages' order. */
const unitsOf = (passages: ReadonlyArray<Passage>, asked: TableReading.PeriodAsked): ReadonlyArray<Unit> => {
  const units: Array<Unit> = []
  for (const passage of passages) {
    const context = termsOf(`${passage.context} ${passage.section ?? ""}`)
    const blocks = blocksOfPassage(passage)
    for (const sentence of ExtractiveModel.sentencesOf([{ id: passage.chunkId, text: passage.text, blocks }])) {
      const text = sentence.text
      if (text.length < 12) continue
      const words = text.split(/\s+/).length
      units.push({ text, passage, terms: new Set([...termsOf(text), ...context]), fit: 1, words, index: units.length })
    }
    for (const row of tableRowsOf(blocks, asked)) {
      const own = ownLabelOf(row.label)
      // The group a row stands under says what it is (`Net sales`), its own label which part.
      const whole = row.group === undefined ? own : `${ownLabelOf(row.group)} ${own}`
      units.push({
        text: row.text,
        passage,
        terms: new Set([...termsOf(row.text), ...termsOf(row.title), ...context]),
        labelTerms: new Set([...termsOf(whole), ...context]),
        ownLabelTerms: termsOf(own),
        phrases: [sequenceOf(whole), sequenceOf(row.text), sequenceOf(row.title)],
        labelSequence: sequenceOf(whole),
        statement: row.statement,
        fit: row.fit,
        words: 0,
        index: units.length
      })
    }
  }
  return units
}

/** `FY2024`, `FY24`, `Q3 2024` written as the filings write them, so their words can be found. */
const asFilingsWriteIt = (question: string): string =>
  question
    .replace(/\bFY\s?'?(\d{4})\b/gi, "fiscal year $1")
    .replace(/\bFY\s?'?(\d{2})\b/gi, "fiscal year 20$1")
    .replace(/\bQ([1-4])\s?'?(\d{2})\b(?!\d)/gi, "Q$1 20$2")

/**
 * The question as the search should read it: periods written as filings write them, and the verbs
 * of asking for an amount left out (a passage about spending in general is no answer).
 */
export const searchQueryOf = (question: string): string => {
  const written = asFilingsWriteIt(question)
  const without = written.replace(/\b(?:spend|spent|spending|pay|paid|paying|generated?|earn(?:ed)?)\b/gi, " ")
  return /[\p{L}\d]{3,}/u.test(without) ? without : written
}

// "At the end of 2023": the point of a period a question asks at, in words a filing seldom uses
// ("As of December 31, 2023"), yet common in the statements' own rows ("at end of period").
const pointOfPeriod = /\b(?:at|by|as of)\s+the\s+(?:end|close|beginning|start)\s+of\b/gi

/** The weight of the words of a point of a period, against 2 for each other concept of the question. */
const pointWeight = 0.5

/**
 * The search query without the words that say at which point of a period it asks, when it has
 * them: searched besides the whole query, it finds the sentence that states the amount "as of"
 * a date, which the whole query ranks below the statements' "end of period" rows.
 */
export const withoutPointOfPeriod = (query: string): string | undefined => {
  const without = query.replace(pointOfPeriod, " ")
  return without === query || !/[\p{L}\d]{3,}/u.test(without) ? undefined : without
}

// "How many employees", "the number of full-time associates": what a count asks for is named
// after these words; the rest of the question says whose and when.
const countAsked = /\b(?:how many|(?:the )?number of)\s+((?:[\p{L}-]+\s+){0,2}?[\p{L}-]+?s)\b/iu

/** The terms of what a question asks to count (`employees`; `full-time associates`), if it asks for a count. */
const countedIn = (question: string): ReadonlyArray<string> | undefined => {
  const counted = countAsked.exec(question)?.[1]
  if (counted === undefined) return undefined
  const terms = [...termsOf(counted)]
  return terms.length === 0 ? undefined : terms
}

/** The years a question names. */
const yearsIn = (text: string): ReadonlyArray<string> => [...new Set(text.match(/\b(?:19|20)\d\d\b/g) ?? [])]

/** What a question asks for: each of its concepts, by its alternatives' terms, with its weight. */
interface Asked {
  readonly alternatives: ReadonlyArray<ReadonlyArray<string>>
  readonly weight: number
}

// Verbs of how a question asks for an amount ("what did it spend on R&D"): filings state the amount
// under the thing's name ("Research and development"), not with the verb.
const askingVerbs = termsOf("spend spent spending pay paid paying generate generated earn earned")

const askedIn = (text: string, weight: number): ReadonlyArray<Asked> => {
  const parsed = SearchText.parseQuery(text.slice(0, SearchText.maxQueryLength))
  if (parsed._tag === "Left") return []
  const concepts = parsed.right.concepts.map((concept) => ({
    alternatives: concept.alternatives.map((phrase) => phrase.terms.map(({ term }) => term)),
    weight
  }))
  const asking = (concept: Asked) => concept.alternatives.some((terms) => terms.every((t) => askingVerbs.has(t)))
  return concepts.some((concept) => !asking(concept)) ? concepts.filter((concept) => !asking(concept)) : concepts
}

/** Whether `sequence` holds `terms` side by side, in order. */
const standsIn = (sequence: ReadonlyArray<string>, terms: ReadonlyArray<string>): boolean => {
  for (let start = 0; start + terms.length <= sequence.length; start++) {
    if (terms.every((term, offset) => sequence[start + offset] === term)) return true
  }
  return false
}

const holdsAlternative = (unit: Unit, terms: ReadonlyArray<string>): boolean =>
  terms.every((term) => unit.terms.has(term)) &&
  (terms.length < 2 || unit.phrases === undefined || unit.phrases.some((sequence) => standsIn(sequence, terms)))

// Words of a period as questions say it ("in the first quarter", "at the end of the year"): a table
// row says its period in its column's heading ("Three Months Ended March 31, 2019"), and holds
// these words when its values are of the period asked.
const periodTerms = termsOf(
  "first second third fourth quarter quarterly fiscal year annual month three six nine twelve end ended"
)

const isPeriodConcept = (concept: Asked) =>
  concept.alternatives.every((terms) => terms.every((t) => periodTerms.has(t)))

const holds = (unit: Unit, asked: Asked) =>
  (unit.labelTerms !== undefined && unit.fit === 1 && isPeriodConcept(asked)) ||
  asked.alternatives.some((terms) => holdsAlternative(unit, terms))

/**
 * The sentences that answer `question` from `passages`, best first, each citing its passage; none
 * when no unit holds enough of what the question asks. `earlier`, the user's previous question,
 * fills in what a follow-up leaves unsaid ("and in 2019?") at a lower weight.
 */
export const answer = (
  question: string,
  passages: ReadonlyArray<Passage>,
  earlier?: string | undefined
): ReadonlyArray<AnswerSentence> => {
  const wording = asFilingsWriteIt(question)
  // "At the end of" says when, as the year does: it tells an ending balance from a beginning one,
  // yet a sentence that states the amount "as of" the date holds no word of it.
  const atPoint = [...wording.matchAll(pointOfPeriod)].map((match) => match[0]).join(" ")
  const current = [...askedIn(wording.replace(pointOfPeriod, " "), 2), ...askedIn(atPoint, pointWeight)]
  const currentKeys = new Set(current.map((asked) => JSON.stringify(asked.alternatives)))
  const asked = [
    ...current,
    ...(earlier === undefined ? [] : askedIn(asFilingsWriteIt(earlier), 1)).filter((a) =>
      !currentKeys.has(JSON.stringify(a.alternatives))
    )
  ]
  if (asked.length === 0) return []
  // A follow-up's own period wins over the one it follows.
  const years = yearsIn(wording).length > 0 ? yearsIn(wording) : yearsIn(asFilingsWriteIt(earlier ?? ""))
  const period = TableReading.periodAsked(yearsIn(wording).length > 0 ? wording : asFilingsWriteIt(earlier ?? wording))
  const units = unitsOf(passages, { ...period, years })
  if (units.length === 0) return []
  // A concept most units hold (the company's name in its own filing) tells little.
  const rarity = asked.map((concept) => {
    const holding = units.filter((unit) => holds(unit, concept)).length
    return concept.weight * Math.log(1 + (units.length + 1) / (holding + 1))
  })
  const total = rarity.reduce((sum, weight) => sum + weight, 0)
  if (total === 0) return []
  const isYear = asked.map((concept) =>
    concept.alternatives.every((terms) => terms.every((t) => /^(?:19|20)\d\d$/.test(t)))
  )
  const measured = rarity.reduce((sum, weight, index) => sum + (isYear[index] ? 0 : weight), 0)
  const askedTerms = new Set(asked.flatMap((concept) => concept.alternatives.flat()))
  const counted = countedIn(wording)
  const scored = units.map((unit) => {
    const covered = asked.reduce((sum, concept, index) => sum + (holds(unit, concept) ? rarity[index]! : 0), 0) / total
    // A figure is what most questions about filings want; the better passages come first.
    const figure = /\d/.test(unit.text.replace(/\b(?:19|20)\d\d\b/g, "")) ? 0.1 : 0
    // A table row whose label is what is asked (`Total net sales`) states it, in the period's column.
    const labelTerms = unit.labelTerms
    const label = labelTerms === undefined || measured === 0 ?
      0 :
      0.4 * asked.reduce((sum, concept, index) =>
        sum + (!isYear[index] && concept.alternatives.some((terms) =>
            terms.every((t) =>
              labelTerms.has(t)
            ) && (terms.length < 2 || standsIn(unit.labelSequence ?? [], terms))
          )
          ? rarity[index]!
          : 0), 0) /
      measured
    // A label of nothing but what is asked (`Total assets`) is the row asked for; one with words of
    // its own (`Total current assets`) names a part of it.
    const ownLabel = unit.ownLabelTerms
    const ownWords = ownLabel === undefined ? [] : [...ownLabel].filter((term) =>
      term !== "total"
    )
    const exactness = ownWords.length === 0
      ? 0
      : ownWords.filter((term) =>
        askedTerms.has(term)
      ).length / ownWords.length
    const exactLabel = label * exactness
    // A unit that names other years than the one asked, and not it, is about another period.
    const unitYears = unit.text.match(/\b(?:19|20)\d\d\b/g) ?? []
    const otherPeriod = years.length > 0 && unitYears.length > 0 && !unitYears.some((year) => years.includes(year))
      ? 0.5
      : 1
    // A total is the answer unless the question names a part.
    const totalRow = labelTerms !== undefined && /^total\b/i.test(unit.text) ? 0.05 : 0
    // A financial statement's row is the figure reported; a note's row of the same name is a part.
    const statement = unit.statement === true ? 0.2 : 0
    // A row of one thing as a share of another (`... as a percentage of revenues`) is no amount.
    const share =
      labelTerms !== undefined && !period.percent && /\b(?:as a )?(?:percent(?:age)?|%) of\b/i.test(unit.text)
        ? 0.5
        : 1
    // A year asked is answered by the annual report; a quarterly report's figure is of a part of it.
    const quarterly = period.span === "year" && unit.passage.docType === "10-Q" ? 0.8 : 1
    // A count of something ("how many employees") is stated with its name; a unit without it is
    // another figure (an operating income in the same year).
    const countOf = counted === undefined || counted.every((term) => unit.terms.has(term)) ? 1 : 0.25
    // A long sentence buries its figure.
    const length = unit.words > 40 ? 40 / unit.words : 1
    return {
      unit,
      coverage: covered,
      score:
        ((covered + figure + exactLabel + totalRow + statement) * length * otherPeriod * share * quarterly * countOf *
          unit.fit) /
        (1 + 0.05 * unit.passage.rank)
    }
  }).filter((candidate) => candidate.coverage >= MinCoverage)
    .sort((a, b) => b.score - a.score || a.unit.index - b.unit.index)
  const best = scored[0]
  if (best === undefined) return []
  const chosen: Array<{ readonly unit: Unit; readonly words: ReadonlySet<string> }> = []
  for (const candidate of scored) {
    if (chosen.length >= MaxSentences || candidate.score < best.score * closeToBest) break
    const words = termsOf(candidate.unit.text)
    if (chosen.some((other) => overlapOf(other.words, words) > repeatOverlap)) continue
    chosen.push({ unit: candidate.unit, words })
  }
  return chosen.map(({ unit }) => ({
    text: unit.text,
    citations: [Feed.Citation.make({ source: unit.passage.source, chunkId: unit.passage.chunkId })]
  }))
}

const overlapOf = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
  let shared = 0
  for (const word of a) if (b.has(word)) shared++
  const union = a.size + b.size - shared
  return union === 0 ? 0 : shared / union
}
