/**
 * The whole extraction of a filing: its metrics (from the company's own XBRL, inline or in an
 * instance document of the submission), its classified tables, its exhibit references and its
 * signatures. What cannot be read is left out with a warning, never guessed.
 *
 * @module
 */
import { type ParsedDocument, Parser, SgmlSubmission } from "@filings/filings-parser"
import { Effect } from "effect"
import * as Exhibits from "./Exhibits.js"
import { metricsFromSchedules, readFinancialDataSchedules } from "./internal/fds/financialDataSchedule.js"
import { selectTableMetrics } from "./internal/tables/tableMetrics.js"
import { findStructuredData, type StructuredData } from "./internal/xbrl/structuredData.js"
import * as Metrics from "./Metrics.js"
import type { MetricValue } from "./MetricValue.js"
import * as Signatures from "./Signatures.js"
import * as Tables from "./Tables.js"

/** Every fact the filing tags (see the `Facts` module). */
export { facts } from "./Facts.js"

/** A filing to extract from: its bytes, what the parser made of them, and the id it is published under. */
export interface ExtractInput {
  /** The file as ingested: a full submission, or the primary document itself. */
  readonly bytes: Uint8Array
  /** What `Parser.parse` made of the same bytes. */
  readonly parsed: ParsedDocument.ParsedDocument
  /** The id the document is served under, for exhibit URLs: absent, every exhibit's `url` is `null`. */
  readonly publicationId?: string | undefined
  /** The submission the bytes hold, when the caller has split it already: it is not split again. */
  readonly submission?: SgmlSubmission.Submission | undefined
  /**
   * What the filing says of itself when the bytes are one of its documents alone (an 8-K's press
   * release): the form, the fiscal year end (`MMDD`) and the period of report. The submission
   * header's values are used otherwise.
   */
  readonly filing?: {
    readonly form?: string | undefined
    readonly fiscalYearEnd?: string | undefined
    readonly periodOfReport?: string | undefined
  } | undefined
}

/** What the extractor found in a filing. What it could not read is absent, and said in `warnings`. */
export interface ExtractionOutput {
  /** The metrics the filing reports for its own period, in the order of `Metrics.names`. */
  readonly metrics: Partial<Record<Metrics.MetricName, MetricValue>>
  /** Every table, classified: see `Tables.extractTables`. */
  readonly tables: ReadonlyArray<Tables.Table>
  /** The exhibit index joined with the submission's documents: see `Exhibits.extractExhibits`. */
  readonly exhibits: ReadonlyArray<Exhibits.ExhibitReference>
  /** Absent when the filing has no signature page or no `/s/` signer on it. */
  readonly signatures?: Signatures.Signatures | undefined
  /** What was skipped or doubtful: data, never a failure. */
  readonly warnings: ReadonlyArray<string>
}

type MetricMap = Partial<Record<Metrics.MetricName, MetricValue>>

interface MetricsOutcome {
  readonly metrics: MetricMap
  readonly warnings: ReadonlyArray<string>
}

const fromXbrl = (
  data: StructuredData,
  parsed: ParsedDocument.ParsedDocument
): Effect.Effect<MetricsOutcome | undefined> =>
  data.inlineXbrl === undefined && data.instanceXml === undefined
    ? Effect.succeed(undefined)
    : Metrics.extractMetrics({
      inlineXbrl: data.inlineXbrl,
      // The parse read the primary document's inline facts already, in its own pass.
      inlineFacts: data.inlineXbrl === undefined ? undefined : parsed.inlineXbrl,
      instanceXml: data.instanceXml
    }).pipe(
      Effect.catchAll((error) => Effect.succeed({ metrics: {}, warnings: [`no metrics: ${error.message}`] }))
    )

/**
 * Metrics without XBRL: a financial data schedule's tagged values first, then the income statement's
 * rows for what the schedule lacks, when both speak of the same period.
 */
const fromSchedulesAndTables = (
  data: StructuredData,
  input: ExtractInput,
  tables: ReadonlyArray<Tables.Table>
): MetricsOutcome => {
  const { filing, parsed } = input
  const read = data.financialDataSchedule === undefined
    ? { schedules: [], warnings: [] }
    : readFinancialDataSchedules(data.financialDataSchedule)
  const schedule = read.schedules.length === 0 ? { metrics: {}, warnings: [] } : metricsFromSchedules(read.schedules)
  const fromTables = selectTableMetrics(tables, {
    form: filing?.form ?? parsed.header?.form ?? parsed.form,
    fiscalYearEnd: filing?.fiscalYearEnd ?? parsed.header?.fiscalYearEnd,
    periodOfReport: filing?.periodOfReport ?? parsed.header?.periodOfReport
  })
  const metrics: MetricMap = { ...schedule.metrics }
  const schedulePeriods = new Set(Object.values(schedule.metrics).map((metric) => metric?.period))
  const tableMetrics = Object.entries(fromTables.metrics)
  const samePeriod = Object.keys(schedule.metrics).length === 0 ||
    tableMetrics.some(([, metric]) => schedulePeriods.has(metric?.period))
  if (samePeriod) {
    for (const [name, metric] of tableMetrics) {
      if (metrics[name as Metrics.MetricName] === undefined) metrics[name as Metrics.MetricName] = metric
    }
  }
  const notUsed = samePeriod || tableMetrics.length === 0
    ? []
    : ["the income statement speaks of another period than the financial data schedule: its rows were not used"]
  const warnings = [...read.warnings, ...schedule.warnings, ...fromTables.warnings, ...notUsed]
  if (Object.keys(metrics).length === 0) warnings.push("the filing has no XBRL and no statement gave metrics")
  // In the order of the specification, as XBRL metrics are.
  const ordered: MetricMap = {}
  for (const name of Metrics.names) if (metrics[name] !== undefined) ordered[name] = metrics[name]
  return { metrics: ordered, warnings }
}

/**
 * Extracts the whole of a filing. Metrics come from its XBRL when that gives any (a metric the XBRL
 * does not report then stays absent); else from an EX-27 financial data schedule and the income
 * statement's rows, the rows only for what the schedule lacks and only when both speak of one
 * period. It never fails: what cannot be read is absent, with a warning.
 *
 * @example
 * ```ts
 * const parsed = yield* Parser.parse({ bytes })
 * const { metrics, tables, warnings } = yield* Extractor.extract({ bytes, parsed, publicationId })
 * metrics.revenue?.value // 391035000000
 * ```
 */
export const extract: (input: ExtractInput) => Effect.Effect<ExtractionOutput> = Effect.fn("Extractor.extract")(
  function*(input: ExtractInput) {
    const data = yield* findStructuredData(input.bytes, input.submission)
    const tables = Tables.extractTables(input.parsed)
    const xbrl = yield* fromXbrl(data, input.parsed)
    // A filing with XBRL states what it reports there; an absent metric stays absent.
    const metrics = xbrl !== undefined && Object.keys(xbrl.metrics).length > 0
      ? xbrl
      : fromSchedulesAndTables(data, input, tables.tables)
    const signatures = Signatures.extractSignatures(input.parsed)
    return {
      metrics: metrics.metrics,
      tables: tables.tables,
      exhibits: Exhibits.extractExhibits(input.parsed, input.publicationId),
      ...(signatures.signatures === undefined ? {} : { signatures: signatures.signatures }),
      warnings: [...metrics.warnings, ...tables.warnings, ...signatures.warnings]
    }
  }
)

/** A filing to parse and extract from: what `Parser.parse` reads, and what `extract` wants besides. */
export interface ParseAndExtractInput extends Parser.ParseInput {
  /** What `Parser.parse` made of the same bytes: given, they are not parsed again. */
  readonly parsed?: ParsedDocument.ParsedDocument | undefined
  /**
   * The id the filing is published under, for exhibit URLs; the submission header's accession
   * number when absent. Without either, every exhibit's `url` is `null`.
   */
  readonly publicationId?: string | undefined
  /** What the filing says of itself when the bytes are one of its documents alone (see `ExtractInput`). */
  readonly filing?: ExtractInput["filing"]
}

/**
 * Parses a filing (unless given what the parser made of it) and extracts it, splitting a full
 * submission once for the parser and the extractor both. Fails only with the parser's errors.
 *
 * @example
 * ```ts
 * const { metrics, exhibits } = yield* Extractor.parseAndExtract({ bytes, fileName: "aapl-20240928.htm" })
 * ```
 */
export const parseAndExtract: (
  input: ParseAndExtractInput
) => Effect.Effect<ExtractionOutput, Parser.ParseError> = Effect.fn("Extractor.parseAndExtract")(
  function*(input: ParseAndExtractInput) {
    const { filing, parsed: given, publicationId, ...parseInput } = input
    const submission = parseInput.submission ??
      (SgmlSubmission.looksLikeSubmission(parseInput.bytes)
        ? yield* SgmlSubmission.parseBytes(parseInput.bytes)
        : undefined)
    const parsed = given ?? (yield* Parser.parse({ ...parseInput, submission }))
    return yield* extract({
      bytes: parseInput.bytes,
      parsed,
      publicationId: publicationId ?? submission?.header.accessionNumber ?? parsed.header?.accessionNumber,
      ...(submission === undefined ? {} : { submission }),
      ...(filing === undefined ? {} : { filing })
    })
  }
)
