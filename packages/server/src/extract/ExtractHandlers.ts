/**
 * Handlers of the extract group. Extraction runs at ingestion and is stored; these only read:
 * one document's extraction, metric series across companies, and classified tables as JSON or CSV.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Api, ApiError, type DocType, ExtractionApi, type Ids } from "@filings/domain"
import { CompanyStore, DocumentStore, ExtractionStore } from "@filings/storage"
import { Effect, Option } from "effect"
import { checkDateRange } from "../http/DateRange.js"
import { orServiceUnavailable } from "../http/StorageFailures.js"
import { allFields, type Field, servedPeriod, toCompanyMetrics, toCsv, toExtractionResult } from "./ExtractResponses.js"

const DefaultMetricDocTypes: ReadonlyArray<DocType.DocType> = ["10-K", "10-Q"]
const DefaultTableDocTypes: ReadonlyArray<DocType.DocType> = ["10-K"]
const DefaultTableLimit = 50

const emptyExtraction: ExtractionStore.StoredExtraction = { metrics: [], tables: [], exhibits: [], warnings: [] }

/** `eps` is an alias of `eps_diluted`; the response keeps the name asked for. */
const storedMetricName = (asked: string): string => (asked === "eps" ? "eps_diluted" : asked)

/**
 * Annual series keep fiscal-year values (`FY 2024`), quarterly ones quarter values (`Q3 2024`), from
 * any form (an earnings release's quarter counts), by the period served (balances stored with their
 * date in `period` are served with the document's period).
 */
const fitsFrequency = (frequency: "annual" | "quarterly" | "all") => (point: ExtractionStore.MetricPoint): boolean => {
  if (frequency === "all") return true
  const { period } = servedPeriod(point.metric, point.documentPeriod)
  if (period.startsWith("FY ")) return frequency === "annual"
  if (/^Q[1-4] /.test(period)) return frequency === "quarterly"
  const annualFiling = point.docType === "10-K" || point.docType === "20-F"
  return frequency === "annual" ? annualFiling : point.docType === "10-Q"
}

export const layer = HttpApiBuilder.group(Api.FilingsApi, "extract", (handlers) =>
  Effect.gen(function*() {
    const documents = yield* DocumentStore.DocumentStore
    const extractions = yield* ExtractionStore.ExtractionStore
    const companies = yield* CompanyStore.CompanyStore

    const extractDocument = Effect.fn("extract.extractDocument")(function*(
      publicationId: Ids.PublicationId,
      params: typeof ExtractionApi.ExtractParams.Type
    ) {
      const document = yield* documents.findMetadata(publicationId)
      if (Option.isNone(document)) return yield* ApiError.DocumentNotFound.forId(publicationId)
      const asked = params.fields ?? ["all"]
      const fields: ReadonlyArray<Field> = asked.includes("all")
        ? allFields
        : allFields.filter((field) => asked.includes(field))
      const extraction = Option.getOrElse(yield* extractions.find(publicationId), () => emptyExtraction)
      return toExtractionResult(document.value, extraction, fields)
    })

    const bulkMetrics = Effect.fn("extract.bulkMetrics")(
      function*(params: typeof ExtractionApi.BulkMetricsParams.Type) {
        const { end_date, start_date } = params
        yield* checkDateRange(start_date, end_date)
        const requested = [...new Set(params.metrics)].map((asked) => ({ asked, stored: storedMetricName(asked) }))
        // Each company's points, whichever of its tickers (a second class) its filings were stored under.
        const aliases = yield* companies.aliasesOf(params.tickers)
        const tickersOf = (ticker: Ids.Ticker) => [ticker, ...(aliases.get(ticker) ?? [])]
        const points = yield* extractions.metricSeries({
          tickers: [...new Set(params.tickers.flatMap(tickersOf))],
          metrics: [...new Set(requested.map((metric) => metric.stored))],
          docTypes: params.doc_types ?? DefaultMetricDocTypes,
          startDate: start_date,
          endDate: end_date
        })
        const fitting = points.filter(fitsFrequency(params.frequency ?? "all"))
        const perTicker = yield* Effect.forEach(params.tickers, (ticker) =>
          Effect.gen(function*() {
            const own = fitting.filter((point) => tickersOf(ticker).includes(point.ticker))
            // The company's primary ticker and name now (the points are oldest first, each under the
            // name it was filed under).
            const company = yield* companies.findByTicker(ticker)
            const companyName = Option.getOrElse(
              Option.map(company, (found) => found.name),
              () => own.at(-1)?.companyName ?? ""
            )
            const primary = Option.getOrElse(Option.map(company, (found) => found.ticker), () => ticker)
            return toCompanyMetrics(primary, companyName, requested, own)
          }))
        const body: typeof ExtractionApi.CompanyMetricsList.Encoded | typeof ExtractionApi.CompanyMetrics.Encoded =
          perTicker.length === 1 ? perTicker[0]! : { results: perTicker }
        // Built as the JSON it is sent as (see `toCompanyMetrics`), not encoded again.
        return HttpServerResponse.unsafeJson(body)
      }
    )

    const bulkTables = Effect.fn("extract.bulkTables")(function*(params: typeof ExtractionApi.BulkTablesParams.Type) {
      const tableType = params.table_type ?? "all"
      const limit = params.limit ?? DefaultTableLimit
      const offset = params.offset ?? 0
      const aliases = yield* companies.aliasesOf(params.tickers)
      const page = yield* extractions.tables({
        tickers: [...new Set(params.tickers.flatMap((ticker) => [ticker, ...(aliases.get(ticker) ?? [])]))],
        docTypes: params.doc_types ?? DefaultTableDocTypes,
        ...(tableType === "all" ? {} : { tableTypes: [tableType] }),
        limit,
        offset
      })
      if (params.format === "csv") {
        return HttpServerResponse.text(toCsv(page.results), { contentType: "text/csv; charset=utf-8" })
      }
      return new ExtractionApi.CompanyTables({
        tables: page.results.map(({ document, table }) =>
          new ExtractionApi.CompanyTable({
            ticker: document.ticker,
            companyName: document.companyName,
            publicationId: document.publicationId,
            docType: document.docType,
            filingDate: document.filingDate,
            period: document.period,
            ...table
          }, { disableValidation: true })
        ),
        total: page.total,
        limit,
        offset
      }, { disableValidation: true })
    })

    return handlers
      .handle(
        "extractDocument",
        ({ path, urlParams }) => orServiceUnavailable(extractDocument(path.publication_id, urlParams))
      )
      .handle("bulkMetrics", ({ urlParams }) => orServiceUnavailable(bulkMetrics(urlParams)))
      .handle("bulkTables", ({ urlParams }) => orServiceUnavailable(bulkTables(urlParams)))
  }))
