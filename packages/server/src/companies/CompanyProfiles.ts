/**
 * A company's profile as `GET /v1/companies/{ticker}` serves it, put together from the stores: the
 * company and what the regulator says of it (company store), its documents counted by type with the
 * newest of each (document store), and the newest value of each metric (extraction store).
 */
import { Company, type Ids } from "@filings/domain"
import { ExtractionApi } from "@filings/domain"
import { CompanyStore, DocumentStore, ExtractionStore } from "@filings/storage"
import { Effect, Option } from "effect"

/** The forms whose metrics a profile shows: the periodic reports, whose numbers are the company's own. */
const PeriodicForms = ["10-K", "10-Q", "20-F", "6-K"] as const

const isNewer = (a: ExtractionStore.MetricPoint, b: ExtractionStore.MetricPoint) =>
  a.filingDate > b.filingDate || a.filingDate === b.filingDate && a.publicationId > b.publicationId

/** The newest value of each metric, keyed by metric name in the order of `ExtractionApi.MetricNames`. */
export const latestMetrics = (points: ReadonlyArray<ExtractionStore.MetricPoint>) => {
  const newest = new Map<string, ExtractionStore.MetricPoint>()
  for (const point of points) {
    const seen = newest.get(point.metric.name)
    if (seen === undefined || isNewer(point, seen)) newest.set(point.metric.name, point)
  }
  const metrics: Record<string, Company.LatestMetric> = {}
  for (const name of ExtractionApi.MetricNames) {
    const point = newest.get(name)
    if (point === undefined) continue
    const { asOf, unit, value } = point.metric
    metrics[name] = new Company.LatestMetric({
      value,
      unit,
      // The document's period: an extraction stored before balances had `asOf` holds the date in `period`.
      period: point.documentPeriod,
      ...(asOf === undefined ? {} : { as_of: asOf }),
      publication_id: point.publicationId,
      doc_type: point.docType,
      filing_date: point.filingDate
    }, { disableValidation: true })
  }
  return metrics
}

const formerNamesOf = (details: CompanyStore.CompanyDetails | undefined) =>
  (details?.formerNames ?? []).map((former) => new Company.FormerName({ name: former.name, until: former.to ?? null }))

/**
 * Reads profiles from the stores: the returned function gives the profile of the company a ticker
 * names (its primary one or another class its cover or the regulator's list gives it), none when
 * no company has it.
 */
export const make = Effect.gen(function*() {
  const companies = yield* CompanyStore.CompanyStore
  const documents = yield* DocumentStore.DocumentStore
  const extractions = yield* ExtractionStore.ExtractionStore
  return Effect.fn("CompanyProfiles.profileOf")(function*(ticker: Ids.Ticker) {
    const found = yield* companies.findProfile(ticker)
    if (Option.isNone(found)) return Option.none<Company.CompanyProfile>()
    const { company, details, exchange, tickers } = found.value
    const [counts, points] = yield* Effect.all([
      documents.countByType(company.cik),
      // Under every ticker of the company: its filings may be stored under another class's.
      extractions.metricSeries({
        tickers,
        metrics: ExtractionApi.MetricNames,
        docTypes: PeriodicForms
      })
    ], { concurrency: 2 })
    return Option.some(
      new Company.CompanyProfile({
        ticker: company.ticker,
        cik: company.cik,
        company_name: company.name,
        former_names: formerNamesOf(details),
        tickers,
        exchange: exchange ?? null,
        sic: details?.sic ?? null,
        sic_description: details?.sicDescription ?? null,
        state_of_incorporation: details?.stateOfIncorporation ?? null,
        fiscal_year_end: details?.fiscalYearEnd ?? null,
        document_counts: Object.fromEntries(counts.map((count) => [count.docType, count.count])),
        latest: Object.fromEntries(counts.map((count) => [count.docType, count.latest])),
        latest_metrics: latestMetrics(points),
        pending_fields: details === undefined ? Company.DetailFields : []
      }, { disableValidation: true })
    )
  })
})
