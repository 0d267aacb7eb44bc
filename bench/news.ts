/**
 * News benchmark, two parts, in this process (wall-clock, median of several runs):
 *
 * 1. Reading a feed: `readNewsFeed` on a synthetic RSS 2.0 feed of 500 entries, beside
 *    htmlparser2's own `parseFeed` on the same text (the baseline: the general feed reader of the
 *    library underneath), both giving the same 500 entries.
 * 2. Storing entries: `saveNews` of those 500 entries as new NEWS documents with their feed items
 *    (parse, extractive summary, one store transaction each) on embedded PGlite, beside
 *    `Parser.parse` of the same pages alone, which storing cannot do without.
 *
 *   npx tsc -b && node --import tsx bench/news.ts [--output bench/results/news-latest.md]
 */
import { Ids } from "@filings/domain"
import { SummaryModel } from "@filings/feed-summarizer"
import { Parser } from "@filings/filings-parser"
import * as DocumentSinkLayer from "@filings/server/ingest/DocumentSinkLayer"
import * as MarketData from "@filings/server/market/MarketData"
import { newsPageOf, saveNews } from "@filings/server/news/NewsDocuments"
import { type NewsEntry, readNewsFeed } from "@filings/server/news/NewsFeedReader"
import { SqlStorage, TestDatabase } from "@filings/storage-sql"
import { Effect, Either, Layer } from "effect"
import { parseFeed } from "htmlparser2"
import { writeFileSync } from "node:fs"
import { cpus } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { repositoryRoot } from "./support/processes.js"

const { values: argv } = parseArgs({ options: { output: { type: "string" } }, strict: true })
const output = argv.output ?? join(repositoryRoot, "bench/results/news-latest.md")

const entryCount = 500
const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
const timed = (run: () => void): number => {
  const start = performance.now()
  run()
  return performance.now() - start
}

/** A newsroom's entry: a headline, three paragraphs with figures, a link and a date. */
const item = (index: number): string => {
  const day = String(1 + (index % 28)).padStart(2, "0")
  const text = [
    `<p>Acme Corp. said on Tuesday that quarterly revenue rose ${index % 30}% to $${100 + index}.5 million, ` +
    `compared with $${90 + index}.1 million a year earlier, as demand for its industrial pumps grew.</p>`,
    `<p>The company raised its full-year outlook and now expects earnings of $${(index % 9) + 1}.20 to ` +
    `$${(index % 9) + 1}.40 a share. Chief executive Jane Roe said orders were at a record.</p>`,
    `<p>Acme also named a new chief financial officer, effective December 1, and said it would open a plant ` +
    `in Ohio that adds ${200 + index} jobs.</p>`
  ].join("")
  return `<item><title>Acme news number ${index}: results and outlook</title>` +
    `<link>https://news.example/acme/${index}</link><guid>acme-${index}</guid>` +
    `<pubDate>${new Date(`2026-10-${day}T13:30:00Z`).toUTCString()}</pubDate>` +
    `<description><![CDATA[${text}]]></description></item>`
}
const feedXml = `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Acme newsroom</title>${
  Array.from({ length: entryCount }, (_, index) => item(index)).join("")
}</channel></rss>`

// --- 1. Reading ----------------------------------------------------------------------------------

const readRuns: Array<number> = []
const baselineRuns: Array<number> = []
let entries: ReadonlyArray<NewsEntry> = []
for (let round = 0; round < 15; round++) {
  baselineRuns.push(timed(() => {
    const feed = parseFeed(feedXml, { xmlMode: true })
    if (feed?.items.length !== entryCount) throw new Error("parseFeed did not read every entry")
  }))
  readRuns.push(timed(() => {
    entries = Either.getOrThrow(readNewsFeed(feedXml)).entries
  }))
}
if (entries.length !== entryCount) throw new Error("readNewsFeed did not read every entry")
const readMs = median(readRuns.slice(5))
const baselineMs = median(baselineRuns.slice(5))
console.log(
  `reading ${entryCount} entries: readNewsFeed ${readMs.toFixed(1)} ms, parseFeed ${baselineMs.toFixed(1)} ms`
)

// --- 2. Storing ----------------------------------------------------------------------------------

const parseRuns: Array<number> = []
for (let round = 0; round < 5; round++) {
  parseRuns.push(timed(() => {
    for (const entry of entries) {
      Effect.runSync(Parser.parse({ bytes: new TextEncoder().encode(newsPageOf(entry)), form: "NEWS" }))
    }
  }))
}
const parseMs = median(parseRuns)

const company = { cik: Ids.Cik.make("0000999301"), ticker: Ids.Ticker.make("ACME"), name: "Acme Corp." }
const storeOnce = Effect.gen(function*() {
  const start = performance.now()
  for (const entry of entries) {
    if ((yield* saveNews(entry, company, Date.parse("2026-11-01T00:00:00Z"))) !== "stored") {
      throw new Error(`entry ${entry.key} was not stored as new`)
    }
  }
  return performance.now() - start
})
const storeRuns: Array<number> = []
for (let round = 0; round < 3; round++) {
  // A fresh database each round, so every entry is new.
  const layer = DocumentSinkLayer.layer.pipe(
    Layer.provideMerge(Layer.mergeAll(SqlStorage.layer, SummaryModel.extractiveLayer, MarketData.none)),
    Layer.provide(TestDatabase.layerPglite())
  )
  storeRuns.push(await Effect.runPromise(Effect.provide(storeOnce, layer)))
}
const storeMs = median(storeRuns)
console.log(`storing ${entryCount} entries on PGlite: ${storeMs.toFixed(0)} ms, parsing alone ${parseMs.toFixed(0)} ms`)

const report = [
  "# News benchmark",
  "",
  `${new Date().toISOString().slice(0, 10)}, Node.js ${process.versions.node}, ${
    cpus()[0]?.model ?? "cpu"
  } × ${cpus().length}.`,
  `\`node --import tsx bench/news.ts\` (after \`npx tsc -b\`). One synthetic RSS 2.0 feed of ${entryCount} entries (${
    (feedXml.length / 1024).toFixed(0)
  } kB; each a headline, three paragraphs with figures, a link and a date).`,
  "",
  "## 1. Reading the feed (median of 10 runs after 5 unmeasured)",
  "",
  "| reader | ms per feed | entries/s | ratio to baseline |",
  "| --- | ---: | ---: | ---: |",
  `| htmlparser2 \`parseFeed\` (baseline) | ${baselineMs.toFixed(1)} | ${
    Math.round(entryCount / baselineMs * 1000)
  } | 1.00 |`,
  `| \`readNewsFeed\` | ${readMs.toFixed(1)} | ${Math.round(entryCount / readMs * 1000)} | ${
    (readMs / baselineMs).toFixed(2)
  } |`,
  "",
  "## 2. Storing the entries (median of 3 runs, a fresh embedded PGlite each)",
  "",
  "| step | ms for 500 | entries/s | ratio to parsing |",
  "| --- | ---: | ---: | ---: |",
  `| \`Parser.parse\` of each entry's page alone (baseline) | ${parseMs.toFixed(0)} | ${
    Math.round(entryCount / parseMs * 1000)
  } | 1.00 |`,
  `| \`saveNews\`: parse, extractive summary, document and feed item stored | ${storeMs.toFixed(0)} | ${
    Math.round(entryCount / storeMs * 1000)
  } | ${(storeMs / parseMs).toFixed(1)} |`,
  ""
].join("\n")
writeFileSync(output, report)
console.log(`Wrote ${output}`)
