/**
 * Dates and periods as the API writes them: calendar dates `YYYY-MM-DD`, timestamps in ISO 8601,
 * and reporting periods `FY 2024` / `Q3 2024`.
 *
 * @module
 */
import { Schema } from "effect"

const digitPositions = [0, 1, 2, 3, 5, 6, 8, 9]
const isDigit = (code: number): boolean => code >= 48 && code <= 57
const digitsAt = (value: string, start: number, count: number): number => {
  let number = 0
  for (let index = start; index < start + count; index++) number = number * 10 + value.charCodeAt(index) - 48
  return number
}
const daysInMonth = (year: number, month: number): number =>
  month === 2
    ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28)
    : [4, 6, 9, 11].includes(month)
    ? 30
    : 31

// Read character by character: every stored date is checked on each row read and response written.
const isCalendarDate = (value: string): boolean => {
  if (value.length !== 10 || value[4] !== "-" || value[7] !== "-") return false
  for (const index of digitPositions) if (!isDigit(value.charCodeAt(index))) return false
  const [year, month, day] = [digitsAt(value, 0, 4), digitsAt(value, 5, 2), digitsAt(value, 8, 2)]
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)
}

/** A calendar date, `YYYY-MM-DD`, checked to exist (no February 30th). */
export const IsoDate = Schema.String.pipe(
  Schema.filter(isCalendarDate, {
    message: (issue) => `must be a date of the form YYYY-MM-DD, got ${JSON.stringify(issue.actual)}`
  }),
  Schema.annotations({ identifier: "IsoDate", description: "Calendar date, YYYY-MM-DD", format: "date" })
)
export type IsoDate = typeof IsoDate.Type

/** An ISO 8601 timestamp in UTC as the API writes it, `2024-11-01T16:30:05.000Z`. */
export const Timestamp = Schema.String.pipe(
  Schema.annotations({ identifier: "Timestamp", description: "ISO 8601 date-time", format: "date-time" })
)
export type Timestamp = typeof Timestamp.Type

/** A timestamp given by a client: ISO 8601 with a time and a zone, `2024-11-01T16:30:05Z`. */
export const IsoTimestamp = Schema.String.pipe(
  Schema.filter(
    (value) =>
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) &&
      !Number.isNaN(Date.parse(value)),
    { message: (issue) => `must be an ISO 8601 timestamp with a zone, got ${JSON.stringify(issue.actual)}` }
  ),
  Schema.annotations({ identifier: "IsoTimestamp", format: "date-time" })
)

/** A reporting period: `FY <year>` for annual reports, `Q<n> <year>` for quarters. */
export const Period = Schema.String.pipe(
  Schema.pattern(/^(FY|Q[1-4]) \d{4}$/, {
    message: (issue) => `must be a period such as "FY 2024" or "Q3 2024", got ${JSON.stringify(issue.actual)}`
  }),
  Schema.annotations({ identifier: "Period", description: "Reporting period, FY <year> or Q<n> <year>" })
)
export type Period = typeof Period.Type

/** The calendar quarter of a date as a period, used for forms without a fiscal period of their own. */
export const calendarQuarterOf = (date: IsoDate): Period => {
  const month = Number(date.slice(5, 7))
  return `Q${Math.ceil(month / 3)} ${date.slice(0, 4)}`
}
