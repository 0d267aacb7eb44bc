/**
 * Where EDGAR is and how politely to use it, read from `FILINGS_*` environment variables through
 * Effect Config. The SEC's fair-access policy asks automated clients to declare themselves in the
 * User-Agent (who they are and a contact e-mail) and to stay at or below 10 requests per second;
 * both are settings here, and a rate above the policy's ceiling is a configuration error.
 */
import { Config, type ConfigError, Context, Duration, Effect, Layer, Option } from "effect"
import { MissingUserAgent } from "./EdgarError.js"

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

export class EdgarConfig extends Context.Tag("@filings/edgar/EdgarConfig")<EdgarConfig, Settings>() {
  static get fromEnv(): Layer.Layer<EdgarConfig, ConfigError.ConfigError> {
    return fromEnv
  }
  static make(overrides: Partial<Settings> = {}): Settings {
    return make(overrides)
  }
  static layer(overrides: Partial<Settings> = {}): Layer.Layer<EdgarConfig> {
    return layer(overrides)
  }
  static get requireUserAgent(): Effect.Effect<string, MissingUserAgent, EdgarConfig> {
    return requireUserAgent
  }
}

/** The SEC's published ceiling for one user, across all of that user's machines. */
export const RegulatorMaxRequestsPerSecond = 10

export const defaults: Settings = {
  baseUrl: "https://www.sec.gov",
  dataBaseUrl: "https://data.sec.gov",
  userAgent: Option.none(),
  pollInterval: Duration.seconds(2),
  maxRequestsPerSecond: RegulatorMaxRequestsPerSecond
}

export const config: Config.Config<Settings> = Config.all({
  baseUrl: Config.string("FILINGS_EDGAR_BASE_URL").pipe(Config.withDefault(defaults.baseUrl)),
  dataBaseUrl: Config.string("FILINGS_EDGAR_DATA_BASE_URL").pipe(Config.withDefault(defaults.dataBaseUrl)),
  userAgent: Config.option(Config.string("FILINGS_SEC_USER_AGENT")),
  pollInterval: Config.number("FILINGS_EDGAR_POLL_INTERVAL").pipe(
    Config.validate({ message: "must be a number of seconds above 0", validation: (seconds) => seconds > 0 }),
    Config.map(Duration.seconds),
    Config.withDefault(defaults.pollInterval)
  ),
  maxRequestsPerSecond: Config.integer("FILINGS_EDGAR_MAX_RPS").pipe(
    Config.validate({
      message:
        `must be a whole number from 1 to ${RegulatorMaxRequestsPerSecond}: the SEC's fair-access policy allows no more than ${RegulatorMaxRequestsPerSecond} requests per second`,
      validation: (rate) => rate >= 1 && rate <= RegulatorMaxRequestsPerSecond
    }),
    Config.withDefault(defaults.maxRequestsPerSecond)
  )
})

/** Settings from the environment; a missing User-Agent is not an error here, only when a request is made. */
export const fromEnv: Layer.Layer<EdgarConfig, ConfigError.ConfigError> = Layer.effect(
  EdgarConfig,
  config
)

/** Settings with the defaults filled in, for tests and embedding. */
export const make = (overrides: Partial<Settings> = {}): Settings => ({ ...defaults, ...overrides })

export const layer = (overrides: Partial<Settings> = {}): Layer.Layer<EdgarConfig> =>
  Layer.succeed(EdgarConfig, make(overrides))

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

export const requireUserAgent: Effect.Effect<string, MissingUserAgent, EdgarConfig> = Effect.flatMap(
  EdgarConfig,
  (settings) => checkUserAgent(settings.userAgent)
)
