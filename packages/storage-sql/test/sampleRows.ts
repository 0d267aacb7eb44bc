/**
 * One valid row of each shape the SQL stores read most, as PostgreSQL returns it: columns under the
 * encoded names, NULL for an absent optional field, JSON columns already parsed. For the row
 * decoder's tests and `bench/rows.ts`; plain data, no test framework.
 */
import { Document } from "@filings/domain"
import { DeliveryStore, ExtractionStore, FeedStore, JobQueue, WebhookStore } from "@filings/storage"
import type { Schema } from "effect"
import { Counted } from "../src/internal/sqlRows.js"

export interface SampleRow {
  readonly name: string
  readonly shape: Schema.Schema.AnyNoContext
  readonly row: Readonly<Record<string, unknown>>
}

export const sampleRows: ReadonlyArray<SampleRow> = [
  {
    name: "document list row (`GET /v1/documents`)",
    shape: Counted(Document.DocumentMetadata.fields),
    row: {
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
      items: [],
      total: 3
    }
  },
  {
    name: "feed item (`POST /v1/feed`)",
    shape: FeedStore.StoredFeedItem,
    row: {
      id: "0000999999-24-000002",
      ticker: "BNCH",
      company_name: "Benchmark Corp",
      title: "Benchmark Corp reports third quarter results",
      doc_type: "PRESS_RELEASE",
      published_at_ms: 1_730_145_900_000,
      categories: ["Earnings"],
      sentiment: "neutral",
      stock_change: { percentage: -0.8, direction: "down" },
      highlights: [{ text: "Net sales of $5.1 billion.", citations: [{ source: "release", chunkId: "c0004" }] }],
      model: "extractive"
    }
  },
  {
    name: "feed item before its stock move is known",
    shape: FeedStore.StoredFeedItem,
    row: {
      id: "news-3f2a9c0d17b4e581",
      ticker: "BNCH",
      company_name: "Benchmark Corp",
      title: "Benchmark Corp names a new chief executive",
      doc_type: "NEWS",
      published_at_ms: 1_730_232_300_000,
      categories: [],
      sentiment: "positive",
      stock_change: null,
      highlights: [],
      model: "extractive"
    }
  },
  {
    name: "metric (`GET /v1/extract/metrics`)",
    shape: ExtractionStore.StoredMetric,
    row: {
      name: "total_assets",
      value: 1.5e9,
      unit: "USD",
      period: "FY 2024",
      as_of: "2024-09-28",
      yoy_change: null,
      source: "us-gaap:Assets"
    }
  },
  {
    name: "webhook subscription (dispatch)",
    shape: WebhookStore.Subscription,
    row: {
      id: "wh_1",
      owner_key_id: "key_1",
      url: "https://receiver.example/hook",
      events: ["filing.new", "press_release.new"],
      filters: { tickers: ["BNCH"], docTypes: ["10-K"] },
      secret: "0123456789abcdef",
      status: "active",
      created_at_ms: 1,
      last_triggered_at_ms: null,
      start_sequence: 7
    }
  },
  {
    name: "delivery",
    shape: DeliveryStore.Delivery,
    row: {
      id: "dlv_1",
      subscription_id: "wh_1",
      event_id: "evt_1",
      event_sequence: 3,
      event_type: "filing.new",
      state: "pending",
      attempts: 1,
      created_at_ms: 5,
      last_attempt_at_ms: 6,
      last_status: 500,
      last_error: "status 500",
      next_attempt_at_ms: null,
      delivered_at_ms: null
    }
  },
  {
    name: "job with a JSON null payload",
    shape: JobQueue.Job,
    row: { id: "job_1", queue: "summaries", payload: null, attempts: 1, lease_token: "t", lease_expires_at_ms: 9 }
  }
]
