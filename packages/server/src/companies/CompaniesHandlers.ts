/**
 * Handlers of the companies group: the company search (`GET /v1/companies`) and one company's
 * profile (`GET /v1/companies/{ticker}`).
 */
import { HttpApiBuilder } from "@effect/platform"
import { Api, ApiError, Company } from "@filings/domain"
import { CompanyStore } from "@filings/storage"
import { Effect, Option } from "effect"
import { orServiceUnavailable } from "../http/StorageFailures.js"
import * as CompanyProfiles from "./CompanyProfiles.js"

const DefaultListLimit = 50

export const layer = HttpApiBuilder.group(Api.FilingsApi, "companies", (handlers) =>
  Effect.gen(function*() {
    const companies = yield* CompanyStore.CompanyStore
    const profileOf = yield* CompanyProfiles.make

    const listCompanies = Effect.fn("companies.listCompanies")(function*(params: Company.CompanySearchParams) {
      const limit = params.limit ?? DefaultListLimit
      const offset = params.offset ?? 0
      const page = yield* companies.search({ q: params.q, exchange: params.exchange, limit, offset })
      return new Company.CompanyList({
        companies: page.companies.map((company) =>
          new Company.CompanyListItem({
            ticker: company.ticker,
            cik: company.cik,
            company_name: company.name,
            exchange: company.exchange ?? null,
            url: Company.companyPath(company.ticker)
          }, { disableValidation: true })
        ),
        total: page.total,
        limit,
        offset
      }, { disableValidation: true })
    })

    const getCompany = Effect.fn("companies.getCompany")(function*(path: typeof Company.CompanyPath.Type) {
      const profile = yield* profileOf(path.ticker)
      if (Option.isNone(profile)) return yield* ApiError.CompanyNotFound.forTicker(path.ticker)
      return profile.value
    })

    return handlers
      .handle("listCompanies", ({ urlParams }) => orServiceUnavailable(listCompanies(urlParams)))
      .handle("getCompany", ({ path }) => orServiceUnavailable(getCompany(path)))
  }))

/** The operator's routes: replace the stored list of listed companies, read a profile. */
export const adminLayer = HttpApiBuilder.group(Api.FilingsApi, "companiesAdmin", (handlers) =>
  Effect.gen(function*() {
    const companies = yield* CompanyStore.CompanyStore
    const profileOf = yield* CompanyProfiles.make
    return handlers
      .handle("saveCompanyListing", ({ payload }) =>
        companies.saveListing(payload.companies).pipe(
          Effect.map((saved) => new Company.CompanyListingSaved(saved)),
          orServiceUnavailable
        ))
      .handle("showCompany", ({ path }) =>
        profileOf(path.ticker).pipe(
          Effect.flatMap(Option.match({
            onNone: () => Effect.fail(ApiError.CompanyNotFound.forTicker(path.ticker)),
            onSome: Effect.succeed
          })),
          orServiceUnavailable
        ))
  }))
