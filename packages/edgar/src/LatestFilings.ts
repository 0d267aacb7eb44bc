/**
 * EDGAR's "latest filings" Atom feed (`/cgi-bin/browse-edgar?action=getcurrent&...&output=atom`):
 * the filings accepted in the last business days, newest first, which is how new filings are
 * discovered as they arrive.
 *
 * The feed lists a filing once per entity named on it: a Form 4 as its Issuer and each Reporting
 * owner, a Schedule 13D as its Subject company and the holder it is Filed by. `readLatestFilings`
 * keeps every entry so that no entity is lost; `filingsOf` reduces them to one entry per filing.
 *
 * The feed declares ISO-8859-1: callers decode its bytes with that charset (`new TextDecoder("latin1")`)
 * and pass the text.
 *
 * @module
 */
import { Ids } from "@filings/domain"
import { Effect, Option } from "effect"
import { Parser } from "htmlparser2"
import { describeHtmlPage, UnreadableResponse } from "./EdgarResponseError.js"
import { type AccessionNumber, parseAccessionNumber } from "./FilingIndex.js"

/** One entry of the feed: one filing as seen from one of its entities. */
export interface FeedEntry {
  readonly accessionNumber: AccessionNumber
  /** As in the entry's category (or title): `8-K`, `10-K/A`, `SC 13G`, `4`. */
  readonly form: string
  readonly companyName: string
  /** The entity's CIK, zero-padded to 10 digits. */
  readonly cik: Ids.Cik
  /** The entity's part in the filing as written: `Filer`, `Issuer`, `Reporting`, `Subject`, `Filed by`. */
  readonly role: string
  /** The filing date from the summary's "Filed:", `YYYY-MM-DD`. */
  readonly filedDate: string
  /** The entry's `<updated>` as written, ISO 8601 with offset: `2025-12-12T18:02:43-05:00`. */
  readonly updated: string
  /** The filing's index page (the entry's alternate link). */
  readonly indexUrl: string
  /** The items the summary lists, as `["2.02", "9.01"]` for an 8-K or `["3C"]` for a Form D. */
  readonly items?: ReadonlyArray<string> | undefined
}

/** A page of the feed. */
export interface LatestFilings {
  /** The feed's own `<updated>`, when it has one. */
  readonly updated?: string | undefined
  /** In feed order, newest first. */
  readonly entries: ReadonlyArray<FeedEntry>
  /** One line per entry skipped or oddity met, as data: the page is still usable. */
  readonly warnings: ReadonlyArray<string>
}

/** The page sizes EDGAR offers. */
export type LatestFilingsPageSize = 10 | 20 | 40 | 80 | 100

/** Which filings the feed lists. */
export interface LatestFilingsQuery {
  /** The first entry, counted from 0 (the newest). */
  readonly start?: number | undefined
  readonly count?: LatestFilingsPageSize | undefined
  /** A form type, `8-K`; EDGAR matches it as a prefix (`8-K` also lists `8-K/A`). */
  readonly form?: string | undefined
  /** Whether ownership filings (Forms 3, 4, 5) are listed: with the others, not at all, or only them. */
  readonly owner?: "include" | "exclude" | "only" | undefined
}

/** The feed's path and query on `https://www.sec.gov`. A negative or fractional `start` is floored at 0. */
export const latestFilingsPath = (query: LatestFilingsQuery = {}): string => {
  const parameters = new URLSearchParams({ action: "getcurrent" })
  if (query.form !== undefined && query.form.trim() !== "") parameters.set("type", query.form.trim())
  if (query.owner !== undefined) parameters.set("owner", query.owner)
  if (query.start !== undefined) {
    parameters.set("start", String(Number.isFinite(query.start) ? Math.max(0, Math.floor(query.start)) : 0))
  }
  if (query.count !== undefined) parameters.set("count", String(query.count))
  parameters.set("output", "atom")
  return `/cgi-bin/browse-edgar?${parameters.toString()}`
}

/** The order in which `filingsOf` prefers an entity's entry as the one standing for a filing. */
const rolePreference: ReadonlyArray<string> = ["Filer", "Issuer", "Subject", "Filed by", "Reporting"]

const rankOf = (role: string): number => {
  const rank = rolePreference.indexOf(role)
  return rank === -1 ? rolePreference.length : rank
}

/**
 * One entry per accession number, in the order filings are first seen, each the entry of the most
 * telling entity: the Filer, else the Issuer, the Subject company, the entity it is Filed by, and a
 * Reporting owner last (the first seen among equals).
 */
export const filingsOf = (entries: ReadonlyArray<FeedEntry>): ReadonlyArray<FeedEntry> => {
  const filings: Array<FeedEntry> = []
  const positions = new Map<string, number>()
  for (const entry of entries) {
    const position = positions.get(entry.accessionNumber)
    if (position === undefined) {
      positions.set(entry.accessionNumber, filings.length)
      filings.push(entry)
    } else if (rankOf(entry.role) < rankOf(filings[position]!.role)) {
      filings[position] = entry
    }
  }
  return filings
}

/** An entry's elements as read, before they are checked. */
interface RawEntry {
  title?: string | undefined
  link?: string | undefined
  summary?: string | undefined
  updated?: string | undefined
  term?: string | undefined
  id?: string | undefined
}

const localName = (name: string): string => {
  const colon = name.indexOf(":")
  return (colon === -1 ? name : name.slice(colon + 1)).toLowerCase()
}

const collapse = (text: string): string => text.replace(/\s+/g, " ").trim()

const what = "the latest-filings feed"

interface ParsedFeed {
  readonly root: string | undefined
  readonly htmlTitle: string | undefined
  readonly updated: string | undefined
  readonly entries: ReadonlyArray<RawEntry>
  readonly truncated: boolean
}

/** One pass of htmlparser2 in XML mode, which also decodes the entities (`&amp;`, `&#39;`). */
const parseFeed = (xml: string): ParsedFeed => {
  let root: string | undefined
  let htmlTitle: string | undefined
  let updated: string | undefined
  let truncated = false
  const entries: Array<RawEntry> = []
  const open: Array<string> = []
  let entry: RawEntry | undefined
  // The text of the innermost element; only leaf elements are read, so it restarts at every tag.
  let text = ""

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const local = localName(name)
        if (open.length === 0 && root === undefined) root = local
        open.push(local)
        text = ""
        if (root !== "feed") return
        if (open.length === 2 && local === "entry") {
          entry = {}
        } else if (entry !== undefined && open.length === 3) {
          const rel = attributes["rel"] ?? "alternate"
          if (local === "link" && rel === "alternate" && entry.link === undefined) entry.link = attributes["href"]
          if (local === "category" && entry.term === undefined) entry.term = attributes["term"]
        }
      },
      ontext(data) {
        text += data
      },
      onclosetag(name, isImplied) {
        const local = open.pop() ?? localName(name)
        if (root === "html" && local === "title" && htmlTitle === undefined) htmlTitle = text
        if (root !== "feed") return
        if (isImplied && (local === "feed" || local === "entry")) truncated = true
        if (open.length === 1 && local === "updated") updated = collapse(text)
        if (open.length === 1 && local === "entry" && entry !== undefined) {
          entries.push(entry)
          entry = undefined
        }
        if (entry !== undefined && open.length === 2) {
          if (local === "title") entry.title = text
          else if (local === "summary") entry.summary = text
          else if (local === "updated") entry.updated = text
          else if (local === "id") entry.id = text
        }
        text = ""
      }
    },
    { xmlMode: true, decodeEntities: true }
  )
  parser.write(xml)
  parser.end()
  return { root, htmlTitle, updated, entries, truncated }
}

const accessionPattern = /\d{10}-\d{2}-\d{6}/

const accessionFrom = (text: string | undefined, pattern: RegExp): Option.Option<AccessionNumber> => {
  const match = text === undefined ? null : pattern.exec(text)
  return match === null ? Option.none() : parseAccessionNumber(match[1] ?? match[0])
}

/** `8-K - Apple Inc. (0000320193) (Filer)`: the form, the entity's name, CIK and role. */
const readTitle = (title: string) => {
  const dash = title.indexOf(" - ")
  if (dash === -1) return undefined
  const rest = title.slice(dash + 3)
  // Anchored at the end: names may hold parentheses and dashes of their own ("BCPE Watson (DE) BML, LP").
  const tail = /\((\d{1,10})\) \(([^()]+)\)$/.exec(rest)
  if (tail === null) return undefined
  return {
    form: title.slice(0, dash).trim(),
    companyName: rest.slice(0, tail.index).trim(),
    cik: tail[1]!,
    role: tail[2]!.trim()
  }
}

/** The summary is escaped HTML: `<b>Filed:</b> 2025-12-12 <b>AccNo:</b> ... <br>Item 2.02: ...`. */
const readSummary = (summary: string | undefined) => {
  // `[^<>]` keeps the tag pattern linear even on a summary full of unmatched "<".
  const text = collapse((summary ?? "").replace(/<[^<>]*>/g, " "))
  const items = Array.from(text.matchAll(/\bItem (\d{1,2}(?:\.\d{2})?[A-Z]?):/g), (match) => match[1]!)
  return { text, filedDate: /\bFiled: (\d{4}-\d{2}-\d{2})\b/.exec(text)?.[1], items }
}

type EntryReading = { readonly entry: FeedEntry } | { readonly problem: string }

const readEntry = (raw: RawEntry): EntryReading => {
  const title = collapse(raw.title ?? "")
  const fromTitle = readTitle(title)
  const summary = readSummary(raw.summary)
  const accessionNumber = accessionFrom(raw.id, /accession-number=(\d{10}-\d{2}-\d{6})/).pipe(
    Option.orElse(() => accessionFrom(summary.text, /\bAccNo: (\d{10}-\d{2}-\d{6})/)),
    Option.orElse(() => accessionFrom(raw.link, accessionPattern))
  )
  const form = collapse(raw.term ?? "") || fromTitle?.form
  const cik = Ids.normalizeCik(fromTitle?.cik ?? /\/data\/(\d{1,10})\//.exec(raw.link ?? "")?.[1] ?? "")
  const updated = collapse(raw.updated ?? "")
  const indexUrl = collapse(raw.link ?? "")

  if (
    Option.isNone(accessionNumber) || !form || cik === undefined || fromTitle === undefined ||
    summary.filedDate === undefined || updated === "" || indexUrl === ""
  ) {
    const missing = [
      ...(Option.isNone(accessionNumber) ? ["accession number"] : []),
      ...(form ? [] : ["form"]),
      ...(cik === undefined ? ["CIK"] : []),
      ...(fromTitle === undefined ? ["title naming the company, its CIK and role"] : []),
      ...(summary.filedDate === undefined ? ["filing date"] : []),
      ...(updated === "" ? ["<updated>"] : []),
      ...(indexUrl === "" ? ["link"] : [])
    ]
    return { problem: `it has no ${missing.join(", no ")}` }
  }
  return {
    entry: {
      accessionNumber: accessionNumber.value,
      form,
      companyName: fromTitle.companyName,
      cik,
      role: fromTitle.role,
      filedDate: summary.filedDate,
      updated,
      indexUrl,
      ...(summary.items.length > 0 ? { items: summary.items } : {})
    }
  }
}

/**
 * Reads a page of the feed. An entry lacking its accession number, form, CIK, title, filing date,
 * `<updated>` or link is skipped with a warning; a document that is not an Atom feed (the HTML page
 * EDGAR sends past the last page or to a client over its rate) fails with `UnreadableResponse`.
 */
export const readLatestFilings = (xml: string): Effect.Effect<LatestFilings, UnreadableResponse> =>
  Effect.suspend(() => {
    if (xml.trim() === "") return Effect.fail(new UnreadableResponse({ what, reason: "the response is empty" }))
    let feed: ParsedFeed
    try {
      feed = parseFeed(xml)
    } catch (cause) {
      const detail = cause instanceof Error ? cause.message : String(cause)
      return Effect.fail(new UnreadableResponse({ what, reason: `the XML parser stopped: ${detail}` }))
    }
    if (feed.root === undefined) {
      return Effect.fail(new UnreadableResponse({ what, reason: "the response holds no XML element" }))
    }
    if (feed.root === "html") {
      return Effect.fail(
        new UnreadableResponse({ what, reason: `${describeHtmlPage(feed.htmlTitle)}, not an Atom feed` })
      )
    }
    if (feed.root !== "feed") {
      return Effect.fail(
        new UnreadableResponse({ what, reason: `its root element is <${feed.root}>, not an Atom <feed>` })
      )
    }
    const entries: Array<FeedEntry> = []
    const warnings: Array<string> = feed.truncated ? ["the feed ends before its closing tag: it may be cut short"] : []
    feed.entries.forEach((raw, index) => {
      const reading = readEntry(raw)
      if ("entry" in reading) entries.push(reading.entry)
      else {
        // The title names the entry for a reader of the warnings; a long one is cut, not quoted whole.
        const fullTitle = collapse(raw.title ?? "")
        const title = fullTitle.length > 120 ? `${fullTitle.slice(0, 117)}...` : fullTitle
        warnings.push(`entry ${index + 1}${title ? ` (${JSON.stringify(title)})` : ""} skipped: ${reading.problem}`)
      }
    })
    return Effect.succeed({ ...(feed.updated ? { updated: feed.updated } : {}), entries, warnings })
  })
