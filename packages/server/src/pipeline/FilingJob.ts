/**
 * The job of the pipeline's filing queue: a filing to fetch and ingest, found by discovery (or a
 * backfill).
 */
import { Schema } from "effect"

/** The queue of filings to fetch, parse, extract, store and announce. */
export const FilingQueue = "edgar.filings"

export const FilingJob = Schema.Struct({
  accessionNumber: Schema.String,
  cik: Schema.String,
  form: Schema.String,
  ticker: Schema.String,
  companyName: Schema.String,
  /** When the regulator accepted it, as its feed says (ISO 8601). */
  acceptedAt: Schema.optional(Schema.String),
  /** When discovery enqueued it: the start of the latency the pipeline is measured by. */
  discoveredAtMillis: Schema.Number
})
export type FilingJob = typeof FilingJob.Type
