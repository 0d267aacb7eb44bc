/**
 * The EDGAR replay server that end-to-end tests and benchmarks run the EDGAR client against: it must
 * answer like EDGAR (paths, shapes, statuses, the SEC's error pages) and misbehave exactly as asked,
 * or the tests built on it prove nothing about the real thing.
 */
import { afterAll, afterEach, assert, beforeAll, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { corpusDir, corpusMissing } from "./support/corpus.js"
import { corpusFiling, type EdgarReplay, startEdgarReplay, syntheticFilings } from "./support/edgarReplay.js"

const hasCorpus = !corpusMissing
if (!hasCorpus) {
  console.warn(`Skipping the EDGAR replay tests: the shared corpus is not at ${corpusDir}`)
}

const userAgent = "Filings tests tests@example.com"
const headers = { "User-Agent": userAgent }

const feedPath = (query: { type?: string; start?: number; count?: number } = {}) =>
  `/cgi-bin/browse-edgar?action=getcurrent&type=${query.type ?? ""}&company=&dateb=&owner=include&start=${
    query.start ?? 0
  }&count=${query.count ?? 40}&output=atom`

const accessionsOf = (feed: string) =>
  [...feed.matchAll(/<id>urn:tag:sec\.gov,2008:accession-number=([\d-]+)<\/id>/g)].map((match) => match[1]!)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.skipIf(!hasCorpus)("EDGAR replay", () => {
  let replay: EdgarReplay
  const get = (path: string, init: RequestInit = {}) => fetch(`${replay.url}${path}`, { headers, ...init })

  describe("serving published filings", () => {
    // Lazily, so that a missing corpus skips the suite instead of failing at collection.
    let adbe: ReturnType<typeof corpusFiling>
    let meta: ReturnType<typeof corpusFiling>
    let turn: ReturnType<typeof corpusFiling>

    beforeAll(async () => {
      adbe = corpusFiling("8-K/adbe-8k-2023-03-15-full-submission.txt")
      meta = corpusFiling("8-K/meta-8k-2025-12-19-full-submission.txt")
      turn = corpusFiling("DEF14A/turn-def14a-2020-03-25-full-submission.txt")
      replay = await startEdgarReplay({
        companyTickers: [{ cik: "0000320193", ticker: "AAPL", name: "Apple Inc." }]
      })
    })
    afterAll(() => replay.close())

    it("reads a corpus filing from its SGML header", () => {
      assert.deepStrictEqual(
        { ...adbe, submission: adbe.submission.byteLength },
        {
          accessionNumber: "0000796343-23-000044",
          cik: "0000796343",
          form: "8-K",
          companyName: "ADOBE INC.",
          filedDate: "2023-03-15",
          submission: 482_164
        }
      )
    })

    it("serves nothing of a filing before it is published", async () => {
      const text = await get("/Archives/edgar/data/796343/000079634323000044/0000796343-23-000044.txt")
      assert.strictEqual(text.status, 404)
      assert.match(await text.text(), /Not Found/)
      const index = await get("/Archives/edgar/data/796343/000079634323000044/index.json")
      assert.strictEqual(index.status, 404)
      const feed = await (await get(feedPath())).text()
      assert.deepStrictEqual(accessionsOf(feed), [])
    })

    it("lists published filings newest first in EDGAR's Atom shape", async () => {
      replay.publish(adbe)
      await sleep(5)
      replay.publish(turn)
      await sleep(5)
      replay.publish(meta)
      assert.ok(replay.publishedAt.get(adbe.accessionNumber)! < replay.publishedAt.get(meta.accessionNumber)!)

      const response = await get(feedPath())
      assert.strictEqual(response.status, 200)
      assert.strictEqual(response.headers.get("content-type"), "application/atom+xml; charset=ISO-8859-1")
      const feed = await response.text()
      assert.deepStrictEqual(accessionsOf(feed), [meta.accessionNumber, turn.accessionNumber, adbe.accessionNumber])
      assert.match(
        feed,
        /^<\?xml version="1.0" encoding="ISO-8859-1" \?>\n<feed xmlns="http:\/\/www.w3.org\/2005\/Atom">/
      )
      assert.match(feed, /<title>Latest Filings - \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d E[SD]T<\/title>/)
      assert.include(feed, "<title>8-K - ADOBE INC. (0000796343) (Filer)</title>")
      assert.include(
        feed,
        `<link rel="alternate" type="text/html" href="${replay.url}/Archives/edgar/data/796343/000079634323000044/0000796343-23-000044-index.htm"/>`
      )
      assert.include(
        feed,
        " &lt;b&gt;Filed:&lt;/b&gt; 2023-03-15 &lt;b&gt;AccNo:&lt;/b&gt; 0000796343-23-000044 &lt;b&gt;Size:&lt;/b&gt; 471 KB\n" +
          "&lt;br&gt;Item 2.02: Results of Operations and Financial Condition\n" +
          "&lt;br&gt;Item 9.01: Financial Statements and Exhibits\n</summary>"
      )
      assert.match(feed, /<updated>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-0[45]:00<\/updated>\n<category/)
      assert.include(feed, "<category scheme=\"https://www.sec.gov/\" label=\"form type\" term=\"DEF 14A\"/>")
    })

    it("filters by form as a prefix and pages with start and count", async () => {
      const eightKs = accessionsOf(await (await get(feedPath({ type: "8-K" }))).text())
      assert.deepStrictEqual(eightKs, [meta.accessionNumber, adbe.accessionNumber])
      const proxies = accessionsOf(await (await get(feedPath({ type: "DEF" }))).text())
      assert.deepStrictEqual(proxies, [turn.accessionNumber])

      const second = accessionsOf(await (await get(feedPath({ start: 1, count: 10 }))).text())
      assert.deepStrictEqual(second, [turn.accessionNumber, adbe.accessionNumber])
      const lastPage = accessionsOf(await (await get(feedPath({ start: 2, count: 10 }))).text())
      assert.deepStrictEqual(lastPage, [adbe.accessionNumber])
    })

    it("answers a page past the end with EDGAR's 503 page, but an empty first page with a feed", async () => {
      const past = await get(feedPath({ start: 3 }))
      assert.strictEqual(past.status, 503)
      assert.match(await past.text(), /<title>SEC.gov \| File Unavailable<\/title>/)
      const empty = await get(feedPath({ type: "10-K" }))
      assert.strictEqual(empty.status, 200)
      assert.deepStrictEqual(accessionsOf(await empty.text()), [])
    })

    it("serves the complete submission byte for byte", async () => {
      const response = await get("/Archives/edgar/data/796343/000079634323000044/0000796343-23-000044.txt")
      assert.strictEqual(response.status, 200)
      const bytes = new Uint8Array(await response.arrayBuffer())
      const original = readFileSync(join(corpusDir, "8-K/adbe-8k-2023-03-15-full-submission.txt"))
      assert.ok(Buffer.from(bytes).equals(original))
      // Only under the filer's own CIK folder.
      assert.strictEqual((await get("/Archives/edgar/data/1/000079634323000044/0000796343-23-000044.txt")).status, 404)
    })

    it("lists the folder's files in EDGAR's index.json shape", async () => {
      const response = await get("/Archives/edgar/data/796343/000079634323000044/index.json")
      assert.strictEqual(response.status, 200)
      const index = await response.json() as {
        directory: {
          item: Array<{ "last-modified": string; name: string; type: string; size: string }>
          name: string
          "parent-dir": string
        }
      }
      assert.strictEqual(index.directory.name, "/Archives/edgar/data/796343/000079634323000044")
      assert.strictEqual(index.directory["parent-dir"], "/Archives/edgar/data/796343")
      const names = index.directory.item.map((item) => item.name)
      assert.strictEqual(names[0], "0000796343-23-000044.txt")
      assert.strictEqual(index.directory.item[0]!.size, "")
      for (const name of ["adbe-20230315.htm", "adbeex991q123.htm", "R1.htm", "FilingSummary.xml", "image.jpg"]) {
        assert.include(names, name)
      }
      assert.strictEqual(names.length, 1 + 15)
      for (const item of index.directory.item) {
        assert.match(item["last-modified"], /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
        if (item.name !== names[0]) assert.match(item.size, /^\d+$/)
      }
    })

    it("serves company_tickers.json from the options and the tickers published filings declare", async () => {
      const response = await get("/files/company_tickers.json")
      assert.strictEqual(response.status, 200)
      assert.deepStrictEqual(await response.json(), {
        "0": { cik_str: 320193, ticker: "AAPL", title: "Apple Inc." },
        "1": { cik_str: 796343, ticker: "ADBE", title: "ADOBE INC." },
        "2": { cik_str: 1326801, ticker: "META", title: "Meta Platforms, Inc." }
      })
    })

    it("serves a company's published filings as columnar submissions JSON", async () => {
      const response = await get("/submissions/CIK0000796343.json")
      assert.strictEqual(response.status, 200)
      const body = await response.json() as {
        cik: string
        name: string
        tickers: Array<string>
        filings: { recent: Record<string, Array<unknown>>; files: Array<unknown> }
      }
      assert.strictEqual(body.cik, "0000796343")
      assert.strictEqual(body.name, "ADOBE INC.")
      assert.deepStrictEqual(body.tickers, ["ADBE"])
      assert.deepStrictEqual(body.filings.files, [])
      const recent = body.filings.recent
      assert.deepStrictEqual(recent.accessionNumber, ["0000796343-23-000044"])
      assert.deepStrictEqual(recent.filingDate, ["2023-03-15"])
      assert.deepStrictEqual(recent.form, ["8-K"])
      assert.deepStrictEqual(recent.primaryDocument, ["adbe-20230315.htm"])
      assert.deepStrictEqual(recent.items, ["2.02,9.01"])
      assert.deepStrictEqual(recent.reportDate, ["2023-03-15"])
      assert.match(String(recent.acceptanceDateTime![0]), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)

      const known = await (await get("/submissions/CIK0000320193.json")).json() as typeof body
      assert.deepStrictEqual(known.filings.recent.accessionNumber, [])
      assert.strictEqual((await get("/submissions/CIK0000000001.json")).status, 404)
    })

    it("answers unknown paths with a 404 page", async () => {
      const response = await get("/cgi-bin/browse-edgar?action=getcompany&CIK=320193")
      assert.strictEqual(response.status, 404)
      assert.strictEqual(response.headers.get("content-type"), "text/html")
    })

    it("turns away a User-Agent without an e-mail address with the undeclared-tool page", async () => {
      const before = replay.requests.length
      const response = await fetch(`${replay.url}${feedPath()}`, { headers: { "User-Agent": "node" } })
      assert.strictEqual(response.status, 403)
      assert.match(await response.text(), /Undeclared Automated Tool/)
      const logged = replay.requests[before]!
      assert.deepStrictEqual({ ...logged, at: 0 }, {
        at: 0,
        method: "GET",
        path: feedPath(),
        userAgent: "node",
        status: 403
      })
    })
  })

  describe("faults", () => {
    let adbe: ReturnType<typeof corpusFiling>
    const textPath = "/Archives/edgar/data/796343/000079634323000044/0000796343-23-000044.txt"

    beforeAll(() => {
      adbe = corpusFiling("8-K/adbe-8k-2023-03-15-full-submission.txt")
    })
    afterEach(() => replay.close())

    it("answers the next matching requests with a status and the SEC's page, then recovers", async () => {
      replay = await startEdgarReplay()
      replay.publish(adbe)
      replay.injectFault(/\.txt$/, { kind: "status", status: 403, body: "rate-threshold" }, 2)
      replay.injectFault(/browse-edgar/, { kind: "status", status: 500, body: "boom" })

      for (let attempt = 0; attempt < 2; attempt++) {
        const refused = await get(textPath)
        assert.strictEqual(refused.status, 403)
        assert.match(await refused.text(), /<title>SEC.gov \| Request Rate Threshold Exceeded<\/title>/)
      }
      // Another path is untouched by the first fault and takes the second.
      const broken = await get(feedPath())
      assert.strictEqual(broken.status, 500)
      assert.strictEqual(await broken.text(), "boom")
      assert.strictEqual((await get(textPath)).status, 200)
      assert.strictEqual((await get(feedPath())).status, 200)
      assert.deepStrictEqual(replay.requests.map((request) => request.status), [403, 403, 500, 200, 200])
    })

    it("cuts a truncated body off after half of it", async () => {
      replay = await startEdgarReplay()
      replay.publish(adbe)
      replay.injectFault(/\.txt$/, { kind: "truncated" })
      const response = await get(textPath)
      assert.strictEqual(response.status, 200)
      assert.strictEqual(response.headers.get("content-length"), String(adbe.submission.byteLength))
      let failure: unknown = undefined
      try {
        await response.arrayBuffer()
      } catch (error) {
        failure = error
      }
      assert.instanceOf(failure, Error)
      // Normal service resumes.
      assert.strictEqual((await (await get(textPath)).arrayBuffer()).byteLength, adbe.submission.byteLength)
    })

    it("trickles a slow body at the given rate", async () => {
      replay = await startEdgarReplay({ companyTickers: [{ cik: "320193", ticker: "AAPL", name: "Apple Inc." }] })
      replay.injectFault(/company_tickers/, { kind: "slow", bytesPerSecond: 200 })
      const started = Date.now()
      const response = await get("/files/company_tickers.json")
      const body = await response.text()
      const elapsed = Date.now() - started
      // 60-odd bytes at 20 bytes per 100 ms: at least three more ticks after the first chunk.
      assert.ok(body.length > 60, `body of ${body.length} bytes`)
      assert.ok(elapsed >= 250, `took only ${elapsed} ms`)
      assert.deepStrictEqual(JSON.parse(body), { "0": { cik_str: 320193, ticker: "AAPL", title: "Apple Inc." } })
    })

    it("never answers a hung request, which only the client's abort ends", async () => {
      replay = await startEdgarReplay()
      replay.injectFault(/browse-edgar/, { kind: "hang" })
      const controller = new AbortController()
      const timer = setTimeout(() => controller.abort(), 200)
      let failure: unknown = undefined
      try {
        await get(feedPath(), { signal: controller.signal })
      } catch (error) {
        failure = error
      } finally {
        clearTimeout(timer)
      }
      assert.instanceOf(failure, Error)
      assert.strictEqual((failure as Error).name, "AbortError")
      assert.strictEqual(replay.requests[0]!.status, 0)
      assert.strictEqual((await get(feedPath())).status, 200)
    })
  })

  describe("timeline and load", () => {
    afterEach(() => replay.close())

    it("publishes on a timeline and records when", async () => {
      replay = await startEdgarReplay()
      const [first, second] = syntheticFilings(corpusFiling("8-K/meta-8k-2025-12-19-full-submission.txt"), 2)
      const started = Date.now()
      const done = replay.publishOnTimeline([{ afterMs: 150, filing: second! }, { afterMs: 50, filing: first! }])
      assert.deepStrictEqual(accessionsOf(await (await get(feedPath())).text()), [])
      await done
      const firstAt = replay.publishedAt.get(first!.accessionNumber)!
      const secondAt = replay.publishedAt.get(second!.accessionNumber)!
      assert.ok(firstAt - started >= 45 && secondAt - started >= 145, `${firstAt - started}, ${secondAt - started}`)
      assert.deepStrictEqual(accessionsOf(await (await get(feedPath())).text()), [
        second!.accessionNumber,
        first!.accessionNumber
      ])
    })

    it("makes synthetic filings distinct, down to the header of their submission", async () => {
      replay = await startEdgarReplay()
      const base = corpusFiling("8-K/adbe-8k-2023-03-15-full-submission.txt")
      const filings = syntheticFilings(base, 25)
      assert.strictEqual(new Set(filings.map((filing) => filing.accessionNumber)).size, 25)
      assert.strictEqual(new Set(filings.map((filing) => filing.cik)).size, 25)
      assert.notInclude(filings.map((filing) => filing.accessionNumber), base.accessionNumber)
      for (const filing of filings) replay.publish(filing)

      const sample = filings[7]!
      const cikFolder = Number(sample.cik)
      const response = await get(
        `/Archives/edgar/data/${cikFolder}/${sample.accessionNumber.replaceAll("-", "")}/${sample.accessionNumber}.txt`
      )
      assert.strictEqual(response.status, 200)
      const text = await response.text()
      assert.include(text, `ACCESSION NUMBER:\t\t${sample.accessionNumber}`)
      assert.include(text, `CENTRAL INDEX KEY:\t\t\t${sample.cik}`)
      assert.include(text, `<SEC-DOCUMENT>${sample.accessionNumber}.txt`)
      assert.notInclude(text, base.accessionNumber)
      // Re-read from its own bytes, a synthetic filing describes itself.
      const header = text.slice(0, text.indexOf("</SEC-HEADER>"))
      assert.match(header, /COMPANY CONFORMED NAME:\t+ADOBE INC\./)
      assert.strictEqual(accessionsOf(await (await get(feedPath({ count: 100 }))).text()).length, 25)
    })

    it("measures the peak number of requests in any one-second window", async () => {
      replay = await startEdgarReplay()
      assert.strictEqual(replay.peakRequestsPerSecond(), 0)
      // A burst of 6, a pause longer than a second, then a burst of 4: the peak is the first burst.
      await Promise.all(Array.from({ length: 6 }, () => get("/files/company_tickers.json")))
      await sleep(1100)
      await Promise.all(Array.from({ length: 4 }, () => get("/files/company_tickers.json")))
      assert.strictEqual(replay.requests.length, 10)
      assert.strictEqual(replay.peakRequestsPerSecond(), 6)
    })
  })
})
