/**
 * `GET /v1/companies/{ticker}/timeline`: one company's documents and announced calls, newest first,
 * paged by cursor. The ticker names the company as it does for `GET /v1/companies/{ticker}` (its
 * current ticker or another listed class, `CompanyStore.findProfile`); the timeline then reads by the
 * company's central index key, so documents stored under another of its tickers (a second class, a
 * ticker it had before) are on it, and so are its transcripts and releases stored under the
 * placeholder key (`Ingest.UnknownCik`) by one of its tickers, before the company was known. A page reads at most `limit + 1` of the company's documents after
 * the cursor (through the (cik, filing_date) index) and the company's announced calls (a few a year,
 * through the event log's index by ticker, for every ticker its documents were stored under), merges
 * them in the order of `TimelineEntries`, and then reads the feed items of the page's documents alone
 * for their first highlight.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Api, ApiError, type Ids, Timeline } from "@filings/domain"
import { CompanyStore, DocumentStore, EventStore, FeedStore } from "@filings/storage"
import { Array as Arr, Effect, Either, Option } from "effect"
import { checkDateRange } from "../http/DateRange.js"
import { orServiceUnavailable } from "../http/StorageFailures.js"
import * as Ingest from "../ingest/Ingest.js"
import * as TimelineCursor from "./TimelineCursor.js"
import * as TimelineEntries from "./TimelineEntries.js"

const cursorRefused = {
  "malformed": "cursor is not a next_cursor this timeline returned",
  "other-filters": "cursor belongs to a request for another company or with other types, start_date or end_date: " +
    "send it with the filters of the request that returned it, or leave cursor out to start from the newest entry"
} as const

// Highlights were checked when their items were stored, and the response schema checks the answer
// as it is encoded, so entries are built without validating them a second time.
const unchecked = { disableValidation: true } as const

/**
 * The company's announced calls within the request's dates, after the cursor. Events name their
 * company by the ticker of the document they came from, so they are read under every ticker its
 * documents were stored under, and its current and listed ones.
 */
const announcedCalls = (
  cik: Ids.Cik | undefined,
  known: ReadonlyArray<Ids.Ticker>,
  range: { readonly startDate?: string | undefined; readonly endDate?: string | undefined },
  after: DocumentStore.DocumentKey | undefined
) =>
  Effect.gen(function*() {
    const stored = cik === undefined ? [] : yield* (yield* DocumentStore.DocumentStore).companyTickers(cik)
    const tickers = [...new Set([...known, ...stored])]
    const found = yield* (yield* EventStore.EventStore).ofCompany({ type: "earnings_call.upcoming", tickers })
    return Arr.getSomes(found.map(TimelineEntries.ofUpcomingCall)).filter((entry) =>
      TimelineEntries.isWithin(range)(entry) &&
      (after === undefined || DocumentStore.isAfterKey(after)(entry.key))
    )
  })

/** The first highlight of each document's feed item, by publication id. */
const firstHighlights = (publicationIds: ReadonlyArray<string>) =>
  Effect.map(
    publicationIds.length === 0
      ? Effect.succeed([])
      : Effect.flatMap(FeedStore.FeedStore, (feed) => feed.findByIds(publicationIds)),
    (items) => new Map(items.flatMap((item) => item.highlights[0] === undefined ? [] : [[item.id, item.highlights[0]]]))
  )

/** The answer to one request: its page, whether more follow, and where to go on from. */
export const answer = Effect.fn("timeline.getTimeline")(function*(ticker: Ids.Ticker, params: Timeline.TimelineParams) {
  const limit = params.limit ?? Timeline.DefaultLimit
  yield* checkDateRange(params.startDate, params.endDate)
  const found = yield* (yield* CompanyStore.CompanyStore).findProfile(ticker)
  const company = Option.getOrUndefined(found)
  const cik = company?.company.cik
  // A transcript or release stored before its company was known keeps the placeholder key, under the
  // ticker it was stored with; a company known only by such documents has no profile at all.
  const placeholder = { cik: Ingest.UnknownCik, tickers: company?.tickers ?? [ticker] }
  const documentStore = yield* DocumentStore.DocumentStore
  if (company === undefined && (yield* documentStore.companyDocuments({ placeholder, limit: 1 })).length === 0) {
    return yield* ApiError.CompanyNotFound.forTicker(ticker)
  }
  // Bound to the company, not to the ticker asked: a page read by one class's ticker goes on by another's.
  const filterFingerprint = TimelineCursor.fingerprint({ cik: cik ?? `${Ingest.UnknownCik}:${ticker}`, ...params })
  const after = params.cursor === undefined ? undefined : yield* Either.match(
    TimelineCursor.decode(params.cursor, filterFingerprint),
    {
      onLeft: (refusal) => Effect.fail(new ApiError.InvalidRequest({ message: `cursor: ${cursorRefused[refusal]}` })),
      onRight: Effect.succeed
    }
  )
  const range = { startDate: params.startDate, endDate: params.endDate }
  const docTypes = TimelineEntries.docTypesOf(params.types)
  // One more than the page of each kind: whether anything follows the page.
  const documents = docTypes !== undefined && docTypes.length === 0
    ? []
    : yield* documentStore.companyDocuments({
      cik,
      placeholder,
      docTypes,
      ...range,
      after,
      limit: limit + 1
    })
  const calls = params.types === undefined || params.types.includes("upcoming_call")
    ? yield* announcedCalls(cik, placeholder.tickers, range, after)
    : []
  const merged = [...documents.map(TimelineEntries.ofDocument), ...calls].sort(TimelineEntries.compareNewestFirst)
  const page = merged.slice(0, limit)
  const hasMore = merged.length > limit
  const highlights = yield* firstHighlights(Arr.getSomes(page.map((entry) => entry.document)))
  const last = page[page.length - 1]
  return new Timeline.TimelinePage({
    ticker: company?.company.ticker ?? ticker,
    entries: page.map(({ document, entry }) =>
      new Timeline.TimelineEntry({
        ...entry,
        highlight: Option.match(document, {
          onNone: () => null,
          onSome: (publicationId) => highlights.get(publicationId) ?? null
        })
      }, unchecked)
    ),
    hasMore,
    nextCursor: hasMore && last !== undefined ? TimelineCursor.encode(last.key, filterFingerprint) : null
  }, unchecked)
})

export const layer = HttpApiBuilder.group(Api.FilingsApi, "timeline", (handlers) =>
  Effect.map(
    Effect.context<
      DocumentStore.DocumentStore | CompanyStore.CompanyStore | EventStore.EventStore | FeedStore.FeedStore
    >(),
    (stores) =>
      handlers.handle(
        "getTimeline",
        ({ path, urlParams }) => orServiceUnavailable(answer(path.ticker, urlParams).pipe(Effect.provide(stores)))
      )
  ))
