/**
 * Which company a file is stored under: the file's own ticker and central index key win over the
 * caller's, a caller's value that contradicts the file is refused with nothing written, and a
 * transcript or a press release of a company the service does not know yet is stored when the
 * caller names it.
 */
import { assert, describe, it } from "@effect/vitest"
import { Admin } from "@filings/domain"
import { SummaryModel } from "@filings/feed-summarizer"
import { CompanyStore, DocumentStore, MemoryStorage } from "@filings/storage"
import { Effect, Either, Layer, Option, Schema } from "effect"
import * as Ingest from "../src/ingest/Ingest.js"
import { Ingestion } from "../src/ingest/Ingestion.js"
import * as MarketData from "../src/market/MarketData.js"

const layer = Ingest.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(MemoryStorage.layer, SummaryModel.extractiveLayer, MarketData.none))
)

/** A small EDGAR submission of one company, without a ticker (as old filings and many others are). */
const submission = (filing: { accession: string; cik: string; name: string; filed: string }) =>
  [
    `<SEC-DOCUMENT>${filing.accession}.txt : ${filing.filed.replace(/-/g, "")}`,
    `<SEC-HEADER>${filing.accession}.hdr.sgml : ${filing.filed.replace(/-/g, "")}`,
    `ACCESSION NUMBER:\t\t${filing.accession}`,
    "CONFORMED SUBMISSION TYPE:\t8-K",
    "PUBLIC DOCUMENT COUNT:\t\t1",
    `CONFORMED PERIOD OF REPORT:\t${filing.filed.replace(/-/g, "")}`,
    `FILED AS OF DATE:\t\t${filing.filed.replace(/-/g, "")}`,
    "",
    "FILER:",
    "",
    "\tCOMPANY DATA:\t",
    `\t\tCOMPANY CONFORMED NAME:\t\t\t${filing.name}`,
    `\t\tCENTRAL INDEX KEY:\t\t\t${filing.cik}`,
    "</SEC-HEADER>",
    "<DOCUMENT>",
    "<TYPE>8-K",
    "<SEQUENCE>1",
    "<FILENAME>report.htm",
    "<TEXT>",
    "<html><body><p style=\"font-weight:bold\">Item 8.01 Other Events.</p>",
    `<p>${filing.name} announces that it has moved its headquarters to a new building downtown.</p>`,
    "</body></html>",
    "</TEXT>",
    "</DOCUMENT>",
    "</SEC-DOCUMENT>"
  ].join("\n")

/** A bare inline XBRL 8-K whose cover names its ticker and key. */
const inlineEightK = (ticker: string, cik: string) =>
  [
    "<html xmlns:ix=\"http://www.xbrl.org/2013/inlineXBRL\"><body>",
    "<div style=\"display:none\"><ix:header><ix:hidden>",
    "<ix:nonNumeric name=\"dei:DocumentType\" contextRef=\"c\">8-K</ix:nonNumeric>",
    `<ix:nonNumeric name="dei:TradingSymbol" contextRef="c">${ticker}</ix:nonNumeric>`,
    `<ix:nonNumeric name="dei:EntityCentralIndexKey" contextRef="c">${cik}</ix:nonNumeric>`,
    "<ix:nonNumeric name=\"dei:EntityRegistrantName\" contextRef=\"c\">Zed Widgets Inc.</ix:nonNumeric>",
    "</ix:hidden></ix:header></div>",
    "<p style=\"font-weight:bold\">Item 8.01 Other Events.</p>",
    "<p>Zed Widgets announces that it has opened a second factory to make more widgets for customers.</p>",
    "</body></html>"
  ].join("")

const release = [
  "<html><body>",
  "<p>FOR IMMEDIATE RELEASE</p>",
  "<h1>Northwind Traders Reports Record Third Quarter Revenue</h1>",
  "<p>SEATTLE, Nov. 5, 2026 -- Northwind Traders today reported revenue of $12.5 million for the quarter, ",
  "up 20% from a year ago, and raised its outlook for the full year.</p>",
  "</body></html>"
].join("")

const transcript = [
  "Operator: Good afternoon and welcome to the Northwind Traders third quarter earnings call.",
  "Jane Doe, Chief Executive Officer: Thank you. Revenue grew twenty percent this quarter and we raised our outlook."
].join("\n")

/** Ingests `text` with options as a caller gives them (checked as the CLI and the server check them). */
const ingest = (fileName: string, text: string, options: typeof Admin.IngestMetadata.Encoded) =>
  Effect.flatMap(Ingestion, (ingestion) =>
    Effect.either(ingestion.ingest({
      fileName,
      bytes: new TextEncoder().encode(text),
      overrides: Schema.decodeUnknownSync(Admin.IngestMetadata)(options)
    })))

/** What an outcome says, as plain values: the result's fields asked for, or the failure's message. */
const said = (
  outcome: Either.Either<Admin.IngestResult, { readonly message: string }>,
  ...fields: ReadonlyArray<keyof Admin.IngestResult>
): ReadonlyArray<unknown> | string =>
  Either.match(outcome, {
    onLeft: (error) => `error: ${error.message}`,
    onRight: (result) => fields.map((field) => result[field])
  })

const tickerOf = (publicationId: string) =>
  Effect.flatMap(DocumentStore.DocumentStore, (documents) =>
    Effect.map(
      documents.findMetadata(publicationId as DocumentStore.DocumentMetadata["publicationId"]),
      Option.map((document) => document.ticker)
    ))

describe("a caller's ticker or key against the file's", () => {
  it.effect("--ticker over files of two companies stores the first and refuses the other, writing nothing", () =>
    Effect.gen(function*() {
      const first = submission({
        accession: "0000888801-26-000001",
        cik: "0000888801",
        name: "ALPHA CORP",
        filed: "2026-01-05"
      })
      assert.isTrue(Either.isRight(yield* ingest("alpha-1.txt", first, { ticker: "ALPH" })))
      // A batch given another ticker: a new company takes it, a known one refuses it.
      const beta = submission({
        accession: "0000888802-26-000001",
        cik: "0000888802",
        name: "BETA CORP",
        filed: "2026-01-06"
      })
      const alphaAgain = submission({
        accession: "0000888801-26-000002",
        cik: "0000888801",
        name: "ALPHA CORP",
        filed: "2026-01-07"
      })
      const storedBeta = yield* ingest("beta.txt", beta, { ticker: "BETA" })
      const refused = yield* ingest("alpha-2.txt", alphaAgain, { ticker: "BETA" })
      assert.deepStrictEqual(said(storedBeta, "ticker"), ["BETA"])
      assert.isTrue(Either.isLeft(refused))
      assert.match(Either.isLeft(refused) ? refused.left.message : "", /--ticker BETA contradicts the file.*ALPH/)
      assert.deepStrictEqual(yield* tickerOf("0000888801-26-000002"), Option.none())
      assert.deepStrictEqual(yield* tickerOf("0000888801-26-000001"), Option.some("ALPH"))
      const alpha = yield* (yield* CompanyStore.CompanyStore).findByCik("0000888801" as CompanyStore.Company["cik"])
      assert.deepStrictEqual(Option.map(alpha, (company) => company.ticker), Option.some("ALPH"))

      // Storing the stored filing again with another ticker does not relabel it either.
      const relabel = yield* ingest("alpha-1.txt", first, { ticker: "BETA" })
      assert.isTrue(Either.isLeft(relabel))
      assert.deepStrictEqual(yield* tickerOf("0000888801-26-000001"), Option.some("ALPH"))
    }).pipe(Effect.provide(layer)))

  it.effect("a file's own ticker and key win; a flag that says otherwise is refused", () =>
    Effect.gen(function*() {
      const file = inlineEightK("ZEDW", "0000888803")
      const overrides = { accession: "0000888803-26-000001", filing_date: "2026-02-02" }
      const wrongTicker = yield* ingest("zed.htm", file, { ...overrides, ticker: "AAPL" })
      const wrongCik = yield* ingest("zed.htm", file, { ...overrides, cik: "320193" })
      assert.match(Either.isLeft(wrongTicker) ? wrongTicker.left.message : "", /gives ZEDW as its ticker.*--ticker/)
      assert.match(Either.isLeft(wrongCik) ? wrongCik.left.message : "", /gives 0000888803 as its central index key/)
      assert.deepStrictEqual(yield* tickerOf("0000888803-26-000001"), Option.none())
      // The same values as the file's are no contradiction.
      const agreeing = yield* ingest("zed.htm", file, { ...overrides, ticker: "zedw", cik: "888803" })
      assert.deepStrictEqual(said(agreeing, "ticker"), ["ZEDW"])
    }).pipe(Effect.provide(layer)))
})

/** A bare inline XBRL 10-Q whose cover lists two classes of shares, `first` then `second`. */
const twoClassTenQ = (first: string, second: string, cik: string) =>
  [
    "<html xmlns:ix=\"http://www.xbrl.org/2013/inlineXBRL\"><body>",
    "<div style=\"display:none\"><ix:header><ix:hidden>",
    "<ix:nonNumeric name=\"dei:DocumentType\" contextRef=\"c\">10-Q</ix:nonNumeric>",
    `<ix:nonNumeric name="dei:EntityCentralIndexKey" contextRef="c">${cik}</ix:nonNumeric>`,
    "<ix:nonNumeric name=\"dei:EntityRegistrantName\" contextRef=\"c\">Two Class Holdings Inc.</ix:nonNumeric>",
    "</ix:hidden></ix:header></div>",
    `<table><tr><td>Class A</td><td><ix:nonNumeric name="dei:TradingSymbol" contextRef="a">${first}</ix:nonNumeric></td></tr>`,
    `<tr><td>Class C</td><td><ix:nonNumeric name="dei:TradingSymbol" contextRef="b">${second}</ix:nonNumeric></td></tr></table>`,
    "<p style=\"font-weight:bold\">Item 2. Management's Discussion and Analysis</p>",
    "<p>Revenue grew in the quarter as customers bought more of both products the company makes and sells.</p>",
    "</body></html>"
  ].join("")

describe("a company with several listed classes", () => {
  it.effect("--ticker of any class on the cover is accepted; the document takes the primary (first) ticker", () =>
    Effect.gen(function*() {
      const file = twoClassTenQ("TWOA", "TWOC", "0000888804")
      const overrides = { accession: "0000888804-26-000001", filing_date: "2026-07-28" }
      const second = yield* ingest("two.htm", file, { ...overrides, ticker: "TWOC" })
      assert.deepStrictEqual(said(second, "ticker", "company_name"), ["TWOA", "Two Class Holdings Inc."])
      const company = yield* (yield* CompanyStore.CompanyStore).findByTicker("TWOC" as CompanyStore.Company["ticker"])
      assert.deepStrictEqual(
        Option.map(company, (found): ReadonlyArray<unknown> => [found.ticker, found.tickers]),
        Option.some(["TWOA", ["TWOA", "TWOC"]])
      )
      // A ticker the cover does not list contradicts it, and the message names both of the file's.
      const other = yield* ingest("two.htm", file, { ...overrides, ticker: "ZZZZ" })
      assert.match(
        Either.isLeft(other) ? other.left.message : "",
        /gives TWOA and TWOC as its tickers.*--ticker says ZZZZ/
      )
      // A transcript named by the second class belongs to the company, under its primary ticker.
      const call = yield* ingest("call.txt", transcript, {
        form: "EARNINGS_CALL",
        ticker: "TWOC",
        filing_date: "2026-07-29"
      })
      assert.deepStrictEqual(said(call, "publication_id", "ticker", "company_name"), [
        "call-twoa-2026-07-29",
        "TWOA",
        "Two Class Holdings Inc."
      ])
    }).pipe(Effect.provide(layer)))
})

describe("a release or transcript of a company not known yet", () => {
  it.effect("--type PRESS_RELEASE stores a release on its own, with its headline, under a stable id", () =>
    Effect.gen(function*() {
      const overrides = {
        form: "PRESS_RELEASE" as const,
        ticker: "NWTR",
        company_name: "Northwind Traders",
        filing_date: "2026-11-05"
      }
      const stored = yield* ingest("release.htm", release, overrides)
      assert.isTrue(Either.isRight(stored), Either.isLeft(stored) ? stored.left.message : "")
      if (Either.isLeft(stored)) return
      assert.match(stored.right.publication_id, /^release-[0-9a-f]{16}$/)
      assert.deepStrictEqual(
        [
          stored.right.doc_type,
          stored.right.ticker,
          stored.right.company_name,
          stored.right.title,
          stored.right.status
        ],
        [
          "PRESS_RELEASE",
          "NWTR",
          "Northwind Traders",
          "Northwind Traders Reports Record Third Quarter Revenue",
          "created"
        ]
      )
      const again = yield* ingest("release.htm", release, overrides)
      assert.deepStrictEqual(said(again, "publication_id", "status"), [stored.right.publication_id, "updated"])
    }).pipe(Effect.provide(layer)))

  it.effect("a transcript given --ticker and --cik, or --ticker and --company-name, is stored", () =>
    Effect.gen(function*() {
      const byKey = yield* ingest("call.txt", transcript, {
        form: "EARNINGS_CALL",
        ticker: "NWTR",
        cik: "777001",
        filing_date: "2026-11-05"
      })
      assert.deepStrictEqual(said(byKey, "publication_id", "ticker", "company_name"), [
        "call-nwtr-2026-11-05",
        "NWTR",
        "NWTR"
      ])
      const byName = yield* ingest("call.txt", transcript, {
        form: "EARNINGS_CALL",
        ticker: "SWTR",
        company_name: "Southwind Traders",
        filing_date: "2026-11-06"
      })
      assert.deepStrictEqual(said(byName, "publication_id", "ticker", "company_name"), [
        "call-swtr-2026-11-06",
        "SWTR",
        "Southwind Traders"
      ])
      // Without either, the caller is told what to give.
      const neither = yield* ingest("call.txt", transcript, {
        form: "EARNINGS_CALL",
        ticker: "EWTR",
        filing_date: "2026-11-06"
      })
      assert.match(Either.isLeft(neither) ? neither.left.message : "", /--cik/)
    }).pipe(Effect.provide(layer)))
})
