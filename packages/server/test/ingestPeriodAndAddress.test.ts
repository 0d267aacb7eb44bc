/**
 * What ingestion stores as a document's `period` and `sec_url` when the file says little about
 * itself (a PDF, an old HTML filing without inline XBRL), and how a document the store refuses is
 * reported: as the file's fault naming the document, not as an outage.
 */
import { assert, describe, it } from "@effect/vitest"
import { ApiError, Dates, type DocType, Ids } from "@filings/domain"
import { SummaryModel } from "@filings/feed-summarizer"
import { DocumentStore, ExtractionStore, MemoryStorage, StorageError } from "@filings/storage"
import { SqlStorage, TestDatabase } from "@filings/storage-sql"
import { Effect, Layer, Option, Redacted } from "effect"
import { readFileSync } from "node:fs"
import { adminUrl, adminUrlVariable } from "../../../test/support/adminUrl.js"
import { corpusMissing, corpusUrl } from "../../../test/support/corpus.js"
import * as Ingest from "../src/ingest/Ingest.js"
import type { Overrides } from "../src/ingest/Ingestion.js"
import * as MarketData from "../src/market/MarketData.js"
import { ingest } from "./support/ingest.js"

const ingestionOn = (documents: Layer.Layer<DocumentStore.DocumentStore>) =>
  Ingest.layer.pipe(
    Layer.provideMerge(Layer.mergeAll(MemoryStorage.layer, documents)),
    Layer.provideMerge(Layer.merge(SummaryModel.extractiveLayer, MarketData.none))
  )

const memory = ingestionOn(MemoryStorage.documentStore)

const nulPdf = () =>
  new Uint8Array(readFileSync(new URL("../../filings-parser/test/fixtures/pdf-nul-bytes/input.pdf", import.meta.url)))

/** A document store that refuses every document as PostgreSQL refuses a NUL character. */
const refusing = ingestionOn(Layer.succeed(
  DocumentStore.DocumentStore,
  DocumentStore.DocumentStore.of({
    save: (document) =>
      Effect.fail(
        new StorageError.UnstorableValue({
          operation: "DocumentStore.save",
          subject: `document ${document.publicationId}`,
          reason: StorageError.nulReason
        })
      ),
    findByPublicationId: () => Effect.succeed(Option.none()),
    findChunk: () => Effect.succeed(Option.none()),
    findMetadata: () => Effect.succeed(Option.none()),
    list: () => Effect.succeed({ documents: [], total: 0 }),
    companyNames: Effect.succeed([]),
    searchSections: () => Effect.succeed({ results: [], total: 0 }),
    companyDocuments: () => Effect.succeed([]),
    companyTickers: () => Effect.succeed([]),
    countByType: () => Effect.succeed([])
  })
))

const overrides = (accession: string, form: DocType.DocType, filingDate: string): Overrides => ({
  ticker: Ids.Ticker.make("ACME"),
  cik: "999123",
  company_name: "Acme Corp",
  form,
  accession: Ids.PublicationId.make(accession),
  filing_date: Dates.IsoDate.make(filingDate)
})

const encode = (text: string) => new TextEncoder().encode(text)

const oldAnnualReport = (form: string, yearEnded: string) =>
  encode([
    "<html><body>",
    `<p><b>FORM ${form}</b></p>`,
    `<p>ANNUAL REPORT for the fiscal year ended ${yearEnded}</p>`,
    "<p><b>Item 1. Business</b></p>",
    "<p>We make widgets and sell them in forty countries through our own stores and partners.</p>",
    "</body></html>"
  ].join(""))

const stored = (publicationId: string) =>
  Effect.flatMap(
    DocumentStore.DocumentStore,
    (store) => store.findByPublicationId(Ids.PublicationId.make(publicationId))
  )

/** Ingests Acme's 10-K for 2018, a file without inline XBRL filed on 2019-02-07, as `accession`. */
const ingestAnnualReport2018 = (accession: string, fileName = "acme-annual.htm") =>
  ingest({
    fileName,
    bytes: oldAnnualReport("10-K", "December 31, 2018"),
    overrides: overrides(accession, "10-K", "2019-02-07")
  })

/**
 * Ingests the PDF whose text holds NUL bytes as Acme's 10-K `accession` and reads back the document
 * stored, which must hold no NUL anywhere.
 */
const storeNulPdf = (accession: string) =>
  Effect.gen(function*() {
    const result = yield* ingest({
      fileName: "nul.pdf",
      bytes: nulPdf(),
      overrides: overrides(accession, "10-K", "2019-02-07")
    })
    assert.strictEqual(result.status, "created")
    const document = Option.getOrUndefined(yield* stored(accession))
    assert.notInclude(JSON.stringify(document), "\\u0000")
    return document
  })

describe("period of a filing without inline XBRL", () => {
  it.effect("a 10-K filed in February 2019 for the year ended December 31, 2018 is FY 2018", () =>
    Effect.gen(function*() {
      const result = yield* ingestAnnualReport2018("0000999123-19-000004")
      assert.strictEqual(result.title, "Acme Corp 10-K FY 2018")
      const document = yield* stored("0000999123-19-000004")
      assert.strictEqual(Option.getOrUndefined(document)?.period, "FY 2018")
    }).pipe(Effect.provide(memory)))

  it.effect("a 20-F for the fiscal year ended 2020-11-30, filed in 2021, is FY 2020", () =>
    Effect.gen(function*() {
      yield* ingest({
        fileName: "acme-20f.htm",
        bytes: oldAnnualReport("20-F", "November 30, 2020"),
        overrides: overrides("0000999123-21-000002", "20-F", "2021-03-30")
      })
      const document = yield* stored("0000999123-21-000002")
      assert.strictEqual(Option.getOrUndefined(document)?.period, "FY 2020")
    }).pipe(Effect.provide(memory)))
})

describe("sec_url", () => {
  it.effect("a file that is not a submission: the filing's index page, never the local file name", () =>
    Effect.gen(function*() {
      yield* ingestAnnualReport2018("0000999123-19-000005", "my-local-copy.htm")
      const document = Option.getOrUndefined(yield* stored("0000999123-19-000005"))
      assert.strictEqual(
        document?.secUrl,
        "https://www.sec.gov/Archives/edgar/data/999123/000099912319000005/0000999123-19-000005-index.htm"
      )
    }).pipe(Effect.provide(memory)))
})

describe("a document the store refuses", () => {
  it.effect("is an unreadable filing naming the document and the reason, not a storage outage", () =>
    Effect.gen(function*() {
      const failure = yield* Effect.flip(ingestAnnualReport2018("0000999123-19-000006"))
      assert.instanceOf(failure, ApiError.UnreadableFiling)
      assert.include(failure.message, "document 0000999123-19-000006 cannot be stored")
      assert.include(failure.message, "NUL character")
    }).pipe(Effect.provide(refusing)))

  it.effect("a PDF whose text holds NUL bytes is stored, cleaned", () =>
    Effect.gen(function*() {
      const document = yield* storeNulPdf("0000999123-19-000007")
      assert.include(document?.body, "We make widgets and sell them")
      assert.strictEqual(document?.period, "FY 2018")
    }).pipe(Effect.provide(memory)))
})

describe.skipIf(adminUrl === undefined)(`on PostgreSQL (${adminUrlVariable})`, () => {
  const onPostgres = Ingest.layer.pipe(
    Layer.provideMerge(SqlStorage.layer),
    Layer.provideMerge(Layer.merge(SummaryModel.extractiveLayer, MarketData.none)),
    Layer.provide(TestDatabase.layerPostgres(Redacted.make(adminUrl ?? "")))
  )

  it.effect("a PDF whose text holds NUL bytes is stored, cleaned, and reads back", () =>
    Effect.gen(function*() {
      const document = yield* storeNulPdf("0000999123-19-000008")
      assert.include(document?.body, "Revenue grew by ten percent")
      assert.deepStrictEqual(document?.sections.map((section) => section.title), [
        "Item 1. Business",
        "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations"
      ])
    }).pipe(Effect.provide(onPostgres)), 60_000)
})

const corpus = corpusUrl

describe.skipIf(corpusMissing)("corpus filings in ../shared/corpus", () => {
  it.effect("MMM 10-K FY2018 as PDF, filed 2019-02-07: FY 2018", () =>
    Effect.gen(function*() {
      const result = yield* ingest({
        fileName: "mmm-10k-fy2018.pdf",
        bytes: new Uint8Array(readFileSync(new URL("pdf/mmm-10k-fy2018.pdf", corpus))),
        overrides: {
          ...overrides("0001558370-19-000470", "10-K", "2019-02-07"),
          cik: "66740",
          ticker: Ids.Ticker.make("MMM")
        }
      })
      assert.strictEqual(result.title, "Acme Corp 10-K FY 2018")
    }).pipe(Effect.provide(memory)), 120_000)

  it.effect("Plymouth Rock 20-F, year ended 2020-11-30: FY 2020, as its own metrics", () =>
    Effect.gen(function*() {
      yield* ingest({
        fileName: "plymouth-20f.htm",
        bytes: new Uint8Array(readFileSync(new URL("20-F/plymouth-rock-technologies-20f-fy2020.htm", corpus))),
        overrides: { ...overrides("0001062993-21-003193", "20-F", "2021-03-31"), ticker: Ids.Ticker.make("PRT") }
      })
      const document = Option.getOrUndefined(yield* stored("0001062993-21-003193"))
      assert.strictEqual(document?.period, "FY 2020")
      const extraction = yield* Effect.flatMap(
        ExtractionStore.ExtractionStore,
        (store) => store.find(Ids.PublicationId.make("0001062993-21-003193"))
      )
      const periods = new Set(Option.getOrThrow(extraction).metrics.map((metric) => metric.period))
      assert.deepStrictEqual([...periods], ["FY 2020"])
    }).pipe(Effect.provide(memory)), 120_000)
})
