/**
 * Settings of the EDGAR pipeline, read once from `FILINGS_*` variables:
 *
 * - `FILINGS_EDGAR_FOLLOW`: follow EDGAR in real time; on by default when `FILINGS_SEC_USER_AGENT`
 *   is set (the regulator requires a declared agent), off otherwise.
 * - `FILINGS_FORMS`: the forms kept, comma-separated; default the specification's forms (10-K, 10-Q,
 *   8-K, S-1, 6-K, 20-F, DEF 14A). Amendments (`10-K/A`) are kept when listed, and stored under
 *   their form's type.
 * - `FILINGS_TICKERS`: a watch list, comma-separated; unset or empty, every listed company.
 * - `FILINGS_PIPELINE_WORKERS`: filings processed at once by this process (default 4).
 * - `FILINGS_PIPELINE_LEASE`: seconds a worker holds a filing before another may take it, should the
 *   worker die (default 30; a live worker keeps extending it).
 */
import { DocType, Ids } from "@filings/domain"
import { Config, ConfigError, Context, Duration, Effect, Either, Layer, Option, Schema } from "effect"

export interface Settings {
  readonly follow: boolean
  readonly forms: ReadonlyArray<string>
  readonly tickers: ReadonlyArray<Ids.Ticker>
  readonly workers: number
  readonly lease: Duration.Duration
}

export class PipelineConfig extends Context.Tag("@filings/server/PipelineConfig")<PipelineConfig, Settings>() {}

/** Stored types that are no EDGAR form: they come from a filing's exhibits or from other sources. */
const notForms: ReadonlyArray<DocType.DocType> = ["EARNINGS_CALL", "PRESS_RELEASE", "PRESENTATION", "NEWS"]

/** The filing forms of the specification: every stored type that EDGAR publishes. */
export const DefaultForms: ReadonlyArray<string> = DocType.DocumentTypes.filter((type) => !notForms.includes(type))

/** The stored type of a form: `10-K/A` → `10-K`; undefined for forms the service does not hold. */
export const docTypeOfForm = (form: string): DocType.DocType | undefined => {
  const base = form.trim().toUpperCase().replace(/\/A$/, "")
  return DefaultForms.find((type) => type === base) as DocType.DocType | undefined
}

const list = (name: string) =>
  Config.string(name).pipe(
    Config.withDefault(""),
    Config.map((text) => text.split(",").map((item) => item.trim()).filter((item) => item !== ""))
  )

const forms = list("FILINGS_FORMS").pipe(
  Config.mapOrFail((items) => {
    if (items.length === 0) return Either.right(DefaultForms)
    const unknown = items.filter((form) => docTypeOfForm(form) === undefined)
    return unknown.length === 0
      ? Either.right(items.map((form) => form.toUpperCase()))
      : Either.left(
        ConfigError.InvalidData(
          ["FILINGS_FORMS"],
          `unknown form ${unknown.join(", ")}; the forms are ${DefaultForms.join(", ")}, each also with /A`
        )
      )
  })
)

const tickers = list("FILINGS_TICKERS").pipe(
  Config.mapOrFail((items) => {
    const decoded = items.map((item) => Schema.decodeEither(Ids.Ticker)(item))
    const bad = items.filter((_, index) => Either.isLeft(decoded[index]!))
    return bad.length === 0
      ? Either.right(decoded.flatMap((result) => Either.isRight(result) ? [result.right] : []))
      : Either.left(ConfigError.InvalidData(["FILINGS_TICKERS"], `not a ticker: ${bad.join(", ")}`))
  })
)

export const config: Config.Config<Settings> = Config.all({
  follow: Config.option(Config.boolean("FILINGS_EDGAR_FOLLOW")),
  userAgent: Config.option(Config.string("FILINGS_SEC_USER_AGENT")),
  forms,
  tickers,
  workers: Config.integer("FILINGS_PIPELINE_WORKERS").pipe(
    Config.withDefault(4),
    Config.validate({ message: "FILINGS_PIPELINE_WORKERS must be from 1 to 64", validation: (n) => n >= 1 && n <= 64 })
  ),
  lease: Config.number("FILINGS_PIPELINE_LEASE").pipe(
    Config.validate({ message: "FILINGS_PIPELINE_LEASE must be at least 1 second", validation: (n) => n >= 1 }),
    Config.withDefault(30),
    Config.map(Duration.seconds)
  )
}).pipe(
  Config.map(({ follow, userAgent, ...rest }) => ({
    ...rest,
    follow: Option.getOrElse(follow, () => Option.isSome(userAgent) && userAgent.value.trim() !== "")
  }))
)

export const layer = (overrides: Partial<Settings> = {}) =>
  Layer.effect(PipelineConfig, Effect.map(config, (settings) => ({ ...settings, ...overrides })))
