/**
 * From a fact set to metrics: the filing's own reporting period (dei cover facts), the totals (facts
 * without dimensions) for that period, duplicates checked, the prior-year fact for the change.
 */
import type { FactSet, NumericFact, XbrlContext } from "@filings/filings-parser/XbrlFacts"
import type { MetricValue } from "../../MetricValue.js"
import { findDate } from "../dates.js"
import { metricConcepts, type MetricName, metricNames, type MetricUnit } from "./concepts.js"
import { type DebtFact, totalDebtAt, totalDebtConcepts } from "./totalDebt.js"

/** The reporting period of the filing, from its dei cover facts. */
export interface ReportingPeriod {
  /** ISO date the period ends (the document's own context, or `dei:DocumentPeriodEndDate`). */
  readonly endDate: string
  readonly startDate?: string | undefined
  readonly fiscalYear?: number | undefined
  /** `FY`, `Q1`, `Q2`, `Q3` or `Q4`. */
  readonly fiscalPeriod?: string | undefined
  readonly documentType?: string | undefined
  /** `FY 2024` or `Q3 2024`, the label every metric carries. */
  readonly label: string
}

/** A selected metric, with the fact's own dates so a caller can check it against the regulator's data. */
export interface SelectedMetric extends MetricValue {
  readonly startDate?: string | undefined
  /** The duration's end or the instant. */
  readonly endDate: string
}

export interface Selection {
  readonly metrics: Partial<Record<MetricName, SelectedMetric>>
  readonly period?: ReportingPeriod | undefined
  readonly warnings: ReadonlyArray<string>
}

interface TotalFact {
  readonly concept: string
  readonly measure: string
  readonly startDate?: string | undefined
  readonly endDate: string
  readonly instant: boolean
  value: number
  decimals: number | undefined
  conflicting: boolean
}

const dayMs = 86_400_000
const toDays = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / dayMs
const lengthInDays = (start: string, end: string): number => toDays(end) - toDays(start)

/** Fiscal years of 52 or 53 weeks and quarters of 13 or 14 weeks fall inside these bounds. */
const isAnnual = (days: number) => days >= 350 && days <= 380
const isQuarter = (days: number) => days >= 80 && days <= 100

/** Two reported values agree when they are equal at the lower of their precisions (XBRL duplicate rule). */
const agree = (a: number, aDecimals: number | undefined, b: number, bDecimals: number | undefined): boolean => {
  if (a === b) return true
  const decimals = Math.min(aDecimals ?? Infinity, bDecimals ?? Infinity)
  if (!Number.isFinite(decimals)) return false
  const round = (value: number) => Math.round(value * 10 ** decimals)
  return round(a) === round(b)
}

/** Reads the date a dei fact gives (`2024-09-28`, `September 28, 2024`, `28 September 2024`) as ISO. */
export const parseDate = (text: string): string | undefined => findDate(text)

const unitClass = (measure: string): MetricUnit | undefined => {
  if (/^[A-Z]{3}$/.test(measure)) return "currency"
  if (/^[A-Z]{3}\/shares$/.test(measure)) return "perShare"
  if (measure === "shares") return "shares"
  return undefined
}

/** The unit shown with a metric: the currency for money and per-share amounts, `shares` for counts. */
const displayUnit = (measure: string): string => measure.endsWith("/shares") ? measure.slice(0, 3) : measure

const calendarQuarter = (date: string): string => `Q${Math.ceil(Number(date.slice(5, 7)) / 3)} ${date.slice(0, 4)}`

const readPeriod = (facts: FactSet, warnings: Array<string>): ReportingPeriod | undefined => {
  const cover = new Map<string, { readonly text: string; readonly context?: XbrlContext | undefined }>()
  for (const fact of facts.textFacts) {
    if (!fact.concept.startsWith("dei:")) continue
    const context = facts.contexts.get(fact.contextRef)
    // The cover facts of the document's own context have no dimensions; keep the first of those.
    if (context !== undefined && context.dimensions.length > 0) continue
    if (!cover.has(fact.concept)) cover.set(fact.concept, { text: fact.text, context })
  }
  const periodEnd = cover.get("dei:DocumentPeriodEndDate")
  const documentContext = periodEnd?.context ?? cover.get("dei:DocumentType")?.context
  const endDate = (periodEnd === undefined ? undefined : parseDate(periodEnd.text)) ?? documentContext?.endDate ??
    documentContext?.instant
  if (endDate === undefined) {
    warnings.push("no dei:DocumentPeriodEndDate: the reporting period is unknown, no metrics selected")
    return undefined
  }
  // The document context's end is what the facts use; the cover text may be off by the 52/53-week convention.
  const contextEnd = documentContext?.endDate
  const end = contextEnd !== undefined && Math.abs(toDays(contextEnd) - toDays(endDate)) <= 7 ? contextEnd : endDate
  const yearText = cover.get("dei:DocumentFiscalYearFocus")?.text
  const fiscalYear = yearText !== undefined && /^\d{4}$/.test(yearText.trim()) ? Number(yearText.trim()) : undefined
  const documentType = cover.get("dei:DocumentType")?.text
  let fiscalPeriod = cover.get("dei:DocumentFiscalPeriodFocus")?.text.trim().toUpperCase()
  if (fiscalPeriod === undefined || !/^(FY|Q[1-4])$/.test(fiscalPeriod)) {
    fiscalPeriod = documentType?.startsWith("10-K") || documentType?.startsWith("20-F") ? "FY" : undefined
  }
  const year = fiscalYear ?? Number(end.slice(0, 4))
  // A document without a fiscal period (an 8-K) is labelled by the calendar quarter of its date.
  const label = fiscalPeriod === undefined ? calendarQuarter(end) : `${fiscalPeriod} ${year}`
  return {
    endDate: end,
    startDate: documentContext?.startDate,
    fiscalYear,
    fiscalPeriod,
    documentType,
    label
  }
}

/** Totals (facts without dimensions) keyed by concept, duplicates collapsed or flagged as conflicting. */
const indexTotals = (facts: FactSet, warnings: Array<string>): Map<string, Array<TotalFact>> => {
  const byConcept = new Map<string, Array<TotalFact>>()
  const missingContexts = new Map<string, number>()
  const missingUnits = new Map<string, number>()
  for (const fact of facts.numericFacts) {
    const context = facts.contexts.get(fact.contextRef)
    if (context === undefined) {
      missingContexts.set(fact.contextRef, (missingContexts.get(fact.contextRef) ?? 0) + 1)
      continue
    }
    if (fact.value === null || context.dimensions.length > 0) continue
    const unit = facts.units.get(fact.unitRef)
    if (unit === undefined) {
      missingUnits.set(fact.unitRef, (missingUnits.get(fact.unitRef) ?? 0) + 1)
      continue
    }
    addTotal(byConcept, { ...fact, value: fact.value }, context, unit.measure, warnings)
  }
  for (const [ref, count] of missingContexts) {
    warnings.push(`context ${JSON.stringify(ref)} is not defined: ${count} fact(s) skipped`)
  }
  for (const [ref, count] of missingUnits) {
    warnings.push(`unit ${JSON.stringify(ref)} is not defined: ${count} fact(s) skipped`)
  }
  return byConcept
}

const addTotal = (
  byConcept: Map<string, Array<TotalFact>>,
  fact: NumericFact & { readonly value: number },
  context: XbrlContext,
  measure: string,
  warnings: Array<string>
) => {
  const instant = context.instant !== undefined
  const endDate = context.instant ?? context.endDate
  if (endDate === undefined) return
  const startDate = instant ? undefined : context.startDate
  let list = byConcept.get(fact.concept)
  if (list === undefined) byConcept.set(fact.concept, list = [])
  const same = list.find((total) =>
    total.measure === measure && total.endDate === endDate && total.startDate === startDate && total.instant === instant
  )
  if (same === undefined) {
    list.push({
      concept: fact.concept,
      measure,
      startDate,
      endDate,
      instant,
      value: fact.value,
      decimals: fact.decimals,
      conflicting: false
    })
    return
  }
  if (agree(same.value, same.decimals, fact.value, fact.decimals)) {
    // Keep the more precise of two agreeing duplicates.
    if ((fact.decimals ?? Infinity) > (same.decimals ?? Infinity)) {
      same.value = fact.value
      same.decimals = fact.decimals
    }
    return
  }
  if (!same.conflicting) {
    warnings.push(
      `conflicting duplicate facts for ${fact.concept} (${startDate ?? ""}${
        startDate ? "/" : ""
      }${endDate}, ${measure}): ` +
        `${same.value} and ${fact.value}; not used`
    )
  }
  same.conflicting = true
}

const conflictFree = (facts: ReadonlyArray<TotalFact>) => facts.filter((fact) => !fact.conflicting)

/** The currency to prefer when a concept is reported in several: USD, then the only one there is. */
const preferUnit = (candidates: ReadonlyArray<TotalFact>): TotalFact | undefined =>
  candidates.find((fact) => fact.measure.startsWith("USD")) ?? (candidates.length === 1 ? candidates[0] : undefined)

const durationMatches = (fact: TotalFact, end: string, quarterly: boolean) =>
  !fact.instant && fact.startDate !== undefined && fact.endDate === end &&
  (quarterly ? isQuarter : isAnnual)(lengthInDays(fact.startDate, fact.endDate))

const nearYearEarlier = (date: string, reference: string) => Math.abs(toDays(reference) - 365 - toDays(date)) <= 7

const findPrior = (facts: ReadonlyArray<TotalFact>, current: TotalFact): TotalFact | undefined => {
  const length = current.startDate === undefined ? 0 : lengthInDays(current.startDate, current.endDate)
  return facts.find((fact) =>
    fact.measure === current.measure && fact.instant === current.instant &&
    nearYearEarlier(fact.endDate, current.endDate) &&
    (current.instant ||
      (fact.startDate !== undefined && Math.abs(lengthInDays(fact.startDate, fact.endDate) - length) <= 7))
  )
}

const yoy = (current: number, prior: number | undefined): number | undefined =>
  prior === undefined || prior === 0 ? undefined : (current - prior) / Math.abs(prior)

/** Selects the metrics of a filing from its facts. */
export const selectMetrics = (facts: FactSet): Selection => {
  const warnings: Array<string> = [...facts.warnings]
  const totals = indexTotals(facts, warnings)
  const period = readPeriod(facts, warnings)
  const metrics: Partial<Record<MetricName, SelectedMetric>> = {}
  if (period === undefined) return { metrics, warnings }
  const quarterly = period.fiscalPeriod !== undefined && period.fiscalPeriod !== "FY"

  const pick = (
    concept: string,
    kind: "duration" | "instant",
    unit: MetricUnit
  ): TotalFact | "conflict" | undefined => {
    const facts = (totals.get(concept) ?? []).filter((fact) => unitClass(fact.measure) === unit)
    let matches: Array<TotalFact>
    if (concept === "dei:EntityCommonStockSharesOutstanding") {
      // The cover count is as of its own date, after the period end: the latest one.
      const latest = facts.filter((fact) => fact.instant).sort((a, b) => b.endDate.localeCompare(a.endDate))[0]
      matches = latest === undefined ? [] : facts.filter((fact) => fact.instant && fact.endDate === latest.endDate)
    } else {
      matches = facts.filter((fact) =>
        kind === "instant"
          ? fact.instant && fact.endDate === period.endDate
          : durationMatches(fact, period.endDate, quarterly)
      )
    }
    if (matches.length === 0) return undefined
    if (matches.some((fact) => fact.conflicting)) return "conflict"
    return preferUnit(matches)
  }

  const toMetric = (fact: TotalFact, prior: TotalFact | undefined, source: string): SelectedMetric => ({
    value: fact.value,
    unit: displayUnit(fact.measure),
    period: period.label,
    asOf: fact.instant ? fact.endDate : undefined,
    yoyChange: yoy(fact.value, prior?.value),
    source,
    startDate: fact.startDate,
    endDate: fact.endDate
  })

  for (const name of metricNames) {
    if (name === "book_value_per_share" || name === "total_debt") continue
    const { concepts, kind, unit } = metricConcepts[name]
    for (const concept of concepts) {
      const chosen = pick(concept, kind, unit)
      if (chosen === undefined) continue
      if (chosen === "conflict") {
        warnings.push(`${name}: ${concept} has conflicting values for the period; metric omitted`)
        break
      }
      const prior = findPrior(conflictFree(totals.get(concept) ?? []), chosen)
      metrics[name] = toMetric(chosen, prior, concept)
      break
    }
  }

  const debt = selectTotalDebt(totals, period.endDate, warnings)
  if (debt !== undefined) {
    metrics.total_debt = {
      value: debt.value,
      unit: displayUnit(debt.measure),
      period: period.label,
      asOf: period.endDate,
      yoyChange: yoy(debt.value, debt.prior),
      source: debt.source,
      endDate: period.endDate
    }
  }

  const equity = metrics.total_equity
  const shares = metrics.shares_outstanding
  if (equity !== undefined && shares !== undefined && shares.value > 0) {
    metrics.book_value_per_share = {
      value: equity.value / shares.value,
      unit: equity.unit,
      period: equity.period,
      asOf: equity.asOf,
      source: "derived",
      endDate: equity.endDate
    }
  }
  return { metrics, period, warnings }
}

/** total_debt at the period end, and at the same date a year earlier for the change. */
const selectTotalDebt = (
  totals: ReadonlyMap<string, ReadonlyArray<TotalFact>>,
  endDate: string,
  warnings: Array<string>
):
  | { readonly value: number; readonly measure: string; readonly source: string; readonly prior?: number }
  | undefined =>
{
  const factAt = (concept: string, date: string): DebtFact | "conflict" | undefined => {
    const matches = (totals.get(concept) ?? []).filter((fact) =>
      fact.instant && fact.endDate === date && unitClass(fact.measure) === "currency"
    )
    if (matches.length === 0) return undefined
    if (matches.some((fact) => fact.conflicting)) return "conflict"
    return preferUnit(matches)
  }
  const current = totalDebtAt(factAt, endDate, warnings)
  if (current === undefined) return undefined
  const priorDate = totalDebtConcepts
    .flatMap((concept) => totals.get(concept) ?? [])
    .find((fact) => fact.instant && nearYearEarlier(fact.endDate, endDate))?.endDate
  const prior = priorDate === undefined ? undefined : totalDebtAt(factAt, priorDate, [], current.measure)
  return prior === undefined ? current : { ...current, prior: prior.value }
}
