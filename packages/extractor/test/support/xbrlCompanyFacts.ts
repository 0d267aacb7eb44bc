/**
 * The regulator's companyfacts JSON (`facts[taxonomy][concept].units[unit] = [{start?, end, val, accn, ...}]`)
 * as the expected values for one filing: the first concept of a metric the regulator reports for the
 * filing's accession number and period.
 */
import { type ConceptMetricName, type MetricConcepts, metricConcepts } from "../../src/internal/xbrl/concepts.js"

export interface CompanyFact {
  readonly start?: string
  readonly end: string
  readonly val: number
  readonly accn: string
  readonly fy?: number
  readonly fp?: string
  readonly form?: string
}

export interface CompanyFacts {
  readonly facts: Record<string, Record<string, { readonly units: Record<string, ReadonlyArray<CompanyFact>> }>>
}

export interface ExpectedMetric {
  readonly concept: string
  readonly unit: string
  readonly fact: CompanyFact
}

const days = (start: string, end: string) => (Date.parse(end) - Date.parse(start)) / 86_400_000

/**
 * The expected metric: for each concept in order of preference, the regulator's facts of the accession
 * number at the period end (durations of the right length; the cover share count at its own date).
 */
export const expectedMetric = (
  companyFacts: CompanyFacts,
  name: ConceptMetricName,
  accn: string,
  period: { readonly endDate: string; readonly quarterly: boolean }
): ExpectedMetric | undefined => {
  const spec: MetricConcepts = metricConcepts[name]
  for (const concept of spec.concepts) {
    const [taxonomy, local] = concept.split(":")
    const units = companyFacts.facts[taxonomy ?? ""]?.[local ?? ""]?.units
    if (units === undefined) continue
    for (const [unit, facts] of Object.entries(units)) {
      const matches = facts.filter((fact) => {
        if (fact.accn !== accn) return false
        if (concept === "dei:EntityCommonStockSharesOutstanding") return true
        if (spec.kind === "instant") return fact.start === undefined && fact.end === period.endDate
        if (fact.start === undefined || fact.end !== period.endDate) return false
        const length = days(fact.start, fact.end)
        return period.quarterly ? length >= 80 && length <= 100 : length >= 350 && length <= 380
      })
      const latest = matches.sort((a, b) => b.end.localeCompare(a.end))[0]
      if (latest !== undefined) return { concept, unit, fact: latest }
    }
  }
  return undefined
}
