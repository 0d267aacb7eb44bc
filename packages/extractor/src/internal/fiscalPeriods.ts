/**
 * Fiscal period labels (`FY 2024`, `Q2 2025`) for values that carry only an end date and a length:
 * table columns of earnings releases and old filings, and financial data schedules. XBRL filings
 * say their fiscal period in dei facts; these sources do not, so the label follows fixed rules:
 *
 * - A fiscal year is named by the calendar year it ends in, as the document `period` is.
 * - A quarter's number counts from the company's fiscal year end (`MMDD`, from the submission
 *   header) when it is known; else from a year-to-date column ending on the same date (a six-month
 *   column makes the quarter Q2); else it is the calendar quarter, and the label says so.
 *
 * Companies that name a fiscal year by the year it starts in (some retailers whose years end in
 * January) get a label one year later than their own.
 */

const dayMs = 86_400_000
const averageMonthDays = 30.4375

const toDays = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / dayMs

const isIso = (text: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(text) && Number.isFinite(toDays(text))

/** Whole months between two ISO dates, rounded (52/53-week calendars land within a few days). */
export const monthsBetween = (from: string, to: string): number =>
  Math.round((toDays(to) - toDays(from)) / averageMonthDays)

/** Whether two ISO dates are at most `days` apart. */
export const near = (left: string, right: string, days: number): boolean =>
  Math.abs(toDays(left) - toDays(right)) <= days

/** Whether `earlier` ends the same period a year before `later` (52/53-week years included). */
export const yearBefore = (earlier: string, later: string): boolean => {
  const gap = toDays(later) - toDays(earlier)
  return gap >= 357 && gap <= 373
}

/** The fiscal year end (`MMDD`) that closes the fiscal year containing `periodEnd`, as an ISO date. */
const closingYearEnd = (periodEnd: string, fiscalYearEnd: string): string | undefined => {
  const match = /^(\d{2})(\d{2})$/.exec(fiscalYearEnd.trim())
  if (match === null) return undefined
  const month = Number(match[1])
  const day = Number(match[2])
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined
  const year = Number(periodEnd.slice(0, 4))
  // A 52/53-week year may end a few days either side of the nominal date.
  for (const candidateYear of [year, year + 1]) {
    const lastDay = new Date(Date.UTC(candidateYear, month, 0)).getUTCDate()
    const candidate = `${candidateYear}-${match[1]}-${String(Math.min(day, lastDay)).padStart(2, "0")}`
    if (toDays(candidate) >= toDays(periodEnd) - 10) return candidate
  }
  return undefined
}

export interface FiscalLabel {
  /** `FY 2024` or `Q2 2025`. */
  readonly label: string
  /** True when the quarter is the calendar quarter because nothing said the fiscal year end. */
  readonly calendar: boolean
}

export interface PeriodFacts {
  /** ISO end date of the period. */
  readonly periodEnd: string
  /** Length of the period in months: 12 for a year, 3 for a quarter. */
  readonly months: number
  /** The fiscal year end as `MMDD` (EDGAR's header spelling), when known. */
  readonly fiscalYearEnd?: string | undefined
  /** The longest year-to-date length (6, 9 or 12) of a column ending on the same date, when any. */
  readonly yearToDateMonths?: number | undefined
}

/** The label of a year or a quarter; undefined for other lengths (half years, nine months). */
export const fiscalLabel = (facts: PeriodFacts): FiscalLabel | undefined => {
  const { months, periodEnd } = facts
  if (!isIso(periodEnd)) return undefined
  if (months === 12) return { label: `FY ${periodEnd.slice(0, 4)}`, calendar: false }
  if (months !== 3) return undefined
  const yearEnd = facts.fiscalYearEnd === undefined ? undefined : closingYearEnd(periodEnd, facts.fiscalYearEnd)
  if (yearEnd !== undefined) {
    const quarter = 4 - Math.round(monthsBetween(periodEnd, yearEnd) / 3)
    if (quarter >= 1 && quarter <= 4) return { label: `Q${quarter} ${yearEnd.slice(0, 4)}`, calendar: false }
  }
  const yearToDate = facts.yearToDateMonths
  if (yearToDate === 6 || yearToDate === 9 || yearToDate === 12) {
    const end = new Date((toDays(periodEnd) + (12 - yearToDate) * averageMonthDays) * dayMs)
    return { label: `Q${yearToDate / 3} ${end.getUTCFullYear()}`, calendar: false }
  }
  const month = Number(periodEnd.slice(5, 7))
  return { label: `Q${Math.ceil(month / 3)} ${periodEnd.slice(0, 4)}`, calendar: true }
}
