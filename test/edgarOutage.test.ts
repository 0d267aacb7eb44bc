/**
 * Following EDGAR through outages of the regulator: EDGAR answers every request with a server error,
 * leaves every request unanswered, or refuses every connection, while more filings are published
 * than the latest-filings feed shows on its first page. When EDGAR answers again, following must
 * resume within seconds, where it stopped: every followed filing, those that fell off the first page
 * included, stored and announced once, none skipped, none fetched twice.
 *
 * The outages are seconds long rather than minutes, but what they are about is real: the feed rolls
 * over by more than a page while it cannot be read, and jobs under way meet the outage.
 */
import { assert, describe, it } from "@effect/vitest"
import { afterAll, beforeAll } from "vitest"
import { adminTokenOf, loggedEvents } from "./support/adminEvents.js"
import { type EdgarReplay, followEnv, type Outage, type ReplayFiling, startEdgarReplay } from "./support/edgarReplay.js"
import { createKey, type RunningServer, startServer, temporaryDataDir } from "./support/filings.js"
import { eightKSubmission, type SyntheticEightK } from "./support/syntheticEightK.js"
import { eventually, sleep } from "./support/waiting.js"

const today = new Date().toISOString().slice(0, 10)
let accessionSerial = 0

const synthetic = (cik: string, companyName: string, ticker: string): SyntheticEightK & ReplayFiling => {
  const accession = `${cik}-26-${String(++accessionSerial).padStart(6, "0")}`
  const filing: SyntheticEightK = { accession, cik, companyName, ticker, filedAsOf: today, items: ["8.01"] }
  return { ...filing, accessionNumber: accession, form: "8-K", submission: eightKSubmission(filing), filedDate: today }
}

/** A filing of the followed company. */
const followed = () => synthetic("0000999404", "ACME OUTAGE CORP", "ACMO")
/** A filing by a company the regulator lists without a ticker: in the feed, never followed. */
const unfollowed = () => synthetic("0000999505", "UNLISTED OUTAGE HOLDINGS", "UNLO")

/** The feed's largest page, which discovery reads. */
const feedPage = 100
/** Filings published while EDGAR is down: more than a page, so the first ones roll off the first page. */
const publishedDuringOutage = 120
const outageMs = 8_000
/**
 * How long one request to EDGAR may take (`FILINGS_EDGAR_REQUEST_TIMEOUT`): above the replay
 * environment's 2 s, so that a busy machine stalling the server's event loop is not taken for EDGAR
 * not answering, and well below the 15 s the client gives response headers by default.
 */
const requestTimeoutSeconds = 5
/**
 * How soon after EDGAR answers again the feed must have been read again: a request left unanswered
 * just before has to time out first, and the machine may be loaded.
 */
const resumeWithinMs = 12_000

const outages: ReadonlyArray<readonly [string, Outage]> = [
  ["answers 503", { kind: "status", status: 503 }],
  ["leaves every request unanswered", { kind: "hang" }],
  ["refuses connections", { kind: "refuse" }]
]

describe("following EDGAR through its outages", () => {
  let replay: EdgarReplay
  let storage: Awaited<ReturnType<typeof temporaryDataDir>>
  let server: RunningServer
  let key: string
  const everyFollowed: Array<ReplayFiling> = []

  const get = (path: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } })
  const isServed = async (filing: ReplayFiling) => (await get(`/v1/documents/${filing.accessionNumber}`)).status === 200
  const isFeedRead = (path: string) => path.includes("action=getcurrent")
  const fetchesOf = (filing: ReplayFiling) =>
    replay.requests.filter((request) => request.path.endsWith(`/${filing.accessionNumber}.txt`))
  const events = async () => loggedEvents(server.url, await adminTokenOf(storage.dataDir))
  const allServed = (filings: ReadonlyArray<ReplayFiling>, timeoutMs: number) => {
    let missing = filings.map((filing) => filing.accessionNumber)
    return eventually(
      () => `${missing.join(", ")} to be served; the server said:\n${server.output().slice(-4_000)}`,
      async () => {
        const served = await Promise.all(filings.map(isServed))
        missing = filings.filter((_, index) => !served[index]).map((filing) => filing.accessionNumber)
        return missing.length === 0 ? true : undefined
      },
      timeoutMs
    )
  }

  beforeAll(async () => {
    replay = await startEdgarReplay({
      companyTickers: [{ cik: "0000999404", ticker: "ACMO", name: "ACME OUTAGE CORP" }]
    })
    storage = await temporaryDataDir()
    server = await startServer(storage, {
      ...followEnv(replay),
      FILINGS_EDGAR_REQUEST_TIMEOUT: String(requestTimeoutSeconds),
      // Long enough that a worker stalled by a busy machine keeps its job: a lease lost to a stall
      // would have the job run twice, which this test must see only when the server is at fault.
      FILINGS_PIPELINE_LEASE: "10"
    })
    // A high limit: polling a dozen filings every 100 ms would spend a standard key's minute at once.
    key = await createKey(storage, { rateLimit: 100_000 })
    const first = followed()
    everyFollowed.push(first)
    replay.publish(first)
    await allServed([first], 30_000)
  }, 120_000)

  afterAll(async () => {
    await server?.stop()
    await replay?.close()
    await storage?.remove()
  })

  for (const [what, outage] of outages) {
    it(`resumes where it stopped when EDGAR ${what} while more than a feed page is published`, async () => {
      // Two filings discovered just before the outage, whose first fetch gets no answer: their jobs
      // are under way when EDGAR goes down, and retry through it.
      const underWay = [followed(), followed()]
      for (const filing of underWay) {
        replay.injectFault(new RegExp(`/${filing.accessionNumber}\\.txt$`), { kind: "hang" }, 1)
        replay.publish(filing)
      }
      await eventually(
        "the filings under way to be fetched",
        async () => (underWay.every((filing) => fetchesOf(filing).length > 0) ? true : undefined)
      )

      await replay.beginOutage(outage)
      const downAt = Date.now()
      // Every tenth filing is followed, the first one among them: by the time EDGAR is back, the
      // oldest followed ones are on the feed's second page.
      const during = Array.from(
        { length: publishedDuringOutage },
        (_, index) => index % 10 === 0 ? followed() : unfollowed()
      )
      await replay.publishOnTimeline(
        during.map((filing, index) => ({ afterMs: index * (outageMs / 2 / publishedDuringOutage), filing }))
      )
      await sleep(Math.max(0, downAt + outageMs - Date.now()))
      if (outage.kind === "hang") {
        // EDGAR comes back while a read of the feed waits for its answer, as one always does when
        // EDGAR stops answering: that read is the one following must not wait on for long.
        const now = Date.now()
        await eventually(
          "a read of the feed to be left unanswered",
          async () =>
            replay.requests.some((request) => request.at >= now && isFeedRead(request.path)) ? true : undefined
        )
      }
      await replay.endOutage()
      const upAt = Date.now()
      const after = followed()
      replay.publish(after)

      const expected = [...underWay, ...during.filter((filing) => filing.cik === "0000999404"), after]
      everyFollowed.push(...expected)
      await allServed(expected, 60_000)

      // The outage was met: the feed was asked for and not answered meanwhile.
      const readsDuringOutage = replay.requests.filter((request) =>
        request.at >= downAt && request.at < upAt && isFeedRead(request.path)
      )
      if (outage.kind !== "refuse") {
        assert.isAbove(readsDuringOutage.length, 0, "the feed was not asked for during the outage")
        assert.isTrue(readsDuringOutage.every((request) => request.status !== 200), "the feed answered in the outage")
      }

      // Following resumed soon: the feed read again, and the filings of the outage fetched, within
      // seconds of EDGAR answering.
      const firstRead = replay.requests.find((request) =>
        request.at >= upAt && isFeedRead(request.path) && request.status === 200
      )
      assert.isDefined(firstRead, "the feed was not read after the outage")
      assert.isBelow(firstRead!.at - upAt, resumeWithinMs, "the feed was read again too late after the outage")
      // The feed had rolled over by more than a page: its second page was read to reach back.
      assert.isTrue(
        replay.requests.some((request) =>
          request.at >= upAt && isFeedRead(request.path) && request.path.includes(`start=${feedPage}`)
        ),
        "the feed's second page was not read after the outage"
      )

      // Each filing fetched successfully once by its job: none skipped, none run twice. A response
      // the client gave up on (its body late on a loaded machine) is fetched again, and says so in
      // a warning naming the address; any other second fetch is a job run twice.
      for (const filing of expected) {
        const answered = fetchesOf(filing).filter((request) => request.status === 200).length
        const retried = server.output().split("\n")
          .filter((line) => /^\s*url: \S+$/.test(line) && line.endsWith(`/${filing.accessionNumber}.txt`)).length
        assert.isAtLeast(answered, 1, `${filing.accessionNumber} was never fetched`)
        assert.isAtMost(
          answered,
          1 + retried,
          `${filing.accessionNumber} was fetched ${answered} times, ${retried} of them retries of the client`
        )
      }
      for (const filing of during.filter((filing) => filing.cik !== "0000999404")) {
        assert.deepStrictEqual(fetchesOf(filing), [], `${filing.accessionNumber} is not followed yet was fetched`)
      }
    }, 120_000)
  }

  it("announced every followed filing once, and nothing else", async () => {
    // Time for a late duplicate of a retried job.
    await sleep(1_000)
    const logged = await events()
    const announced = logged.filter((event) => event.type === "filing.new")
      .map((event) => String(event.payload.data.publication_id))
    assert.deepStrictEqual(
      [...announced].sort(),
      everyFollowed.map((filing) => filing.accessionNumber).sort()
    )
  })
})
