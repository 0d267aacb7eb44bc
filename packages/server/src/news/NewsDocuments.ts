/**
 * A news entry as a stored document: `NEWS`, about one company the service knows, with its text
 * parsed into Markdown and chunks like any document, so its feed item's citations resolve through
 * `GET /v1/documents/{id}/chunks/{chunk_id}`. Its id is a hash of the company and the entry's own
 * id (`news-3f2a9c0d17b4e581`): the same entry read again, from the same feed or another, is the same
 * document (stored again when its text has changed), and an entry naming two companies is a
 * document for each.
 */
import { Dates, Ids } from "@filings/domain"
import { Blocks, Parser } from "@filings/filings-parser"
import type { CompanyStore } from "@filings/storage"
import { DocumentStore, FeedStore } from "@filings/storage"
import { Effect, Option } from "effect"
import { escapeAttribute, escapeText } from "entities"
import { createHash } from "node:crypto"
import { DocumentSink } from "../ingest/DocumentSink.js"
import { storedContent } from "../ingest/StoredForms.js"
import { newYorkTimeOf } from "../market/MarketData.js"
import type { NewsEntry } from "./NewsFeedReader.js"

/** The id of `entry` as the news of `ticker`. */
export const newsIdOf = (ticker: string, entryKey: string): Ids.PublicationId =>
  Ids.newsDocumentId(createHash("sha256").update(`${ticker}\n${entryKey}`).digest("hex").slice(0, 16))!

const looksLikeHtml = /<\/?[a-z][a-z0-9]*(?:\s[^<>]*)?\/?>/i

/** The entry's text as HTML: as it is when it is markup, else escaped with its blank lines as paragraphs. */
const bodyHtmlOf = (text: string): string =>
  looksLikeHtml.test(text)
    ? text
    : text.split(/\n\s*\n/).map((paragraph) => `<p>${escapeText(paragraph.trim())}</p>`).join("\n")

/** The page the parser reads: the headline, the text, and where the article is. */
export const newsPageOf = (entry: NewsEntry): string => {
  const title = escapeText(entry.title)
  const source = entry.link === undefined
    ? ""
    : `<p>Source: <a href="${escapeAttribute(entry.link)}">${escapeText(entry.link)}</a></p>`
  return `<html><head><title>${title}</title></head><body><h1>${title}</h1>\n${
    bodyHtmlOf(entry.text)
  }\n${source}</body></html>`
}

/** A headline as two sources may both write it: case, punctuation and spacing aside. */
const comparableHeadline = (title: string): string => title.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim()

/** An entry's headline: its title, else the start of its text (its first block that is no heading or table). */
const headlineOf = (entry: NewsEntry, blocks: ReadonlyArray<Blocks.Block>): string => {
  if (entry.title !== "") return entry.title.replace(/\s+/g, " ").trim().slice(0, 300)
  const first = blocks.find((block) => block.kind !== "heading" && block.kind !== "table")
  const firstLine = (first === undefined ? [] : Blocks.lines(first)).find((line) => line.trim() !== "") ?? ""
  const words = firstLine.split(/\s+/).filter((word) => word !== "").slice(0, 16).join(" ")
  return words === "" ? "News" : words
}

const earliestNews = Date.parse("1990-01-01T00:00:00Z")
const day = 86_400_000

/**
 * When an entry was published: what it says, unless that is before 1990 or more than a day after
 * it was read (a feed's broken clock or time zone), in which case when it was read.
 */
const plausibleTime = (published: number | undefined, readAtMillis: number): number =>
  published !== undefined && published >= earliestNews && published <= readAtMillis + day ? published : readAtMillis

/** What `saveNews` did with an entry. */
export type SaveOutcome = "stored" | "updated" | "known"

const parsePage = (entry: NewsEntry, publicationId: string) =>
  Parser.parse({
    bytes: new TextEncoder().encode(newsPageOf(entry)),
    fileName: `${publicationId}.html`,
    form: "NEWS"
  })

/**
 * Stores `entry` as the news of `company` with its feed item, through the `DocumentSink`. An entry stored already is stored
 * again when its text has changed (a correction: the feed item must not keep a figure the source
 * took back), keeping its date; one whose headline that company already has that day is not stored.
 * `readAtMillis` dates an entry that does not say when it was published, or says it implausibly.
 */
export const saveNews = Effect.fn("NewsDocuments.saveNews")(function*(
  entry: NewsEntry,
  company: CompanyStore.Company,
  readAtMillis: number
) {
  const documents = yield* DocumentStore.DocumentStore
  const feed = yield* FeedStore.FeedStore
  const sink = yield* DocumentSink
  // A news entry names a company the service knows, by its name now: nothing more is kept of it.
  const store = (document: DocumentStore.StoredDocument, publishedAtMillis: number) =>
    sink.store({
      document,
      currentName: document.companyName,
      publishedAt: new Date(publishedAtMillis).toISOString()
    })
  const publicationId = newsIdOf(company.ticker, entry.key)
  const stored = yield* documents.findByPublicationId(publicationId)
  if (Option.isSome(stored)) {
    const parsed = yield* parsePage(entry, publicationId)
    if (parsed.markdown === stored.value.body) return "known" satisfies SaveOutcome
    const document = { ...stored.value, title: headlineOf(entry, parsed.blocks), ...storedContent(parsed) }
    // The entry keeps its place in the feed.
    const publishedAtMillis = Option.match(yield* feed.findById(publicationId), {
      onNone: () => plausibleTime(entry.publishedAtMillis, readAtMillis),
      onSome: (item) => item.publishedAtMillis
    })
    yield* store(document, publishedAtMillis)
    return "updated" satisfies SaveOutcome
  }
  const publishedAtMillis = plausibleTime(entry.publishedAtMillis, readAtMillis)
  const filingDate = Dates.IsoDate.make(newYorkTimeOf(publishedAtMillis).date)
  if (entry.title !== "") {
    // The same story from two feeds (a newsroom and a newswire), or a release already stored from
    // its 8-K, is one item: same company, same day, same headline.
    const sameDay = yield* documents.list({
      tickers: [company.ticker],
      docTypes: ["NEWS", "PRESS_RELEASE"],
      startDate: filingDate,
      endDate: filingDate,
      limit: 200,
      offset: 0,
      order: "desc"
    })
    const headline = comparableHeadline(entry.title)
    if (sameDay.documents.some((document) => comparableHeadline(document.title) === headline)) {
      return "known" satisfies SaveOutcome
    }
  }
  const parsed = yield* parsePage(entry, publicationId)
  const document: DocumentStore.StoredDocument = {
    publicationId,
    ticker: company.ticker,
    companyName: company.name,
    cik: company.cik,
    docType: "NEWS",
    title: headlineOf(entry, parsed.blocks),
    filingDate,
    period: Dates.calendarQuarterOf(filingDate),
    // A news item is not in the regulator's archive; its own address is in its body.
    secUrl: "",
    items: [],
    exhibits: [],
    ...storedContent(parsed)
  }
  yield* store(document, publishedAtMillis)
  return "stored" satisfies SaveOutcome
})
