/**
 * Reading news feeds without the network: RSS 2.0, RSS 1.0 and Atom entries, the tickers a
 * newswire entry names, and the `FILINGS_NEWS_FEEDS` list.
 */
import { assert, describe, it } from "@effect/vitest"
import { Either } from "effect"
import { readNewsFeed } from "../src/news/NewsFeedReader.js"
import { sourcesOf } from "../src/news/NewsSources.js"
import { tickersNamedIn } from "../src/news/NewsTickers.js"

const rss = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>Acme Newsroom</title>
    <item>
      <title>Acme opens a plant in Ohio &amp; hires 400</title>
      <link>https://news.example/acme/plant</link>
      <guid isPermaLink="false">acme-2026-0042</guid>
      <pubDate>Tue, 03 Nov 2026 13:30:00 GMT</pubDate>
      <description>Short teaser.</description>
      <content:encoded><![CDATA[<p>Acme Corp. (NYSE: ACME) said on Tuesday it will open a plant in Ohio.</p><p>The plant adds 400 jobs.</p>]]></content:encoded>
    </item>
    <item>
      <title>No id, but a link</title>
      <link>https://news.example/acme/second</link>
      <description>&lt;p&gt;Escaped markup, as most feeds carry it.&lt;/p&gt;</description>
      <dc:date>2026-11-02T09:00:00-05:00</dc:date>
    </item>
    <item>
      <description>Neither an id nor a link.</description>
    </item>
    <item>
      <guid>acme-empty</guid>
    </item>
  </channel>
</rss>`

const atom = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Wire</title>
  <entry>
    <id>tag:wire.example,2026:1</id>
    <title>Beta Inc. raises its outlook</title>
    <link rel="self" href="https://wire.example/api/1"/>
    <link href="https://wire.example/news/1"/>
    <published>2026-11-03T12:00:00Z</published>
    <updated>2026-11-04T08:00:00Z</updated>
    <summary>Beta (NASDAQ: BETA) raised its outlook.</summary>
    <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Beta Inc. (NASDAQ: BETA) raised its full-year outlook to <b>$2.10</b> a share.</p></div></content>
  </entry>
</feed>`

const rdf = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel rdf:about="https://old.example/"><title>Old wire</title></channel>
  <item rdf:about="https://old.example/1">
    <title>Gamma names a new chief executive</title>
    <link>https://old.example/1</link>
    <description>Gamma Co. (NYSE American: GMA) named a new chief executive.</description>
    <dc:date>2026-11-01T15:00:00Z</dc:date>
  </item>
</rdf:RDF>`

describe("readNewsFeed", () => {
  it("reads RSS 2.0: the fullest text, the guid or else the link as key, and says what it skipped", () => {
    const feed = Either.getOrThrow(readNewsFeed(rss))
    assert.strictEqual(feed.title, "Acme Newsroom")
    assert.deepStrictEqual(feed.entries.map((entry) => entry.key), [
      "acme-2026-0042",
      "https://news.example/acme/second"
    ])
    const [first, second] = feed.entries
    assert.strictEqual(first!.title, "Acme opens a plant in Ohio & hires 400")
    assert.strictEqual(first!.link, "https://news.example/acme/plant")
    assert.include(first!.text, "<p>The plant adds 400 jobs.</p>", "content:encoded wins over the teaser")
    assert.strictEqual(first!.publishedAtMillis, Date.parse("2026-11-03T13:30:00Z"))
    assert.strictEqual(second!.text, "<p>Escaped markup, as most feeds carry it.</p>")
    assert.strictEqual(second!.publishedAtMillis, Date.parse("2026-11-02T14:00:00Z"), "dc:date when no pubDate")
    assert.deepStrictEqual(feed.warnings, [
      "entry 3 skipped: it has neither an id nor a link",
      "entry 4 (acme-empty) skipped: it has neither a title nor a text"
    ])
  })

  it("reads Atom: the alternate link, xhtml content kept as markup, published before updated", () => {
    const [entry] = Either.getOrThrow(readNewsFeed(atom)).entries
    assert.strictEqual(entry!.key, "tag:wire.example,2026:1")
    assert.strictEqual(entry!.link, "https://wire.example/news/1")
    assert.include(entry!.text, "<b>$2.10</b>")
    assert.strictEqual(entry!.publishedAtMillis, Date.parse("2026-11-03T12:00:00Z"))
  })

  it("reads RSS 1.0, whose items sit beside the channel", () => {
    const feed = Either.getOrThrow(readNewsFeed(rdf))
    assert.strictEqual(feed.title, "Old wire")
    assert.deepStrictEqual(feed.entries.map((entry) => [entry.key, entry.title]), [[
      "https://old.example/1",
      "Gamma names a new chief executive"
    ]])
  })

  it("refuses what is no feed, saying what it is", () => {
    const page = readNewsFeed("<!DOCTYPE html><html><body><h1>Service unavailable</h1></body></html>")
    assert.isTrue(Either.isLeft(page))
    assert.strictEqual(
      Either.isLeft(page) ? page.left.reason : "",
      "the answer is not an RSS or Atom feed: its root is <html>"
    )
    assert.isTrue(Either.isLeft(readNewsFeed("")))
  })
})

describe("tickersNamedIn", () => {
  it("finds United States listings in the newswire style, each once, in order", () => {
    assert.deepStrictEqual(
      tickersNamedIn(
        "Acme Corp. (NYSE: ACME) to buy Beta Inc. (Nasdaq: BETA; TSX: BTA); Gamma (NYSE American: GMA), " +
          "Delta (Nasdaq Global Select Market: DLTA) and Berkshire (NYSE: BRK.B). Acme (NYSE: ACME) said..."
      ),
      ["ACME", "BETA", "GMA", "DLTA", "BRK.B"]
    )
  })

  it("ignores other exchanges, lower-case words and parentheses that are no listing", () => {
    assert.deepStrictEqual(tickersNamedIn("Maple Ltd. (TSX: MPL) (LSE: VOD) (see: NOTE) (Nasdaq: down 3%)"), [])
    assert.deepStrictEqual(tickersNamedIn("sales (nasdaq: buy) rose"), [])
  })
})

describe("sourcesOf", () => {
  it("reads TICKER=URL and plain URLs separated by commas, spaces or lines, each pair once", () => {
    const sources = Either.getOrThrow(
      sourcesOf("aapl=https://ir.example/rss,\nhttps://wire.example/feed.xml  https://wire.example/feed.xml")
    )
    assert.deepStrictEqual(sources, [
      { url: "https://ir.example/rss", ticker: "AAPL" },
      { url: "https://wire.example/feed.xml" }
    ] as ReadonlyArray<unknown>)
    assert.deepStrictEqual(Either.getOrThrow(sourcesOf("  ")), [])
  })

  it("names the entry that is neither", () => {
    assert.deepStrictEqual(
      sourcesOf("https://ok.example/rss ftp://files.example/feed"),
      Either.left("\"ftp://files.example/feed\" is not a URL (https://...) nor TICKER=URL")
    )
    assert.deepStrictEqual(
      sourcesOf("AA_PL=https://ir.example/rss"),
      Either.left("\"AA_PL=https://ir.example/rss\" is not a URL (https://...) nor TICKER=URL")
    )
  })
})
