/**
 * What the client counts of its requests to the regulator, as Effect metrics: every attempt by
 * outcome, and the times the regulator told it to slow down. Effect keeps metrics in one registry
 * per process; an application exports them (the Filings server serves them at `/metrics`), and
 * they cost next to nothing when nobody does.
 *
 * @module
 */
import { Effect, Metric } from "effect"

/**
 * What one attempt came to: `ok` (2xx), `redirect`, `not-found`, `refused` (403), `unavailable`
 * (another status the client gives up on), or, for an attempt that is tried again, `too-many`
 * (429), `rate-threshold` (the regulator's block page) and `transient` (5xx, timeouts, broken
 * connections).
 */
export type AttemptOutcome =
  | "ok"
  | "redirect"
  | "not-found"
  | "refused"
  | "unavailable"
  | "too-many"
  | "rate-threshold"
  | "transient"

/** Requests sent to the regulator, each attempt counted once, tagged `outcome`. */
export const requests = Metric.counter("filings_edgar_requests", {
  description: "Requests sent to the regulator (EDGAR), each attempt once, by outcome",
  incremental: true
})

/** Answers that asked the client to slow down (429 or the block page), tagged `kind`. */
export const throttles = Metric.counter("filings_edgar_throttles", {
  description: "Answers from the regulator asking to slow down: a 429 or the request-rate-threshold page",
  incremental: true
})

/** Counts one attempt, and a throttle when it was one. */
export const recordAttempt = (outcome: AttemptOutcome): Effect.Effect<void> =>
  outcome === "too-many" || outcome === "rate-threshold"
    ? Effect.zipRight(
      Metric.increment(Metric.tagged(requests, "outcome", outcome)),
      Metric.increment(Metric.tagged(throttles, "kind", outcome))
    )
    : Metric.increment(Metric.tagged(requests, "outcome", outcome))
