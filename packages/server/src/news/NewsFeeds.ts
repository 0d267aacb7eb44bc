/**
 * Follows the news feeds of `FILINGS_NEWS_FEEDS` (see `NewsSources`): each is read at start-up and
 * then every `FILINGS_NEWS_POLL` seconds, and each new entry about a company the service knows is
 * stored as a `NEWS` document with its feed item.
 *
 * - A feed's entries belong to its configured ticker, or to every company an entry names as
 *   `(NASDAQ: AAPL)`. A company is known once one of its filings or transcripts is stored. The
 *   news of companies not known yet is counted in the log; the feed of one such company is read
 *   whole at every round until it is known, a newswire's once it changes.
 * - A feed that fails (unreachable, not a feed, a storage error) is logged and read again at the
 *   next round; its validators (`ETag`, `Last-Modified`) are kept, in the cursor store, only once
 *   all its entries are stored, so nothing is lost to a `304`, across restarts too.
 * - Several instances may follow the same feeds: a stored entry is recognised by its id and
 *   skipped, and saving is idempotent.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Ids } from "@filings/domain"
import { CompanyStore, CursorStore } from "@filings/storage"
import { Cause, Clock, Effect, Either, Exit, Layer, Option, Schedule, Schema } from "effect"
import { createHash } from "node:crypto"
import { DocumentSink } from "../ingest/DocumentSink.js"
import * as DocumentSinkLayer from "../ingest/DocumentSinkLayer.js"
import { saveNews } from "./NewsDocuments.js"
import * as NewsFeedClient from "./NewsFeedClient.js"
import { readNewsFeed } from "./NewsFeedReader.js"
import * as NewsSources from "./NewsSources.js"
import { tickersNamedIn } from "./NewsTickers.js"

/** What one reading of a feed did. */
export interface Reading {
  readonly notModified: boolean
  readonly entries: number
  readonly stored: number
  /** Entries stored before whose text has changed since, stored again. */
  readonly updated: number
  /** Tickers named by entries whose company is not known. */
  readonly unknownTickers: ReadonlyArray<string>
  /** Entries skipped: no company named, unreadable text, or malformed in the feed. */
  readonly skipped: number
}

const withoutMarkup = (text: string): string => text.replace(/<[^>]{0,2000}>/g, " ")

/** `BRK.B` as the newswires write it is `BRK-B` as the regulator lists it: both are tried. */
const tickerSpellings = (symbol: string): ReadonlyArray<string> =>
  symbol.includes(".") ? [symbol, symbol.replace(".", "-")] : [symbol]

const findCompany = (symbol: string) =>
  Effect.gen(function*() {
    const companies = yield* CompanyStore.CompanyStore
    for (const spelling of tickerSpellings(symbol)) {
      const ticker = Schema.decodeOption(Ids.Ticker)(spelling)
      if (Option.isNone(ticker)) continue
      const company = yield* companies.findByTicker(ticker.value)
      if (Option.isSome(company)) return company
    }
    return Option.none<CompanyStore.Company>()
  })

const StoredValidators = Schema.parseJson(Schema.Struct({
  etag: Schema.optional(Schema.String),
  lastModified: Schema.optional(Schema.String)
}))

/**
 * The cursor that keeps a source's validators: named by a hash of its ticker and URL, since a URL
 * may carry credentials.
 */
const cursorNameOf = (source: NewsSources.NewsSource): string =>
  `news-feed:${createHash("sha256").update(`${source.ticker ?? ""} ${source.url}`).digest("hex").slice(0, 24)}`

export const make = Effect.gen(function*() {
  const client = yield* NewsFeedClient.make
  const cursors = yield* CursorStore.CursorStore
  // Entries are stored as every document is, through the sink.
  const sink = yield* DocumentSinkLayer.make

  // Kept in the database, so a restarted server, or another one, asks conditionally too.
  const validatorsOf = (source: NewsSources.NewsSource) =>
    Effect.map(
      cursors.get(cursorNameOf(source)),
      (stored): NewsFeedClient.Validators =>
        Option.getOrElse(Option.flatMap(stored, Schema.decodeOption(StoredValidators)), () => ({}))
    )
  const keepValidators = (source: NewsSources.NewsSource, validators: NewsFeedClient.Validators) =>
    cursors.set(cursorNameOf(source), Schema.encodeSync(StoredValidators)(validators))

  /** Reads `source` once and stores its new entries. */
  const readSource = (source: NewsSources.NewsSource, allowedHosts: ReadonlySet<string>) =>
    Effect.gen(function*() {
      const answer = yield* client.fetchFeed(source.url, yield* validatorsOf(source), allowedHosts)
      if (answer._tag === "NotModified") {
        return {
          notModified: true,
          entries: 0,
          stored: 0,
          updated: 0,
          unknownTickers: [],
          skipped: 0
        } satisfies Reading
      }
      const feed = readNewsFeed(answer.xml)
      if (Either.isLeft(feed)) {
        return yield* new NewsFeedClient.NewsFeedUnavailable({
          host: NewsSources.hostOf(answer.url),
          reason: feed.left.reason
        })
      }
      const readAt = yield* Clock.currentTimeMillis
      const unknown = new Set<string>()
      let stored = 0
      let updated = 0
      let skipped = feed.right.warnings.length
      for (const warning of feed.right.warnings) {
        yield* Effect.logDebug(`news at ${NewsSources.hostOf(source.url)}: ${warning}`)
      }
      for (const entry of feed.right.entries) {
        const symbols = source.ticker !== undefined
          ? [source.ticker]
          : tickersNamedIn(`${entry.title}\n${withoutMarkup(entry.text)}`)
        if (symbols.length === 0) skipped++
        for (const symbol of symbols) {
          const company = yield* findCompany(symbol)
          if (Option.isNone(company)) {
            unknown.add(symbol)
            continue
          }
          // An entry the parser cannot read (or takes for something else: a text holding a
          // regulator's submission header) is skipped, not the rest of the feed with it.
          const unreadable = (reason: string) =>
            Effect.as(Effect.logWarning(`news entry ${entry.key} not stored: ${reason}`), "unreadable" as const)
          const outcome = yield* saveNews(entry, company.value, readAt).pipe(
            Effect.provideService(DocumentSink, sink),
            Effect.catchTags({
              UnreadableDocument: (error) => unreadable(error.message),
              MalformedSubmission: (error) => unreadable(error.message),
              UnstorableValue: (error) => unreadable(error.message)
            })
          )
          if (outcome === "unreadable") skipped++
          if (outcome === "stored") stored++
          if (outcome === "updated") updated++
        }
      }
      // Kept only now: had storing failed part-way, the next round reads the whole feed again. A
      // feed of one company not known yet is read whole again too, until its company is known.
      if (source.ticker === undefined || unknown.size === 0) {
        yield* keepValidators(source, answer.validators)
      }
      return {
        notModified: false,
        entries: feed.right.entries.length,
        stored,
        updated,
        unknownTickers: [...unknown],
        skipped
      } satisfies Reading
    })

  /** One round over every source, each logged; a failing source does not stop the others. */
  const readAll = (settings: NewsSources.NewsSettings) =>
    Effect.gen(function*() {
      const allowedHosts = new Set(settings.sources.map((source) => NewsSources.hostOf(source.url)))
      for (const source of settings.sources) {
        const host = NewsSources.hostOf(source.url)
        const exit = yield* Effect.exit(readSource(source, allowedHosts))
        if (Exit.isFailure(exit)) {
          // A defect in one feed's reading must not cost the feeds after it their turn.
          const reason = Option.match(Cause.failureOption(exit.cause), {
            onNone: () => Cause.pretty(exit.cause),
            onSome: (error) => error.message
          })
          yield* Effect.logWarning(`news feed at ${host} not read: ${reason}`)
          continue
        }
        const { entries, notModified, stored, unknownTickers, updated } = exit.value
        if (notModified) continue
        yield* Effect.logInfo(`news feed at ${host}: ${entries} entries, ${stored} new stored, ${updated} updated`)
        if (unknownTickers.length > 0) {
          const message = `news feed at ${host} has news of companies not known yet (${unknownTickers.join(", ")}):` +
            " they are stored once a filing of theirs is"
          // A company the operator named for the feed should be known: that deserves a warning.
          yield* source.ticker === undefined ? Effect.logDebug(message) : Effect.logWarning(message)
        }
      }
    })

  return { readSource, readAll } as const
})

/** Follows the feeds of `settings` for as long as the layer lives; nothing when there is none. */
export const layer = (settings: NewsSources.NewsSettings) =>
  Layer.scopedDiscard(Effect.gen(function*() {
    if (settings.sources.length === 0) return
    const news = yield* make
    const hosts = [...new Set(settings.sources.map((source) => NewsSources.hostOf(source.url)))]
    yield* Effect.logInfo(`following ${settings.sources.length} news feeds at ${hosts.join(", ")}`)
    yield* news.readAll(settings).pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("reading the news feeds failed", cause)),
      Effect.repeat(Schedule.spaced(settings.interval)),
      Effect.forkScoped
    )
  })).pipe(Layer.provide(NodeHttpClient.layerUndici))
