/**
 * Metrics read from a classified income statement, for documents without XBRL (earnings releases
 * furnished as EX-99.1, old filings): revenue, gross profit, operating income, net income and
 * basic / diluted EPS, one value per period column. The table's unit gives the scale (per-share
 * rows are never scaled), parentheses are negatives, a dash is zero.
 */
import type { MetricValue } from "../../MetricValue.js"
import { findDate } from "../dates.js"
import { fiscalLabel, near, yearBefore } from "../fiscalPeriods.js"
import type { TableType } from "./readTables.js"

/** What the reader needs of a table (a `Tables.Table` or an internal one). */
export interface StatementTable {
  readonly id: string
  readonly title?: string | undefined
  readonly unit: string
  readonly headers: ReadonlyArray<string>
  readonly rows: ReadonlyArray<ReadonlyArray<string>>
  readonly tableType: TableType
}

export type TableMetricName =
  | "revenue"
  | "gross_profit"
  | "operating_income"
  | "net_income"
  | "eps_basic"
  | "eps_diluted"

export interface TableMetric {
  readonly name: TableMetricName
  readonly value: number
  /** `USD` for amounts and per-share amounts. */
  readonly unit: string
  /** The column header as written: `Three Months Ended March 29, 2025`. */
  readonly column: string
  /** The period's end date from the header, ISO, when it names one. */
  readonly periodEnd?: string | undefined
  /** Length of the period in months when the header says (`Three Months`, `Thirteen Weeks`, `Year`). */
  readonly months?: number | undefined
  /** `table:<id>:<row label>`. */
  readonly source: string
}

const scales: Record<string, number> = { thousands: 1e3, millions: 1e6, billions: 1e9 }

/** `$(1,234.5)` → -1234.5, `—` → 0; undefined when the cell is no amount. */
export const parseAmount = (cell: string): number | undefined => {
  const text = cell.replace(/[$€£¥\s]/g, "")
  if (/^[—–-]+$/.test(text)) return 0
  const match = /^(\()?(-)?([\d,]*\.?\d+)(\))?%?$/.exec(text)
  if (match === null) return undefined
  const value = Number((match[3] ?? "").replace(/,/g, ""))
  if (!Number.isFinite(value)) return undefined
  return match[1] !== undefined || match[2] !== undefined ? -value : value
}

const monthsIn = (header: string): number | undefined => {
  const text = header.toLowerCase()
  if (/\b(?:three|3)[ -]months?\b|\bquarter\b|\b(?:thirteen|fourteen|13|14)[ -]weeks?\b/.test(text)) return 3
  if (/\b(?:six|6)[ -]months?\b|\b(?:twenty-six|26)[ -]weeks?\b/.test(text)) return 6
  if (/\b(?:nine|9)[ -]months?\b|\b(?:thirty-nine|39)[ -]weeks?\b/.test(text)) return 9
  if (/\b(?:twelve|12)[ -]months?\b|\byears?\b|\bfiscal\b|\b(?:fifty-two|fifty-three|52|53)[ -]weeks?\b/.test(text)) {
    return 12
  }
  return undefined
}

const norm = (label: string): string => label.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, " ").trim()

const perShareContext = /(?:earnings|income|loss)(?: \(loss\))? per (?:common )?share/
const notPerShareAmount = /shares used|weighted|number of shares|average shares|shares outstanding/

/** The metric a row holds, given the label row above it (`Earnings per share:`). */
const metricOfRow = (label: string, context: string): TableMetricName | undefined => {
  if (label === "" || notPerShareAmount.test(label)) return undefined
  if (/^diluted\b/.test(label) && perShareContext.test(context) && !notPerShareAmount.test(context)) {
    return "eps_diluted"
  }
  if (/^basic\b/.test(label) && perShareContext.test(context) && !notPerShareAmount.test(context)) return "eps_basic"
  if (perShareContext.test(label) || /per share/.test(label)) {
    if (/\bdiluted\b/.test(label)) return "eps_diluted"
    if (/\bbasic\b/.test(label)) return "eps_basic"
    return undefined
  }
  if (
    /^total (?:net )?(?:revenues?|net sales|sales)$|^(?:net )?(?:revenues?|sales)(?:, net\b.*)?$|^net sales$/.test(
      label
    )
  ) {
    return "revenue"
  }
  if (/^gross (?:profit|margin)$/.test(label)) return "gross_profit"
  if (/^(?:operating income(?: \(loss\))?|income(?: \(loss\))? from operations)$/.test(label)) return "operating_income"
  if (/^net (?:income|earnings)(?: \(loss\))?$|^net loss$/.test(label)) return "net_income"
  return undefined
}

/**
 * The metrics of one income statement. A revenue label met twice (`Total revenue` after the
 * `Revenue:` lines) keeps the total; otherwise the first row of each metric wins.
 */
export const metricsFromIncomeStatement = (table: StatementTable): Array<TableMetric> => {
  if (table.tableType !== "income_statement") return []
  const scaleWord = /\b(thousands|millions|billions)\b/.exec(table.unit)?.[1]
  const scale = scaleWord === undefined ? 1 : scales[scaleWord] ?? 1
  const currency = /^[A-Z]{3}\b/.exec(table.unit)?.[0] ?? "USD"
  const columns = table.headers
    .map((header, index) => ({ header, index }))
    .filter(({ header, index }) => index > 0 && !/\bchange\b|%|\bvariance\b/i.test(header))
  const chosen = new Map<TableMetricName, { readonly row: ReadonlyArray<string>; readonly label: string }>()
  let context = ""
  for (const row of table.rows) {
    const label = norm(row[0] ?? "")
    const values = row.slice(1)
    if (values.every((cell) => cell.trim() === "")) {
      context = label
      continue
    }
    const name = metricOfRow(label, context)
    if (name === undefined) continue
    const known = chosen.get(name)
    if (known === undefined || (name === "revenue" && /^total\b/.test(label) && !/^total\b/.test(known.label))) {
      chosen.set(name, { row, label: row[0] ?? "" })
    }
  }
  const metrics: Array<TableMetric> = []
  for (const [name, { label, row }] of chosen) {
    const perShare = name === "eps_basic" || name === "eps_diluted"
    for (const { header, index } of columns) {
      const amount = parseAmount(row[index] ?? "")
      if (amount === undefined) continue
      const value = perShare ? amount : Math.round(amount * scale * 100) / 100
      const periodEnd = findDate(header)
      const months = monthsIn(header)
      metrics.push({
        name,
        value,
        unit: currency,
        column: header,
        ...(periodEnd !== undefined ? { periodEnd } : {}),
        ...(months !== undefined ? { months } : {}),
        source: `table:${table.id}:${label}`
      })
    }
  }
  return metrics
}

/** What the filing says about itself that the period choice needs. */
export interface StatementContext {
  /** The form: `10-K`, `10-Q`, `8-K`, ...; annual forms take the year column, 10-Q the quarter. */
  readonly form?: string | undefined
  /** The fiscal year end as `MMDD`, from the submission header. */
  readonly fiscalYearEnd?: string | undefined
  /** The period of report from the header (ISO), which picks the column when one ends on it. */
  readonly periodOfReport?: string | undefined
}

export interface TableSelection {
  readonly metrics: Partial<Record<TableMetricName, MetricValue>>
  readonly warnings: ReadonlyArray<string>
}

interface DatedMetric extends TableMetric {
  readonly periodEnd: string
  readonly months: number
}

const isDated = (metric: TableMetric): metric is DatedMetric =>
  metric.periodEnd !== undefined && metric.months !== undefined

// Statements of someone else's numbers or of adjusted ones are not what the company reported.
const notReported = /pro forma|non-gaap|adjusted|supplemental|predecessor|guarantor/i

const isAnnualForm = (form: string | undefined): boolean => form !== undefined && /^(?:10-K|20-F|40-F)/i.test(form)

/**
 * The metrics of the filing's own period from its income statements: the year for annual reports,
 * the quarter for quarterly reports, the quarter else the year for earnings releases. The column
 * is the one ending on the period of report, else the latest; the first statement giving a metric
 * wins, and `yoy_change` compares with the same row's column a year earlier.
 */
export const selectTableMetrics = (
  tables: ReadonlyArray<StatementTable>,
  context: StatementContext
): TableSelection => {
  const warnings: Array<string> = []
  const reported = tables.filter((table) =>
    table.tableType === "income_statement" && !notReported.test(table.title ?? "")
  )
  const read = reported.flatMap(metricsFromIncomeStatement)
  const dated = read.filter(isDated)
  if (dated.length === 0) {
    if (read.length > 0) warnings.push("no income statement column names its period: no metrics read from tables")
    return { metrics: {}, warnings }
  }
  const lengths = isAnnualForm(context.form) ? [12] : context.form === "10-Q" ? [3] : [3, 12]
  const months = lengths.find((length) => dated.some((metric) => metric.months === length))
  if (months === undefined) {
    warnings.push(`no income statement column covers ${lengths[0]} months: no metrics read from tables`)
    return { metrics: {}, warnings }
  }
  const ofLength = dated.filter((metric) => metric.months === months)
  const ends = ofLength.map((metric) => metric.periodEnd)
  const ofReport = context.periodOfReport
  const periodEnd = (ofReport === undefined ? undefined : ends.find((end) => near(end, ofReport, 7))) ??
    ends.reduce((latest, end) => (end > latest ? end : latest))
  const yearToDate = Math.max(
    0,
    ...dated.filter((metric) => metric.months > months && near(metric.periodEnd, periodEnd, 7)).map((metric) =>
      metric.months
    )
  )
  const label = fiscalLabel({
    periodEnd,
    months,
    fiscalYearEnd: context.fiscalYearEnd,
    yearToDateMonths: yearToDate === 0 ? undefined : yearToDate
  })
  if (label === undefined) return { metrics: {}, warnings }
  if (label.calendar) {
    warnings.push(`the fiscal year end is unknown: table metrics are labelled by the calendar quarter (${label.label})`)
  }
  const metrics: Partial<Record<TableMetricName, MetricValue>> = {}
  for (const metric of ofLength) {
    if (!near(metric.periodEnd, periodEnd, 7)) continue
    const known = metrics[metric.name]
    if (known !== undefined) {
      if (known.value !== metric.value) {
        warnings.push(
          `${metric.name}: ${metric.source} gives ${metric.value}, ${known.source} gave ${known.value}; the first is kept`
        )
      }
      continue
    }
    const prior = ofLength.find((candidate) =>
      candidate.source === metric.source && candidate.name === metric.name &&
      yearBefore(candidate.periodEnd, metric.periodEnd)
    )
    const yoyChange = prior === undefined || prior.value === 0
      ? undefined
      : (metric.value - prior.value) / Math.abs(prior.value)
    metrics[metric.name] = {
      value: metric.value,
      unit: metric.unit,
      period: label.label,
      ...(yoyChange === undefined ? {} : { yoyChange }),
      source: metric.source
    }
  }
  return { metrics, warnings }
}
