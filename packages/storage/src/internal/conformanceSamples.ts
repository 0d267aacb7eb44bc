// The samples the conformance suite builds its tests from: ids, tickers and names unique to each test
// (the suite shares one store), and complete documents and feed items.
import { Blocks, type Ids } from "@filings/domain"
import { randomBytes } from "node:crypto"
import type { StoredDocument } from "../DocumentStore.js"
import type { StoredFeedItem } from "../FeedStore.js"

export const uniqueTicker = (): Ids.Ticker => `T${randomBytes(4).toString("hex").toUpperCase()}` as Ids.Ticker
export const uniqueCik = (): Ids.Cik => String(Math.floor(Math.random() * 1e10)).padStart(10, "0") as Ids.Cik
export const uniqueName = (prefix: string) => `${prefix}-${randomBytes(6).toString("hex")}`
let accessionCounter = Math.floor(Math.random() * 900_000)
export const uniqueAccession = (): Ids.PublicationId =>
  `${String(Math.floor(Math.random() * 1e10)).padStart(10, "0")}-24-${
    String(++accessionCounter % 1_000_000).padStart(6, "0")
  }` as Ids.PublicationId

const run = (text: string): Blocks.Inline => ({ kind: "text", text })

/**
 * Blocks of every kind, each field set in its plain and its marked form (a style that says
 * something, inline nodes that are more than one run of text), for adapters that store them compactly.
 */
export const sampleBlocks: ReadonlyArray<Blocks.Block> = [
  {
    kind: "heading",
    page: 1,
    depth: 1,
    text: "Annual report",
    inlines: [run("Annual report")],
    style: { bold: true, italic: false, underline: false, centered: true, fontSizePt: 14 }
  },
  {
    kind: "paragraph",
    page: 1,
    text: "Revenue grew 📈 — 12 % (€, 日本).",
    inlines: [run("Revenue grew 📈 — 12 % (€, 日本).")],
    style: Blocks.plainStyle
  },
  {
    kind: "list",
    page: 1,
    ordered: false,
    items: [
      { text: "Anvils", inlines: [run("Anvils")] },
      { text: "Rockets sold", inlines: [{ kind: "strong", children: [run("Rockets")] }, run(" sold")] }
    ]
  },
  {
    kind: "paragraph",
    page: 2,
    text: "See the table",
    inlines: [run("See the "), { kind: "link", url: "https://example.com/t", children: [run("table")] }],
    style: Blocks.plainStyle
  },
  { kind: "table", page: 2, rows: [["a", "b"], ["1", "2"]], headerRows: 1 },
  { kind: "preformatted", page: 3, text: "a    b\n1    2" }
]

/** A complete document with every field set, for tests of adapters. */
export const sampleDocument = (overrides: Partial<StoredDocument> = {}): StoredDocument => ({
  publicationId: uniqueAccession(),
  ticker: "ACME" as Ids.Ticker,
  companyName: "Acme Corp",
  cik: "0000123456" as Ids.Cik,
  docType: "10-K",
  title: "Acme Corp 10-K FY 2024",
  filingDate: "2024-11-01",
  period: "FY 2024",
  secUrl: "https://www.sec.gov/Archives/edgar/data/123456/000012345624000001/acme-20240930.htm",
  wordCount: 6,
  items: [],
  body: "# Annual report\n\nRevenue grew 📈 — 12 % (€, 日本).\n\n| a | b |\n| - | - |\n| 1 | 2 |\n",
  sections: [
    {
      title: "Cover",
      content: "Acme Corp annual report",
      wordCount: 4,
      pageStart: 1,
      pageEnd: 1,
      blockRange: { start: 0, end: 3 }
    },
    { title: "Item 1. Business", item: "1", content: "We make anvils.", wordCount: 3, pageStart: 1, pageEnd: 2 }
  ],
  exhibits: [{ exhibitNumber: "99.1", title: "Press release", content: "Acme reports results." }],
  chunks: [
    {
      id: "c0001",
      text: "# Annual report\n\nRevenue grew 📈 — 12 % (€, 日本).\n",
      section: "Cover",
      pageStart: 1,
      pageEnd: 1,
      blocks: sampleBlocks.slice(0, 3)
    },
    { id: "c0002", text: "| a | b |\n| - | - |\n| 1 | 2 |\n", pageStart: 2, pageEnd: 3, blocks: sampleBlocks.slice(3) }
  ],
  ...overrides
})

/** A feed item with every field set, for tests of adapters. */
export const sampleFeedItem = (overrides: Partial<StoredFeedItem> = {}): StoredFeedItem => ({
  id: uniqueAccession(),
  ticker: "ACME" as Ids.Ticker,
  companyName: "Acme Corp",
  title: "Acme Corp reports third quarter results",
  docType: "PRESS_RELEASE",
  publishedAtMillis: Date.parse("2026-10-28T20:05:00.000Z"),
  categories: ["Earnings", "Guidance Update"],
  sentiment: "positive",
  stockChange: { percentage: 2.35, direction: "up" },
  highlights: [
    {
      text: "Revenue of $412.5 million, up 18% — a record (€, 日本, 📈).",
      citations: [{ source: "x", chunkId: "c0001" }]
    },
    { text: "Guidance raised.", citations: [{ source: "x", chunkId: "c0002" }, { source: "x", chunkId: "c0003" }] }
  ],
  model: "extractive",
  ...overrides
})
