/**
 * Financial Data Schedules (exhibit `EX-27`, EDGAR filings of about 1997-2001): the company's own
 * summary numbers, one `<TAG> value` per line, read into metrics for filings that predate XBRL.
 *
 * The format (Regulation S-K Item 601(c), the EDGAR Filer Manual's schedule appendix):
 *
 * - A schedule opens with `<ARTICLE>` (5 commercial companies, 7 insurers, 9 bank holding companies,
 *   6 investment companies, `BD`, `UT`, ...), then optional `<LEGEND>` text, `<RESTATED>`,
 *   `<MULTIPLIER>` (1, 1,000 or 1,000,000), `<CURRENCY>` and `<EXCHANGE-RATE>`, the period tags
 *   (`<PERIOD-TYPE>` `3-MOS` / `12-MOS` / `YEAR`, `<FISCAL-YEAR-END>`, `<PERIOD-START>`,
 *   `<PERIOD-END>` written `SEP-30-2000`) and the article's value tags.
 * - A block may hold several columns (`<PERIOD-END> DEC-31-1996 MAR-31-1997`): each column is a
 *   schedule of its own. A document may hold several blocks, and `<SUBSIDIARY>` / `<SERIES>` blocks
 *   with a `<NAME>` for a subsidiary or fund series.
 * - Values may be negative as `(1,234)` or `-1,234`, and carry footnote marks (`790,086<F1>`).
 *   The multiplier scales amounts, never per-share values or ratios.
 *
 * Reading is a single pass over the text (no backtracking patterns), so any input, however large or
 * malformed, ends in schedules and warnings, never an exception. Metrics follow the project's rule:
 * a value is the one the company reported, with its unit and period, or it is absent.
 */
import type { MetricValue } from "../../MetricValue.js"
import { findDate } from "../dates.js"
import { fiscalLabel, monthsBetween, near } from "../fiscalPeriods.js"
import type { MetricName } from "../xbrl/concepts.js"

export interface FinancialDataSchedule {
  /** `5`, `9`, `7`, `6`, `BD`, ... as written. */
  readonly article: string
  /** As written: `3-MOS`, `YEAR`. */
  readonly periodType: string | undefined
  /** Length in months: 3, 6, 9, 12. */
  readonly months: number | undefined
  /** ISO date. */
  readonly fiscalYearEnd: string | undefined
  /** ISO date. */
  readonly periodStart: string | undefined
  /** ISO date. */
  readonly periodEnd: string | undefined
  readonly multiplier: number
  /** The block carries `<RESTATED>`: prior periods filed again, not this filing's own period. */
  readonly restated: boolean
  /** Tag (upper case, as written) → value, multiplier applied (per-share values and ratios unscaled). */
  readonly values: ReadonlyMap<string, number>
  /** `<CURRENCY>` as written (`U.S. DOLLARS`); absent when the schedule does not say. */
  readonly currency?: string | undefined
  /** `<NAME>` of the subsidiary or series the schedule is for; absent for the registrant itself. */
  readonly name?: string | undefined
}

export interface ReadSchedules {
  readonly schedules: ReadonlyArray<FinancialDataSchedule>
  readonly warnings: ReadonlyArray<string>
}

export interface ScheduleMetrics {
  readonly metrics: Partial<Record<MetricName, MetricValue>>
  readonly warnings: ReadonlyArray<string>
}

/** Enough to explain a bad document without drowning the caller. */
const maxWarnings = 50

const warningList = () => {
  const warnings: Array<string> = []
  let leftOff = 0
  return {
    add: (warning: string) => {
      if (warnings.length < maxWarnings) warnings.push(warning)
      else leftOff++
    },
    done: (): ReadonlyArray<string> =>
      leftOff === 0 ? warnings : [...warnings, `${leftOff} more warnings about the schedule left off`]
  }
}

// ---------------------------------------------------------------------------------------------
// Tags

/** Tags this long or longer are prose in angle brackets, not schedule tags. */
const maxTagLength = 40
const tagName = /^\/?[A-Z0-9][A-Z0-9&_-]*$/
const footnoteMark = /^F\d{1,3}$/

/** Prose blocks, read up to their closing tag when it is there. */
const proseBlocks = new Set(["LEGEND", "FN"])
const maxProseLength = 20_000

interface Element {
  readonly name: string
  readonly value: string
}

/**
 * The tags of a text with the text that follows each up to the next tag. Footnote marks (`<F1>`)
 * inside a value are dropped rather than ending it. Each `<` looks at most `maxTagLength` characters
 * ahead, so the scan stays linear.
 */
const readElements = (text: string): Array<Element> => {
  const elements: Array<Element> = []
  // Legends and footnotes run a few hundred characters: one left open must not swallow a later
  // schedule, so a closing tag further than `maxProseLength` on does not count. The next closing tag
  // of each name is remembered (or that there is none), so each part of the text is searched once.
  const nextClosing = new Map<string, { readonly start: number; readonly end: number } | null>()
  const findClosing = (name: string, from: number): { readonly start: number; readonly end: number } | undefined => {
    let next = nextClosing.get(name)
    if (next === undefined || (next !== null && next.start < from)) {
      const closing = new RegExp(`<\\/${name}\\s*>`, "gi")
      closing.lastIndex = from
      const match = closing.exec(text)
      next = match === null ? null : { start: match.index, end: match.index + match[0].length }
      nextClosing.set(name, next)
    }
    return next === null || next.start - from > maxProseLength ? undefined : next
  }
  let current: { name: string; parts: Array<string> } | undefined
  let textStart = 0
  let index = text.indexOf("<")
  while (index !== -1) {
    const limit = Math.min(text.length, index + maxTagLength + 2)
    let close = -1
    for (let at = index + 1; at < limit; at++) {
      const char = text.charCodeAt(at)
      if (char === 62 /* > */) {
        close = at
        break
      }
      if (char === 60 /* < */ || char === 10 /* \n */) break
    }
    const name = close === -1 ? "" : text.slice(index + 1, close).trim().toUpperCase()
    if (close === -1 || !tagName.test(name)) {
      index = text.indexOf("<", index + 1)
      continue
    }
    current?.parts.push(text.slice(textStart, index))
    textStart = close + 1
    if (!footnoteMark.test(name)) {
      if (current !== undefined) elements.push({ name: current.name, value: current.parts.join("") })
      current = { name, parts: [] }
    }
    const proseEnd = proseBlocks.has(name) ? findClosing(name, close + 1) : undefined
    if (proseEnd !== undefined) {
      // Legends and footnotes are prose: an angle bracket inside them is not a tag.
      elements.push({ name, value: text.slice(close + 1, proseEnd.start) })
      current = undefined
      textStart = proseEnd.end
    }
    index = text.indexOf("<", proseEnd?.end ?? close + 1)
  }
  if (current !== undefined) {
    current.parts.push(text.slice(textStart))
    elements.push({ name: current.name, value: current.parts.join("") })
  }
  return elements
}

/** Tags that end a schedule block: the end of its table or document, or the next document. */
const blockEnds = new Set(["/TABLE", "/TEXT", "/DOCUMENT", "DOCUMENT", "TYPE", "/ARTICLE"])

/** SGML wrapping and layout marks: no schedule content. */
const layoutTags = new Set(["TABLE", "TEXT", "PAGE", "S", "C", "CAPTION", "SEQUENCE", "DESCRIPTION", "FILENAME"])

/** Tags about the schedule rather than values of it. */
const headerTags = new Set([
  "ARTICLE",
  "LEGEND",
  "FN",
  "RESTATED",
  "MULTIPLIER",
  "CURRENCY",
  "PERIOD-TYPE",
  "FISCAL-YEAR-END",
  "PERIOD-START",
  "PERIOD-END",
  "SUBSIDIARY",
  "SERIES",
  "NUMBER",
  "NAME",
  "CIK"
])

/** Starts a new schedule for a subsidiary or fund series within the same article. */
const entityTags = new Set(["SUBSIDIARY", "SERIES"])

interface Block {
  readonly article: string
  /** Header tags, the last one written wins. */
  readonly header: Map<string, string>
  /** Value tags in order. */
  readonly values: Array<Element>
}

const newBlock = (article: string, header: Map<string, string> = new Map()): Block => ({
  article,
  header,
  values: []
})

// ---------------------------------------------------------------------------------------------
// Values

/** Whether a tag is a per-share value or a ratio, which the multiplier does not scale. */
const isUnscaled = (tag: string): boolean =>
  tag.startsWith("EPS-") || tag.includes("PER-SHARE") || tag.endsWith("RATIO") || tag.startsWith("YIELD") ||
  tag === "EXCHANGE-RATE"

const groupedNumber = /^\d{1,3}(?:,\d{3})+(?:\.\d*)?$/
const plainNumber = /^(?:\d+(?:\.\d*)?|\.\d+)$/

/** A written number (`1,662`, `(1,234)`, `-.05`, `$1.44`) times `scale`; undefined when not a number. */
export const parseScheduleNumber = (token: string, scale = 1): number | undefined => {
  let text = token.startsWith("$") ? token.slice(1) : token
  let negative = false
  if (text.startsWith("(") && text.endsWith(")")) {
    negative = true
    text = text.slice(1, -1)
  } else if (text.startsWith("-")) {
    negative = true
    text = text.slice(1)
  }
  if (text.startsWith("$")) text = text.slice(1)
  if (text.length > 30 || !(groupedNumber.test(text) || plainNumber.test(text))) return undefined
  const [whole = "", fraction = ""] = text.replaceAll(",", "").split(".")
  // Scaling the integer digits before dividing keeps 12.3 × 1,000 at 12300, not 12300.000000000002.
  const magnitude = (Number(`${whole}${fraction}`) * scale) / 10 ** fraction.length
  if (!Number.isFinite(magnitude)) return undefined
  // `(0)` is zero, not negative zero.
  return negative && magnitude !== 0 ? -magnitude : magnitude
}

/** Whitespace-separated column tokens, with `( 1,234 )` and `$ 1.44` closed up first. */
const columnTokens = (value: string): Array<string> => {
  const closed = value.replace(/\(\s+/g, "(").replace(/\s+\)/g, ")").replace(/\$\s+/g, "$")
  return closed.split(/\s+/).filter((token) => token.length > 0)
}

const monthNumbers: Record<string, number> = {
  JAN: 1,
  FEB: 2,
  MAR: 3,
  APR: 4,
  MAY: 5,
  JUN: 6,
  JUL: 7,
  AUG: 8,
  SEP: 9,
  OCT: 10,
  NOV: 11,
  DEC: 12
}

const scheduleDate = /^([A-Z]{3})-(\d{1,2})-(\d{4}|\d{2})$/

const isoDate = (year: number, month: number, day: number): string | undefined => {
  const date = new Date(Date.UTC(year, month - 1, day))
  if (month < 1 || month > 12 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`
}

/** `SEP-30-2000` (the schedule spelling; a two-digit year is 19xx from 50) or another written date, as ISO. */
export const parseScheduleDate = (token: string): string | undefined => {
  const match = scheduleDate.exec(token.trim().toUpperCase())
  if (match === null) return token.length > 40 ? undefined : findDate(token)
  const month = monthNumbers[match[1] ?? ""]
  if (month === undefined) return undefined
  const written = Number(match[3])
  const year = (match[3] ?? "").length === 2 ? (written < 50 ? 2000 + written : 1900 + written) : written
  return isoDate(year, month, Number(match[2]))
}

/** `3-MOS` → 3, `12-MOS` / `YEAR` → 12; undefined for other spellings. */
const periodMonths = (periodType: string): number | undefined => {
  const text = periodType.toUpperCase()
  if (text === "YEAR") return 12
  const match = /^(\d{1,2})-MOS$/.exec(text)
  const months = match === null ? undefined : Number(match[1])
  return months !== undefined && months >= 1 && months <= 12 ? months : undefined
}

// ---------------------------------------------------------------------------------------------
// Reading schedules

/**
 * The schedules of an EX-27 document (or of any text holding one), one per column of each block,
 * in document order, with warnings for what could not be read.
 */
export const readFinancialDataSchedules = (text: string): ReadSchedules => {
  const warnings = warningList()
  const blocks: Array<Block> = []
  let block: Block | undefined
  let ignoredBeforeArticle = 0
  for (const element of readElements(typeof text === "string" ? text : "")) {
    const { name, value } = element
    if (blockEnds.has(name)) {
      block = undefined
      continue
    }
    if (name === "ARTICLE") {
      block = newBlock((columnTokens(value)[0] ?? "").toUpperCase())
      blocks.push(block)
      continue
    }
    if (name.startsWith("/") || layoutTags.has(name)) continue
    if (block === undefined) {
      if (value.trim().length > 0) ignoredBeforeArticle++
      continue
    }
    if (entityTags.has(name) && block.values.length > 0) {
      // A new subsidiary or series: its own schedule, under the same article and header.
      const header = new Map(block.header)
      header.delete("NAME")
      header.delete("NUMBER")
      block = newBlock(block.article, header)
      blocks.push(block)
    }
    if (headerTags.has(name)) block.header.set(name, value.trim())
    else block.values.push(element)
  }
  if (ignoredBeforeArticle > 0) {
    warnings.add(`${ignoredBeforeArticle} tags before any <ARTICLE> ignored: a schedule starts with <ARTICLE>`)
  }
  if (blocks.length === 0) warnings.add("no <ARTICLE> tag: the text holds no financial data schedule")
  const schedules = blocks.flatMap((each, index) => schedulesOfBlock(each, index + 1, warnings.add))
  return { schedules, warnings: warnings.done() }
}

/** The schedules of one block, one per column. */
const schedulesOfBlock = (
  block: Block,
  blockNumber: number,
  warn: (warning: string) => void
): Array<FinancialDataSchedule> => {
  const where = `schedule ${blockNumber} (article ${block.article || "?"})`
  if (block.article.length === 0) warn(`${where}: <ARTICLE> has no value`)
  const header = (tag: string): Array<string> => columnTokens(block.header.get(tag) ?? "")
  const columns = Math.max(1, header("PERIOD-END").length || header("PERIOD-TYPE").length)

  /** The token of a header tag for a column: one per column, or one for all. */
  const columnHeader = (tag: string): Array<string | undefined> => {
    const tokens = header(tag)
    if (tokens.length === columns) return tokens
    if (tokens.length === 1) return Array.from({ length: columns }, () => tokens[0])
    if (tokens.length > 0) warn(`${where}: <${tag}> has ${tokens.length} entries for ${columns} columns; ignored`)
    return Array.from({ length: columns }, () => undefined)
  }

  let multiplier = 1
  const multiplierTokens = header("MULTIPLIER")
  if (multiplierTokens.length > 0) {
    const read = multiplierTokens.map((token) => parseScheduleNumber(token))
    const first = read[0]
    if (first === undefined || first <= 0 || read.some((each) => each !== first)) {
      warn(`${where}: <MULTIPLIER> "${block.header.get("MULTIPLIER")}" is not a number; the schedule is skipped`)
      return []
    }
    multiplier = first
  }

  const values: Array<Map<string, number>> = Array.from({ length: columns }, () => new Map())
  for (const { name, value } of block.values) {
    const tokens = columnTokens(value)
    if (tokens.length === 0) continue
    if (tokens.length !== columns) {
      warn(`${where}: <${name}> has ${tokens.length} values for ${columns} columns; skipped`)
      continue
    }
    const scale = isUnscaled(name) ? 1 : multiplier
    tokens.forEach((token, column) => {
      const number = parseScheduleNumber(token, scale)
      const columnValues = values[column]
      if (number === undefined) warn(`${where}: <${name}> value "${token.slice(0, 40)}" is not a number; skipped`)
      else if (columnValues === undefined) return
      else if (columnValues.has(name)) warn(`${where}: <${name}> written twice; the first value is kept`)
      else columnValues.set(name, number)
    })
  }

  const dates = (tag: string): Array<string | undefined> =>
    columnHeader(tag).map((token) => {
      if (token === undefined) return undefined
      const date = parseScheduleDate(token)
      if (date === undefined) warn(`${where}: <${tag}> "${token.slice(0, 40)}" is not a date`)
      return date
    })
  const periodTypes = columnHeader("PERIOD-TYPE")
  const fiscalYearEnds = dates("FISCAL-YEAR-END")
  const periodStarts = dates("PERIOD-START")
  const periodEnds = dates("PERIOD-END")
  const currency = block.header.get("CURRENCY")
  const name = block.header.get("NAME")
  const restated = block.header.has("RESTATED")

  return values.map((columnValues, column) => {
    const periodType = periodTypes[column]
    const periodStart = periodStarts[column]
    const periodEnd = periodEnds[column]
    const months = monthsOf(periodType, periodStart, periodEnd, `${where}, column ${column + 1}`, warn)
    return {
      article: block.article,
      periodType,
      months,
      fiscalYearEnd: fiscalYearEnds[column],
      periodStart,
      periodEnd,
      multiplier,
      restated,
      values: columnValues,
      ...(currency === undefined || currency.length === 0 ? {} : { currency: currencyOfColumn(currency, columns) }),
      ...(name === undefined || name.length === 0 ? {} : { name })
    }
  })
}

/** `U.S. DOLLARS U.S. DOLLARS` over two columns is `U.S. DOLLARS`. */
const currencyOfColumn = (currency: string, columns: number): string => {
  const words = currency.split(/\s+/)
  if (columns <= 1 || words.length % columns !== 0) return currency
  const size = words.length / columns
  const first = words.slice(0, size).join(" ")
  for (let column = 1; column < columns; column++) {
    if (words.slice(column * size, (column + 1) * size).join(" ") !== first) return currency
  }
  return first
}

/**
 * The period length from `<PERIOD-TYPE>`, else from the start and end dates. When both are written
 * and disagree, neither is trusted.
 */
const monthsOf = (
  periodType: string | undefined,
  periodStart: string | undefined,
  periodEnd: string | undefined,
  where: string,
  warn: (warning: string) => void
): number | undefined => {
  const fromType = periodType === undefined ? undefined : periodMonths(periodType)
  if (periodType !== undefined && fromType === undefined) warn(`${where}: <PERIOD-TYPE> "${periodType}" not understood`)
  const fromDates = periodStart !== undefined && periodEnd !== undefined && periodStart < periodEnd
    ? monthsBetween(periodStart, periodEnd)
    : undefined
  if (fromType !== undefined && fromDates !== undefined && fromType !== fromDates) {
    warn(`${where}: <PERIOD-TYPE> ${periodType} disagrees with ${periodStart} to ${periodEnd}; period length unknown`)
    return undefined
  }
  return fromType ?? fromDates
}

// ---------------------------------------------------------------------------------------------
// Metrics

type ScheduleMetricName = Extract<
  MetricName,
  "revenue" | "net_income" | "eps_basic" | "eps_diluted" | "total_assets" | "cash_and_equivalents"
>

interface TagMapping {
  readonly metric: ScheduleMetricName
  /** In order of preference. */
  readonly tags: ReadonlyArray<string>
  readonly kind: "duration" | "instant"
}

/** What every article reports under the same meaning. */
const commonMappings: ReadonlyArray<TagMapping> = [
  { metric: "net_income", tags: ["NET-INCOME"], kind: "duration" },
  { metric: "eps_basic", tags: ["EPS-BASIC", "EPS-PRIMARY"], kind: "duration" },
  { metric: "eps_diluted", tags: ["EPS-DILUTED"], kind: "duration" },
  { metric: "total_assets", tags: ["TOTAL-ASSETS"], kind: "instant" }
]

/** Article 5 (commercial and industrial companies): its revenue and cash tags mean what ours do. */
const articleFiveMappings: ReadonlyArray<TagMapping> = [
  { metric: "revenue", tags: ["TOTAL-REVENUES"], kind: "duration" },
  ...commonMappings,
  { metric: "cash_and_equivalents", tags: ["CASH"], kind: "instant" }
]

const articleNames: Record<string, string> = {
  "5": "commercial and industrial companies",
  "6": "investment companies",
  "7": "insurance companies",
  "9": "bank holding companies",
  BD: "broker-dealers",
  UT: "public utility holding companies"
}

/** Currency spellings seen in schedules, to ISO codes. Anything else is not guessed. */
const currencyCodes: Record<string, string> = {
  "US DOLLARS": "USD",
  "US DOLLAR": "USD",
  "UNITED STATES DOLLARS": "USD",
  "UNITED STATES DOLLAR": "USD",
  "USD": "USD",
  "US$": "USD",
  "CANADIAN DOLLARS": "CAD",
  "CANADIAN DOLLAR": "CAD",
  "CAD": "CAD",
  "POUNDS STERLING": "GBP",
  "BRITISH POUNDS": "GBP",
  "GBP": "GBP",
  "JAPANESE YEN": "JPY",
  "JPY": "JPY",
  "EURO": "EUR",
  "EUROS": "EUR",
  "EUR": "EUR"
}

/** ISO code of a `<CURRENCY>` text; `U.S. DOLLARS` → `USD`. */
const currencyCode = (currency: string): string | undefined =>
  currencyCodes[currency.toUpperCase().replaceAll(".", "").replace(/\s+/g, " ").trim()]

/** SFAS 128 (effective for periods ending after 15 December 1997) replaced primary and fully diluted EPS. */
const sfas128Effective = "1997-12-15"

/** MMDD of an ISO date, EDGAR's fiscal year end spelling. */
const monthDay = (iso: string): string => `${iso.slice(5, 7)}${iso.slice(8, 10)}`

/** Whether a year ending on `periodEnd` closes on the fiscal year end's month and day (±10 days). */
const endsFiscalYear = (periodEnd: string, fiscalYearEnd: string): boolean => {
  const year = Number(periodEnd.slice(0, 4))
  return [year - 1, year, year + 1].some((candidate) => {
    const date = isoDate(candidate, Number(fiscalYearEnd.slice(5, 7)), Number(fiscalYearEnd.slice(8, 10)))
    return date !== undefined && near(periodEnd, date, 10)
  })
}

const scheduleLabel = (schedule: FinancialDataSchedule): string =>
  `${schedule.periodType ?? "schedule"} ending ${schedule.periodEnd ?? "?"}`

/** The schedule metrics come from: the first current (not restated) one, Article 5 first, the registrant's first. */
const chooseSchedule = (
  schedules: ReadonlyArray<FinancialDataSchedule>,
  warn: (warning: string) => void
): FinancialDataSchedule | undefined => {
  const current = schedules.filter((schedule) => !schedule.restated)
  if (current.length === 0) {
    if (schedules.length > 0) warn("only restated schedules (prior periods filed again): no metrics read from them")
    else warn("no financial data schedule")
    return undefined
  }
  const articleFive = current.filter((schedule) => schedule.article === "5")
  const candidates = articleFive.length > 0 ? articleFive : current
  const registrants = candidates.filter((schedule) => schedule.name === undefined)
  if (registrants.length > 0) return registrants[0]
  const first = candidates[0]
  if (first !== undefined) warn(`the schedule used is headed <NAME> ${first.name ?? ""}: it may be a subsidiary's`)
  return first
}

/**
 * Metrics of the first current Article 5 schedule: revenue, net income, basic and diluted EPS,
 * total assets and cash. Other articles give only total assets, net income and EPS, whose tags mean
 * the same everywhere. Year-to-date (6- and 9-month) schedules give no period values; a quarter or
 * year written in another column ending on the same date does.
 */
export const metricsFromSchedules = (schedules: ReadonlyArray<FinancialDataSchedule>): ScheduleMetrics => {
  const warnings = warningList()
  const metrics: Partial<Record<MetricName, MetricValue>> = {}
  const chosen = chooseSchedule(schedules, warnings.add)
  if (chosen === undefined) return { metrics, warnings: warnings.done() }

  const { article, periodEnd } = chosen
  if (periodEnd === undefined) {
    warnings.add(`article ${article} schedule: no readable <PERIOD-END>; no metrics read`)
    return { metrics, warnings: warnings.done() }
  }

  let mappings = articleFiveMappings
  if (article !== "5") {
    mappings = commonMappings
    const kind = articleNames[article] === undefined
      ? `article ${article}`
      : `article ${article} (${articleNames[article]})`
    warnings.add(
      `${kind} schedule: revenue and cash omitted, its tags are not total revenue and cash equivalents ` +
        "as commercial companies report them; only total assets, net income and EPS read"
    )
  }

  let unit: string | undefined = "USD"
  if (chosen.currency !== undefined) {
    unit = currencyCode(chosen.currency)
    if (unit === undefined) warnings.add(`<CURRENCY> "${chosen.currency}" not recognised; money values omitted`)
  }
  const exchangeRate = chosen.values.get("EXCHANGE-RATE")
  if (unit === "USD" && exchangeRate !== undefined && exchangeRate !== 1) {
    warnings.add(`<EXCHANGE-RATE> ${exchangeRate} with a U.S. dollar schedule; money values omitted`)
    unit = undefined
  }
  if (unit === undefined) return { metrics, warnings: warnings.done() }

  const durations = durationSource(chosen, schedules, warnings.add)
  const documentPeriod = durations?.period ?? instantLabel(chosen, periodEnd)
  for (const mapping of mappings) {
    const source = mapping.kind === "instant" ? { schedule: chosen, period: documentPeriod } : durations
    if (source === undefined) continue
    const tag = mapping.tags.find((each) => source.schedule.values.has(each))
    const value = tag === undefined ? undefined : source.schedule.values.get(tag)
    if (tag === undefined || value === undefined) continue
    // Primary EPS counted common stock equivalents that basic EPS leaves out: not the same number.
    if (tag === "EPS-PRIMARY" && periodEnd < sfas128Effective) {
      warnings.add(`<EPS-PRIMARY> of a period before SFAS 128 is primary EPS, not basic EPS; eps_basic omitted`)
      continue
    }
    metrics[mapping.metric] = mapping.kind === "instant"
      ? { value, unit, period: source.period, asOf: periodEnd, source: `fds:${tag}` }
      : { value, unit, period: source.period, source: `fds:${tag}` }
  }
  return { metrics, warnings: warnings.done() }
}

/**
 * The label of the filing's period when no quarter or year schedule gives one (a 10-Q's schedule of
 * six or nine months): the fiscal quarter ending on the schedule's date, a year for twelve months.
 */
const instantLabel = (schedule: FinancialDataSchedule, periodEnd: string): string =>
  fiscalLabel({
    periodEnd,
    months: schedule.months === 12 ? 12 : 3,
    fiscalYearEnd: schedule.fiscalYearEnd === undefined ? undefined : monthDay(schedule.fiscalYearEnd)
  })?.label ?? `Q${Math.ceil(Number(periodEnd.slice(5, 7)) / 3)} ${periodEnd.slice(0, 4)}`

/**
 * The schedule and fiscal label that period values (revenue, net income, EPS) are read with: the
 * chosen schedule when it covers a quarter or a year, else a current quarter or year schedule of the
 * same article ending on the same date. Undefined, with a warning, when there is none.
 */
const durationSource = (
  chosen: FinancialDataSchedule,
  schedules: ReadonlyArray<FinancialDataSchedule>,
  warn: (warning: string) => void
): { readonly schedule: FinancialDataSchedule; readonly period: string } | undefined => {
  const siblings = schedules.filter((schedule) =>
    !schedule.restated && schedule.article === chosen.article && schedule.name === chosen.name &&
    schedule.periodEnd === chosen.periodEnd
  )
  const yearToDateMonths = siblings.reduce<number | undefined>(
    (longest, schedule) =>
      schedule.months === 6 || schedule.months === 9 || schedule.months === 12
        ? Math.max(longest ?? 0, schedule.months)
        : longest,
    undefined
  )
  const problems: Array<string> = []
  for (const schedule of [chosen, ...siblings.filter((each) => each !== chosen)]) {
    const { fiscalYearEnd, months, periodEnd } = schedule
    if (periodEnd === undefined) continue
    if (months === undefined) {
      problems.push(`${scheduleLabel(schedule)}: period length unknown`)
      continue
    }
    if (months === 12 && fiscalYearEnd !== undefined && !endsFiscalYear(periodEnd, fiscalYearEnd)) {
      problems.push(`${scheduleLabel(schedule)}: twelve months not ending at the fiscal year end ${fiscalYearEnd}`)
      continue
    }
    const label = fiscalLabel({
      periodEnd,
      months,
      fiscalYearEnd: fiscalYearEnd === undefined ? undefined : monthDay(fiscalYearEnd),
      yearToDateMonths
    })
    if (label === undefined) {
      problems.push(`${scheduleLabel(schedule)}: a ${months}-month year-to-date period is not a quarter or a year`)
      continue
    }
    if (label.calendar) warn(`${scheduleLabel(schedule)}: no fiscal year end, ${label.label} is the calendar quarter`)
    return { schedule, period: label.label }
  }
  warn(`revenue, net income and EPS omitted (${problems.join("; ")})`)
  return undefined
}
