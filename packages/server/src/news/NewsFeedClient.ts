/**
 * Asks a news feed for what it has, politely: a conditional GET that sends back the `ETag` and
 * `Last-Modified` of the last answer, so an unchanged feed costs a `304` and no body. Only the
 * configured hosts are asked: a redirect elsewhere is refused, not followed. An answer is read up
 * to `maxFeedBytes` and decoded with the charset its `Content-Type` or XML declaration names.
 */
import { HttpClient, HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import { Chunk, Data, Duration, Effect, Stream } from "effect"
import { describeHttpError } from "../OutboundHttpFailures.js"

/** What the previous answer said to send back. */
export interface Validators {
  readonly etag?: string | undefined
  readonly lastModified?: string | undefined
}

export type FeedAnswer =
  | { readonly _tag: "NotModified" }
  | { readonly _tag: "Changed"; readonly xml: string; readonly validators: Validators; readonly url: string }

/** A feed that could not be read this time, and why, without the URL's path or query. */
export class NewsFeedUnavailable extends Data.TaggedError("NewsFeedUnavailable")<{
  readonly host: string
  readonly reason: string
}> {
  override get message(): string {
    return `the news feed at ${this.host} could not be read: ${this.reason}`
  }
}

/** Larger answers are refused: no news feed needs more. */
export const maxFeedBytes = 10 * 1024 * 1024

export const requestTimeout = Duration.seconds(30)

const maxRedirects = 3

const accept =
  "application/rss+xml, application/atom+xml, application/rdf+xml;q=0.9, application/xml;q=0.8, text/xml;q=0.8"

/** The charset an answer names: in its `Content-Type`, else in its XML declaration; UTF-8 otherwise. */
export const charsetOf = (contentType: string | undefined, head: Uint8Array): string => {
  const fromHeader = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? "")?.[1]
  const declaration = new TextDecoder("latin1").decode(head.subarray(0, 200))
  const fromDeclaration = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([\w.:-]+)["']/i.exec(declaration)?.[1]
  return fromHeader ?? fromDeclaration ?? "utf-8"
}

const decode = (bytes: Uint8Array, contentType: string | undefined): string => {
  const charset = charsetOf(contentType, bytes)
  try {
    return new TextDecoder(charset).decode(bytes)
  } catch {
    // An unknown charset name: UTF-8 reads the ASCII that feeds mostly are.
    return new TextDecoder("utf-8").decode(bytes)
  }
}

/** The body up to `maxFeedBytes`; a longer one fails rather than being cut. */
const boundedBody = (response: HttpClientResponse.HttpClientResponse, fail: (reason: string) => NewsFeedUnavailable) =>
  response.stream.pipe(
    Stream.mapError(() => fail("the answer could not be read")),
    Stream.runFoldEffect(
      { parts: Chunk.empty<Uint8Array>(), size: 0 },
      (read, part) =>
        read.size + part.length > maxFeedBytes
          ? Effect.fail(fail(`the answer is larger than ${maxFeedBytes / 1024 / 1024} MB`))
          : Effect.succeed({ parts: Chunk.append(read.parts, part), size: read.size + part.length })
    ),
    Effect.map(({ parts, size }) => {
      const bytes = new Uint8Array(size)
      let offset = 0
      for (const part of parts) {
        bytes.set(part, offset)
        offset += part.length
      }
      return bytes
    })
  )

export const make = Effect.gen(function*() {
  // A third party has no use for our trace ids.
  const client = HttpClient.withTracerPropagation(yield* HttpClient.HttpClient, false)

  /**
   * Reads the feed at `url` unless it is unchanged since `validators` were given. `allowedHosts`
   * are the hosts a redirect may lead to.
   */
  const fetchFeed = (url: string, validators: Validators, allowedHosts: ReadonlySet<string>) =>
    Effect.gen(function*() {
      let current = url
      for (let hop = 0; hop <= maxRedirects; hop++) {
        const host = new URL(current).host
        const fail = (reason: string) => new NewsFeedUnavailable({ host, reason })
        const request = HttpClientRequest.get(current).pipe(
          HttpClientRequest.setHeaders({
            accept,
            "user-agent": "Filings news reader",
            ...(validators.etag === undefined ? {} : { "if-none-match": validators.etag }),
            ...(validators.lastModified === undefined ? {} : { "if-modified-since": validators.lastModified })
          })
        )
        const answer: FeedAnswer | { readonly _tag: "Redirect"; readonly location: string } = yield* Effect.scoped(
          Effect.gen(function*() {
            const response = yield* client.execute(request).pipe(
              Effect.mapError((error) => fail(describeHttpError(error)))
            )
            const status = response.status
            if (status === 304) return { _tag: "NotModified" } as const
            if (status >= 300 && status < 400) {
              const location = response.headers["location"]
              if (location === undefined || !URL.canParse(location, current)) {
                return yield* fail(`HTTP ${status} without a usable Location`)
              }
              return { _tag: "Redirect", location: new URL(location, current).toString() } as const
            }
            if (status < 200 || status >= 300) return yield* fail(`HTTP ${status}`)
            const bytes = yield* boundedBody(response, fail)
            const etag = response.headers["etag"]
            const lastModified = response.headers["last-modified"]
            return {
              _tag: "Changed",
              xml: decode(bytes, response.headers["content-type"]),
              validators: { etag, lastModified },
              url: current
            } as const
          })
        ).pipe(Effect.timeoutFail({ duration: requestTimeout, onTimeout: () => fail("no answer within 30 seconds") }))
        if (answer._tag !== "Redirect") return answer
        const target = new URL(answer.location)
        if (!allowedHosts.has(target.host) || (target.protocol !== "https:" && target.protocol !== "http:")) {
          return yield* fail(
            `redirected to ${target.host}, which is not a configured feed host; give that address in FILINGS_NEWS_FEEDS`
          )
        }
        current = target.toString()
      }
      return yield* new NewsFeedUnavailable({ host: new URL(url).host, reason: `more than ${maxRedirects} redirects` })
    })

  return { fetchFeed } as const
})
