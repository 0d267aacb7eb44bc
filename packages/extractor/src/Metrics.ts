/**
 * Financial metrics from the regulator's own XBRL facts: every value is the one the company reported,
 * with its unit and period, or it is absent. Reads an inline XBRL document (10-K and 10-Q since 2019)
 * or a standalone XBRL instance (older filings) in one streaming pass, picks the filing's own reporting
 * period from its dei cover facts, and keeps only totals (facts without dimensions).
 *
 * @module
 */
import type { FactSet } from "@filings/filings-parser/XbrlFacts"
import { Effect, Schema } from "effect"
import type { MetricName } from "./internal/xbrl/concepts.js"
import { metricNames } from "./internal/xbrl/concepts.js"
import { readInlineFacts } from "./internal/xbrl/inlineFacts.js"
import { readInstanceFacts } from "./internal/xbrl/instanceFacts.js"
import type { ReportingPeriod } from "./internal/xbrl/select.js"
import { selectMetrics } from "./internal/xbrl/select.js"
import type { MetricValue } from "./MetricValue.js"

/** A metric name of the API, such as `revenue` or `eps_diluted`: one of `names`. */
export type { MetricName } from "./internal/xbrl/concepts.js"

/** The 13 metric names, in the order of the interface specification. */
export const names: ReadonlyArray<MetricName> = metricNames

/** The filing's reporting period, as its dei cover facts state it; its `label` is every metric's `period`. */
export type { ReportingPeriod }

/** The XBRL of one filing: an inline XBRL document or a standalone instance, the former preferred. */
export interface MetricsInput {
  /** An inline XBRL document (the primary HTML document of a 10-K or 10-Q). */
  readonly inlineXbrl?: string | undefined
  /**
   * The inline document's facts, read already (`ParsedDocument.inlineXbrl`, which the parse reads
   * in its own pass): used instead of reading `inlineXbrl` again.
   */
  readonly inlineFacts?: FactSet | undefined
  /** A standalone XBRL instance document; used when no inline document is given. */
  readonly instanceXml?: string | undefined
}

/** The metrics of one filing, with the reporting period they are of and what was skipped. */
export interface MetricsResult {
  /** The metrics the filing reports for its period, in the order of `names`; an unreported one is absent. */
  readonly metrics: Partial<Record<MetricName, MetricValue>>
  /**
   * The filing's reporting period; absent when its cover facts give no period end, and then no
   * metric is selected (a warning says so).
   */
  readonly period?: ReportingPeriod | undefined
  /** Skipped facts, undefined contexts, conflicting duplicates: data, never a failure. */
  readonly warnings: ReadonlyArray<string>
}

/** The input holds no XBRL at all: no document given, or not a single context or fact in it. */
export class UnusableXbrl extends Schema.TaggedError<UnusableXbrl>()("UnusableXbrl", {
  reason: Schema.Literal("no input", "no facts")
}) {
  override get message(): string {
    return this.reason === "no input"
      ? "no inline XBRL document or XBRL instance was given"
      : "the document holds no XBRL contexts or facts"
  }
}

/** Every way `extractMetrics` can fail: there is no XBRL to read. */
export type MetricsError = UnusableXbrl

/** The metric alone, without the fact's own dates the selection keeps. */
const toMetricValue = (selected: MetricValue): MetricValue => ({
  value: selected.value,
  unit: selected.unit,
  period: selected.period,
  ...(selected.asOf === undefined ? {} : { asOf: selected.asOf }),
  ...(selected.yoyChange === undefined ? {} : { yoyChange: selected.yoyChange }),
  source: selected.source
})

/**
 * Extracts the metrics of one filing. Fails with `UnusableXbrl` only when there is nothing to read;
 * everything else (a broken context, a fact in an unknown format, conflicting duplicates) is a warning
 * and the affected values are absent.
 */
export const extractMetrics: (input: MetricsInput) => Effect.Effect<MetricsResult, UnusableXbrl> = Effect.fn(
  "Metrics.extractMetrics"
)(function*(input: MetricsInput) {
  let facts: FactSet
  if (input.inlineFacts !== undefined) facts = input.inlineFacts
  else if (input.inlineXbrl !== undefined) facts = readInlineFacts(input.inlineXbrl)
  else if (input.instanceXml !== undefined) facts = readInstanceFacts(input.instanceXml)
  else return yield* new UnusableXbrl({ reason: "no input" })
  if (facts.contexts.size === 0 && facts.numericFacts.length === 0 && facts.textFacts.length === 0) {
    return yield* new UnusableXbrl({ reason: "no facts" })
  }
  const selection = selectMetrics(facts)
  const metrics: Partial<Record<MetricName, MetricValue>> = {}
  for (const name of metricNames) {
    const selected = selection.metrics[name]
    if (selected !== undefined) metrics[name] = toMetricValue(selected)
  }
  return { metrics, period: selection.period, warnings: selection.warnings }
})
