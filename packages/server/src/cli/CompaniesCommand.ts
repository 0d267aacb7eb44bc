/**
 * `filings companies sync`: reads the regulator's list of listed companies (every ticker with its
 * company and exchange, one request) and replaces the stored list with it, directly or through a
 * running server. The companies' details (industry, state, former names) are read later, in the
 * background, by a server that follows EDGAR. `filings companies show TICKER` prints a company's
 * profile as `GET /v1/companies/{ticker}` serves it.
 */
import { Args, Command } from "@effect/cli"
import { Company, Ids } from "@filings/domain"
import { EdgarConfig } from "@filings/edgar"
import { Effect, Schema } from "effect"
import { fetchListing } from "../companies/CompanyDirectory.js"
import { backfillLayer } from "../Composition.js"
import { EdgarFailureWording } from "../pipeline/EdgarFailureWording.js"
import { CliFailure } from "./CliFailure.js"
import { Operator } from "./Operator.js"
import * as Output from "./Output.js"
import { jsonOption } from "./SharedOptions.js"

const syncCommand = Command.make("sync", { json: jsonOption }, ({ json }) =>
  Effect.gen(function*() {
    const wording = yield* EdgarFailureWording
    const edgarFailure = (error: { readonly message: string }) => new CliFailure({ message: wording(error) })
    yield* EdgarConfig.requireUserAgent.pipe(Effect.mapError(edgarFailure))
    const operator = yield* Operator
    const listing = yield* fetchListing.pipe(Effect.mapError(edgarFailure))
    const saved = yield* operator.saveListing(listing)
    yield* Output.result(
      json,
      saved,
      () => `${saved.companies} companies with ${saved.tickers} tickers stored (via ${operator.description})`
    )
  }).pipe(Effect.provide(backfillLayer))).pipe(
    Command.withDescription(
      "Store the regulator's list of listed companies with their exchanges (needs FILINGS_SEC_USER_AGENT)"
    )
  )

const tickerArgument = Args.text({ name: "TICKER" }).pipe(Args.withDescription("any ticker of the company: AAPL"))

/** The profile for people: who, what, and what is stored of it. */
const describeProfile = (profile: Company.CompanyProfile): string => {
  const known = (value: string | null) => value ?? "unknown"
  const pending = profile.pending_fields.length > 0
    ? ` (not read from the regulator yet: ${profile.pending_fields.join(", ")})`
    : ""
  return [
    `${profile.company_name} (${profile.tickers.join(", ")}), CIK ${profile.cik}, ${profile.exchange ?? "not listed"}`,
    `industry: ${known(profile.sic)} ${profile.sic_description ?? ""}`.trimEnd() +
    `; incorporated in ${known(profile.state_of_incorporation)}; fiscal year ends ${
      known(profile.fiscal_year_end)
    }${pending}`,
    ...profile.former_names.map((former) =>
      `formerly ${former.name}${former.until === null ? "" : ` until ${former.until}`}`
    ),
    `documents: ${
      Object.entries(profile.document_counts).map(([type, count]) =>
        `${type} ${count} (latest ${profile.latest[type]})`
      )
        .join(", ") || "none"
    }`,
    ...Object.entries(profile.latest_metrics).map(([name, metric]) =>
      `${name}: ${metric.value} ${metric.unit}, ${metric.period} (${metric.doc_type} ${metric.publication_id})`
    )
  ].join("\n")
}

const showCommand = Command.make(
  "show",
  { ticker: tickerArgument, json: jsonOption },
  ({ json, ticker }) =>
    Effect.gen(function*() {
      const decoded = yield* Schema.decodeUnknown(Ids.Ticker)(ticker).pipe(
        Effect.mapError(() =>
          new CliFailure({ message: `${JSON.stringify(ticker)} is not a ticker such as AAPL or BRK-B` })
        )
      )
      const profile = yield* (yield* Operator).showCompany(decoded)
      yield* Output.result(json, Schema.encodeSync(Company.CompanyProfile)(profile), () => describeProfile(profile))
    })
).pipe(Command.withDescription("Print a company's profile: names, tickers, industry, documents, latest metrics"))

export const companiesCommand = Command.make("companies").pipe(
  Command.withSubcommands([syncCommand, showCommand]),
  Command.withDescription("Work with the companies the service knows")
)
