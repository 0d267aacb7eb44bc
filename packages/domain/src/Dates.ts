/**
 * Dates and periods as the API writes them: calendar dates `YYYY-MM-DD`, timestamps in ISO 8601,
 * and reporting periods `FY 2024` / `Q3 2024`.
 *
 * @module
 */
import { Schema } from "effect"

const isCalendarDate = (value: string): boolean => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (match === null) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
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
