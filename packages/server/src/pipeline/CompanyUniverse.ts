/**
 * The companies the pipeline follows: every company the regulator lists with a ticker
 * (`company_tickers.json`, read at start and once a day), narrowed to the watch list when there is
 * one. Documents are keyed by ticker, so a filer without one (a fund, a private issuer) is not
 * followed. The list is held in memory for the discovery loop; a company is written to the company
 * store when its first filing is ingested.
 */
import { Ids } from "@filings/domain"
import { CompanyTickers, EdgarClient } from "@filings/edgar"
import { CompanyStore } from "@filings/storage"
import { Context, Effect, Layer, Option, Ref, Schema } from "effect"
import { PipelineConfig } from "./PipelineConfig.js"

export interface FollowedCompany {
  readonly cik: Ids.Cik
  readonly ticker: Ids.Ticker
  readonly name: string
}

export interface Service {
  /** Reads the regulator's list again; the previous one stays in use when that fails. */
  readonly refresh: Effect.Effect<number, unknown>
  /** The company when it is followed. */
  readonly find: (cik: Ids.Cik) => Effect.Effect<Option.Option<FollowedCompany>>
  /** Makes sure the company store knows the company, so ingestion finds its ticker. */
  readonly remember: (company: FollowedCompany) => Effect.Effect<void, unknown>
  readonly size: Effect.Effect<number>
}

const decodeTicker = Schema.decodeOption(Ids.Ticker)

export class CompanyUniverse extends Context.Tag("@filings/server/CompanyUniverse")<CompanyUniverse, Service>() {}

export const make = Effect.gen(function*() {
  const client = yield* EdgarClient.EdgarClient
  const companies = yield* CompanyStore.CompanyStore
  const { tickers: watchList } = yield* PipelineConfig
  const byCik = yield* Ref.make(new Map<string, FollowedCompany>())

  const refresh = Effect.gen(function*() {
    const text = yield* client.getText({ path: CompanyTickers.companyTickersPath })
    const { companies: listed, warnings } = yield* CompanyTickers.readCompanyTickers(text)
    for (const warning of warnings) yield* Effect.logDebug(`company tickers: ${warning}`)
    const next = new Map<string, FollowedCompany>()
    for (const company of listed) {
      const decoded = decodeTicker(company.ticker)
      if (Option.isNone(decoded)) continue
      const ticker = decoded.value
      if (watchList.length > 0 && !watchList.includes(ticker)) continue
      // The list ranks a company's main class first (GOOGL before GOOG): keep the first ticker.
      if (!next.has(company.cik)) next.set(company.cik, { cik: company.cik, ticker, name: company.name })
    }
    yield* Ref.set(byCik, next)
    yield* Effect.logInfo(`following ${next.size} companies`)
    return next.size
  }).pipe(Effect.withSpan("CompanyUniverse.refresh"))

  const find = (cik: Ids.Cik) => Effect.map(Ref.get(byCik), (map) => Option.fromNullable(map.get(cik)))

  const remember = (company: FollowedCompany) =>
    Effect.gen(function*() {
      const known = yield* companies.findByCik(company.cik)
      if (Option.isNone(known)) yield* companies.upsert(company)
    })

  return CompanyUniverse.of({ refresh, find, remember, size: Effect.map(Ref.get(byCik), (map) => map.size) })
})

export const layer = Layer.effect(CompanyUniverse, make)
