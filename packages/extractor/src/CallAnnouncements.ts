/**
 * The earnings call a press release announces: "Adobe will webcast its earnings conference call
 * today at 2:00 p.m. Pacific Time", "a conference call at 5:00 p.m. ET on Thursday, November 5,
 * 2024". The time is read in the named US time zone (daylight saving included) and given in UTC;
 * a sentence without a time, a zone or a day it can pin down gives nothing rather than a guess.
 *
 * @module
 */
import { Blocks } from "@filings/filings-parser"
import { findDate } from "./internal/dates.js"

/**
 * An announced earnings call: when it starts and the sentence that says so.
 *
 * @example
 * ```ts
 * const release = Effect.runSync(Parser.parse({ bytes, fileName: "ex99-1.htm" }))
 * findCallAnnouncement(release.blocks, "2024-10-31")
 * // { scheduledAt: "2024-11-07T22:00:00.000Z", sentence: "Acme will host a conference call at 5:00 p.m. ET on Thursday, November 7, 2024." }
 * ```
 */
export interface CallAnnouncement {
  /** When the call starts, ISO 8601 in UTC: `2023-03-15T21:00:00.000Z`. */
  readonly scheduledAt: string
  /** The sentence that announces it, as written. */
  readonly sentence: string
}

const zones: ReadonlyArray<{ readonly pattern: RegExp; readonly zone: string }> = [
  { pattern: /\b(?:E[SD]?T|Eastern(?:\s+(?:Standard|Daylight))?(?:\s+Time)?)\b/, zone: "America/New_York" },
  { pattern: /\b(?:C[SD]?T|Central(?:\s+(?:Standard|Daylight))?\s+Time)\b/, zone: "America/Chicago" },
  { pattern: /\b(?:M[SD]?T|Mountain(?:\s+(?:Standard|Daylight))?\s+Time)\b/, zone: "America/Denver" },
  { pattern: /\b(?:P[SD]?T|Pacific(?:\s+(?:Standard|Daylight))?(?:\s+Time)?)\b/, zone: "America/Los_Angeles" },
  { pattern: /\b(?:GMT|UTC)\b/, zone: "UTC" }
]

const callWords = /\b(?:conference call|earnings call|webcast|call to discuss)\b/i
const clockTime = /\b(\d{1,2})(?:[:.](\d{2}))?\s*([ap])\.?\s?m\b\.?/i
const weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
const monthDay =
  /\b(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?!\s*,?\s*\d{4})/i
const monthIndex = (name: string): number =>
  ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].indexOf(
    name.slice(0, 3).toLowerCase()
  )

const addDays = (iso: string, days: number): string =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

/** The day the sentence names: a full date, a month and day (this year, or next if past), today or tomorrow, a weekday. */
const dayOf = (sentence: string, publishedOn: string): string | undefined => {
  const full = findDate(sentence)
  if (full !== undefined) return full
  const partial = monthDay.exec(sentence)
  if (partial !== null) {
    const year = Number(publishedOn.slice(0, 4))
    const month = monthIndex(partial[1] ?? "") + 1
    const day = Number(partial[2])
    const candidate = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`
    if (Number.isNaN(Date.parse(`${candidate}T00:00:00Z`))) return undefined
    return candidate >= publishedOn ? candidate : `${year + 1}${candidate.slice(4)}`
  }
  if (/\btoday\b|\bthis (?:morning|afternoon|evening)\b/i.test(sentence)) return publishedOn
  if (/\btomorrow\b/i.test(sentence)) return addDays(publishedOn, 1)
  const weekday = new RegExp(`\\b(${weekdays.join("|")})\\b`, "i").exec(sentence)
  if (weekday !== null) {
    const wanted = weekdays.indexOf((weekday[1] ?? "").toLowerCase())
    const current = new Date(`${publishedOn}T00:00:00Z`).getUTCDay()
    return addDays(publishedOn, (wanted - current + 7) % 7)
  }
  return undefined
}

/** The UTC instant of a wall-clock time in an IANA zone. */
const zonedToUtc = (day: string, hour: number, minute: number, zone: string): Date => {
  const asUtc = Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)), hour, minute)
  const offsetAt = (instant: number): number => {
    const parts = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit"
    }).formatToParts(new Date(instant))
    const part = (type: string) => Number(parts.find((each) => each.type === type)?.value)
    return Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute")) - instant
  }
  // Twice, so an instant next to a daylight-saving change lands on the right side of it.
  const first = asUtc - offsetAt(asUtc)
  return new Date(asUtc - offsetAt(first))
}

// A period after these is no sentence end: "2:00 p.m. Pacific Time", "Acme Inc. will host".
const sentenceEnd = /(?<!\b(?:[ap]\.m|Inc|Corp|Co|Ltd|Mr|Ms|Mrs|Dr|St|No|U\.S)\.)(?<=[.!?])\s+(?=[A-Z])/

/** The sentences of each block in turn: a sentence never runs from one block into the next. */
const sentencesOf = (blocks: ReadonlyArray<Blocks.Block>): Array<string> =>
  blocks.flatMap((block) => Blocks.lines(block).join(" ").split(sentenceEnd).map((sentence) => sentence.trim()))

/**
 * The first call announced in a press release's blocks (`ParsedDocument.blocks`), given the day
 * it was published (ISO), or undefined.
 */
export const findCallAnnouncement = (
  blocks: ReadonlyArray<Blocks.Block>,
  publishedOn: string
): CallAnnouncement | undefined => {
  for (const sentence of sentencesOf(blocks)) {
    if (!callWords.test(sentence)) continue
    const time = clockTime.exec(sentence)
    if (time === null) continue
    const zone = zones.find((candidate) => candidate.pattern.test(sentence))?.zone
    if (zone === undefined) continue
    const day = dayOf(sentence, publishedOn)
    if (day === undefined) continue
    const hour12 = Number(time[1])
    const minute = Number(time[2] ?? "0")
    if (hour12 < 1 || hour12 > 12 || minute > 59) continue
    const hour = (hour12 % 12) + ((time[3] ?? "").toLowerCase() === "p" ? 12 : 0)
    return { scheduledAt: zonedToUtc(day, hour, minute, zone).toISOString(), sentence }
  }
  return undefined
}
