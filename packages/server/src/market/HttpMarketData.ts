/**
 * Daily closes from an HTTP quote provider the operator chose: one GET per question to a URL built
 * from `FILINGS_MARKET_DATA_URL`, a template with the placeholders `{ticker}`, `{from}` and `{to}`
 * (dates YYYY-MM-DD; each value URL-encoded), for example
 * `https://quotes.example/v1/daily?symbol={ticker}&from={from}&to={to}`. `FILINGS_MARKET_DATA_KEY`,
 * when set, goes as `Authorization: Bearer <key>`.
 *
 * The provider answers JSON in either of two shapes, a list or an object holding the list:
 *
 * - `[{"date": "2025-01-30", "close": 237.59}, ...]`
 * - `{"closes": [{"date": "2025-01-30", "close": 237.59}, ...]}`
 *
 * `date` is the trading day (YYYY-MM-DD), `close` a positive number (or its decimal text); other
 * fields are ignored. An answer off this shape is refused as a whole rather than half used: a wrong
 * close would give a wrong move. Every failure (transport, status, body, no answer within the
 * time-out, 10 seconds by default) is a `MarketDataError` whose reason names neither the key nor the
 * URL, which may carry credentials of its own.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Dates } from "@filings/domain"
import { Duration, Effect, Either, Layer, ParseResult, Redacted, Schema } from "effect"
import { describeHttpError } from "../OutboundHttpFailures.js"
import { MarketData, MarketDataError, type Service } from "./MarketData.js"

export interface Options {
  /** The URL of a ticker's closes, with `{ticker}`, `{from}` and `{to}` placeholders. */
  readonly urlTemplate: string
  /** Sent as `Authorization: Bearer <key>`. */
  readonly apiKey?: Redacted.Redacted<string> | undefined
  /** How long one question may take, answer read included; `DefaultTimeout` when absent. */
  readonly timeout?: Duration.DurationInput | undefined
}

export const DefaultTimeout: Duration.Duration = Duration.seconds(10)

const placeholders = ["{ticker}", "{from}", "{to}"] as const

/** The template with each placeholder replaced by its URL-encoded value. */
export const urlOf = (urlTemplate: string, ticker: string, fromDate: string, toDate: string): string =>
  urlTemplate
    .replaceAll("{ticker}", encodeURIComponent(ticker))
    .replaceAll("{from}", encodeURIComponent(fromDate))
    .replaceAll("{to}", encodeURIComponent(toDate))

const sampleUrlOf = (urlTemplate: string): string => urlOf(urlTemplate, "AAPL", "2025-01-02", "2025-01-31")

/**
 * Why `urlTemplate` cannot be used, when it cannot: checked at start-up so a typo in a placeholder
 * (`{symbol}`) is found then, not as a stream of failed look-ups.
 */
export const templateProblem = (urlTemplate: string): string | undefined => {
  if (!urlTemplate.includes("{ticker}")) return "the URL must hold the placeholder {ticker}"
  const unknown = urlTemplate.match(/\{[^{}]*\}/g)?.filter((found) =>
    !(placeholders as ReadonlyArray<string>).includes(found)
  )
  if (unknown !== undefined && unknown.length > 0) {
    return `unknown placeholder ${unknown.join(", ")}; the placeholders are ${placeholders.join(", ")}`
  }
  const sample = sampleUrlOf(urlTemplate)
  if (!URL.canParse(sample)) return "not a valid URL"
  const { protocol } = new URL(sample)
  return protocol === "https:" || protocol === "http:" ? undefined : "the URL must start with https:// or http://"
}

// ---------------------------------------------------------------------------------------------------
// The answer
// ---------------------------------------------------------------------------------------------------

const Close = Schema.Struct({
  date: Dates.IsoDate,
  close: Schema.Union(Schema.Number, Schema.NumberFromString).pipe(
    Schema.filter((close) => Number.isFinite(close) && close > 0, {
      message: (issue) => `must be a positive price, got ${JSON.stringify(issue.actual)}`
    })
  )
})
const Closes = Schema.Array(Close)
const decodeCloses = Schema.decodeUnknownEither(Closes)

/** The longest reason a failure gives, so a provider's long answer stays out of the log. */
const maxReasonLength = 200

/** The first problem in an answer, with where it is: `at 3.close: must be a positive price, got -1`. */
const firstIssueOf = (error: ParseResult.ParseError): string => {
  const [first] = ParseResult.ArrayFormatter.formatErrorSync(error)
  if (first === undefined) return "unreadable"
  return first.path.length === 0 ? first.message : `at ${first.path.join(".")}: ${first.message}`
}

/** The closes list of an answer in either accepted shape, or why it is neither. */
export const closesOfAnswer = (json: unknown) => {
  const list = Array.isArray(json)
    ? json
    : typeof json === "object" && json !== null && "closes" in json && Array.isArray(json.closes)
    ? json.closes
    : undefined
  if (list === undefined) {
    return Either.left("the answer is neither [{date, close}, ...] nor {\"closes\": [{date, close}, ...]}")
  }
  return Either.mapLeft(decodeCloses(list), (error) => `the answer is not daily closes: ${firstIssueOf(error)}`)
}

// ---------------------------------------------------------------------------------------------------
// The adapter
// ---------------------------------------------------------------------------------------------------

const statusReason = (status: number): string =>
  status === 401 || status === 403
    ? `HTTP ${status}: the provider refused the key (FILINGS_MARKET_DATA_KEY)`
    : `HTTP ${status}`

export const make = (options: Options): Effect.Effect<Service, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    // A third party has no use for our trace ids.
    const client = HttpClient.withTracerPropagation(yield* HttpClient.HttpClient, false).pipe(HttpClient.withScope)
    const timeout = Duration.decode(options.timeout ?? DefaultTimeout)
    const apiKey = options.apiKey
    const authorize = (request: HttpClientRequest.HttpClientRequest) =>
      apiKey === undefined ? request : HttpClientRequest.bearerToken(request, apiKey)
    // The reason of an error is logged: whatever the provider or the transport says, the key is not.
    const withoutKey = (text: string): string => {
      const key = apiKey === undefined ? "" : Redacted.value(apiKey)
      const safe = key === "" ? text : text.replaceAll(key, "<redacted>")
      return safe.length > maxReasonLength ? `${safe.slice(0, maxReasonLength - 3)}...` : safe
    }

    const dailyCloses = Effect.fn("HttpMarketData.dailyCloses")(function*(
      ticker: string,
      fromDate: string,
      toDate: string
    ) {
      const failure = (reason: string) => new MarketDataError({ ticker, provider: "http", reason: withoutKey(reason) })
      const request = HttpClientRequest.get(urlOf(options.urlTemplate, ticker, fromDate, toDate)).pipe(
        HttpClientRequest.acceptJson,
        authorize
      )
      // The scope aborts the request when the time-out interrupts it, even while the body is read.
      const json = yield* Effect.scoped(Effect.gen(function*() {
        const response = yield* client.execute(request).pipe(
          Effect.mapError((error) => failure(describeHttpError(error)))
        )
        if (response.status < 200 || response.status >= 300) return yield* failure(statusReason(response.status))
        return yield* response.json.pipe(Effect.mapError(() => failure("the answer is not JSON")))
      })).pipe(
        Effect.timeoutFail({
          duration: timeout,
          onTimeout: () => failure(`no answer within ${Duration.format(timeout)}`)
        })
      )
      return yield* Either.mapLeft(closesOfAnswer(json), failure)
    })

    return MarketData.of({ dailyCloses })
  })

export const layer = (options: Options): Layer.Layer<MarketData, never, HttpClient.HttpClient> =>
  Layer.effect(MarketData, make(options))

/** The host a template reaches, for the log: never its path or query, which may hold credentials. */
export const hostOf = (urlTemplate: string): string => new URL(sampleUrlOf(urlTemplate)).host
