/**
 * Settings of the EDGAR pipeline, given by the composition root (from `FILINGS_*` variables, see
 * `Environment`): whether to follow EDGAR in real time, the forms kept (amendments such as `10-K/A`
 * are kept when listed, and stored under their form's type), a watch list of tickers (empty, every
 * listed company), the filings processed at once by this process, and how long a worker holds a
 * filing before another may take it, should the worker die (a live worker keeps extending it), and
 * how long the instance reading the latest-filings feed keeps that work without renewing its lease.
 */
import { DocType, type Ids } from "@filings/domain"
import { Context, type Duration, Layer } from "effect"

export interface Settings {
  readonly follow: boolean
  readonly forms: ReadonlyArray<string>
  readonly tickers: ReadonlyArray<Ids.Ticker>
  readonly workers: number
  readonly lease: Duration.Duration
  /** The lease of the work one instance does (see `Leadership`); another takes over after it, should the holder die. */
  readonly followLease: Duration.Duration
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

export const layer = (settings: Settings): Layer.Layer<PipelineConfig> => Layer.succeed(PipelineConfig, settings)
