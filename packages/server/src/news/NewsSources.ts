/**
 * The news feeds the operator follows (`FILINGS_NEWS_FEEDS`, read by `Environment`): a list
 * separated by commas, spaces or new lines, where each entry is either
 *
 * - `TICKER=URL`: a feed about one company (its investor-relations feed, a search feed on its
 *   name); every entry is that company's news;
 * - `URL`: a feed about many (a newswire's); an entry is the news of each company it names as
 *   `(NASDAQ: AAPL)` or `(NYSE: IBM)`.
 *
 * URLs are `https://` or `http://`. These URLs are the only addresses the news reader asks, and a
 * redirect is followed only to a host among them. The settings also give the time between two
 * readings of a feed (`FILINGS_NEWS_POLL`).
 */
import { Ids } from "@filings/domain"
import { type Duration, Either, Schema } from "effect"

export interface NewsSource {
  readonly url: string
  /** The company every entry is about; absent for a feed whose entries name their companies. */
  readonly ticker?: Ids.Ticker | undefined
}

export interface NewsSettings {
  readonly sources: ReadonlyArray<NewsSource>
  readonly interval: Duration.Duration
}

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

/** The host of a source, for the log: never its path or query, which may hold credentials. */
export const hostOf = (url: string): string => new URL(url).host
