/**
 * Where EDGAR is and how politely to use it, as the caller gives it: in code with `layer`, or
 * through `Config` with `layerConfig` (the library names no environment variable). The SEC's
 * fair-access policy asks automated clients to declare themselves in the User-Agent (who they are
 * and a contact e-mail) and to stay at or below 10 requests per second; both are settings here, and
 * a rate above the policy's ceiling is a configuration error.
 *
 * @module
 */
import { Config, ConfigError, Context, Duration, Effect, Layer, Option } from "effect"
import { MissingUserAgent } from "./EdgarError.js"

/** Where EDGAR is and how politely to use it. */
export interface Settings {
  /** `www.sec.gov`: Archives, browse-edgar feeds, indexes. */
  readonly baseUrl: string
  /** `data.sec.gov`: the JSON APIs (submissions, XBRL frames). */
  readonly dataBaseUrl: string
  /** The declared identity, e.g. "Acme Research ops@acme.example"; checked when a request is made. */
  readonly userAgent: Option.Option<string>
  /** How often the latest-filings feed is polled. */
  readonly pollInterval: Duration.Duration
  /** Request starts allowed in any one-second window, 1 to 10. */
  readonly maxRequestsPerSecond: number
}

/**
 * The settings as a service, read by `FairAccess`, `EdgarClient` and the feed readers.
 *
 * @example
 * const layer = EdgarConfig.layer({ userAgent: Option.some("Acme Research ops@acme.example") })
 */
export class EdgarConfig extends Context.Tag("@filings/edgar/EdgarConfig")<EdgarConfig, Settings>() {
  /** The settings with the defaults filled in (the module's `make`). */
  static make(overrides: Partial<Settings> = {}): Settings {
    return make(overrides)
  }
  /** The settings in code (the module's `layer`). */
  static layer(overrides: Partial<Settings> = {}): Layer.Layer<EdgarConfig> {
    return layer(overrides)
  }
  /** The settings read through `Config` (the module's `layerConfig`). */
  static layerConfig(config: Config.Config.Wrap<Partial<Settings>>): Layer.Layer<EdgarConfig, ConfigError.ConfigError> {
    return layerConfig(config)
  }
  /** The configured User-Agent, or `MissingUserAgent` (the module's `requireUserAgent`). */
  static get requireUserAgent(): Effect.Effect<string, MissingUserAgent, EdgarConfig> {
    return requireUserAgent
  }
}

/** The SEC's published ceiling for one user, across all of that user's machines. */
export const RegulatorMaxRequestsPerSecond = 10

/** The production settings: the SEC's hosts, no User-Agent, a 2-second poll, 10 requests per second. */
export const defaults: Settings = {
  baseUrl: "https://www.sec.gov",
  dataBaseUrl: "https://data.sec.gov",
  userAgent: Option.none(),
  pollInterval: Duration.seconds(2),
  maxRequestsPerSecond: RegulatorMaxRequestsPerSecond
}

/** The rule a request rate must follow, as a configuration error states it. */
export const maxRequestsPerSecondRule =
  `must be a whole number from 1 to ${RegulatorMaxRequestsPerSecond}: the SEC's fair-access policy allows no more than ${RegulatorMaxRequestsPerSecond} requests per second`

/** Whether `rate` is a request rate the SEC's fair-access policy allows: a whole number from 1 to 10. */
export const isAllowedRequestRate = (rate: number): boolean =>
  Number.isInteger(rate) && rate >= 1 && rate <= RegulatorMaxRequestsPerSecond

/** The rule a poll interval must follow, as a configuration error states it. */
export const pollIntervalRule = "must be a number of seconds above 0"

/** Whether `interval` can be a poll interval: longer than zero. */
export const isAllowedPollInterval = (interval: Duration.Duration): boolean =>
  Duration.greaterThan(interval, Duration.zero)

const invalid = (field: keyof Settings, rule: string) => ConfigError.InvalidData([field], `${field} ${rule}`)

/** The settings, checked as `Config` checks them: a rate or interval out of range is a `ConfigError`. */
const checked = (settings: Settings): Effect.Effect<Settings, ConfigError.ConfigError> => {
  if (!isAllowedRequestRate(settings.maxRequestsPerSecond)) {
    return Effect.fail(invalid("maxRequestsPerSecond", maxRequestsPerSecondRule))
  }
  if (!isAllowedPollInterval(settings.pollInterval)) return Effect.fail(invalid("pollInterval", pollIntervalRule))
  return Effect.succeed(settings)
}

/** Settings with the defaults filled in, for tests and embedding. */
export const make = (overrides: Partial<Settings> = {}): Settings => ({
  ...defaults,
  // A field given as undefined (an optional Config with nothing set) keeps its default.
  ...Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined))
})

/**
 * The settings in code: the defaults, with `overrides` on top.
 *
 * @example
 * EdgarConfig.layer({ userAgent: Option.some("Acme Research ops@acme.example") })
 */
export const layer = (overrides: Partial<Settings> = {}): Layer.Layer<EdgarConfig> =>
  Layer.succeed(EdgarConfig, make(overrides))

/**
 * The settings read through `Config` where the caller says: each field a `Config` (`Config.succeed`
 * for a fixed value), as
 * `@effect/sql-pg`'s `PgClient.layerConfig` takes them; a field left out keeps its default. A rate
 * outside 1 to 10, or a poll interval of zero, is a `ConfigError`. A missing User-Agent is not an
 * error here, only when a request is made.
 *
 * @example
 * EdgarConfig.layerConfig({
 *   userAgent: Config.option(Config.string("SEC_USER_AGENT")),
 *   maxRequestsPerSecond: Config.integer("EDGAR_MAX_RPS").pipe(Config.withDefault(5))
 * })
 */
export const layerConfig = (
  config: Config.Config.Wrap<Partial<Settings>>
): Layer.Layer<EdgarConfig, ConfigError.ConfigError> =>
  Layer.effect(
    EdgarConfig,
    // `Config.unwrap` cannot read an empty structure; nothing given means every default.
    Effect.flatMap(
      Config.isConfig(config) || Object.keys(config).length > 0 ? Config.unwrap(config) : Config.succeed({}),
      (overrides) => checked(make(overrides))
    )
  )

// An address-like token: something@something.tld. Deliberately loose: the point is that the regulator
// can reach a person, not RFC 5322 conformance.
const emailLike = /[^\s@<>()"]+@[^\s@<>()"]+\.[^\s@<>()".]+/

/** The configured User-Agent if it names a contact e-mail, as the SEC asks; MissingUserAgent otherwise. */
export const checkUserAgent = (userAgent: Option.Option<string>): Effect.Effect<string, MissingUserAgent> =>
  Option.match(Option.filter(Option.map(userAgent, (agent) => agent.trim()), (agent) => agent.length > 0), {
    onNone: () => Effect.fail(new MissingUserAgent({ problem: "unset" })),
    onSome: (agent) =>
      emailLike.test(agent)
        ? Effect.succeed(agent)
        : Effect.fail(new MissingUserAgent({ problem: "no contact e-mail" }))
  })

/** The configured User-Agent when it names a contact e-mail; `MissingUserAgent` otherwise. */
export const requireUserAgent: Effect.Effect<string, MissingUserAgent, EdgarConfig> = Effect.flatMap(
  EdgarConfig,
  (settings) => checkUserAgent(settings.userAgent)
)
