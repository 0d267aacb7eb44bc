/**
 * The company directory kept from the regulator: its list of listed companies with their exchanges
 * (`company_tickers_exchange.json`, one request, stored whole in one transaction) and each company's
 * details from its submissions record (industry, state of incorporation, fiscal year end, former
 * names), one request per company. The details are read in the background at a fifth of the
 * fair-access budget, so the latest-filings feed and the filings it announces keep the rest: the
 * requests go through the process's one `EdgarClient`, whose `FairAccess` gate holds every request
 * of the process to the regulator's limit. Most-followed companies come first (the watch list,
 * companies with stored filings, then the list's order, which ranks the largest first).
 */
import { Ids } from "@filings/domain"
import { CompanyTickers, EdgarClient, EdgarConfig, type EdgarError, Submissions } from "@filings/edgar"
import type { EdgarResponseError } from "@filings/edgar"
import { CompanyStore } from "@filings/storage"
import { Clock, Duration, Effect, Option, Schema } from "effect"

const decodeTicker = Schema.decodeOption(Ids.Ticker)

/** How many companies the background fill asks the store for at a time. */
const backlogBatch = 50

/**
 * How long a company's details are kept before the fill reads them again (a company renamed, moved
 * to another state or industry), after every company never read.
 */
export const detailsKeptFor = Duration.days(30)

/** How long the fill rests when every company's details are known, or after a failed request. */
const restWhenDone = Duration.hours(1)
const restAfterFailure = Duration.minutes(1)

/**
 * The regulator's list of listed companies, every ticker in its order (a company's main class first).
 * Rows whose ticker is not one the API takes are left out, with a debug log line. When the list with
 * exchanges is missing, the plain `company_tickers.json` stands in, without exchanges.
 */
export const fetchListing: Effect.Effect<
  ReadonlyArray<CompanyStore.ListedTicker>,
  EdgarError.EdgarError | EdgarResponseError.UnreadableResponse,
  EdgarClient.EdgarClient
> = Effect.gen(function*() {
  const client = yield* EdgarClient.EdgarClient
  const read = yield* client.getText({ path: CompanyTickers.companyTickersExchangePath }).pipe(
    Effect.flatMap(CompanyTickers.readCompanyTickersExchange),
    Effect.catchTag("EdgarNotFound", () =>
      client.getText({ path: CompanyTickers.companyTickersPath }).pipe(
        Effect.flatMap(CompanyTickers.readCompanyTickers)
      ))
  )
  for (const warning of read.warnings) yield* Effect.logDebug(`company list: ${warning}`)
  return read.companies.flatMap((company) => {
    const ticker = decodeTicker(company.ticker)
    return Option.isNone(ticker) ? [] : [{
      cik: company.cik,
      ticker: ticker.value,
      name: company.name,
      ...(company.exchange === undefined ? {} : { exchange: company.exchange })
    }]
  })
}).pipe(Effect.withSpan("CompanyDirectory.fetchListing"))

/** Reads the regulator's list and replaces the stored one with it. */
export const syncListing = Effect.gen(function*() {
  const listing = yield* fetchListing
  const saved = yield* (yield* CompanyStore.CompanyStore).saveListing(listing)
  yield* Effect.logInfo(`company list: ${saved.companies} companies, ${saved.tickers} tickers`)
  return saved
}).pipe(Effect.withSpan("CompanyDirectory.syncListing"))

/** What the submissions record says of the company, as the store keeps it. */
export const detailsOf = (submissions: Submissions.CompanySubmissions): CompanyStore.CompanyDetails => ({
  ...(submissions.sic === undefined ? {} : { sic: submissions.sic }),
  ...(submissions.sicDescription === undefined ? {} : { sicDescription: submissions.sicDescription }),
  ...(submissions.stateOfIncorporation === undefined ? {} : { stateOfIncorporation: submissions.stateOfIncorporation }),
  ...(submissions.fiscalYearEnd === undefined ? {} : { fiscalYearEnd: submissions.fiscalYearEnd }),
  formerNames: submissions.formerNames
})

/**
 * Reads one company's submissions record and stores its details. A company the data API does not
 * know (404) is stored with none, so it leaves the backlog instead of being asked for again.
 */
export const fillDetails = (cik: Ids.Cik) =>
  Effect.gen(function*() {
    const client = yield* EdgarClient.EdgarClient
    const store = yield* CompanyStore.CompanyStore
    const details = yield* client.getText({ path: Submissions.submissionsPath(cik), host: "data" }).pipe(
      Effect.flatMap(Submissions.readSubmissions),
      Effect.map(detailsOf),
      Effect.catchTag("EdgarNotFound", () => Effect.succeed<CompanyStore.CompanyDetails>({ formerNames: [] }))
    )
    yield* store.saveDetails(cik, details)
  }).pipe(Effect.withSpan("CompanyDirectory.fillDetails", { attributes: { cik } }))

/** The spacing of the background fill's requests: a fifth of the process's fair-access budget. */
export const detailsSpacing = (maxRequestsPerSecond: number): Duration.Duration =>
  Duration.millis(Math.ceil(5_000 / Math.max(1, maxRequestsPerSecond)))

/**
 * Fills in the details of every company without them, most-followed first, then reads again those
 * read more than `detailsKeptFor` ago, for as long as it runs:
 * one request per `spacing` at most; a pause after a failure (the company stays in the backlog), and
 * a longer one once the backlog is empty (a new listing adds companies to it).
 */
export const fillDetailsForever = (preferred: ReadonlyArray<Ids.Ticker>) =>
  Effect.gen(function*() {
    const store = yield* CompanyStore.CompanyStore
    const { maxRequestsPerSecond } = yield* EdgarConfig.EdgarConfig
    const spacing = detailsSpacing(maxRequestsPerSecond)
    const batch = Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const readBefore = new Date(now - Duration.toMillis(detailsKeptFor))
      const backlog = yield* store.detailsBacklog({ limit: backlogBatch, preferred, readBefore })
      if (backlog.length === 0) return yield* Effect.sleep(restWhenDone)
      for (const cik of backlog) {
        yield* fillDetails(cik)
        yield* Effect.sleep(spacing)
      }
    })
    return yield* batch.pipe(
      Effect.catchAllCause((cause) =>
        Effect.logWarning("reading companies' details failed; trying again later", cause).pipe(
          Effect.zipRight(Effect.sleep(restAfterFailure))
        )
      ),
      Effect.forever
    )
  })
