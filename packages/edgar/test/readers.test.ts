/**
 * The readers of EDGAR's responses, on small synthetic documents written here (the latest-filings
 * feed, a filing's index.json, company_tickers.json, submissions) and on the real responses in
 * ../shared/corpus/feeds and ../shared/corpus/index.
 */
import { assert, describe, it } from "@effect/vitest"
import { Ids } from "@filings/domain"
import { Effect, Option } from "effect"
import { readFileSync } from "node:fs"
import { corpusMissing, corpusUrl } from "../../../test/support/corpus.js"
import {
  companyTickersExchangePath,
  companyTickersPath,
  readCompanyTickers,
  readCompanyTickersExchange
} from "../src/CompanyTickers.js"
import { UnreadableResponse } from "../src/EdgarResponseError.js"
import {
  type AccessionNumber,
  archiveFolderPath,
  indexJsonPath,
  parseAccessionNumber,
  readFilingIndex,
  submissionTextPath
} from "../src/FilingIndex.js"
import { type FeedEntry, filingsOf, latestFilingsPath, readLatestFilings } from "../src/LatestFilings.js"
import { readSubmissions, readSubmissionsPage, submissionsPagePath, submissionsPath } from "../src/Submissions.js"

const accession = (text: string): AccessionNumber => Option.getOrThrow(parseAccessionNumber(text))
const cik = (text: string): Ids.Cik => Ids.normalizeCik(text)!

/** The failure of a reader that must fail; a reader that succeeds instead fails the test. */
const failureOf = <A>(effect: Effect.Effect<A, UnreadableResponse>): Effect.Effect<UnreadableResponse, A> =>
  Effect.flip(effect)

interface SyntheticEntry {
  readonly title?: string
  readonly accession?: string
  readonly term?: string
  readonly filed?: string
  readonly items?: ReadonlyArray<string>
  readonly cikFolder?: string
}

/** An entry written the way EDGAR writes them: escaped HTML in the summary, accession in the id. */
const entryXml = (entry: SyntheticEntry): string => {
  const folder = entry.accession?.replaceAll("-", "") ?? "000000000000000000"
  const items = (entry.items ?? []).map((item) => `\n&lt;br&gt;Item ${item}: Something`).join("")
  return [
    "<entry>",
    entry.title === undefined ? "" : `<title>${entry.title}</title>`,
    `<link rel="alternate" type="text/html" href="https://www.sec.gov/Archives/edgar/data/${
      entry.cikFolder ?? "320193"
    }/${folder}/${entry.accession ?? "x"}-index.htm"/>`,
    `<summary type="html">\n &lt;b&gt;Filed:&lt;/b&gt; ${entry.filed ?? "2025-12-12"} ${
      entry.accession === undefined ? "" : `&lt;b&gt;AccNo:&lt;/b&gt; ${entry.accession} `
    }&lt;b&gt;Size:&lt;/b&gt; 10 KB${items}\n</summary>`,
    "<updated>2025-12-12T18:02:43-05:00</updated>",
    entry.term === undefined ? "" : `<category scheme="https://www.sec.gov/" label="form type" term="${entry.term}"/>`,
    entry.accession === undefined ? "" : `<id>urn:tag:sec.gov,2008:accession-number=${entry.accession}</id>`,
    "</entry>"
  ].join("\n")
}

const feedXml = (entries: ReadonlyArray<SyntheticEntry>): string =>
  [
    `<?xml version="1.0" encoding="ISO-8859-1" ?>`,
    `<feed xmlns="http://www.w3.org/2005/Atom">`,
    "<title>Latest Filings - Fri, 12 Dec 2025 18:03:31 EST</title>",
    "<updated>2025-12-12T18:03:31-05:00</updated>",
    ...entries.map(entryXml),
    "</feed>"
  ].join("\n")

const form4 = "0002063236-25-000004"
const schedule13d = "0001193125-25-317831"

describe("the latest-filings feed", () => {
  it.effect("reads every entry with its entity, role, dates, link and items, decoding entities", () =>
    Effect.gen(function*() {
      const feed = yield* readLatestFilings(feedXml([
        {
          title: "8-K - Bausch &amp; Lomb Corp (0001860742) (Filer)",
          accession: "0000950103-25-016088",
          term: "8-K",
          items: ["8.01", "9.01"],
          cikFolder: "1860742"
        },
        {
          title: "D - Fund LP - Series (S) II (1762381) (Filer)",
          accession: "0001762381-25-000001",
          term: "D",
          items: ["3C"]
        }
      ]))
      assert.strictEqual(feed.updated, "2025-12-12T18:03:31-05:00")
      assert.deepStrictEqual(feed.warnings, [])
      assert.deepStrictEqual(feed.entries[0], {
        accessionNumber: accession("0000950103-25-016088"),
        form: "8-K",
        companyName: "Bausch & Lomb Corp",
        cik: cik("0001860742"),
        role: "Filer",
        filedDate: "2025-12-12",
        updated: "2025-12-12T18:02:43-05:00",
        indexUrl: "https://www.sec.gov/Archives/edgar/data/1860742/000095010325016088/0000950103-25-016088-index.htm",
        items: ["8.01", "9.01"]
      })
      // Names keep their own dashes and parentheses; a short CIK is padded.
      assert.strictEqual(feed.entries[1]?.companyName, "Fund LP - Series (S) II")
      assert.strictEqual(feed.entries[1]?.cik, "0001762381")
      assert.deepStrictEqual(feed.entries[1]?.items, ["3C"])
    }))

  it.effect("takes the form from the title when the entry has no category, and keeps forms with spaces", () =>
    Effect.gen(function*() {
      const feed = yield* readLatestFilings(feedXml([
        { title: "SC 13G/A - Acme Corp (0000000042) (Subject)", accession: "0000000042-25-000001" }
      ]))
      assert.strictEqual(feed.entries[0]?.form, "SC 13G/A")
      assert.isUndefined(feed.entries[0]?.items)
    }))

  it.effect("skips an entry without accession number or form, with a warning naming it", () =>
    Effect.gen(function*() {
      const feed = yield* readLatestFilings(feedXml([
        { title: "4 - Someone (0000000001) (Reporting)", term: "4" },
        { title: "Acme Corp (0000000042) (Filer)", accession: "0000000042-25-000002" },
        { title: "8-K - Acme Corp (0000000042) (Filer)", accession: "0000000042-25-000003", term: "8-K" }
      ]))
      assert.deepStrictEqual(feed.entries.map((entry) => entry.accessionNumber), ["0000000042-25-000003"])
      assert.strictEqual(feed.warnings.length, 2)
      assert.match(
        feed.warnings[0]!,
        /^entry 1 \("4 - Someone \(0000000001\) \(Reporting\)"\) skipped: .*accession number/
      )
      assert.match(feed.warnings[1]!, /^entry 2 .* skipped: it has no form/)
    }))

  it.effect("reads a feed without entries, and warns of one cut short", () =>
    Effect.gen(function*() {
      const empty = yield* readLatestFilings(feedXml([]))
      assert.deepStrictEqual(empty.entries, [])
      const whole = feedXml([{ title: "8-K - Acme Corp (0000000042) (Filer)", accession: "0000000042-25-000003" }])
      const cut = yield* readLatestFilings(whole.slice(0, whole.indexOf("</feed>")))
      assert.strictEqual(cut.entries.length, 1)
      assert.match(cut.warnings[0]!, /cut short/)
    }))

  it.effect("fails on what is not an Atom feed: an HTML error page, other XML, nothing", () =>
    Effect.gen(function*() {
      const page = yield* failureOf(readLatestFilings(
        `<!DOCTYPE html><html><head><title>SEC.gov | Request Rate Threshold Exceeded</title></head><body/></html>`
      ))
      assert.instanceOf(page, UnreadableResponse)
      assert.strictEqual(
        page.message,
        `the latest-filings feed could not be read: the response is an HTML page ("SEC.gov | Request Rate Threshold Exceeded"), not an Atom feed`
      )
      const rss = yield* failureOf(readLatestFilings(`<rss version="2.0"><channel/></rss>`))
      assert.strictEqual(rss.reason, "its root element is <rss>, not an Atom <feed>")
      assert.strictEqual((yield* failureOf(readLatestFilings("  "))).reason, "the response is empty")
      assert.strictEqual(
        (yield* failureOf(readLatestFilings("plain text"))).reason,
        "the response holds no XML element"
      )
    }))

  it("keeps one entry per filing, preferring Filer, Issuer, Subject, Filed by, then Reporting", () => {
    const entry = (accessionNumber: string, role: string, companyName: string): FeedEntry => ({
      accessionNumber: accession(accessionNumber),
      form: "4",
      companyName,
      cik: cik("1"),
      role,
      filedDate: "2025-12-12",
      updated: "2025-12-12T18:02:43-05:00",
      indexUrl: "https://www.sec.gov/"
    })
    const filings = filingsOf([
      entry(form4, "Reporting", "Owner A"),
      entry(schedule13d, "Filed by", "Holder"),
      entry(form4, "Reporting", "Owner B"),
      entry(form4, "Issuer", "Issuer Inc"),
      entry(schedule13d, "Subject", "Target Inc"),
      entry("0000000042-25-000003", "Reporting", "Only Owner")
    ])
    assert.deepStrictEqual(filings.map((filing) => [filing.accessionNumber, filing.companyName]), [
      [form4, "Issuer Inc"],
      [schedule13d, "Target Inc"],
      ["0000000042-25-000003", "Only Owner"]
    ])
  })

  it("builds the feed's path", () => {
    assert.strictEqual(latestFilingsPath(), "/cgi-bin/browse-edgar?action=getcurrent&output=atom")
    assert.strictEqual(
      latestFilingsPath({ start: 40, count: 40, form: "10-K/A", owner: "exclude" }),
      "/cgi-bin/browse-edgar?action=getcurrent&type=10-K%2FA&owner=exclude&start=40&count=40&output=atom"
    )
    assert.strictEqual(
      latestFilingsPath({ form: "SC 13G", start: -3 }),
      "/cgi-bin/browse-edgar?action=getcurrent&type=SC+13G&start=0&output=atom"
    )
  })
})

describe("a filing's folder", () => {
  it("reads accession numbers with or without dashes, and nothing else", () => {
    assert.deepStrictEqual(parseAccessionNumber("000032019324000123"), Option.some(accession("0000320193-24-000123")))
    assert.isTrue(Option.isSome(parseAccessionNumber(" 0000320193-24-000123 ")))
    assert.isTrue(Option.isNone(parseAccessionNumber("0000320193-24-000123-ex99.1")))
    assert.isTrue(Option.isNone(parseAccessionNumber("320193-24-123")))
  })

  it("builds the folder, submission text and index paths from the CIK without zeros", () => {
    const apple = cik("320193")
    const annualReport = accession("0000320193-24-000123")
    assert.strictEqual(archiveFolderPath(apple, annualReport), "/Archives/edgar/data/320193/000032019324000123/")
    assert.strictEqual(
      submissionTextPath(apple, annualReport),
      "/Archives/edgar/data/320193/000032019324000123/0000320193-24-000123.txt"
    )
    assert.strictEqual(indexJsonPath(apple, annualReport), "/Archives/edgar/data/320193/000032019324000123/index.json")
  })

  it.effect("reads index.json: sizes as numbers when given, items without a name skipped with a warning", () =>
    Effect.gen(function*() {
      const { files, warnings } = yield* readFilingIndex(JSON.stringify({
        directory: {
          item: [
            { "last-modified": "2024-01-19 16:21:45", name: "0001213900-24-004875.txt", type: "text.gif", size: "" },
            { "last-modified": "2024-01-19 16:21:45", name: "R1.htm", type: "text.gif", size: "42096" },
            { type: "text.gif", size: "1" },
            { name: "report.css", size: 2767 }
          ],
          name: "/Archives/edgar/data/1648960/000121390024004875",
          "parent-dir": "/Archives/edgar/data/1648960"
        }
      }))
      assert.deepStrictEqual(files, [
        { name: "0001213900-24-004875.txt", lastModified: "2024-01-19 16:21:45" },
        { name: "R1.htm", size: 42096, lastModified: "2024-01-19 16:21:45" },
        { name: "report.css", size: 2767 }
      ])
      assert.deepStrictEqual(warnings, [`item 3 skipped: it has no name ({"type":"text.gif","size":"1"})`])
    }))

  it.effect("fails on bad JSON, another shape and an HTML page", () =>
    Effect.gen(function*() {
      const broken = yield* failureOf(readFilingIndex(`{"directory": {"item": [`))
      assert.strictEqual(broken.what, "the filing index")
      assert.match(broken.message, /^the filing index could not be read: /)
      const shape = yield* failureOf(readFilingIndex(`{"directory": {}}`))
      assert.match(shape.reason, /^at directory\.item: /)
      const page = yield* failureOf(readFilingIndex("<html><title>SEC.gov | File Unavailable</title></html>"))
      assert.strictEqual(page.reason, `the response is an HTML page ("SEC.gov | File Unavailable"), not JSON`)
    }))
})

describe("company tickers", () => {
  it.effect("reads rows in order, padding CIKs and upper-casing tickers, skipping malformed rows", () =>
    Effect.gen(function*() {
      const { companies, warnings } = yield* readCompanyTickers(JSON.stringify({
        "0": { cik_str: 789019, ticker: "MSFT", title: "MICROSOFT CORP" },
        "1": { cik_str: "1067983", ticker: "brk-b", title: "BERKSHIRE HATHAWAY INC" },
        "2": { cik_str: 1, title: "No Ticker" },
        "3": { cik_str: "12ab", ticker: "BAD", title: "Bad CIK" },
        "10": { cik_str: 320193, ticker: "AAPL", title: "Apple Inc." }
      }))
      assert.strictEqual(companyTickersPath, "/files/company_tickers.json")
      assert.deepStrictEqual(companies, [
        { cik: cik("0000789019"), ticker: "MSFT", name: "MICROSOFT CORP" },
        { cik: cik("0001067983"), ticker: "BRK-B", name: "BERKSHIRE HATHAWAY INC" },
        { cik: cik("0000320193"), ticker: "AAPL", name: "Apple Inc." }
      ])
      assert.deepStrictEqual(warnings, [
        `entry "2" has no usable CIK, ticker and name: skipped`,
        `entry "3" has no usable CIK, ticker and name: skipped`
      ])
    }))

  it.effect("fails on a wholly different shape and on bad JSON", () =>
    Effect.gen(function*() {
      const exchangeFile = yield* failureOf(readCompanyTickers(JSON.stringify({
        fields: ["cik", "name", "ticker", "exchange"],
        data: [[320193, "Apple Inc.", "AAPL", "Nasdaq"]]
      })))
      assert.strictEqual(exchangeFile.reason, "none of its 2 entries has a CIK, a ticker and a name")
      const list = yield* failureOf(readCompanyTickers("[]"))
      assert.strictEqual(list.what, "the company tickers list")
      const truncated = yield* failureOf(readCompanyTickers(`{"0": {"cik_str": 320193, "tic`))
      assert.notInclude(truncated.message, "    at ")
    }))
})

describe("company tickers with exchanges", () => {
  it.effect("reads the columns by their names, in order, skipping unusable rows and blank exchanges", () =>
    Effect.gen(function*() {
      assert.strictEqual(companyTickersExchangePath, "/files/company_tickers_exchange.json")
      const { companies, warnings } = yield* readCompanyTickersExchange(JSON.stringify({
        fields: ["ticker", "cik", "name", "exchange"],
        data: [
          ["GOOGL", 1652044, "Alphabet Inc.", "Nasdaq"],
          ["goog", "1652044", "Alphabet Inc.", "Nasdaq"],
          ["BRK-B", 1067983, "BERKSHIRE HATHAWAY INC", "NYSE"],
          ["XYZW", 1234, "Pink Sheet Co", null],
          ["", 5, "No Ticker", "OTC"],
          ["BAD", "12ab", "Bad CIK", "OTC"],
          ["SHORT"]
        ]
      }))
      assert.deepStrictEqual(companies, [
        { cik: cik("1652044"), ticker: "GOOGL", name: "Alphabet Inc.", exchange: "Nasdaq" },
        { cik: cik("1652044"), ticker: "GOOG", name: "Alphabet Inc.", exchange: "Nasdaq" },
        { cik: cik("1067983"), ticker: "BRK-B", name: "BERKSHIRE HATHAWAY INC", exchange: "NYSE" },
        { cik: cik("1234"), ticker: "XYZW", name: "Pink Sheet Co" }
      ])
      assert.deepStrictEqual(warnings, [
        "row 4 has no usable CIK, ticker and name: skipped",
        "row 5 has no usable CIK, ticker and name: skipped",
        "row 6 has no usable CIK, ticker and name: skipped"
      ])
    }))

  it.effect("fails on the other list's shape, on missing columns and on bad JSON", () =>
    Effect.gen(function*() {
      const other = yield* failureOf(readCompanyTickersExchange(JSON.stringify({
        "0": { cik_str: 320193, ticker: "AAPL", title: "Apple Inc." }
      })))
      assert.strictEqual(other.what, "the company tickers and exchanges list")
      const missing = yield* failureOf(readCompanyTickersExchange(JSON.stringify({
        fields: ["cik", "name"],
        data: []
      })))
      assert.strictEqual(missing.reason, `its fields ["cik","name"] lack one of cik, name and ticker`)
      const truncated = yield* failureOf(readCompanyTickersExchange(`{"fields": ["cik"`))
      assert.match(truncated.reason, /^the response is not valid JSON/)
    }))
})

const columns = (rows: number, overrides: Record<string, ReadonlyArray<unknown>> = {}) => ({
  accessionNumber: ["0000320193-26-000005", "0001059235-26-000004"].slice(0, rows),
  filingDate: ["2026-01-29", "2026-02-26"].slice(0, rows),
  reportDate: ["2026-01-29", ""].slice(0, rows),
  acceptanceDateTime: ["2026-01-29T16:30:33.000Z", "2026-02-26T18:34:19.000Z"].slice(0, rows),
  act: ["34", ""].slice(0, rows),
  form: ["8-K", "4"].slice(0, rows),
  items: ["2.02,9.01", ""].slice(0, rows),
  size: [384366, 5753].slice(0, rows),
  primaryDocument: ["aapl-20260129.htm", "xslF345X05/wk-form4.xml"].slice(0, rows),
  ...overrides
})

const company = (recent: unknown, files: unknown = []) =>
  JSON.stringify({
    cik: "0000320193",
    name: "Apple Inc.",
    tickers: ["AAPL"],
    exchanges: ["Nasdaq"],
    fiscalYearEnd: "0926",
    filings: { recent, files }
  })

/** The one older page of Apple's submissions: its filings up to March 2015. */
const appleOlderPage = {
  name: "CIK0000320193-submissions-001.json",
  filingCount: 1206,
  filingFrom: "1994-01-26",
  filingTo: "2015-03-11"
}

describe("submissions", () => {
  it("builds the paths of a company's submissions and of an older page", () => {
    assert.strictEqual(submissionsPath(cik("320193")), "/submissions/CIK0000320193.json")
    assert.strictEqual(
      submissionsPagePath({ name: "CIK0000320193-submissions-001.json" }),
      "/submissions/CIK0000320193-submissions-001.json"
    )
  })

  it.effect("turns the columns into filings, with items split and blank values left out", () =>
    Effect.gen(function*() {
      const submissions = yield* readSubmissions(company(columns(2), [appleOlderPage]))
      assert.strictEqual(submissions.cik, "0000320193")
      assert.strictEqual(submissions.name, "Apple Inc.")
      assert.deepStrictEqual(submissions.tickers, ["AAPL"])
      assert.deepStrictEqual(submissions.exchanges, ["Nasdaq"])
      assert.strictEqual(submissions.fiscalYearEnd, "0926")
      assert.deepStrictEqual(submissions.formerNames, [])
      assert.isFalse("sic" in submissions)
      assert.deepStrictEqual(submissions.filings, [
        {
          accessionNumber: accession("0000320193-26-000005"),
          form: "8-K",
          filingDate: "2026-01-29",
          reportDate: "2026-01-29",
          acceptanceDateTime: "2026-01-29T16:30:33.000Z",
          primaryDocument: "aapl-20260129.htm",
          items: ["2.02", "9.01"]
        },
        {
          accessionNumber: accession("0001059235-26-000004"),
          form: "4",
          filingDate: "2026-02-26",
          acceptanceDateTime: "2026-02-26T18:34:19.000Z",
          primaryDocument: "xslF345X05/wk-form4.xml",
          items: []
        }
      ])
      assert.deepStrictEqual(submissions.olderPages, [appleOlderPage])
    }))

  it.effect("reads a company without filings, and without a fiscal year end", () =>
    Effect.gen(function*() {
      const empty = JSON.parse(company(columns(0))) as Record<string, unknown>
      const submissions = yield* readSubmissions(JSON.stringify({ ...empty, fiscalYearEnd: null, tickers: [] }))
      assert.deepStrictEqual(submissions.filings, [])
      assert.deepStrictEqual(submissions.olderPages, [])
      assert.deepStrictEqual(submissions.tickers, [])
      assert.isFalse("fiscalYearEnd" in submissions)
    }))

  it.effect("fails on columns of unequal length rather than pairing rows wrongly", () =>
    Effect.gen(function*() {
      const ragged = yield* failureOf(readSubmissions(company(columns(2, { form: ["8-K"] }))))
      assert.strictEqual(
        ragged.reason,
        "the columns of filings.recent differ in length (accessionNumber 2, form 1)"
      )
      const page = yield* failureOf(readSubmissionsPage(JSON.stringify(columns(2, { items: [""] }))))
      assert.strictEqual(page.reason, "the columns of the page differ in length (accessionNumber 2, items 1)")
    }))

  it.effect("fails clearly on a malformed accession number, a missing column and bad JSON", () =>
    Effect.gen(function*() {
      const malformed = yield* failureOf(readSubmissions(company(columns(2, { accessionNumber: ["1", "2"] }))))
      assert.match(malformed.reason, /^at filings\.recent\.accessionNumber\[0\]: must be an accession number/)
      const missing = yield* failureOf(readSubmissionsPage(JSON.stringify({ accessionNumber: [] })))
      assert.match(missing.reason, /^at form: /)
      const notJson = yield* failureOf(readSubmissions("{"))
      assert.strictEqual(notJson.what, "the company's submissions")
      assert.match(notJson.reason, /^the response is not valid JSON \(/)
      assert.notInclude(notJson.message, "    at ")
    }))

  it.effect("reads an older page, whose columns sit at the top level", () =>
    Effect.gen(function*() {
      const filings = yield* readSubmissionsPage(JSON.stringify(columns(1)))
      assert.deepStrictEqual(filings.map((filing) => [filing.accessionNumber, filing.form, filing.items]), [
        ["0000320193-26-000005", "8-K", ["2.02", "9.01"]]
      ])
    }))
})

const corpus = corpusUrl
const read = (path: string) => readFileSync(new URL(path, corpus), "latin1")

describe.skipIf(corpusMissing)("real EDGAR responses in ../shared/corpus (feeds, index)", () => {
  it.effect("the latest-filings feed of 2025-12-12, page 1: 100 entries of 50 filings", () =>
    Effect.gen(function*() {
      const feed = yield* readLatestFilings(read("feeds/getcurrent-all-2025-12-12-p1.atom.xml"))
      assert.strictEqual(feed.updated, "2025-12-12T18:03:31-05:00")
      assert.deepStrictEqual(feed.warnings, [])
      assert.strictEqual(feed.entries.length, 100)
      assert.deepStrictEqual(feed.entries[0], {
        accessionNumber: accession(form4),
        form: "4",
        companyName: "Perez Daniel Antonio",
        cik: cik("0002063236"),
        role: "Reporting",
        filedDate: "2025-12-12",
        updated: "2025-12-12T18:02:43-05:00",
        indexUrl: "https://www.sec.gov/Archives/edgar/data/2063236/000206323625000004/0002063236-25-000004-index.htm"
      })
      const filings = filingsOf(feed.entries)
      assert.strictEqual(filings.length, 50)
      // The Form 4 stands as its Issuer; the Schedule 13D/A as its Subject company, not the holder.
      assert.strictEqual(filings[0]?.companyName, "Hinge Health, Inc.")
      const schedule = filings.find((filing) => filing.accessionNumber === schedule13d)
      assert.deepStrictEqual([schedule?.form, schedule?.companyName, schedule?.role], [
        "SCHEDULE 13D/A",
        "COHERENT CORP.",
        "Subject"
      ])
    }))

  it.effect("every sample page of the feed reads whole, with the 8-K items of page 2", () =>
    Effect.gen(function*() {
      for (
        const name of [
          "getcurrent-all-2025-12-12-p2.atom.xml",
          "getcurrent-all-2025-12-12-p36-8k-heavy.atom.xml",
          "getcurrent-type4-p1.atom.xml"
        ]
      ) {
        const feed = yield* readLatestFilings(read(`feeds/${name}`))
        assert.strictEqual(feed.entries.length, 100, name)
        assert.deepStrictEqual(feed.warnings, [], name)
      }
      const page2 = yield* readLatestFilings(read("feeds/getcurrent-all-2025-12-12-p2.atom.xml"))
      const bausch = page2.entries.find((entry) => entry.companyName === "Bausch & Lomb Corp")
      assert.strictEqual(bausch?.accessionNumber, "0000950103-25-016088")
      const health = page2.entries.find((entry) => entry.accessionNumber === "0000950103-25-016089")
      assert.deepStrictEqual(health?.items, ["8.01", "9.01"])
      assert.strictEqual(filingsOf(page2.entries).length, 63)
    }))

  it.effect("the SEC's error pages fail as UnreadableResponse naming the page", () =>
    Effect.gen(function*() {
      for (
        const [name, title] of [
          ["sec-error-getcurrent-503-past-end.html", "SEC.gov | File Unavailable"],
          ["sec-error-rate-exceeded.html", "SEC.gov | Request Rate Threshold Exceeded"],
          [
            "sec-error-undeclared-automated-tool.html",
            "SEC.gov | Your Request Originates from an Undeclared Automated Tool"
          ]
        ] as const
      ) {
        const error = yield* failureOf(readLatestFilings(read(`feeds/${name}`)))
        assert.strictEqual(error._tag, "UnreadableResponse")
        assert.strictEqual(error.reason, `the response is an HTML page ("${title}"), not an Atom feed`, name)
        const asJson = yield* failureOf(readSubmissions(read(`feeds/${name}`)))
        assert.strictEqual(asJson.reason, `the response is an HTML page ("${title}"), not JSON`, name)
      }
    }))

  it.effect("company_tickers.json: every row, Apple under AAPL", () =>
    Effect.gen(function*() {
      const { companies, warnings } = yield* readCompanyTickers(read("feeds/company_tickers.json"))
      assert.deepStrictEqual(warnings, [])
      assert.strictEqual(companies.length, 9610)
      assert.deepStrictEqual(companies[1], { cik: cik("0000320193"), ticker: "AAPL", name: "Apple Inc." })
      assert.deepStrictEqual(companies.find((company) => company.ticker === "NVDA")?.cik, cik("1045810"))
    }))

  it.effect("Apple's submissions: the company, 1005 recent filings and one older page", () =>
    Effect.gen(function*() {
      const apple = yield* readSubmissions(read("feeds/aapl-submissions-CIK0000320193.json"))
      assert.deepStrictEqual([apple.cik, apple.name, apple.tickers, apple.fiscalYearEnd], [
        cik("320193"),
        "Apple Inc.",
        ["AAPL"],
        "0926"
      ])
      assert.deepStrictEqual(
        [apple.sic, apple.sicDescription, apple.stateOfIncorporation, apple.exchanges],
        ["3571", "Electronic Computers", "CA", ["Nasdaq"]]
      )
      assert.deepStrictEqual(apple.formerNames, [
        { name: "APPLE INC", from: "2007-01-10", to: "2019-08-05" },
        { name: "APPLE COMPUTER INC", from: "1994-01-26", to: "2007-01-04" },
        { name: "APPLE COMPUTER INC/ FA", from: "1997-07-28", to: "1997-07-28" }
      ])
      assert.strictEqual(apple.filings.length, 1005)
      assert.deepStrictEqual(apple.filings[0], {
        accessionNumber: accession("0001059235-26-000004"),
        form: "4",
        filingDate: "2026-02-26",
        reportDate: "2026-02-24",
        acceptanceDateTime: "2026-02-26T18:34:19.000Z",
        primaryDocument: "xslF345X05/wk-form4_1772148856.xml",
        items: []
      })
      const annualReport = apple.filings.find((filing) => filing.form === "10-K")
      assert.deepStrictEqual([annualReport?.accessionNumber, annualReport?.reportDate, annualReport?.primaryDocument], [
        "0000320193-25-000079",
        "2025-09-27",
        "aapl-20250927.htm"
      ])
      const earnings = apple.filings.find((filing) => filing.accessionNumber === "0000320193-26-000005")
      assert.deepStrictEqual(earnings?.items, ["2.02", "9.01"])
      assert.deepStrictEqual(apple.olderPages, [appleOlderPage])
    }))

  it.effect("Apple's older page, and the other companies' submissions", () =>
    Effect.gen(function*() {
      const older = yield* readSubmissionsPage(read("feeds/aapl-submissions-CIK0000320193-submissions-001.json"))
      assert.strictEqual(older.length, 988)
      assert.deepStrictEqual(older[0], {
        accessionNumber: accession("0001193125-13-043745"),
        form: "DEFA14A",
        filingDate: "2013-02-07",
        acceptanceDateTime: "2013-02-07T17:03:29.000Z",
        primaryDocument: "d484476ddefa14a.htm",
        items: []
      })
      assert.strictEqual(older.at(-1)?.accessionNumber, "0000320193-94-000002")
      assert.isUndefined(older.at(-1)?.primaryDocument)

      const none = yield* readSubmissions(read("feeds/nofilings-submissions-CIK0000350001.json"))
      assert.deepStrictEqual([none.cik, none.filings.length, none.olderPages.length, none.tickers.length], [
        "0000350001",
        0,
        0,
        0
      ])
      // A test filer of the regulator's: an odd name, and nineteen former ones, newest first.
      assert.deepStrictEqual([none.sic, none.sicDescription, none.stateOfIncorporation, none.fiscalYearEnd], [
        "6189",
        "Asset-Backed Securities",
        "VA",
        "1231"
      ])
      assert.strictEqual(none.formerNames.length, 19)
      assert.deepStrictEqual(none.formerNames[0], {
        name: "ALLEN TEST CO & REL 8-6 DR INC",
        from: "2003-10-15",
        to: "2003-10-15"
      })
      const buffett = yield* readSubmissions(read("feeds/buffett-submissions-CIK0000315090.json"))
      assert.strictEqual(buffett.filings.length, 523)
      assert.isUndefined(buffett.fiscalYearEnd)
      // A person: no industry, no state, no ticker; blanks are left out, not kept as "".
      assert.deepStrictEqual(
        [buffett.sic, buffett.sicDescription, buffett.stateOfIncorporation, buffett.exchanges, buffett.formerNames],
        [undefined, undefined, undefined, [], []]
      )
      const nvidia = yield* readSubmissions(read("feeds/nvda-submissions-CIK0001045810.json"))
      assert.deepStrictEqual([nvidia.name, nvidia.fiscalYearEnd, nvidia.filings.length], ["NVIDIA CORP", "0131", 1007])
      const tesla = yield* readSubmissions(read("feeds/tsla-submissions-CIK0001318605.json"))
      assert.deepStrictEqual([tesla.tickers, tesla.filings.length], [["TSLA"], 1000])
    }))

  it.effect("a filing's index.json: 25 files, the submission text file without a size", () =>
    Effect.gen(function*() {
      const { files, warnings } = yield* readFilingIndex(read("index/dats-2024-01-19-index.json"))
      assert.strictEqual(files.length, 25)
      assert.deepStrictEqual(warnings, [])
      assert.deepStrictEqual(files[2], { name: "0001213900-24-004875.txt", lastModified: "2024-01-19 16:21:45" })
      assert.deepStrictEqual(files.find((file) => file.name === "ea191807-8k_datchat.htm"), {
        name: "ea191807-8k_datchat.htm",
        size: 47202,
        lastModified: "2024-01-19 16:21:45"
      })
    }))
})
