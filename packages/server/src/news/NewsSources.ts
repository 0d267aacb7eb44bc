/**
 * The news feeds the operator follows, from `FILINGS_NEWS_FEEDS`: a list separated by commas,
 * spaces or new lines, where each entry is either
 *
 * - `TICKER=URL`: a feed about one company (its investor-relations feed, a search feed on its
 *   name); every entry is that company's news;
 * - `URL`: a feed about many (a newswire's); an entry is the news of each company it names as
 *   `(NASDAQ: AAPL)` or `(NYSE: IBM)`.
 *
 * URLs are `https://` or `http://`. These URLs are the only addresses the news reader asks, and a
 * redirect is followed only to a host among them. `FILINGS_NEWS_POLL` is the time between two
 * readings of a feed, in seconds (default 300, at least 5).
 */
import { Ids } from "@filings/domain"
import { Config, ConfigError, Duration, Either, Schema } from "effect"

export interface NewsSource {
  readonly url: string
  /** The company every entry is about; absent for a feed whose entries name their companies. */
  readonly ticker?: Ids.Ticker | undefined
}

export interface NewsSettings {
  readonly sources: ReadonlyArray<NewsSource>
  readonly interval: Duration.Duration
}

const variable = "FILINGS_NEWS_FEEDS"

const isWebUrl = (text: string): boolean => {
  if (!URL.canParse(text)) return false
  const { protocol } = new URL(text)
  return protocol === "https:" || protocol === "http:"
}

/** One entry of the list, or why it is not one. */
const sourceOf = (entry: string): Either.Either<NewsSource, string> => {
  const assignment = /^([A-Za-z0-9][A-Za-z0-9.-]{0,11})=(.+)$/.exec(entry)
  const url = assignment === null ? entry : assignment[2]!
  if (!isWebUrl(url)) return Either.left(`${JSON.stringify(entry)} is not a URL (https://...) nor TICKER=URL`)
  if (assignment === null) return Either.right({ url })
  return Either.map(
    Schema.decodeEither(Ids.Ticker)(assignment[1]!),
    (ticker) => ({ url, ticker })
  ).pipe(Either.mapLeft(() => `${JSON.stringify(assignment[1])} in ${JSON.stringify(entry)} is not a ticker`))
}

/** The sources a list names, each (ticker, URL) pair once, or the first entry that is none. */
export const sourcesOf = (list: string): Either.Either<ReadonlyArray<NewsSource>, string> => {
  const sources: Array<NewsSource> = []
  for (const entry of list.split(/[\s,]+/).filter((part) => part !== "")) {
    const source = sourceOf(entry)
    if (Either.isLeft(source)) return Either.left(source.left)
    const same = sources.find((known) => known.url === source.right.url && known.ticker === source.right.ticker)
    if (same === undefined) sources.push(source.right)
  }
  return Either.right(sources)
}

export const config: Config.Config<NewsSettings> = Config.all({
  sources: Config.string(variable).pipe(
    Config.withDefault(""),
    Config.mapOrFail((list) =>
      Either.mapLeft(sourcesOf(list), (problem) => ConfigError.InvalidData([variable], problem))
    )
  ),
  interval: Config.number("FILINGS_NEWS_POLL").pipe(
    Config.withDefault(300),
    Config.validate({ message: "FILINGS_NEWS_POLL must be at least 5 seconds", validation: (seconds) => seconds >= 5 }),
    Config.map(Duration.seconds)
  )
})

/** The host of a source, for the log: never its path or query, which may hold credentials. */
export const hostOf = (url: string): string => new URL(url).host
