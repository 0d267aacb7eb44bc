import { assert, describe, it } from "@effect/vitest"
import { Document, ExtractedValues, ExtractionApi, Feed, Timeline } from "@filings/domain"
import { Schema } from "effect"

// Each shape is declared once, camelCase on its type side; the API's snake_case JSON is its encoded
// side. These check that JSON both ways, key order included, since responses are encoded from it.
describe("one declaration per shape, the API's JSON as its encoded side", () => {
  it("a metric value decodes from the API's keys and encodes back to the same JSON", () => {
    const json = {
      value: 1.5e9,
      unit: "USD",
      period: "FY 2024",
      as_of: "2024-09-28",
      yoy_change: 0.02,
      source: "us-gaap:Assets"
    }
    const value = Schema.decodeUnknownSync(ExtractedValues.MetricValue)(json)
    assert.deepStrictEqual(value, {
      value: 1.5e9,
      unit: "USD",
      period: "FY 2024",
      asOf: "2024-09-28",
      yoyChange: 0.02,
      source: "us-gaap:Assets"
    })
    assert.strictEqual(JSON.stringify(Schema.encodeSync(ExtractedValues.MetricValue)(value)), JSON.stringify(json))
    // The served metric is the same value without its source.
    const served = Schema.encodeSync(ExtractionApi.Metric)(new ExtractionApi.Metric(value))
    assert.deepStrictEqual(Object.keys(served), ["value", "unit", "period", "as_of", "yoy_change"])
  })

  it("a served table of /v1/extract/tables keeps its keys and their order", () => {
    const table: ExtractedValues.Table = {
      id: "t001",
      title: "Balance Sheets",
      section: "Item 8",
      headers: ["", "2024"],
      rows: [["Total assets", "1,000"]],
      unit: "USD millions",
      tableType: "balance_sheet"
    }
    const encoded = Schema.encodeSync(ExtractionApi.CompanyTable)(
      new ExtractionApi.CompanyTable({
        ticker: "ACME" as ExtractionApi.CompanyTable["ticker"],
        companyName: "Acme Corp",
        publicationId: "0000999999-24-000001" as ExtractionApi.CompanyTable["publicationId"],
        docType: "10-K",
        filingDate: "2024-02-01",
        period: "FY 2023",
        ...table
      })
    )
    assert.deepStrictEqual(Object.keys(encoded), [
      "ticker",
      "company_name",
      "publication_id",
      "doc_type",
      "filing_date",
      "period",
      "table_type",
      "id",
      "title",
      "section",
      "headers",
      "rows",
      "unit"
    ])
    // Within a document's extraction the type is not served.
    assert.notProperty(Schema.encodeSync(ExtractionApi.Table)(new ExtractionApi.Table(table)), "table_type")
  })

  it("signatures and document metadata read their snake_case keys", () => {
    assert.deepStrictEqual(
      Schema.decodeUnknownSync(ExtractedValues.Signatures)({ signed_date: "2024-11-01", signers: [] }),
      { signedDate: "2024-11-01", signers: [] }
    )
    assert.throws(() => Schema.decodeUnknownSync(ExtractedValues.Signatures)({ signed_date: "", signers: [] }))
    const metadata = Schema.decodeUnknownSync(Document.DocumentMetadata)({
      publication_id: "0000999999-24-000001",
      ticker: "ACME",
      company_name: "Acme Corp",
      cik: "0000999999",
      doc_type: "10-K",
      title: "Annual report",
      filing_date: "2024-02-01",
      period: "FY 2023",
      sec_url: "https://www.sec.gov/",
      word_count: 10,
      items: []
    })
    assert.strictEqual(metadata.companyName, "Acme Corp")
    const listed = Schema.encodeSync(Document.DocumentListItem)(
      new Document.DocumentListItem({ ...metadata, url: "/v1" })
    )
    assert.deepStrictEqual(Object.keys(listed), [
      "publication_id",
      "ticker",
      "company_name",
      "cik",
      "doc_type",
      "title",
      "filing_date",
      "period",
      "sec_url",
      "url"
    ])
  })

  it("a feed item and its highlights read the API's keys, chunk_id included, and encode back in their order", () => {
    const json = {
      ticker: "ACME",
      company_name: "Acme Corp",
      title: "Acme Corp reports third quarter results",
      date: "2026-10-28T20:05:00.000Z",
      doc_type: "PRESS_RELEASE",
      categories: ["Earnings"],
      stock_change: { percentage: 2.35, direction: "up" },
      sentiment: "positive",
      highlights: [{ text: "Revenue of $412.5 million.", citations: [{ source: "x", chunk_id: "c0001" }] }],
      model: "extractive"
    }
    const item = Schema.decodeUnknownSync(Feed.FeedItem)(json)
    assert.strictEqual(item.companyName, "Acme Corp")
    assert.strictEqual(item.docType, "PRESS_RELEASE")
    assert.strictEqual(item.stockChange?.percentage, 2.35)
    assert.deepStrictEqual(item.highlights, [
      { text: "Revenue of $412.5 million.", citations: [{ source: "x", chunkId: "c0001" }] }
    ])
    assert.strictEqual(JSON.stringify(Schema.encodeSync(Feed.FeedItem)(item)), JSON.stringify(json))
  })

  it("a timeline page and its query read the API's keys and encode back in their order", () => {
    const json = {
      ticker: "ACME",
      entries: [{
        date: "2026-01-30",
        type: "upcoming_call",
        title: "Acme Corp Q4 2025 earnings call",
        publication_id: "0000999001-26-000002-ex99.1",
        doc_type: null,
        items: [],
        highlight: { text: "Revenue of $412.5 million.", citations: [{ source: "x", chunk_id: "c0001" }] }
      }],
      has_more: true,
      next_cursor: "abc"
    }
    const page = Schema.decodeUnknownSync(Timeline.TimelinePage)(json)
    assert.deepStrictEqual([page.hasMore, page.nextCursor], [true, "abc"])
    assert.deepStrictEqual([page.entries[0]?.publicationId, page.entries[0]?.docType], [
      "0000999001-26-000002-ex99.1",
      null
    ])
    assert.strictEqual(JSON.stringify(Schema.encodeSync(Timeline.TimelinePage)(page)), JSON.stringify(json))

    const query = { types: "filing,upcoming_call", start_date: "2025-01-01", end_date: "2026-01-31", limit: "20" }
    const params = Schema.decodeUnknownSync(Timeline.TimelineParams)(query)
    assert.deepStrictEqual(params, {
      types: ["filing", "upcoming_call"],
      startDate: "2025-01-01",
      endDate: "2026-01-31",
      limit: 20
    })
    assert.deepStrictEqual(Schema.encodeSync(Timeline.TimelineParams)(params), query)
  })
})
