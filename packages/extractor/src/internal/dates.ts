/**
 * Dates as filings write them (`November 1, 2024`, `Nov. 1, 2024`, `1 November 2024`,
 * `11/01/2024`, `2024-11-01`) to ISO `YYYY-MM-DD`.
 */

const months: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12
}

const monthName =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"

const monthDayYear = new RegExp(`\\b${monthName}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\s*,?\\s*((?:19|20)\\d{2})\\b`, "i")
const dayMonthYear = new RegExp(
  `\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:day\\s+of\\s+)?${monthName}\\.?\\s*,?\\s*((?:19|20)\\d{2})\\b`,
  "i"
)
const numeric = /\b(\d{1,2})\/(\d{1,2})\/((?:19|20)?\d{2})\b/
const iso = /\b((?:19|20)\d{2})-(\d{2})-(\d{2})\b/

const monthNumber = (name: string): number | undefined =>
  months[name.toLowerCase().slice(0, name.length >= 4 && /^sept/i.test(name) ? 4 : 3)]

const isoDate = (year: number, month: number, day: number): string | undefined => {
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCMonth() !== month - 1) return undefined
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`
}

/** The first date written in a text, as ISO; undefined when it has none. */
export const findDate = (text: string): string | undefined => {
  const candidates: Array<{ readonly index: number; readonly date: string | undefined }> = []
  const mdy = monthDayYear.exec(text)
  if (mdy !== null) {
    const month = monthNumber(mdy[1] ?? "")
    if (month !== undefined) candidates.push({ index: mdy.index, date: isoDate(Number(mdy[3]), month, Number(mdy[2])) })
  }
  const dmy = dayMonthYear.exec(text)
  if (dmy !== null) {
    const month = monthNumber(dmy[2] ?? "")
    if (month !== undefined) candidates.push({ index: dmy.index, date: isoDate(Number(dmy[3]), month, Number(dmy[1])) })
  }
  const slash = numeric.exec(text)
  if (slash !== null) {
    const rawYear = Number(slash[3])
    const year = (slash[3] ?? "").length === 2 ? (rawYear < 50 ? 2000 + rawYear : 1900 + rawYear) : rawYear
    candidates.push({ index: slash.index, date: isoDate(year, Number(slash[1]), Number(slash[2])) })
  }
  const dashed = iso.exec(text)
  if (dashed !== null) {
    candidates.push({ index: dashed.index, date: isoDate(Number(dashed[1]), Number(dashed[2]), Number(dashed[3])) })
  }
  return candidates.filter((candidate) => candidate.date !== undefined).sort((a, b) => a.index - b.index)[0]?.date
}
