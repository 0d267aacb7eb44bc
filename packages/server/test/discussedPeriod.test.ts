/**
 * The period and title ingestion stores for earnings calls, 8-Ks reporting results and their
 * releases (the fiscal period they discuss, not the calendar quarter of their date), and the
 * correction of documents stored before with the calendar quarter.
 */
import { assert, describe, it } from "@effect/vitest"
import { Dates, Ids } from "@filings/domain"
import { SummaryModel } from "@filings/feed-summarizer"
import { CursorStore, DocumentStore, EventStore, MemoryStorage } from "@filings/storage"
import { Effect, Layer, Option } from "effect"
import { submissionHeader } from "../../../test/support/sgmlHeader.js"
import * as Ingest from "../src/ingest/Ingest.js"
import type { Overrides } from "../src/ingest/Ingestion.js"
import * as PeriodCorrection from "../src/maintenance/PeriodCorrection.js"
import * as MarketData from "../src/market/MarketData.js"
import { paragraphBlock } from "./support/blocks.js"
import { ingest } from "./support/ingest.js"

const memory = Ingest.layer.pipe(
  Layer.provideMerge(MemoryStorage.layer),
  Layer.provideMerge(Layer.merge(SummaryModel.extractiveLayer, MarketData.none))
)

const encode = (text: string) => new TextEncoder().encode(text)

/** A call held in August 2024 about the second quarter of fiscal 2025, with the traps of a real one. */
const transcript = [
  "Operator: Good afternoon, and welcome to Acme Anvil's conference call for the second quarter of fiscal 2025.",
  "",
  "Wile E. Coyote, Chief Financial Officer: Thank you. Revenue was $48.2 million, up 22% compared with the " +
  "second quarter of fiscal 2024. Our outlook for the third quarter of fiscal 2025 calls for revenue of $52 million.",
  "",
  "Operator: We will now take questions.",
  "",
  "Road Runner, Analyst: How do you think about fiscal 2026 guidance?",
  "",
  "Wile E. Coyote, Chief Financial Officer: We will give it in February."
].join("\n")

/** What the operator gives with a transcript of Acme Anvil's call of 28 August 2024. */
const callOverrides: Overrides = {
  form: "EARNINGS_CALL",
  ticker: Ids.Ticker.make("ACMA"),
  cik: "999321",
  company_name: "Acme Anvil Corp",
  filing_date: Dates.IsoDate.make("2024-08-28")
}

const stored = (publicationId: string) =>
  Effect.flatMap(
    DocumentStore.DocumentStore,
    (store) => store.findByPublicationId(Ids.PublicationId.make(publicationId))
  )
    .pipe(Effect.map(Option.getOrThrow))

/** An 8-K under Item 2.02 whose release reports the second quarter of fiscal 2025, filed in August 2024. */
const resultsEightK = (accession: string) =>
  encode([
    ...submissionHeader({
      accession,
      form: "8-K",
      filedAsOf: "2024-08-28",
      periodOfReport: "2024-08-28",
      documentCount: 2,
      itemTitles: ["Results of Operations and Financial Condition", "Financial Statements and Exhibits"],
      companyName: "ACME ANVIL CORP",
      cik: "0000999321",
      fiscalYearEnd: "0131"
    }),
    "<DOCUMENT>",
    "<TYPE>8-K",
    "<SEQUENCE>1",
    "<FILENAME>acme-8k.htm",
    "<TEXT>",
    "<html><body><p>FORM 8-K</p><p>Trading symbol: ACMA</p>",
    "<p><b>Item 2.02 Results of Operations and Financial Condition.</b></p>",
    "<p>On August 28, 2024, Acme Anvil issued a press release announcing its financial results for the quarter " +
    "ended July 28, 2024. A copy is furnished as Exhibit 99.1.</p>",
    "<p><b>Item 9.01 Financial Statements and Exhibits.</b></p><p>99.1 Press release.</p>",
    "</body></html>",
    "</TEXT>",
    "</DOCUMENT>",
    "<DOCUMENT>",
    "<TYPE>EX-99.1",
    "<SEQUENCE>2",
    "<FILENAME>acme-ex991.htm",
    "<DESCRIPTION>PRESS RELEASE",
    "<TEXT>",
    "<html><body>",
    "<p><b>Acme Anvil Announces Financial Results for Second Quarter Fiscal 2025</b></p>",
    "<p>Acme Anvil today reported revenue for the second quarter ended July 28, 2024, of $48.2 million, up 22% " +
    "from the second quarter of fiscal 2024. Outlook for the third quarter of fiscal 2025: revenue of $52 million.</p>",
    "</body></html>",
    "</TEXT>",
    "</DOCUMENT>",
    "</SEC-DOCUMENT>",
    ""
  ].join("\n"))

describe("ingestion: the fiscal period a document discusses", () => {
  it.effect("a call stores the period it discusses, in its title and its event", () =>
    Effect.gen(function*() {
      const result = yield* ingest({
        fileName: "acme-call.txt",
        bytes: encode(transcript),
        overrides: callOverrides
      })
      // The calendar quarter of the date would be Q3 2024.
      assert.strictEqual(result.title, "Acme Anvil Corp Q2 2025 earnings call")
      const document = yield* stored("call-acma-2024-08-28")
      assert.strictEqual(document.period, "Q2 2025")
      const event = yield* (yield* EventStore.EventStore).findByKey("earnings_call.new:call-acma-2024-08-28")
      const data = (Option.getOrThrow(event).payload as { data: { period: string; title: string } }).data
      assert.deepStrictEqual([data.period, data.title], ["Q2 2025", "Acme Anvil Corp Q2 2025 earnings call"])
    }).pipe(Effect.provide(memory)))

  it.effect("an 8-K under Item 2.02 and its release store the period the release reports", () =>
    Effect.gen(function*() {
      const accession = "0000999321-24-000017"
      yield* ingest({
        fileName: "acme-8k.txt",
        bytes: resultsEightK(accession),
        overrides: { ticker: Ids.Ticker.make("ACMA") }
      })
      const filing = yield* stored(accession)
      assert.deepStrictEqual([filing.period, filing.title], ["Q2 2025", "ACME ANVIL CORP 8-K Q2 2025"])
      const release = yield* stored(`${accession}-ex99.1`)
      assert.deepStrictEqual(
        [release.period, release.title],
        ["Q2 2025", "Acme Anvil Announces Financial Results for Second Quarter Fiscal 2025"]
      )
    }).pipe(Effect.provide(memory)))

  it.effect("a transcript that states no period keeps the calendar quarter of its date", () =>
    Effect.gen(function*() {
      yield* ingest({
        fileName: "acme-call.txt",
        bytes: encode("Operator: Good afternoon, everyone.\n\nWile E. Coyote, CFO: Thank you for joining us today."),
        overrides: callOverrides
      })
      assert.strictEqual((yield* stored("call-acma-2024-08-28")).period, "Q3 2024")
    }).pipe(Effect.provide(memory)))
})

/** A document as the calendar rule stored it. */
const storedBefore = (
  fields: Pick<DocumentStore.StoredDocument, "publicationId" | "docType" | "title" | "period" | "body"> & {
    readonly items?: ReadonlyArray<string>
  }
): DocumentStore.StoredDocument => ({
  ticker: Ids.Ticker.make("ACMA"),
  companyName: "Acme Anvil Corp",
  cik: Ids.Cik.make("0000999321"),
  filingDate: Dates.IsoDate.make("2024-08-28"),
  secUrl: "",
  exhibits: [],
  wordCount: fields.body.split(/\s+/).length,
  sections: [],
  chunks: [],
  ...fields,
  items: fields.items ?? []
})

describe("the correction of periods stored before", () => {
  const call = storedBefore({
    publicationId: Ids.PublicationId.make("call-acma-2024-08-28"),
    docType: "EARNINGS_CALL",
    title: "Acme Anvil Corp Q3 2024 earnings call",
    period: "Q3 2024",
    body: transcript
  })
  const release = storedBefore({
    publicationId: Ids.PublicationId.make("0000999321-24-000017-ex99.1"),
    docType: "PRESS_RELEASE",
    title: "Acme Anvil Announces Financial Results for Second Quarter Fiscal 2025",
    period: "Q3 2024",
    body: "# Acme Anvil Announces Financial Results for Second Quarter Fiscal 2025\n\nRevenue was $48.2 million.\n"
  })
  const otherEightK = storedBefore({
    publicationId: Ids.PublicationId.make("0000999321-24-000018"),
    docType: "8-K",
    title: "Acme Anvil Corp 8-K Q3 2024",
    period: "Q3 2024",
    items: ["Item 8.01"],
    // Not a report of results: its period stays the calendar quarter whatever it says.
    body: "Item 8.01 Other Events. Our results for the second quarter of fiscal 2025 are unaudited.\n"
  })

  it.effect("reads the period again from the stored text, keeps a release's headline, once per database", () =>
    Effect.gen(function*() {
      const documents = yield* DocumentStore.DocumentStore
      for (const document of [call, release, otherEightK]) yield* documents.save(document)
      assert.strictEqual(yield* PeriodCorrection.correctOnce(), 2)
      const corrected = yield* stored(call.publicationId)
      assert.deepStrictEqual([corrected.period, corrected.title], ["Q2 2025", "Acme Anvil Corp Q2 2025 earnings call"])
      // Nothing but the period and the title changes.
      assert.deepStrictEqual({ ...corrected, period: call.period, title: call.title }, call)
      const correctedRelease = yield* stored(release.publicationId)
      assert.deepStrictEqual([correctedRelease.period, correctedRelease.title], ["Q2 2025", release.title])
      assert.deepStrictEqual(yield* stored(otherEightK.publicationId), otherEightK)
      assert.deepStrictEqual(
        yield* (yield* CursorStore.CursorStore).get(PeriodCorrection.CorrectionCursor),
        Option.some(PeriodCorrection.CorrectionVersion)
      )
      // Done once: a document stored the old way later is left alone (ingestion reads it now).
      yield* documents.save({ ...call, publicationId: Ids.PublicationId.make("call-acma-2024-08-29") })
      assert.strictEqual(yield* PeriodCorrection.correctOnce(), 0)
    }).pipe(Effect.provide(MemoryStorage.layer)))

  it("reads the period from the chunks' blocks where the store kept them, from the Markdown where not", () => {
    const text = "Welcome to Acme Anvil's third quarter fiscal 2025 earnings call."
    const paragraph = paragraphBlock(text)
    const chunk = { id: "c0001", text, pageStart: 1, pageEnd: 1 }
    // The body says nothing of a period; the blocks do.
    const kept = { ...call, body: "Operator: Good afternoon, everyone.", chunks: [{ ...chunk, blocks: [paragraph] }] }
    assert.strictEqual(PeriodCorrection.correctedPeriod(kept)?.period, "Q3 2025")
    // A chunk without blocks (stored before they were kept): the body's Markdown is read.
    assert.isUndefined(PeriodCorrection.correctedPeriod({ ...kept, chunks: [chunk] }))
  })

  it("leaves a period the text does not state, and a title that is not the one made from the period", () => {
    assert.isUndefined(
      PeriodCorrection.correctedPeriod({ ...call, body: "Operator: Good afternoon, everyone." })
    )
    assert.deepStrictEqual(
      PeriodCorrection.correctedPeriod({ ...call, title: "Acme Anvil: the second quarter call" }),
      { period: "Q2 2025", title: "Acme Anvil: the second quarter call" }
    )
  })
})
