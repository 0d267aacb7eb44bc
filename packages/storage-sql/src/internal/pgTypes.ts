/**
 * Result parsers that make PGlite decode values the way node-postgres (`pg`, used by
 * `@effect/sql-pg`) decodes them by default, so an un-cast column yields the same JavaScript value
 * on both engines. Only the types where PGlite's defaults differ from pg's are overridden.
 */

/** PostgreSQL type oids (pg_type.oid), stable across versions. */
const INT8 = 20
const DATE = 1082

const CALENDAR_DATE = /^(\d{1,})-(\d{2})-(\d{2})( BC)?$/

/**
 * pg returns a `date` as local midnight; PGlite's default (`new Date("2024-01-31")`) is UTC
 * midnight, which is another day west of Greenwich. Infinity follows pg too.
 */
const parseDate = (text: string): Date | number => {
  if (text === "infinity") return Infinity
  if (text === "-infinity") return -Infinity
  const match = CALENDAR_DATE.exec(text)
  if (match === null) return new Date(text)
  const [, yearText = "", monthText = "", dayText = "", bc] = match
  // Year 1 BC is year 0 in the proleptic calendar that Date uses.
  const year = bc === undefined ? Number(yearText) : 1 - Number(yearText)
  const date = new Date(year, Number(monthText) - 1, Number(dayText))
  // The multi-argument Date constructor maps years 0..99 to 1900..1999.
  if (year >= 0 && year < 100) date.setFullYear(year)
  return date
}

/**
 * PGlite parser overrides (its `parsers` option): int8 as a decimal string and `date` as local
 * midnight. PGlite parses array elements with the element type's parser, so int8[] and date[]
 * follow along.
 */
export const pgCompatibleParsers: Record<number, (text: string) => unknown> = {
  [INT8]: (text) => text,
  [DATE]: parseDate
}
