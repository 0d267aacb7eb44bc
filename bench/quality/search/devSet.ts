/**
 * Builds the search development set, `dev-questions.json`: analyst questions over the documents of
 * `corpus.ts`, each with the document and the page(s) its answer is printed on.
 *
 * Two kinds:
 * - `xbrl`: made from the XBRL facts of the 10-Ks and 10-Qs (company facts by accession number, an
 *   XBRL instance, or the filing's inline XBRL) for the period the filing reports: a concept's
 *   analyst name (`concepts.ts`) in a question template, both chosen by a hash of the question's
 *   id. The evidence is every page where the parser's blocks print the figure as the document
 *   prints it (scaled: `9,447` in a table "in millions"); a figure printed on more than four pages,
 *   or too short to tell apart (under 100, or a year), makes no question.
 * - `hand`: written by hand (`handQuestions.ts`), pages checked in the parsed documents.
 *
 * The set holds questions, document paths and page numbers only, never the corpus's text.
 *
 *   node --import tsx bench/quality/search/devSet.ts   # rewrites bench/quality/search/dev-questions.json
 */
import { Blocks, Parser } from "@filings/filings-parser"
import { SearchText } from "@filings/storage"
import { Effect } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { basename, join } from "node:path"
import {
  choose,
  type ConceptNaming,
  concepts,
  durationTemplates,
  instantTemplates,
  perShareTemplates
} from "./concepts.js"
import { corpusDir, corpusPresent } from "./corpus.js"
import { handQuestions } from "./handQuestions.js"
import { daysBetween, type Fact, fromCompanyFacts, fromInlineXbrl, fromInstance } from "./xbrlFacts.js"

/** One question of the set. */
export interface DevQuestion {
  readonly id: string
  readonly kind: "xbrl" | "hand"
  readonly question: string
  /** The company's ticker as its documents are stored under, for the search restricted to it. */
  readonly ticker: string
  /** The evidence document: its corpus path ... */
  readonly file: string
  /** ... or, for a document made of one of the filing's exhibits, the exhibit's number (`99.1`). */
  readonly exhibit?: string
  /** The pages (1-based, physical) the answer is printed on: a result on any of them is a hit. */
  readonly pages: ReadonlyArray<number>
  /** The document's rendition: HTML, PDF, or a transcript. */
  readonly format: "html" | "pdf" | "transcript"
  /** The XBRL concept, or the subject of a hand-written question. */
  readonly topic: string
  /**
   * The answer's figure as the document prints it, without grouping commas or sign (`9447`, `6.08`),
   * where the question has one figure for an answer.
   */
  readonly figure?: string
}

/** Where the development set is kept. */
export const devSetPath = new URL("./dev-questions.json", import.meta.url)

/** Reads the committed development set. */
export const readDevSet = (): ReadonlyArray<DevQuestion> =>
  (JSON.parse(readFileSync(devSetPath, "utf8")) as { questions: ReadonlyArray<DevQuestion> }).questions

interface XbrlDocument {
  readonly file: string
  readonly ticker: string
  readonly form: "10-K" | "10-Q"
  /** How questions name the company. */
  readonly company: ReadonlyArray<string>
  readonly periodEnd: string
  /** How questions name the period: the year or quarter, and the months to date for a 10-Q. */
  readonly period: ReadonlyArray<string>
  readonly yearToDate?: string
  /** The period's end as written in a question. */
  readonly date: string
  readonly facts: () => Array<Fact>
}

const xbrl = (name: string) => join(corpusDir, "xbrl", name)
const corpusFile = (path: string) => join(corpusDir, path)

const xbrlDocuments: ReadonlyArray<XbrlDocument> = [
  {
    file: "10-K/aapl-10k-fy2024.htm",
    ticker: "AAPL",
    form: "10-K",
    company: ["Apple", "Apple Inc.", "AAPL"],
    periodEnd: "2024-09-28",
    period: ["fiscal 2024", "FY2024", "fiscal year 2024"],
    date: "September 28, 2024",
    facts: () => fromCompanyFacts(xbrl("aapl-companyfacts.json"), "0000320193-24-000123")
  },
  {
    file: "10-Q/aapl-10q-2023-07-01.htm",
    ticker: "AAPL",
    form: "10-Q",
    company: ["Apple", "Apple Inc.", "AAPL"],
    periodEnd: "2023-07-01",
    period: ["the third quarter of fiscal 2023", "Q3 FY2023", "the quarter ended July 1, 2023"],
    yearToDate: "the first nine months of fiscal 2023",
    date: "July 1, 2023",
    facts: () => fromCompanyFacts(xbrl("aapl-companyfacts.json"), "0000320193-23-000077")
  },
  {
    file: "pdf/aapl-10q-2023-07-01.pdf",
    ticker: "AAPL",
    form: "10-Q",
    company: ["Apple", "Apple Inc."],
    periodEnd: "2023-07-01",
    period: ["Q3 of fiscal 2023", "the June 2023 quarter", "the three months ended July 1, 2023"],
    yearToDate: "the nine months ended July 1, 2023",
    date: "July 1, 2023",
    facts: () => fromInstance(xbrl("aapl-10q-2023-07-01-instance.xml"))
  },
  {
    file: "10-Q/aapl-10q-2025-03-29.htm",
    ticker: "AAPL",
    form: "10-Q",
    company: ["Apple", "Apple Inc.", "AAPL"],
    periodEnd: "2025-03-29",
    period: ["the second quarter of fiscal 2025", "Q2 FY2025", "the March 2025 quarter"],
    yearToDate: "the first six months of fiscal 2025",
    date: "March 29, 2025",
    facts: () => fromInstance(xbrl("aapl-10q-2025-03-29-instance.xml"))
  },
  {
    file: "10-K/goog-10k-fy2023.htm",
    ticker: "GOOGL",
    form: "10-K",
    company: ["Alphabet", "Google", "Alphabet Inc."],
    periodEnd: "2023-12-31",
    period: ["2023", "fiscal 2023", "FY2023"],
    date: "December 31, 2023",
    facts: () => fromCompanyFacts(xbrl("goog-companyfacts.json"), "0001652044-24-000022")
  },
  {
    file: "10-Q/goog-10q-2023-06-30.htm",
    ticker: "GOOGL",
    form: "10-Q",
    company: ["Alphabet", "Google"],
    periodEnd: "2023-06-30",
    period: ["Q2 2023", "the second quarter of 2023", "the three months ended June 30, 2023"],
    yearToDate: "the first half of 2023",
    date: "June 30, 2023",
    facts: () => fromCompanyFacts(xbrl("goog-companyfacts.json"), "0001652044-23-000070")
  },
  {
    file: "10-K/nvda-10k-fy2024.htm",
    ticker: "NVDA",
    form: "10-K",
    company: ["NVIDIA", "Nvidia", "NVDA"],
    periodEnd: "2024-01-28",
    period: ["fiscal 2024", "FY2024", "fiscal year 2024"],
    date: "January 28, 2024",
    facts: () => fromCompanyFacts(xbrl("nvda-companyfacts.json"), "0001045810-24-000029")
  },
  {
    file: "10-K/gme-10k-fy2023.htm",
    ticker: "GME",
    form: "10-K",
    company: ["GameStop", "GME"],
    periodEnd: "2024-02-03",
    period: ["fiscal 2023", "fiscal year 2023"],
    date: "February 3, 2024",
    facts: () => fromInlineXbrl(corpusFile("10-K/gme-10k-fy2023.htm"))
  },
  {
    file: "10-Q/gme-10q-2023-07-29.htm",
    ticker: "GME",
    form: "10-Q",
    company: ["GameStop", "GME"],
    periodEnd: "2023-07-29",
    period: ["the second quarter of fiscal 2023", "Q2 2023", "the quarter ended July 29, 2023"],
    yearToDate: "the first half of fiscal 2023",
    date: "July 29, 2023",
    facts: () => fromInlineXbrl(corpusFile("10-Q/gme-10q-2023-07-29.htm"))
  },
  {
    file: "10-K/mara-10k-fy2023.htm",
    ticker: "MARA",
    form: "10-K",
    company: ["Marathon Digital", "MARA", "Marathon Digital Holdings"],
    periodEnd: "2023-12-31",
    period: ["2023", "fiscal 2023", "FY 2023"],
    date: "December 31, 2023",
    facts: () => fromInlineXbrl(corpusFile("10-K/mara-10k-fy2023.htm"))
  },
  {
    file: "10-K/crr-10k-fy2017.htm",
    ticker: "CRR",
    form: "10-K",
    company: ["CARBO Ceramics", "CARBO"],
    periodEnd: "2017-12-31",
    period: ["2017", "fiscal 2017", "FY2017"],
    date: "December 31, 2017",
    facts: () => fromInstance(xbrl("crr-10k-fy2017-instance.xml"))
  }
]

/** The pages of a document each figure is printed on, by its search term (`9447`, `6.08`). */
const figurePages = (file: string, form: string) =>
  Effect.gen(function*() {
    const bytes = new Uint8Array(readFileSync(corpusFile(file)))
    const parsed = yield* Parser.parse({ bytes, fileName: basename(file), form })
    const pages = new Map<string, Set<number>>()
    for (const block of parsed.blocks) {
      for (const { term } of SearchText.tokens(Blocks.blockText(block))) {
        if (!/^\d/.test(term)) continue
        const found = pages.get(term)
        if (found === undefined) pages.set(term, new Set([block.page]))
        else found.add(block.page)
      }
    }
    return pages
  })

const isDistinctive = (term: string): boolean => {
  const value = Number(term)
  return term.includes(".") ? value >= 0.1 : value >= 100 && !(value >= 1900 && value <= 2100)
}

/** The search term of a figure as the document prints it, and the unit a question names it in. */
const printedTerms = (fact: Fact, naming: ConceptNaming): Array<{ term: string; unit: string }> => {
  if (fact.printed !== undefined) {
    const term = SearchText.tokens(fact.printed)[0]?.term
    const magnitude = Math.abs(fact.value) / Number(fact.printed.replace(/,/g, ""))
    const unit = magnitude >= 1e6 ? "millions" : magnitude >= 1e3 ? "thousands" : "dollars"
    return term === undefined ? [] : [{ term, unit }]
  }
  const scales: ReadonlyArray<readonly [number, string]> = naming.perShare === true
    ? [[1, "dollars"]]
    : [[1e6, "millions"], [1e3, "thousands"], [1, "dollars"]]
  return scales.flatMap(([scale, unit]) => {
    const scaled = Math.abs(fact.value) / scale
    if (scale > 1 && !Number.isInteger(scaled)) return []
    const term = SearchText.tokens(String(scaled))[0]?.term
    return term === undefined ? [] : [{ term, unit }]
  })
}

type PeriodKind = "year" | "quarter" | "yearToDate" | "instant"

const periodKind = (document: XbrlDocument, fact: Fact): PeriodKind | undefined => {
  if (fact.end !== document.periodEnd) return undefined
  if (fact.start === undefined) return "instant"
  const days = daysBetween(fact.start, fact.end)
  if (document.form === "10-K") return days >= 350 && days <= 380 ? "year" : undefined
  if (days >= 80 && days <= 100) return "quarter"
  return days > 100 && days < 300 ? "yearToDate" : undefined
}

const formatRendition = (file: string): DevQuestion["format"] => file.endsWith(".pdf") ? "pdf" : "html"

const questionsOf = (document: XbrlDocument) =>
  Effect.gen(function*() {
    const pagesOf = yield* figurePages(document.file, document.form)
    const seen = new Set<string>()
    const questions: Array<DevQuestion> = []
    const order = Object.keys(concepts)
    const facts = document.facts()
      .filter((fact) => concepts[fact.concept] !== undefined)
      .sort((a, b) => order.indexOf(a.concept) - order.indexOf(b.concept))
    for (const fact of facts) {
      const naming = concepts[fact.concept]!
      const kind = periodKind(document, fact)
      if (kind === undefined) continue
      // A 10-Q's figures to date only where the quarter has none (the statement of cash flows).
      if (
        kind === "yearToDate" &&
        facts.some((other) => other.concept === fact.concept && periodKind(document, other) === "quarter")
      ) continue
      const id = `xbrl:${document.file}:${fact.concept}:${kind}`
      // One question per figure and period: a concept and its alias (`Revenues`, `RevenueFrom...`) are one.
      const figureKey = `${kind}:${fact.value}`
      if (seen.has(id) || seen.has(figureKey)) continue
      const printed = printedTerms(fact, naming).find(({ term }) => {
        const pages = pagesOf.get(term)
        return isDistinctive(term) && pages !== undefined && pages.size <= 4
      })
      if (printed === undefined) continue
      seen.add(id)
      seen.add(figureKey)
      const templates = naming.perShare === true
        ? perShareTemplates
        : kind === "instant"
        ? instantTemplates
        : [...durationTemplates, ...(naming.questions ?? [])]
      const period = kind === "yearToDate" ? document.yearToDate! : choose(document.period, `${id}:period`)
      const question = choose(templates, `${id}:template`)
        .replace("{company}", choose(document.company, `${id}:company`))
        .replace("{name}", choose(naming.names, `${id}:name`))
        .replace("{period}", period)
        .replace("{date}", document.date)
        .replace("{unit}", printed.unit)
        .replace("{form}", document.form)
        .replace(/\bthe the\b/g, "the")
        .replace(/s's\b/g, "s'")
      questions.push({
        id,
        kind: "xbrl",
        question: question.charAt(0).toUpperCase() + question.slice(1),
        ticker: document.ticker,
        file: document.file,
        pages: [...pagesOf.get(printed.term)!].sort((a, b) => a - b),
        format: formatRendition(document.file),
        topic: fact.concept,
        figure: printed.term
      })
    }
    return questions
  })

/** Every question of the set: generated from XBRL facts, then the hand-written ones. */
export const buildDevSet = Effect.gen(function*() {
  const generated: Array<DevQuestion> = []
  for (const document of xbrlDocuments) generated.push(...yield* questionsOf(document))
  return [...generated, ...handQuestions.map((question): DevQuestion => ({ ...question, kind: "hand" }))]
})

if (process.argv[1] !== undefined && import.meta.url.endsWith(basename(process.argv[1]))) {
  if (!corpusPresent()) throw new Error("../shared/corpus is absent: the development set is built from it")
  const questions = await Effect.runPromise(buildDevSet)
  writeFileSync(devSetPath, JSON.stringify({ questions }, null, 1) + "\n")
  const count = (kind: string) => questions.filter((question) => question.kind === kind).length
  console.log(`${questions.length} questions (${count("xbrl")} from XBRL facts, ${count("hand")} by hand)`)
}
