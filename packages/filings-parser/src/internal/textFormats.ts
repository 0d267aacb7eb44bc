// The text transformations of inline XBRL that SEC filings use (XBRL International's Transformation
// Registry, `ixt:`, and the SEC's own, `ixt-sec:`): a displayed text to the value it stands for.
// Dates become ISO dates, ballot boxes and fixed values booleans, durations ISO 8601 durations,
// exchange and state names the codes of the dei taxonomy.

const months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

const monthOf = (name: string): number | undefined => {
  const index = months.indexOf(name.toLowerCase().slice(0, 3))
  return index === -1 ? undefined : index + 1
}

const twoDigits = (value: number) => String(value).padStart(2, "0")

const validDay = (month: number, day: number) => month >= 1 && month <= 12 && day >= 1 && day <= 31

/** "July 1, 2023", "Sept. 28, 2024", "September 28 2024" as `2023-07-01`. */
const monthNameDayYear = (text: string): string | undefined => {
  const match = /^([A-Za-z]+)\.?\s*(\d{1,2})(?:st|nd|rd|th)?\s*,?\s*(\d{4})$/.exec(text)
  if (match === null) return undefined
  const month = monthOf(match[1]!)
  const day = Number(match[2])
  return month === undefined || !validDay(month, day) ? undefined : `${match[3]}-${twoDigits(month)}-${twoDigits(day)}`
}

/** "September 28" as the day of a year, `--09-28`. */
const monthNameDay = (text: string): string | undefined => {
  const match = /^([A-Za-z]+)\.?\s*(\d{1,2})(?:st|nd|rd|th)?$/.exec(text)
  if (match === null) return undefined
  const month = monthOf(match[1]!)
  const day = Number(match[2])
  return month === undefined || !validDay(month, day) ? undefined : `--${twoDigits(month)}-${twoDigits(day)}`
}

/** "09/28", "9-28", "09.28" as `--09-28`. */
const monthDay = (text: string): string | undefined => {
  const match = /^(\d{1,2})[/.\-\s](\d{1,2})$/.exec(text)
  if (match === null) return undefined
  const month = Number(match[1])
  const day = Number(match[2])
  return validDay(month, day) ? `--${twoDigits(month)}-${twoDigits(day)}` : undefined
}

const units = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen"
]
const tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

/** "twenty-five", "a", "no", "12" as a whole number below a hundred (any digits as themselves). */
export const numberOfWords = (text: string): number | undefined => {
  const words = text.toLowerCase().trim()
  if (/^\d+$/.test(words)) return Number(words)
  if (words === "no" || words === "none" || words === "nil") return 0
  if (words === "a" || words === "an") return 1
  const [ten, unit] = words.split(/[\s-]+/)
  const small = units.indexOf(ten ?? "")
  if (small !== -1 && unit === undefined) return small
  const tenIndex = tens.indexOf(ten ?? "")
  if (tenIndex < 2) return undefined
  if (unit === undefined) return tenIndex * 10
  const unitIndex = units.indexOf(unit)
  return unitIndex >= 1 && unitIndex <= 9 ? tenIndex * 10 + unitIndex : undefined
}

/** A number of years, months or days (digits, a decimal, or words) as an ISO 8601 duration. */
const duration = (text: string, unit: "Y" | "M" | "D"): string | undefined => {
  const trimmed = text.trim()
  const decimal = /^\d*\.\d+$/.test(trimmed) ? Number(trimmed) : undefined
  if (decimal !== undefined && unit === "Y") {
    // A part of a year in months, a part of a month in days.
    const years = Math.floor(decimal)
    const months = (decimal - years) * 12
    const days = Math.round((months - Math.floor(months)) * 30)
    return `P${years}Y${Math.floor(months)}M${days > 0 ? `${days}D` : ""}`
  }
  const count = numberOfWords(trimmed)
  return count === undefined ? undefined : `P${count}${unit}`
}

/** "five years", "two years and six months", "thirty days" as `P5Y`, `P2Y6M`, `P30D`. */
const durationInWords = (text: string): string | undefined => {
  const parts = [...text.toLowerCase().matchAll(/([a-z0-9-]+(?:\s[a-z]+)?)\s+(year|month|day)s?/g)]
  if (parts.length === 0) return undefined
  const amounts: Record<string, number> = {}
  for (const [, amount, unit] of parts) {
    const words = amount!.split(/\s+/)
    // "twenty five years", "and six months": the number is the words before the unit, less "and".
    const value = numberOfWords(words.filter((word) => word !== "and").join(" "))
    if (value === undefined) return undefined
    amounts[unit!] = value
  }
  const date = `${amounts.year === undefined ? "" : `${amounts.year}Y`}${
    amounts.month === undefined ? "" : `${amounts.month}M`
  }${amounts.day === undefined ? "" : `${amounts.day}D`}`
  return `P${date}`
}

const ballotBox = (text: string): string | undefined => {
  const mark = text.trim()
  if (mark === "\u2612" || mark === "\u2611" || mark === "\u2713" || mark === "\u2714") return "true"
  if (mark === "\u2610") return "false"
  return undefined
}

const filerCategories: ReadonlyArray<readonly [RegExp, string]> = [
  [/^large\s+accelerated\s+filer$/i, "Large Accelerated Filer"],
  [/^non-?\s*accelerated\s+filer$/i, "Non-accelerated Filer"],
  [/^accelerated\s+filer$/i, "Accelerated Filer"]
]

// The exchange codes of the dei taxonomy (`ExchangeCodeItemType`), by the names filings print.
const exchanges: ReadonlyArray<readonly [RegExp, string]> = [
  [/nyse\s+american|american\s+stock\s+exchange/i, "NYSEAMER"],
  [/nyse\s+arca/i, "NYSEArca"],
  [/nyse\s+(?:national|chicago)/i, "NYSENAT"],
  [/new\s+york\s+stock\s+exchange|^nyse\b/i, "NYSE"],
  [/nasdaq/i, "NASDAQ"],
  [/cboe\s+byx/i, "CboeBYX"],
  [/cboe\s+bzx/i, "CboeBZX"],
  [/cboe\s+edga/i, "CboeEDGA"],
  [/cboe\s+edgx/i, "CboeEDGX"],
  [/chicago\s+board\s+options|^cboe\b/i, "CBOE"],
  [/chicago\s+stock\s+exchange/i, "CHX"],
  [/investors\s+exchange|^iex\b/i, "IEX"],
  [/philadelphia\s+stock\s+exchange/i, "PHLX"],
  [/boston\s+stock\s+exchange/i, "BX"]
]

const states: Readonly<Record<string, string>> = {
  alabama: "AL",
  alaska: "AK",
  arizona: "AZ",
  arkansas: "AR",
  california: "CA",
  colorado: "CO",
  connecticut: "CT",
  delaware: "DE",
  "district of columbia": "DC",
  florida: "FL",
  georgia: "GA",
  hawaii: "HI",
  idaho: "ID",
  illinois: "IL",
  indiana: "IN",
  iowa: "IA",
  kansas: "KS",
  kentucky: "KY",
  louisiana: "LA",
  maine: "ME",
  maryland: "MD",
  massachusetts: "MA",
  michigan: "MI",
  minnesota: "MN",
  mississippi: "MS",
  missouri: "MO",
  montana: "MT",
  nebraska: "NE",
  nevada: "NV",
  "new hampshire": "NH",
  "new jersey": "NJ",
  "new mexico": "NM",
  "new york": "NY",
  "north carolina": "NC",
  "north dakota": "ND",
  ohio: "OH",
  oklahoma: "OK",
  oregon: "OR",
  pennsylvania: "PA",
  "rhode island": "RI",
  "south carolina": "SC",
  "south dakota": "SD",
  tennessee: "TN",
  texas: "TX",
  utah: "UT",
  vermont: "VT",
  virginia: "VA",
  washington: "WA",
  "west virginia": "WV",
  wisconsin: "WI",
  wyoming: "WY",
  "puerto rico": "PR",
  guam: "GU",
  "virgin islands": "VI",
  "american samoa": "AS",
  alberta: "AB",
  "british columbia": "BC",
  manitoba: "MB",
  "new brunswick": "NB",
  "newfoundland and labrador": "NL",
  "nova scotia": "NS",
  ontario: "ON",
  "prince edward island": "PE",
  quebec: "QC",
  saskatchewan: "SK"
}

const stateCode = (text: string): string | undefined =>
  states[text.toLowerCase().replace(/^the\s+/, "").replace(/^state\s+of\s+/, "").replace(/\s+/g, " ").trim()]

const firstMatch = (table: ReadonlyArray<readonly [RegExp, string]>, text: string) =>
  table.find(([pattern]) => pattern.test(text.trim()))?.[1]

/**
 * The value a displayed text stands for under an inline XBRL transformation (the format's local
 * name, any prefix), or `undefined` when the format is not one of these or the text does not fit it.
 */
export const applyTextFormat = (format: string, text: string): string | undefined => {
  const trimmed = text.replace(/\s+/g, " ").trim()
  switch (format.slice(format.indexOf(":") + 1).toLowerCase()) {
    case "fixed-true":
    case "booleantrue":
      return "true"
    case "fixed-false":
    case "booleanfalse":
      return "false"
    case "boolballotbox":
      return ballotBox(trimmed)
    case "date-monthname-day-year-en":
    case "datemonthdayyearen":
    case "datemonthnamedayyearen":
      return monthNameDayYear(trimmed)
    case "date-monthname-day-en":
    case "datemonthnamedayen":
      return monthNameDay(trimmed)
    case "date-month-day":
    case "datemonthday":
      return monthDay(trimmed)
    case "duryear":
      return duration(trimmed, "Y")
    case "durmonth":
      return duration(trimmed, "M")
    case "durday":
      return duration(trimmed, "D")
    case "durwordsen":
      return durationInWords(trimmed)
    case "numwordsen": {
      const count = numberOfWords(trimmed)
      return count === undefined ? undefined : String(count)
    }
    case "entityfilercategoryen":
      return firstMatch(filerCategories, trimmed)
    case "exchnameen":
      return firstMatch(exchanges, trimmed)
    case "stateprovnameen":
      return stateCode(trimmed)
    default:
      return undefined
  }
}
