/**
 * `filings edgar backfill --tickers AAPL,MSFT --since 2024-01-01`: loads companies' history from
 * EDGAR. The companies' filings come from the regulator's submissions API (older pages included
 * when `--since` reaches them); each filing of a kept form is fetched whole and ingested like
 * `filings ingest` does it, directly or through a running server, as history: stored with its
 * press releases, but no event is recorded (subscribers hear of new filings, not of old ones).
 * Progress goes to stderr; running it again updates what is there and adds what is missing.
 */
import { Command, Options } from "@effect/cli"
import { Ids } from "@filings/domain"
import { CompanyTickers, EdgarClient, EdgarConfig, FilingIndex, Submissions } from "@filings/edgar"
import { Effect, Either, Schema } from "effect"
import { backfillLayer } from "../Composition.js"
import { EdgarFailureWording } from "../pipeline/EdgarFailureWording.js"
import * as PipelineConfig from "../pipeline/PipelineConfig.js"
import { CliFailure } from "./CliFailure.js"
import { Operator } from "./Operator.js"
import * as Output from "./Output.js"
import { jsonOption } from "./SharedOptions.js"

const tickersOption = Options.text("tickers").pipe(
  Options.withDescription("companies to load, comma-separated: AAPL,MSFT")
)
const sinceOption = Options.text("since").pipe(
  Options.withDescription("the first filing date to load, YYYY-MM-DD")
)

interface PlannedFiling {
  readonly ticker: Ids.Ticker
  readonly cik: Ids.Cik
  readonly filing: Submissions.FilingSummary
}

/** An EDGAR failure as the command reports it, in the operator's wording. */
const edgarFailure = Effect.map(
  EdgarFailureWording,
  (wording) => (error: { readonly message: string }) => new CliFailure({ message: wording(error) })
)

/** Every filing of a kept form by the companies since the date, oldest first. */
const planBackfill = (tickers: ReadonlyArray<Ids.Ticker>, since: string, forms: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const client = yield* EdgarClient.EdgarClient
    const failure = yield* edgarFailure
    const listed = yield* client.getText({ path: CompanyTickers.companyTickersPath }).pipe(
      Effect.flatMap(CompanyTickers.readCompanyTickers),
      Effect.mapError(failure)
    )
    const planned: Array<PlannedFiling> = []
    for (const ticker of tickers) {
      const company = listed.companies.find((candidate) => candidate.ticker === ticker)
      if (company === undefined) {
        return yield* new CliFailure({ message: `the regulator lists no company with the ticker ${ticker}` })
      }
      const submissions = yield* client.getText({ path: Submissions.submissionsPath(company.cik), host: "data" }).pipe(
        Effect.flatMap(Submissions.readSubmissions),
        Effect.mapError(failure)
      )
      const filings = [...submissions.filings]
      for (const page of submissions.olderPages) {
        if (page.filingTo !== undefined && page.filingTo < since) continue
        const older = yield* client.getText({ path: Submissions.submissionsPagePath(page), host: "data" }).pipe(
          Effect.flatMap(Submissions.readSubmissionsPage),
          Effect.mapError(failure)
        )
        filings.push(...older)
      }
      for (const filing of filings) {
        if (filing.filingDate >= since && forms.includes(filing.form.toUpperCase())) {
          planned.push({ ticker, cik: company.cik, filing })
        }
      }
    }
    return planned.sort((a, b) => a.filing.filingDate.localeCompare(b.filing.filingDate))
  })

const backfillCommand = Command.make(
  "backfill",
  { tickers: tickersOption, since: sinceOption, json: jsonOption },
  ({ json, since, tickers }) =>
    Effect.gen(function*() {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(since) || Number.isNaN(Date.parse(since))) {
        return yield* new CliFailure({ message: `--since takes a date YYYY-MM-DD, not ${since}` })
      }
      const asked = tickers.split(",").map((ticker) => ticker.trim()).filter((ticker) => ticker !== "")
      const decoded = asked.map((ticker) => Schema.decodeEither(Ids.Ticker)(ticker))
      const bad = asked.filter((_, index) => Either.isLeft(decoded[index]!))
      if (asked.length === 0 || bad.length > 0) {
        return yield* new CliFailure({ message: `--tickers takes tickers such as AAPL,MSFT; not ${bad.join(", ")}` })
      }
      const failure = yield* edgarFailure
      yield* EdgarConfig.requireUserAgent.pipe(Effect.mapError(failure))
      const { forms } = yield* PipelineConfig.PipelineConfig
      const client = yield* EdgarClient.EdgarClient
      const operator = yield* Operator
      const planned = yield* planBackfill(
        decoded.flatMap((result) => Either.isRight(result) ? [result.right] : []),
        since,
        forms
      )
      yield* Output.progress(`${planned.length} filings to load (via ${operator.description})`)

      let stored = 0
      const failures: Array<{ readonly accession: string; readonly error: string }> = []
      for (const [index, { cik, filing, ticker }] of planned.entries()) {
        const label = `[${
          index + 1
        }/${planned.length}] ${ticker} ${filing.form} ${filing.filingDate} ${filing.accessionNumber}`
        const docType = PipelineConfig.docTypeOfForm(filing.form)
        const outcome = yield* Effect.either(
          client.get({ path: FilingIndex.submissionTextPath(cik, filing.accessionNumber) }).pipe(
            Effect.mapError(failure),
            Effect.flatMap((response) =>
              operator.ingestBytes(`${filing.accessionNumber}.txt`, response.body, {
                ticker,
                history: true,
                ...(docType === undefined || docType === filing.form ? {} : { form: docType })
              })
            )
          )
        )
        if (Either.isRight(outcome)) stored++
        else failures.push({ accession: filing.accessionNumber, error: outcome.left.message })
        yield* Output.progress(
          Either.isRight(outcome) ? `${label} ${outcome.right.status}` : `${label} failed: ${outcome.left.message}`
        )
      }
      if (process.stderr.isTTY) yield* Output.progress("")
      yield* Output.result(
        json,
        { planned: planned.length, stored, failed: failures.length, failures },
        () => `${stored} of ${planned.length} filings stored${failures.length > 0 ? `, ${failures.length} failed` : ""}`
      )
      if (failures.length > 0) {
        return yield* new CliFailure({ message: `${failures.length} of ${planned.length} filings could not be loaded` })
      }
    }).pipe(Effect.provide(backfillLayer))
).pipe(Command.withDescription("Load companies' filings since a date from EDGAR, as history (no events)"))

export const edgarCommand = Command.make("edgar").pipe(
  Command.withSubcommands([backfillCommand]),
  Command.withDescription("Work with the regulator's EDGAR")
)
