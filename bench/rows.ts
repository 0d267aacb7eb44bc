/**
 * Reading SQL rows as the stores' shapes: the SQL storage's `rowDecoder` (each field checked once)
 * against the shape's own `Schema` decoder (what rows were read with before it, which checks every
 * field on both sides of a `fromKey` renaming), on the rows the list endpoints, the feed and the
 * webhook dispatcher read most. Both run in this process, in alternate rounds, on the same rows;
 * the report gives microseconds per row for each and their ratio.
 *
 *   node --import tsx bench/rows.ts [--rows 10000] [--rounds 15]
 */
import { Document, Ids } from "@filings/domain"
import { DeliveryStore, ExtractionStore, FeedStore, WebhookStore } from "@filings/storage"
import { Either, Redacted, Schema } from "effect"
import { parseArgs } from "node:util"
import { Counted, rowDecoder } from "../packages/storage-sql/src/internal/sqlRows.js"

const { values: argv } = parseArgs({
  options: { rows: { type: "string", default: "10000" }, rounds: { type: "string", default: "15" } },
  strict: true
})
const rowCount = Number(argv.rows)
const rounds = Number(argv.rounds)

interface Case {
  readonly name: string
  readonly shape: Schema.Schema.AnyNoContext
  readonly row: (index: number) => object
}

const documentRow = {
  publication_id: "0000999999-24-000001",
  ticker: "BNCH",
  company_name: "Benchmark Corp",
  cik: "0000999999",
  doc_type: "10-K",
  title: "Annual report",
  filing_date: "2024-11-01",
  period: "FY 2024",
  sec_url: "https://www.sec.gov/Archives/edgar/data/999999/000099999924000001/bnch-20240928.htm",
  word_count: 61_250,
  items: []
}
const feedRow = Schema.encodeSync(FeedStore.StoredFeedItem)({
  id: "0000999999-24-000002",
  ticker: Schema.decodeSync(Ids.Ticker)("BNCH"),
  companyName: "Benchmark Corp",
  title: "Benchmark Corp reports third quarter results",
  docType: "PRESS_RELEASE",
  publishedAtMillis: Date.parse("2024-10-28T20:05:00.000Z"),
  categories: ["Earnings", "Guidance Update"],
  sentiment: "positive",
  stockChange: { percentage: 2.35, direction: "up" },
  highlights: [
    { text: "Revenue of $412.5 million, up 18%.", citations: [{ source: "x", chunkId: "c0001" }] },
    { text: "Guidance raised.", citations: [{ source: "x", chunkId: "c0002" }, { source: "x", chunkId: "c0003" }] }
  ],
  model: "extractive"
})
const subscriptionRow = Schema.encodeSync(WebhookStore.Subscription)({
  id: "wh_1",
  ownerKeyId: "key_1",
  url: "https://receiver.example/hook",
  events: ["filing.new", "press_release.new"],
  filters: { tickers: ["ACME", "BNCH"], docTypes: ["10-K"] },
  secret: Redacted.make("0123456789abcdef"),
  status: "active",
  createdAtMillis: 1,
  lastTriggeredAtMillis: null,
  startSequence: 7
})

const cases: ReadonlyArray<Case> = [
  {
    name: "document list row (`GET /v1/documents`)",
    shape: Counted(Document.DocumentMetadata.fields),
    row: (index) => ({ ...documentRow, word_count: index, total: rowCount })
  },
  {
    name: "feed item (`POST /v1/feed`)",
    shape: FeedStore.StoredFeedItem,
    row: (index) => ({ ...feedRow, published_at_ms: index })
  },
  {
    name: "metric (`GET /v1/extract/metrics`)",
    shape: ExtractionStore.StoredMetric,
    row: (index) => ({
      name: "total_assets",
      value: index,
      unit: "USD",
      period: "FY 2024",
      as_of: "2024-09-28",
      yoy_change: null,
      source: "us-gaap:Assets"
    })
  },
  {
    name: "webhook subscription (dispatch)",
    shape: WebhookStore.Subscription,
    row: (index) => ({ ...subscriptionRow, created_at_ms: index })
  },
  {
    name: "delivery",
    shape: DeliveryStore.Delivery,
    row: (index) => ({
      id: `dlv_${index}`,
      subscription_id: "wh_1",
      event_id: "evt_1",
      event_sequence: index,
      event_type: "filing.new",
      state: "pending",
      attempts: 1,
      created_at_ms: 5,
      last_attempt_at_ms: 6,
      last_status: 500,
      last_error: "status 500",
      next_attempt_at_ms: null,
      delivered_at_ms: null
    })
  }
]

const withoutNulls = (row: object): object =>
  Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null))

/** Milliseconds to decode every row, failing loudly on a row that does not decode. */
const timeAll = (rows: ReadonlyArray<object>, decode: (row: object) => Either.Either<unknown, unknown>): number => {
  const start = performance.now()
  for (const row of rows) {
    if (Either.isLeft(decode(row))) throw new Error("a benchmark row did not decode")
  }
  return performance.now() - start
}

const median = (values: ReadonlyArray<number>): number => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0

const lines = [
  `Rows per round: ${
    rowCount.toLocaleString("en-US")
  }; rounds: ${rounds} (after 2 unmeasured), alternating; median µs per row.`,
  "",
  "| Row | `Schema` decoder µs/row | `rowDecoder` µs/row | rowDecoder / Schema |",
  "|---|--:|--:|--:|"
]
for (const { name, row, shape } of cases) {
  const rows = Array.from({ length: rowCount }, (_, index) => row(index))
  const decodeShape = Schema.decodeUnknownEither(shape, { errors: "first" })
  const bySchema = (row: object) => decodeShape(withoutNulls(row))
  const byRow = rowDecoder(shape)
  const schemaTimes: Array<number> = []
  const rowTimes: Array<number> = []
  for (let round = 0; round < rounds + 2; round++) {
    const schemaTime = timeAll(rows, bySchema)
    const rowTime = timeAll(rows, byRow)
    if (round >= 2) {
      schemaTimes.push(schemaTime)
      rowTimes.push(rowTime)
    }
  }
  const perRow = (ms: number) => (ms * 1000) / rowCount
  const [schemaMicros, rowMicros] = [perRow(median(schemaTimes)), perRow(median(rowTimes))]
  lines.push(
    `| ${name} | ${schemaMicros.toFixed(2)} | ${rowMicros.toFixed(2)} | ${(rowMicros / schemaMicros).toFixed(2)} |`
  )
}
console.log(lines.join("\n"))
