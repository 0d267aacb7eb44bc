/**
 * `filings companies sync`: reads the regulator's list of listed companies (every ticker with its
 * company and exchange, one request) and replaces the stored list with it, directly or through a
 * running server. The companies' details (industry, state, former names) are read later, in the
 * background, by a server that follows EDGAR.
 */
import { Command } from "@effect/cli"
import { EdgarConfig } from "@filings/edgar"
import { Effect } from "effect"
import { fetchListing } from "../companies/CompanyDirectory.js"
import { backfillLayer } from "../Composition.js"
import * as Environment from "../Environment.js"
import { CliFailure } from "./CliFailure.js"
import { Operator } from "./Operator.js"
import * as Output from "./Output.js"
import { jsonOption } from "./SharedOptions.js"

const edgarFailure = (error: { readonly message: string }) =>
  new CliFailure({ message: Environment.edgarMessage(error) })

const syncCommand = Command.make("sync", { json: jsonOption }, ({ json }) =>
  Effect.gen(function*() {
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

export const companiesCommand = Command.make("companies").pipe(
  Command.withSubcommands([syncCommand]),
  Command.withDescription("Work with the companies the service knows")
)
