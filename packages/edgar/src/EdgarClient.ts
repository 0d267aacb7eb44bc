/**
 * The one way this project talks to EDGAR. Every request is declared with the configured User-Agent,
 * waits its turn at the process-wide FairAccess limiter, and is bounded in time; transient failures
 * are retried with jittered exponential backoff, and the regulator's "rate threshold exceeded" page
 * pauses every request in the process, because the SEC blocks the whole address, not one caller.
 * Failures that retrying cannot fix (404, an undeclared-tool refusal, a missing User-Agent) end at once.
 *
 * The HTTP implementation is the caller's: any `HttpClient` layer (undici or fetch) will do.
 *
 * @module
 */
import { HttpClient, HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import { Clock, Config, type ConfigError, Context, Data, Duration, Effect, Either, Layer, Schedule } from "effect"
import { gunzip, inflate } from "node:zlib"
import { checkUserAgent, EdgarConfig } from "./EdgarConfig.js"
import {
  type EdgarError,
  EdgarNotFound,
  EdgarRateLimited,
  EdgarRefused,
  EdgarUnavailable,
  type MissingUserAgent
} from "./EdgarError.js"
import * as EdgarMetrics from "./EdgarMetrics.js"
import { FairAccess } from "./FairAccess.js"
import { classifyErrorPage } from "./internal/errorPages.js"

/** A response from EDGAR that is not an error page: the final address, status, headers and body. */
export interface EdgarResponse {
  /** The address finally answered, after any redirects. */
  readonly url: string
  readonly status: number
  /** Response headers, names in lower case, as received (`content-encoding` still names the encoding). */
  readonly headers: Readonly<Record<string, string>>
  /** The body, already decompressed. */
  readonly body: Uint8Array
}

/** What to fetch from EDGAR: a path on one of its two hosts. */
export interface Target {
  /** Path and query on the host, e.g. `/cgi-bin/browse-edgar?action=getcurrent&output=atom`. */
  readonly path: string
  /** `www` (default) is `baseUrl`, `data` is `dataBaseUrl`. */
  readonly host?: "www" | "data" | undefined
}

/** The EDGAR client: every request paced by `FairAccess`, retried with backoff, error pages told apart. */
export interface Service {
  /** The response to `target`, after redirects and retries; EDGAR's error pages fail as `EdgarError`. */
  readonly get: (target: Target) => Effect.Effect<EdgarResponse, EdgarError>
  /** The body as text, decoded per the `content-type` charset (UTF-8 unless another is declared). */
  readonly getText: (target: Target) => Effect.Effect<string, EdgarError>
}

/**
 * The EDGAR client as a service. Needs `EdgarConfig`, `FairAccess` and an `HttpClient`.
 *
 * @example
 * const text = yield* (yield* EdgarClient).getText({ path: "/cgi-bin/browse-edgar?action=getcurrent&output=atom" })
 */
export class EdgarClient extends Context.Tag("@filings/edgar/EdgarClient")<EdgarClient, Service>() {
  /** The client with the default timings. */
  static get layer(): Layer.Layer<EdgarClient, never, EdgarConfig | FairAccess | HttpClient.HttpClient> {
    return layer
  }
  /** The client with the given timings. */
  static layerWith(
    options: Options
  ): Layer.Layer<EdgarClient, never, EdgarConfig | FairAccess | HttpClient.HttpClient> {
    return layerWith(options)
  }
  /** The client with its timings read through `Config`, as the module's `layerConfig`. */
  static layerConfig(
    config: Config.Config.Wrap<Options>
  ): Layer.Layer<EdgarClient, ConfigError.ConfigError, EdgarConfig | FairAccess | HttpClient.HttpClient> {
    return layerConfig(config)
  }
}

/** Timing knobs; the defaults are for production, tests shrink them. */
export interface Options {
  /** Until the response headers arrive. Default 15 s. */
  readonly headersTimeout?: Duration.DurationInput | undefined
  /** For reading the whole body once the headers are in; a trickling body counts. Default 60 s. */
  readonly bodyTimeout?: Duration.DurationInput | undefined
  /** Attempts per request, the first included. Default 6. */
  readonly maxAttempts?: number | undefined
  /** First backoff delay, doubled per retry. Default 1 s. */
  readonly backoffBase?: Duration.DurationInput | undefined
  /** Longest backoff delay. Default 60 s. */
  readonly backoffCap?: Duration.DurationInput | undefined
  /** How long everything stops after the rate-threshold page; the SEC documents a 10-minute block. */
  readonly rateThresholdPause?: Duration.DurationInput | undefined
  /** A server's Retry-After is honoured up to this long. Default 10 minutes. */
  readonly maxRetryAfter?: Duration.DurationInput | undefined
}

/** The production timings `Options` fall back to. */
export const defaultOptions = {
  headersTimeout: Duration.seconds(15),
  bodyTimeout: Duration.seconds(60),
  maxAttempts: 6,
  backoffBase: Duration.seconds(1),
  backoffCap: Duration.seconds(60),
  rateThresholdPause: Duration.minutes(10),
  maxRetryAfter: Duration.minutes(10)
} as const

const maxRedirects = 5

/** What one attempt came to, and so what the retry schedule does next. */
type AttemptOutcome =
  | { readonly _tag: "Done"; readonly response: EdgarResponse }
  | { readonly _tag: "GiveUp"; readonly error: EdgarError }
  | { readonly _tag: "Redirect"; readonly location: string }
  | {
    readonly _tag: "Retry"
    /** For the log and, if retries run out, the error: never a body. */
    readonly reason: string
    readonly status?: number | undefined
    readonly retryAfterMillis?: number | undefined
    /** `rate-threshold`: the regulator's block page; `too-many`: a plain 429; `transient`: anything else. */
    readonly kind: "rate-threshold" | "too-many" | "transient"
    readonly errorPage?: "unavailable" | undefined
  }

/** An attempt that failed for a reason retrying may fix: where it went, which attempt it was, why. */
class RetryableAttempt extends Data.TaggedError("RetryableAttempt")<{
  readonly url: string
  readonly attempt: number
  readonly outcome: Extract<AttemptOutcome, { readonly _tag: "Retry" }>
}> {}

const done = (response: EdgarResponse): AttemptOutcome => ({ _tag: "Done", response })
const giveUp = (error: EdgarError): AttemptOutcome => ({ _tag: "GiveUp", error })
const retry = (fields: Omit<Extract<AttemptOutcome, { _tag: "Retry" }>, "_tag">): AttemptOutcome => ({
  _tag: "Retry",
  ...fields
})

/** How `EdgarMetrics` names an attempt's outcome. */
const metricOutcomeOf = (outcome: AttemptOutcome): EdgarMetrics.AttemptOutcome => {
  switch (outcome._tag) {
    case "Done":
      return "ok"
    case "Redirect":
      return "redirect"
    case "Retry":
      return outcome.kind
    case "GiveUp":
      return outcome.error._tag === "EdgarNotFound"
        ? "not-found"
        : outcome.error._tag === "EdgarRefused"
        ? "refused"
        : "unavailable"
  }
}

const joinUrl = (base: string, path: string): string =>
  base.replace(/\/+$/, "") + (path.startsWith("/") ? path : `/${path}`)

/** Retry-After in milliseconds from now: delta-seconds or an HTTP-date; undefined when absent or unreadable. */
const parseRetryAfter = (value: string | undefined, nowMillis: number): number | undefined => {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1_000
  const date = Date.parse(trimmed)
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMillis)
}

const isGzip = (bytes: Uint8Array): boolean => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b
// A zlib stream: deflate method in the low nibble, header checksum divisible by 31 (RFC 1950).
const isZlib = (bytes: Uint8Array): boolean =>
  bytes.length >= 2 && (bytes[0]! & 0x0f) === 8 && ((bytes[0]! << 8) | bytes[1]!) % 31 === 0

/**
 * Undoes the content encoding. Some HTTP clients (fetch) already decode and keep the header, so the
 * bytes are only decompressed when they still carry the gzip or zlib signature.
 */
const decompress = (encoding: string | undefined, raw: Uint8Array): Effect.Effect<Uint8Array, "corrupt"> => {
  const coding = encoding?.trim().toLowerCase()
  const inflater = coding === "gzip" || coding === "x-gzip"
    ? (isGzip(raw) ? gunzip : undefined)
    : coding === "deflate"
    ? (isZlib(raw) ? inflate : undefined)
    : undefined
  if (inflater === undefined) return Effect.succeed(raw)
  return Effect.async<Uint8Array, "corrupt">((resume) => {
    inflater(raw, (error, result) => {
      resume(
        error === null
          ? Effect.succeed(new Uint8Array(result.buffer, result.byteOffset, result.byteLength))
          : Effect.fail("corrupt")
      )
    })
  })
}

/** Whether the raw bytes are still in the encoding the server applied (so Content-Length describes them). */
const isStillEncoded = (encoding: string | undefined, raw: Uint8Array): boolean => {
  const coding = encoding?.trim().toLowerCase()
  if (coding === undefined || coding === "" || coding === "identity") return true
  return isGzip(raw) || isZlib(raw)
}

const charsetOf = (contentType: string | undefined): string | undefined =>
  contentType === undefined ? undefined : /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1]

/** Decodes per the declared charset (ISO-8859-1 and others TextDecoder knows), falling back to UTF-8. */
export const decodeBody = (body: Uint8Array, contentType: string | undefined): string => {
  const charset = charsetOf(contentType)
  if (charset !== undefined) {
    try {
      return new TextDecoder(charset).decode(body)
    } catch {
      // An unknown label: UTF-8 is what EDGAR serves nearly everything in.
    }
  }
  return new TextDecoder("utf-8").decode(body)
}

// Enough of the body to recognise an error page by its head.
const errorPageProbe = (body: Uint8Array): string => new TextDecoder("utf-8").decode(body.subarray(0, 16_384))

const describeDuration = (millis: number): string => Duration.format(Duration.millis(Math.round(millis)))

/** Builds the client with the given timings (defaults: `defaultOptions`). */
export const make = (
  options: Options = {}
): Effect.Effect<Service, never, EdgarConfig | FairAccess | HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const settings = yield* EdgarConfig
    const fairAccess = yield* FairAccess
    // Trace headers would hand our internal span ids to a third party.
    const client = HttpClient.withTracerPropagation(yield* HttpClient.HttpClient, false)

    const headersTimeout = Duration.decode(options.headersTimeout ?? defaultOptions.headersTimeout)
    const bodyTimeout = Duration.decode(options.bodyTimeout ?? defaultOptions.bodyTimeout)
    const maxAttempts = Math.max(1, options.maxAttempts ?? defaultOptions.maxAttempts)
    const backoffBase = Duration.decode(options.backoffBase ?? defaultOptions.backoffBase)
    const backoffCap = Duration.decode(options.backoffCap ?? defaultOptions.backoffCap)
    const rateThresholdPauseMillis = Duration.toMillis(options.rateThresholdPause ?? defaultOptions.rateThresholdPause)
    const maxRetryAfterMillis = Duration.toMillis(options.maxRetryAfter ?? defaultOptions.maxRetryAfter)

    // Redirects are followed only within EDGAR's own hosts, so a redirect cannot point the client elsewhere.
    const edgarHostnames = new Set([new URL(settings.baseUrl).hostname, new URL(settings.dataBaseUrl).hostname])

    const classifyResponse = (
      url: string,
      response: HttpClientResponse.HttpClientResponse,
      body: Uint8Array,
      nowMillis: number
    ): AttemptOutcome => {
      const status = response.status
      const headers = response.headers
      const retryAfterMillis = parseRetryAfter(headers["retry-after"], nowMillis)
      const isHtml = (headers["content-type"] ?? "").toLowerCase().includes("html")
      const page = status >= 400 || isHtml ? classifyErrorPage(status, errorPageProbe(body)) : undefined

      if (page === "rate-threshold") {
        return retry({
          kind: "rate-threshold",
          status,
          retryAfterMillis,
          reason: "the SEC's request rate threshold page"
        })
      }
      if (status >= 200 && status < 300) return done({ url, status, headers, body })
      if (status >= 300 && status < 400) {
        const location = headers["location"]
        return location === undefined
          ? giveUp(new EdgarUnavailable({ url, status, reason: "a redirect without a Location" }))
          : { _tag: "Redirect", location: new URL(location, url).toString() }
      }
      if (status === 404 || status === 410) return giveUp(new EdgarNotFound({ url }))
      if (status === 403) {
        return giveUp(
          new EdgarRefused({ url, reason: page === "undeclared-tool" ? "undeclared automated tool" : "forbidden" })
        )
      }
      if (status === 429) {
        return retry({ kind: "too-many", status, retryAfterMillis, reason: "HTTP 429 too many requests" })
      }
      if (status === 500 || status === 502 || status === 503 || status === 504) {
        return page === "unavailable"
          ? retry({
            kind: "transient",
            status,
            retryAfterMillis,
            errorPage: "unavailable",
            reason: `the SEC's "temporarily unavailable" page (HTTP ${status})`
          })
          : retry({ kind: "transient", status, retryAfterMillis, reason: `HTTP ${status}` })
      }
      return giveUp(new EdgarUnavailable({ url, status, reason: `unexpected HTTP status ${status}` }))
    }

    /** One request, start to finished body. Never fails: every result is an outcome for `fetchWithRetries`. */
    const attemptOnce = (url: string, userAgent: string): Effect.Effect<AttemptOutcome> =>
      Effect.gen(function*() {
        const request = HttpClientRequest.get(url).pipe(
          HttpClientRequest.setHeaders({ "user-agent": userAgent, "accept-encoding": "gzip, deflate" })
        )
        const executed = yield* client.execute(request).pipe(
          Effect.timeoutFail({
            duration: headersTimeout,
            onTimeout: () => "timeout" as const
          }),
          Effect.either
        )
        if (Either.isLeft(executed)) {
          const failure = executed.left
          if (failure === "timeout") {
            return retry({
              kind: "transient",
              reason: `no response headers within ${Duration.format(headersTimeout)}`
            })
          }
          if (failure._tag === "RequestError" && failure.reason === "InvalidUrl") {
            return giveUp(new EdgarUnavailable({ url, reason: "the address is not a valid URL" }))
          }
          return retry({ kind: "transient", reason: "the connection failed" })
        }
        const response = executed.right
        const read = yield* response.arrayBuffer.pipe(
          Effect.timeoutFail({ duration: bodyTimeout, onTimeout: () => "timeout" as const }),
          Effect.either
        )
        if (Either.isLeft(read)) {
          return retry({
            kind: "transient",
            status: response.status,
            reason: read.left === "timeout"
              ? `the body did not arrive within ${Duration.format(bodyTimeout)}`
              : "the body was cut short (connection closed)"
          })
        }
        const raw = new Uint8Array(read.right)
        const encoding = response.headers["content-encoding"]
        const declaredLength = Number(response.headers["content-length"] ?? Number.NaN)
        if (Number.isFinite(declaredLength) && raw.byteLength < declaredLength && isStillEncoded(encoding, raw)) {
          return retry({
            kind: "transient",
            status: response.status,
            reason: `the body was cut short (${raw.byteLength} of ${declaredLength} bytes)`
          })
        }
        const body = yield* Effect.either(decompress(encoding, raw))
        if (Either.isLeft(body)) {
          return retry({
            kind: "transient",
            status: response.status,
            reason: `the ${encoding} body was cut short or corrupt`
          })
        }
        const now = yield* Clock.currentTimeMillis
        return classifyResponse(url, response, body.right, now)
      })

    const exhausted = (failure: RetryableAttempt): EdgarError =>
      failure.outcome.kind === "transient"
        ? new EdgarUnavailable({
          url: failure.url,
          reason: failure.outcome.reason,
          ...(failure.outcome.status === undefined ? {} : { status: failure.outcome.status }),
          ...(failure.outcome.errorPage === undefined ? {} : { errorPage: failure.outcome.errorPage })
        })
        : new EdgarRateLimited({ url: failure.url })

    /**
     * The wait before the next attempt: the server's Retry-After when it sent one (up to
     * `maxRetryAfter`), else the backoff; after the rate-threshold page, none of this attempt's own,
     * since every request in the process (this one included) is paused.
     */
    const delayBefore = (
      failure: RetryableAttempt,
      backoffDelay: Duration.Duration
    ): Effect.Effect<Duration.Duration> =>
      Effect.gen(function*() {
        const { attempt, outcome, url } = failure
        const retryAfter = outcome.retryAfterMillis === undefined
          ? undefined
          : Math.min(outcome.retryAfterMillis, maxRetryAfterMillis)
        let delay: Duration.Duration
        if (outcome.kind === "rate-threshold") {
          // The block is per address: every fiber stops, and this one retries once the pause is over.
          yield* fairAccess.pause(Duration.millis(Math.max(rateThresholdPauseMillis, retryAfter ?? 0)))
          delay = Duration.zero
        } else {
          delay = retryAfter === undefined ? backoffDelay : Duration.millis(retryAfter)
        }
        yield* Effect.logWarning("EDGAR request failed; retrying").pipe(
          Effect.annotateLogs({
            url,
            reason: outcome.reason,
            attempt,
            retryIn: outcome.kind === "rate-threshold"
              ? `all requests paused for ${describeDuration(rateThresholdPauseMillis)}`
              : describeDuration(Duration.toMillis(delay))
          })
        )
        return delay
      })

    /**
     * Exponential backoff from `backoffBase`, doubled per retry and capped at `backoffCap`, with
     * "equal jitter" (at least half the step, so retries from many fibers spread out but still back
     * off), for at most `maxAttempts` attempts; each delay then adjusted by what the attempt was told.
     */
    const backoff: Schedule.Schedule<unknown, RetryableAttempt> = Schedule.exponential(backoffBase).pipe(
      Schedule.modifyDelay((_, delay) => Duration.min(delay, backoffCap)),
      Schedule.jitteredWith({ min: 0.5, max: 1 }),
      Schedule.intersect(Schedule.recurs(maxAttempts - 1))
    )
    const retrySchedule = Schedule.passthrough(backoff).pipe(Schedule.modifyDelayEffect(delayBefore))

    /**
     * One request, retried by `retrySchedule`. Redirects are followed within an attempt and count
     * across attempts; a retry asks again where the last redirect pointed. Only what retrying may fix
     * is in the error channel: a response, or a failure retrying cannot fix, is the attempt's answer.
     */
    const fetchWithRetries = (url: string, userAgent: string): Effect.Effect<EdgarResponse, EdgarError> => {
      const progress = { url, attempt: 1, redirects: 0 }
      const attemptFollowingRedirects: Effect.Effect<Either.Either<EdgarResponse, EdgarError>, RetryableAttempt> =
        Effect.gen(function*() {
          while (true) {
            const outcome = yield* fairAccess.withPermit(attemptOnce(progress.url, userAgent))
            yield* EdgarMetrics.recordAttempt(metricOutcomeOf(outcome))
            switch (outcome._tag) {
              case "Done":
                return Either.right(outcome.response)
              case "GiveUp":
                return Either.left(outcome.error)
              case "Redirect": {
                if (progress.redirects >= maxRedirects) {
                  return Either.left(new EdgarUnavailable({ url: progress.url, reason: "too many redirects" }))
                }
                if (!edgarHostnames.has(new URL(outcome.location).hostname)) {
                  return Either.left(new EdgarUnavailable({ url: progress.url, reason: "redirected away from EDGAR" }))
                }
                progress.url = outcome.location
                progress.redirects++
                continue
              }
              case "Retry":
                return yield* Effect.fail(
                  new RetryableAttempt({ url: progress.url, attempt: progress.attempt++, outcome })
                )
            }
          }
        })
      return attemptFollowingRedirects.pipe(
        Effect.retry(retrySchedule),
        Effect.catchTag("RetryableAttempt", (failure) => Effect.fail(exhausted(failure))),
        Effect.flatten
      )
    }

    const userAgent: Effect.Effect<string, MissingUserAgent> = checkUserAgent(settings.userAgent)

    const get = Effect.fn("EdgarClient.get")(function*(target: Target) {
      // Before any network IO: the SEC refuses undeclared tools, and a refusal can lead to a block.
      const agent = yield* userAgent
      const base = target.host === "data" ? settings.dataBaseUrl : settings.baseUrl
      return yield* fetchWithRetries(joinUrl(base, target.path), agent)
    })

    const getText = Effect.fn("EdgarClient.getText")(function*(target: Target) {
      const response = yield* get(target)
      return decodeBody(response.body, response.headers["content-type"])
    })

    return EdgarClient.of({ get, getText })
  })

/** The client with the given timings, as a layer. */
export const layerWith = (
  options: Options
): Layer.Layer<EdgarClient, never, EdgarConfig | FairAccess | HttpClient.HttpClient> =>
  Layer.effect(EdgarClient, make(options))

/** The client with the default timings, as a layer. */
export const layer: Layer.Layer<EdgarClient, never, EdgarConfig | FairAccess | HttpClient.HttpClient> = layerWith(
  {}
)

/**
 * `layerWith`, with the options read through `Config` where the caller says: each field a `Config`
 * (`Config.succeed` for a fixed value), as `@effect/sql-pg`'s `PgClient.layerConfig` takes them; a
 * field left out keeps its default. The library names no environment variable.
 *
 * @example
 * EdgarClient.layerConfig({
 *   bodyTimeout: Config.number("EDGAR_REQUEST_TIMEOUT").pipe(Config.map(Duration.seconds))
 * })
 */
export const layerConfig = (
  config: Config.Config.Wrap<Options>
): Layer.Layer<EdgarClient, ConfigError.ConfigError, EdgarConfig | FairAccess | HttpClient.HttpClient> =>
  Layer.unwrapEffect(Effect.map(
    // `Config.unwrap` cannot read an empty structure; nothing given means every default.
    Config.isConfig(config) || Object.keys(config).length > 0 ? Config.unwrap(config) : Config.succeed({}),
    layerWith
  ))
