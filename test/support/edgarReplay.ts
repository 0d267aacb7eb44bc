/**
 * A stand-in for the SEC's EDGAR on 127.0.0.1, so end-to-end tests and benchmarks run the real EDGAR
 * client and pipeline offline. It serves the paths the client uses, on both hosts at once (www.sec.gov
 * and data.sec.gov): the latest-filings Atom feed, each filing's complete submission text file and its
 * folder's `index.json`, `company_tickers.json`, `company_tickers_exchange.json` and the columnar
 * submissions JSON (or a recorded one, served as it is). Filings appear when a
 * test publishes them, now or on a timeline, and the server records every request and can misbehave on
 * demand (an error status with the SEC's own page, a cut-off body, a trickle, no answer) to exercise
 * the client's fair-access and retry paths, or go down altogether for as long as a test says (every
 * request answered 5xx, left unanswered, or its connection refused) while filings go on being published.
 *
 * Response bodies copy the shapes of real EDGAR responses recorded in the shared corpus
 * (`feeds/getcurrent-*.atom.xml`, `index/dats-2024-01-19-index.json`, `feeds/*-submissions-*.json`),
 * and the SEC's error pages are served from the corpus files themselves, read at run time and never
 * copied into the project.
 */
import { readFileSync } from "node:fs"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { corpusDir } from "./corpus.js"

export interface ReplayFiling {
  /** `0000796343-23-000041` */
  readonly accessionNumber: string
  /** 10 digits. */
  readonly cik: string
  /** `8-K` */
  readonly form: string
  readonly companyName: string
  /** The complete submission text file (what <accession>.txt serves), as bytes. */
  readonly submission: Uint8Array
  /** `2023-03-15`; the US Eastern date of publication when absent. */
  readonly filedDate?: string | undefined
}

export interface ReplayRequest {
  /** When the request arrived, in ms since the epoch. */
  readonly at: number
  readonly method: string
  /** The request target as sent: the path and its query string. */
  readonly path: string
  readonly userAgent: string | undefined
  /** The status answered; 0 while no answer has been sent (and for ever under a `hang` fault). */
  readonly status: number
}

export type Fault =
  | {
    readonly kind: "status"
    readonly status: 403 | 429 | 500 | 502 | 503 | 504
    /** One of the SEC's pages by name, or a literal body; by default the page the SEC sends with that status. */
    readonly body?: "rate-threshold" | "undeclared-tool" | "unavailable" | string | undefined
  }
  /** Sends the headers with the full Content-Length, half the body, then destroys the socket. */
  | { readonly kind: "truncated" }
  /** Trickles the body at this rate. */
  | { readonly kind: "slow"; readonly bytesPerSecond: number }
  /** Never answers. */
  | { readonly kind: "hang" }

/**
 * EDGAR down as a whole: every request answered with a server error (the SEC's "temporarily
 * unavailable" page), held without an answer (until the client gives up; one held during the outage
 * stays unanswered after it, as behind a dead load balancer), or not even connected (nothing listens).
 */
export type Outage =
  | { readonly kind: "status"; readonly status: 500 | 502 | 503 | 504 }
  | { readonly kind: "hang" }
  | { readonly kind: "refuse" }

export interface EdgarReplay {
  /** `http://127.0.0.1:<port>`; serves both the www and the data host paths. */
  readonly url: string
  /** Makes a filing appear at the top of the latest-filings feed now; its archive files are served from now on. */
  readonly publish: (filing: ReplayFiling) => void
  /** Publishes each filing after its delay (ms from now); resolves when all are published. */
  readonly publishOnTimeline: (
    timeline: ReadonlyArray<{ readonly afterMs: number; readonly filing: ReplayFiling }>
  ) => Promise<void>
  /** When each filing was published (ms epoch), by accession. */
  readonly publishedAt: ReadonlyMap<string, number>
  /** The next `times` requests whose path matches get the fault (then normal service resumes). */
  readonly injectFault: (match: RegExp, fault: Fault, times?: number) => void
  /** Takes EDGAR down until `endOutage`; filings can still be published meanwhile (they show once it is back). */
  readonly beginOutage: (outage: Outage) => Promise<void>
  /** Normal service again, on the same address; resolves once requests are answered. */
  readonly endOutage: () => Promise<void>
  readonly requests: ReadonlyArray<ReplayRequest>
  /** The most requests that started within any 1000 ms window so far. */
  readonly peakRequestsPerSecond: () => number
  readonly close: () => Promise<void>
}

export interface CompanyTicker {
  readonly cik: string
  readonly ticker: string
  readonly name: string
  /** The exchange `company_tickers_exchange.json` gives the ticker; null there when absent. */
  readonly exchange?: string | undefined
}

export interface EdgarReplayOptions {
  readonly companyTickers?: ReadonlyArray<CompanyTicker> | undefined
  /** Recorded submissions JSON to serve as it is, by 10-digit CIK, instead of the one made up from the filings. */
  readonly submissions?: Readonly<Record<string, string>> | undefined
  /**
   * Default true: like the SEC, answer 403 with the undeclared-tool page when the User-Agent lacks an
   * e-mail-like token (the SEC asks automated clients to declare "Company Name admin@example.com").
   */
  readonly requireUserAgent?: boolean | undefined
}

// ---------------------------------------------------------------------------------------------------
// Reading submissions

/** What the SGML header of a complete submission says, as far as the replayed responses need it. */
interface SubmissionHeader {
  readonly accessionNumber: string | undefined
  readonly form: string | undefined
  readonly cik: string | undefined
  readonly companyName: string | undefined
  readonly filedAsOf: string | undefined
  readonly periodOfReport: string | undefined
  readonly items: ReadonlyArray<string>
  readonly act: string
  readonly fileNumber: string
  readonly filmNumber: string
}

interface SubmissionDocument {
  readonly type: string
  readonly sequence: number
  readonly filename: string
  readonly description: string
  readonly size: number
}

// Submissions are ASCII with the odd Latin-1 byte; latin1 maps bytes to characters one to one, so text
// taken apart or re-stamped this way turns back into exactly the bytes it came from.
const latin1 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1")

const headerOf = (text: string): string => {
  const end = text.indexOf("</SEC-HEADER>")
  return end === -1 ? text.slice(0, 20_000) : text.slice(0, end)
}

const headerField = (header: string, name: string): string | undefined =>
  new RegExp(`^\\s*${name}:[ \\t]*(.+?)\\s*$`, "m").exec(header)?.[1]

const isoDate = (compact: string | undefined): string | undefined =>
  compact !== undefined && /^\d{8}$/.test(compact)
    ? `${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6)}`
    : undefined

const readHeader = (text: string): SubmissionHeader => {
  const header = headerOf(text)
  return {
    accessionNumber: headerField(header, "ACCESSION NUMBER"),
    form: headerField(header, "CONFORMED SUBMISSION TYPE"),
    cik: headerField(header, "CENTRAL INDEX KEY"),
    companyName: headerField(header, "COMPANY CONFORMED NAME"),
    filedAsOf: isoDate(headerField(header, "FILED AS OF DATE")),
    periodOfReport: isoDate(headerField(header, "CONFORMED PERIOD OF REPORT")),
    items: [...header.matchAll(/^\s*ITEM INFORMATION:[ \t]*(.+?)\s*$/gm)].map((match) => match[1]!),
    // The submissions JSON writes "1934 Act" as "34".
    act: headerField(header, "SEC ACT")?.replace(/^19(\d\d) Act$/, "$1") ?? "",
    fileNumber: headerField(header, "SEC FILE NUMBER") ?? "",
    filmNumber: headerField(header, "FILM NUMBER") ?? ""
  }
}

const readDocuments = (text: string): ReadonlyArray<SubmissionDocument> =>
  [...text.matchAll(/<DOCUMENT>([\s\S]*?)<\/DOCUMENT>/g)].flatMap((match) => {
    const block = match[1]!
    const tag = (name: string) => new RegExp(`^<${name}>(.*)$`, "m").exec(block)?.[1]?.trim()
    const filename = tag("FILENAME")
    if (filename === undefined) return []
    const textStart = block.indexOf("<TEXT>")
    const textEnd = block.lastIndexOf("</TEXT>")
    return [{
      type: tag("TYPE") ?? "",
      sequence: Number(tag("SEQUENCE") ?? "0"),
      filename,
      description: tag("DESCRIPTION") ?? "",
      // The size of the document's text inside the submission; EDGAR's own copy can differ by a few bytes.
      size: textStart !== -1 && textEnd > textStart ? textEnd - textStart - "<TEXT>\n".length : block.length
    }]
  })

/** The ticker the filer declares in its inline XBRL cover page, if any. */
const tradingSymbol = (text: string): string | undefined => {
  const symbol = /name="dei:TradingSymbol"[^>]*>([^<]+)</.exec(text)?.[1]?.trim()
  return symbol !== undefined && /^[A-Z][A-Z0-9.-]{0,9}$/.test(symbol) ? symbol : undefined
}

// EDGAR's headers name 8-K items by title, its feed and submissions JSON by number.
const eightKItemNumbers: ReadonlyArray<readonly [string, string]> = [
  ["1.01", "Entry into a Material Definitive Agreement"],
  ["1.02", "Termination of a Material Definitive Agreement"],
  ["1.03", "Bankruptcy or Receivership"],
  ["1.04", "Mine Safety - Reporting of Shutdowns and Patterns of Violations"],
  ["1.05", "Material Cybersecurity Incidents"],
  ["2.01", "Completion of Acquisition or Disposition of Assets"],
  ["2.02", "Results of Operations and Financial Condition"],
  [
    "2.03",
    "Creation of a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement of a Registrant"
  ],
  [
    "2.04",
    "Triggering Events That Accelerate or Increase a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement"
  ],
  ["2.05", "Costs Associated with Exit or Disposal Activities"],
  ["2.06", "Material Impairments"],
  ["3.01", "Notice of Delisting or Failure to Satisfy a Continued Listing Rule or Standard; Transfer of Listing"],
  ["3.02", "Unregistered Sales of Equity Securities"],
  ["3.03", "Material Modification to Rights of Security Holders"],
  ["4.01", "Changes in Registrant's Certifying Accountant"],
  [
    "4.02",
    "Non-Reliance on Previously Issued Financial Statements or a Related Audit Report or Completed Interim Review"
  ],
  ["5.01", "Changes in Control of Registrant"],
  [
    "5.02",
    "Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers: Compensatory Arrangements of Certain Officers"
  ],
  // The title 5.02 had before the 2006 executive-compensation rules; older headers still carry it.
  ["5.02", "Departure of Directors or Principal Officers; Election of Directors; Appointment of Principal Officers"],
  ["5.03", "Amendments to Articles of Incorporation or Bylaws; Change in Fiscal Year"],
  ["5.04", "Temporary Suspension of Trading Under Registrant's Employee Benefit Plans"],
  ["5.05", "Amendments to the Registrant's Code of Ethics, or Waiver of a Provision of the Code of Ethics"],
  ["5.06", "Change in Shell Company Status"],
  ["5.07", "Submission of Matters to a Vote of Security Holders"],
  ["5.08", "Shareholder Director Nominations"],
  ["6.01", "ABS Informational and Computational Material"],
  ["6.02", "Change of Servicer or Trustee"],
  ["6.03", "Change in Credit Enhancement or Other External Support"],
  ["6.04", "Failure to Make a Required Distribution"],
  ["6.05", "Securities Act Updating Disclosure"],
  ["7.01", "Regulation FD Disclosure"],
  ["8.01", "Other Events"],
  ["9.01", "Financial Statements and Exhibits"]
]

const normalizeTitle = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim()
const itemNumberByTitle = new Map(eightKItemNumbers.map(([number, title]) => [normalizeTitle(title), number]))

/** Everything the responses need about one published filing, worked out once at publication. */
interface Published {
  readonly filing: ReplayFiling
  readonly cikNumber: number
  readonly folder: string
  readonly at: number
  readonly filedDate: string
  readonly header: SubmissionHeader
  readonly documents: ReadonlyArray<SubmissionDocument>
  readonly ticker: string | undefined
  /** `[["2.02", "Results of Operations and Financial Condition"], ...]` */
  readonly items: ReadonlyArray<readonly [string, string]>
}

// ---------------------------------------------------------------------------------------------------
// Corpus filings

/** A ReplayFiling from a complete submission's bytes, described by its SGML header. */
const filingFromSubmission = (submission: Uint8Array, origin: string): ReplayFiling => {
  const header = readHeader(latin1(submission))
  const { accessionNumber, cik, companyName, form } = header
  if (accessionNumber === undefined || cik === undefined || companyName === undefined || form === undefined) {
    throw new Error(
      `${origin} has no complete SGML header (ACCESSION NUMBER, CENTRAL INDEX KEY, CONFORMED SUBMISSION TYPE, ` +
        "COMPANY CONFORMED NAME)"
    )
  }
  return {
    accessionNumber,
    cik: cik.padStart(10, "0"),
    form,
    companyName,
    submission,
    ...(header.filedAsOf === undefined ? {} : { filedDate: header.filedAsOf })
  }
}

/**
 * A ReplayFiling from a corpus full-submission file: accession, CIK, form and company read from its
 * SGML header (ACCESSION NUMBER, CENTRAL INDEX KEY, CONFORMED SUBMISSION TYPE, COMPANY CONFORMED NAME,
 * FILED AS OF DATE).
 */
export const corpusFiling = (relativePath: string): ReplayFiling =>
  filingFromSubmission(new Uint8Array(readFileSync(join(corpusDir, relativePath))), relativePath)

// Synthetic filers get CIKs from a block far above today's (about 2.1 million), counted across calls so
// that two batches in one test run never share an accession number.
let syntheticSerial = 0

/**
 * N distinct synthetic filings for load tests: a corpus submission re-stamped with a fresh accession
 * number (in its header too) and CIK, so each is a new filing.
 */
export const syntheticFilings = (base: ReplayFiling, count: number): ReadonlyArray<ReplayFiling> => {
  const text = latin1(base.submission)
  const year = base.accessionNumber.slice(11, 13)
  const filings: Array<ReplayFiling> = []
  for (let index = 0; index < count; index++) {
    syntheticSerial++
    const cik = String(9_000_000_000 + syntheticSerial).padStart(10, "0")
    const accessionNumber = `${cik}-${year}-${String(syntheticSerial % 1_000_000).padStart(6, "0")}`
    const headerEnd = text.indexOf("</SEC-HEADER>")
    const split = headerEnd === -1 ? 0 : headerEnd
    // The accession number also names files inside the submission (the XBRL zip), so every copy of it
    // changes; the CIK only in the header, where it says who filed.
    const header = text.slice(0, split).replace(
      new RegExp(`(CENTRAL INDEX KEY:[ \\t]*)${base.cik}`, "g"),
      `$1${cik}`
    )
    const restamped = (header + text.slice(split)).replaceAll(base.accessionNumber, accessionNumber)
    filings.push({
      ...base,
      accessionNumber,
      cik,
      submission: new Uint8Array(Buffer.from(restamped, "latin1"))
    })
  }
  return filings
}

// ---------------------------------------------------------------------------------------------------
// Time as EDGAR writes it: US Eastern

const easternParts = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/New_York",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  weekday: "short",
  hourCycle: "h23",
  timeZoneName: "shortOffset"
})

const monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

const eastern = (at: number) => {
  const parts = Object.fromEntries(easternParts.formatToParts(new Date(at)).map((part) => [part.type, part.value]))
  const hours = Number(/GMT([+-]\d+)/.exec(parts.timeZoneName ?? "")?.[1] ?? "0")
  const offset = `${hours < 0 ? "-" : "+"}${String(Math.abs(hours)).padStart(2, "0")}:00`
  const date = `${parts.year}-${parts.month}-${parts.day}`
  const time = `${parts.hour}:${parts.minute}:${parts.second}`
  return {
    date,
    time,
    /** `2025-12-12T18:02:43-05:00`, as in the feed's <updated>. */
    iso: `${date}T${time}${offset}`,
    /** `Fri, 12 Dec 2025 18:03:31 EST`, as in the feed's title. */
    title: `${parts.weekday}, ${parts.day} ${monthNames[Number(parts.month) - 1]} ${parts.year} ${time} ${
      hours === -4 ? "EDT" : "EST"
    }`
  }
}

// ---------------------------------------------------------------------------------------------------
// Responses

interface Reply {
  readonly status: number
  readonly contentType: string
  readonly body: Buffer
}

const errorPageFiles = {
  "rate-threshold": "feeds/sec-error-rate-exceeded.html",
  "undeclared-tool": "feeds/sec-error-undeclared-automated-tool.html",
  "unavailable": "feeds/sec-error-getcurrent-503-past-end.html"
} as const

// Without the corpus, a short page with the same title keeps the replay usable (the client tells the
// pages apart by their titles).
const errorPageTitles = {
  "rate-threshold": "SEC.gov | Request Rate Threshold Exceeded",
  "undeclared-tool": "SEC.gov | Your Request Originates from an Undeclared Automated Tool",
  "unavailable": "SEC.gov | File Unavailable"
} as const

type ErrorPage = keyof typeof errorPageFiles

const errorPageCache = new Map<ErrorPage, Buffer>()

const errorPage = (page: ErrorPage): Buffer => {
  let body = errorPageCache.get(page)
  if (body === undefined) {
    try {
      body = readFileSync(join(corpusDir, errorPageFiles[page]))
    } catch {
      body = Buffer.from(
        `<!DOCTYPE html>\n<html><head><title>${errorPageTitles[page]}</title></head><body></body></html>\n`
      )
    }
    errorPageCache.set(page, body)
  }
  return body
}

const html = (status: number, body: Buffer): Reply => ({ status, contentType: "text/html", body })

const notFound = (): Reply =>
  html(
    404,
    Buffer.from(
      "<!DOCTYPE html>\n<html><head><title>SEC.gov | Page Not Found</title></head>\n<body><h1>Page Not Found</h1>\n" +
        "<p>The page you requested could not be found on SEC.gov.</p></body></html>\n"
    )
  )

const json = (value: unknown): Reply => ({
  status: 200,
  contentType: "application/json",
  body: Buffer.from(JSON.stringify(value))
})

const faultReply = (fault: Extract<Fault, { kind: "status" }>): Reply => {
  const named = fault.body === undefined
    // The SEC answers an over-eager client with the rate-threshold page (status 403 in practice) and
    // an outage with the "temporarily unavailable" page.
    ? (fault.status === 403 || fault.status === 429 ? "rate-threshold" : "unavailable")
    : fault.body
  const body = named in errorPageFiles ? errorPage(named as ErrorPage) : Buffer.from(named)
  return html(fault.status, body)
}

// The feed is declared ISO-8859-1: anything outside ASCII goes out as a character reference, so no
// company name can produce bytes that contradict the declaration.
const xmlText = (text: string): string =>
  text.replace(/[&<>"]/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;" })[char]!)
    .replace(/[^\x20-\x7e\n\t]/g, (char) => `&#${char.codePointAt(0)};`)

const sizeLabel = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`

/** EDGAR's page sizes; other counts are served as the next smaller one (40 when absent). */
const feedCounts = [10, 20, 40, 80, 100]
const feedCount = (requested: string | null): number => {
  const count = Number(requested ?? "40")
  if (!Number.isFinite(count)) return 40
  return feedCounts.filter((allowed) => allowed <= count).at(-1) ?? 10
}

// ---------------------------------------------------------------------------------------------------
// The server

interface Recorded {
  at: number
  method: string
  path: string
  userAgent: string | undefined
  status: number
}

interface PendingFault {
  readonly match: RegExp
  readonly fault: Fault
  remaining: number
}

const declaresContact = (userAgent: string | undefined): boolean =>
  userAgent !== undefined && /[^\s@<>()]+@[^\s@<>()]+\.[^\s@<>()]+/.test(userAgent)

export const startEdgarReplay = async (options: EdgarReplayOptions = {}): Promise<EdgarReplay> => {
  const requireUserAgent = options.requireUserAgent ?? true
  const companyTickers = options.companyTickers ?? []
  /** Newest first, as the feed lists them. */
  const published: Array<Published> = []
  const byFolder = new Map<string, Published>()
  const publishedAt = new Map<string, number>()
  const requests: Array<Recorded> = []
  const faults: Array<PendingFault> = []
  const timers = new Set<NodeJS.Timeout>()
  let outage: Outage | undefined
  /** What close() must settle: timelines cut short. */
  const closing: Array<() => void> = []
  let url = ""

  const later = (ms: number, action: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer)
      action()
    }, ms)
    timers.add(timer)
  }

  const publish = (filing: ReplayFiling): void => {
    if (publishedAt.has(filing.accessionNumber)) {
      throw new Error(`${filing.accessionNumber} is already published`)
    }
    const at = Date.now()
    const text = latin1(filing.submission)
    const header = readHeader(text)
    const cikNumber = Number(filing.cik)
    const folder = `${cikNumber}/${filing.accessionNumber.replaceAll("-", "")}`
    const items = header.items.flatMap((title): ReadonlyArray<readonly [string, string]> => {
      const number = itemNumberByTitle.get(normalizeTitle(title))
      return number === undefined ? [] : [[number, title]]
    })
    const entry: Published = {
      filing,
      cikNumber,
      folder,
      at,
      filedDate: filing.filedDate ?? eastern(at).date,
      header,
      documents: readDocuments(text),
      ticker: tradingSymbol(text),
      items
    }
    published.unshift(entry)
    byFolder.set(folder, entry)
    publishedAt.set(filing.accessionNumber, at)
  }

  const publishOnTimeline = (
    timeline: ReadonlyArray<{ readonly afterMs: number; readonly filing: ReplayFiling }>
  ): Promise<void> => {
    const done = new Promise<void>((resolve, reject) => {
      let remaining = timeline.length
      if (remaining === 0) resolve()
      // Stable by delay, so filings due at the same moment publish in the order given.
      const ordered = timeline.map((step, index) => ({ ...step, index })).sort((a, b) =>
        a.afterMs - b.afterMs || a.index - b.index
      )
      for (const step of ordered) {
        later(Math.max(0, step.afterMs), () => {
          try {
            publish(step.filing)
          } catch (error) {
            reject(error)
            return
          }
          if (--remaining === 0) resolve()
        })
      }
      closing.push(() => {
        if (remaining > 0) reject(new Error(`the replay closed with ${remaining} filings still unpublished`))
      })
    })
    // Callers that do not wait for the timeline must not see an unhandled rejection when it is cut short.
    done.catch(() => {})
    return done
  }

  const feed = (query: URLSearchParams): Reply => {
    if (query.get("action") !== "getcurrent" || query.get("output") !== "atom") return notFound()
    const type = (query.get("type") ?? "").trim().toUpperCase()
    const start = Math.max(0, Math.floor(Number(query.get("start") ?? "0")) || 0)
    const count = feedCount(query.get("count"))
    // EDGAR matches the type as a prefix: type=8-K also lists 8-K/A.
    const matching = type === ""
      ? published
      : published.filter((entry) => entry.filing.form.toUpperCase().startsWith(type))
    // Asked for a page past the end, EDGAR answers 503 with its "temporarily unavailable" page instead of an
    // empty feed (recorded in feeds/sec-error-getcurrent-503-past-end.html); the first page is always a feed.
    if (start > 0 && start >= matching.length) return html(503, errorPage("unavailable"))
    const now = eastern(Date.now())
    const lines = [
      "<?xml version=\"1.0\" encoding=\"ISO-8859-1\" ?>",
      "<feed xmlns=\"http://www.w3.org/2005/Atom\">",
      `<title>Latest Filings - ${now.title}</title>`,
      "<link rel=\"alternate\" href=\"/cgi-bin/browse-edgar?action=getcurrent\"/>",
      "<link rel=\"self\" href=\"/cgi-bin/browse-edgar?action=getcurrent\"/>",
      `<id>${url}/cgi-bin/browse-edgar?action=getcurrent</id>`,
      "<author><name>Webmaster</name><email>webmaster@sec.gov</email></author>",
      `<updated>${now.iso}</updated>`
    ]
    for (const entry of matching.slice(start, start + count)) {
      const { accessionNumber, cik, companyName, form } = entry.filing
      lines.push(
        "<entry>",
        `<title>${xmlText(form)} - ${xmlText(companyName)} (${cik}) (Filer)</title>`,
        `<link rel="alternate" type="text/html" href="${url}/Archives/edgar/data/${entry.folder}/${accessionNumber}-index.htm"/>`,
        "<summary type=\"html\">",
        ` &lt;b&gt;Filed:&lt;/b&gt; ${entry.filedDate} &lt;b&gt;AccNo:&lt;/b&gt; ${accessionNumber} &lt;b&gt;Size:&lt;/b&gt; ${
          sizeLabel(entry.filing.submission.byteLength)
        }`,
        ...entry.items.map(([number, title]) => `&lt;br&gt;Item ${number}: ${xmlText(title)}`),
        "</summary>",
        `<updated>${eastern(entry.at).iso}</updated>`,
        `<category scheme="https://www.sec.gov/" label="form type" term="${xmlText(form)}"/>`,
        `<id>urn:tag:sec.gov,2008:accession-number=${accessionNumber}</id>`,
        "</entry>"
      )
    }
    lines.push("</feed>", "")
    return {
      status: 200,
      contentType: "application/atom+xml; charset=ISO-8859-1",
      body: Buffer.from(lines.join("\n"), "latin1")
    }
  }

  const indexJson = (entry: Published): Reply => {
    const modified = `${eastern(entry.at).date} ${eastern(entry.at).time}`
    const item = (name: string, size: string) => ({
      "last-modified": modified,
      name,
      type: /\.(zip|xlsx)$/i.test(name) ? "compressed.gif" : "text.gif",
      size
    })
    // EDGAR lists the files it generates first (with a blank size), then the documents by name.
    const documents = [...entry.documents].sort((a, b) =>
      a.filename.localeCompare(b.filename, "en", { sensitivity: "base" })
    )
    return json({
      directory: {
        item: [
          item(`${entry.filing.accessionNumber}.txt`, ""),
          ...documents.map((document) => item(document.filename, String(document.size)))
        ],
        name: `/Archives/edgar/data/${entry.folder}`,
        "parent-dir": `/Archives/edgar/data/${entry.cikNumber}`
      }
    })
  }

  const knownTickers = () => {
    const rows = new Map<number, { cik_str: number; ticker: string; title: string }>()
    for (const company of companyTickers) {
      const cik = Number(company.cik)
      if (!rows.has(cik)) rows.set(cik, { cik_str: cik, ticker: company.ticker, title: company.name })
    }
    // Published companies join under the ticker their cover page declares; without one they are left
    // out, as EDGAR leaves out companies with no listed security.
    for (const entry of [...published].reverse()) {
      if (entry.ticker !== undefined && !rows.has(entry.cikNumber)) {
        rows.set(entry.cikNumber, { cik_str: entry.cikNumber, ticker: entry.ticker, title: entry.filing.companyName })
      }
    }
    return [...rows.values()]
  }

  // Every listed ticker, several per company (share classes), in the list's order; companies of
  // published filings follow under the ticker their cover page declares.
  const tickersWithExchanges = () => {
    const rows: Array<[number, string, string, string | null]> = companyTickers.map((company) => [
      Number(company.cik),
      company.name,
      company.ticker,
      company.exchange ?? null
    ])
    for (const entry of [...published].reverse()) {
      if (entry.ticker !== undefined && !rows.some(([cik]) => cik === entry.cikNumber)) {
        rows.push([entry.cikNumber, entry.filing.companyName, entry.ticker, null])
      }
    }
    return { fields: ["cik", "name", "ticker", "exchange"], data: rows }
  }

  const submissionsJson = (cikNumber: number): Reply => {
    const recorded = options.submissions?.[String(cikNumber).padStart(10, "0")]
    if (recorded !== undefined) return { status: 200, contentType: "application/json", body: Buffer.from(recorded) }
    const filings = published.filter((entry) => entry.cikNumber === cikNumber)
    const listed = knownTickers().filter((row) => row.cik_str === cikNumber)
    const name = filings[0]?.filing.companyName ?? companyTickers.find((row) => Number(row.cik) === cikNumber)?.name
    if (name === undefined) {
      // data.sec.gov is an object store: an unknown CIK is a missing key.
      return {
        status: 404,
        contentType: "application/xml",
        body: Buffer.from(
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>NoSuchKey</Code>" +
            "<Message>The specified key does not exist.</Message></Error>"
        )
      }
    }
    const column = <A>(value: (entry: Published) => A) => filings.map(value)
    const primary = (entry: Published) => entry.documents.find((document) => document.sequence === 1)
    return json({
      cik: String(cikNumber).padStart(10, "0"),
      entityType: "operating",
      sic: "",
      sicDescription: "",
      name,
      tickers: listed.map((row) => row.ticker),
      exchanges: listed.map(() => ""),
      filings: {
        recent: {
          accessionNumber: column((entry) => entry.filing.accessionNumber),
          filingDate: column((entry) => entry.filedDate),
          reportDate: column((entry) => entry.header.periodOfReport ?? ""),
          // EDGAR writes the acceptance time with a Z; here it is the moment of publication in UTC.
          acceptanceDateTime: column((entry) => new Date(entry.at).toISOString()),
          act: column((entry) => entry.header.act),
          form: column((entry) => entry.filing.form),
          fileNumber: column((entry) => entry.header.fileNumber),
          filmNumber: column((entry) => entry.header.filmNumber),
          items: column((entry) => entry.items.map(([number]) => number).join(",")),
          size: column((entry) => entry.filing.submission.byteLength),
          isXBRL: column((entry) => entry.documents.some((document) => document.type.startsWith("EX-101")) ? 1 : 0),
          isInlineXBRL: column((entry) => latin1(entry.filing.submission).includes("<ix:header") ? 1 : 0),
          primaryDocument: column((entry) => primary(entry)?.filename ?? ""),
          primaryDocDescription: column((entry) => (primary(entry)?.description ?? entry.filing.form).toUpperCase())
        },
        files: []
      }
    })
  }

  const route = (method: string, target: URL): Reply => {
    if (method !== "GET" && method !== "HEAD") return notFound()
    const path = target.pathname
    if (path === "/cgi-bin/browse-edgar") return feed(target.searchParams)
    if (path === "/files/company_tickers.json") {
      return json(Object.fromEntries(knownTickers().map((row, index) => [String(index), row])))
    }
    if (path === "/files/company_tickers_exchange.json") return json(tickersWithExchanges())
    const submissions = /^\/submissions\/CIK(\d{10})\.json$/.exec(path)
    if (submissions) return submissionsJson(Number(submissions[1]))
    const archive = /^\/Archives\/edgar\/data\/(\d{1,10})\/(\d{18})\/([^/]+)$/.exec(path)
    if (archive) {
      // Before publication the folder does not exist, so its files are as unknown as any other path.
      const entry = byFolder.get(`${Number(archive[1])}/${archive[2]}`)
      if (entry === undefined) return notFound()
      if (archive[3] === `${entry.filing.accessionNumber}.txt`) {
        return { status: 200, contentType: "text/plain", body: Buffer.from(entry.filing.submission) }
      }
      if (archive[3] === "index.json") return indexJson(entry)
    }
    return notFound()
  }

  const takeFault = (path: string): Fault | undefined => {
    for (const pending of faults) {
      if (pending.remaining <= 0) continue
      pending.match.lastIndex = 0
      if (pending.match.test(path)) {
        pending.remaining--
        return pending.fault
      }
    }
    return undefined
  }

  const respond = (request: IncomingMessage, response: ServerResponse, record: Recorded) => {
    const head = (reply: Reply) => {
      record.status = reply.status
      response.writeHead(reply.status, {
        "Content-Type": reply.contentType,
        "Content-Length": String(reply.body.byteLength)
      })
    }
    const target = new URL(request.url ?? "/", "http://127.0.0.1")
    // Like the SEC's edge, turn away undeclared tools before anything else, so they use up no fault.
    if (requireUserAgent && !declaresContact(record.userAgent)) {
      const reply = html(403, errorPage("undeclared-tool"))
      head(reply)
      response.end(request.method === "HEAD" ? undefined : reply.body)
      return
    }
    const fault: Fault | undefined = outage?.kind === "status" || outage?.kind === "hang"
      ? outage
      : takeFault(record.path)
    if (fault?.kind === "hang") return
    const reply = fault?.kind === "status" ? faultReply(fault) : route(request.method ?? "GET", target)
    const body = request.method === "HEAD" ? Buffer.alloc(0) : reply.body
    head(reply)
    if (fault?.kind === "truncated") {
      response.write(body.subarray(0, Math.floor(body.byteLength / 2)), () => response.destroy())
      return
    }
    if (fault?.kind === "slow") {
      // Ten chunks a second, so the rate holds at any scale without a timer per byte.
      const chunk = Math.max(1, Math.floor(fault.bytesPerSecond / 10))
      let offset = 0
      const trickle = () => {
        if (response.destroyed) return
        const end = Math.min(body.byteLength, offset + chunk)
        response.write(body.subarray(offset, end))
        offset = end
        if (offset >= body.byteLength) response.end()
        else later(100, trickle)
      }
      trickle()
      return
    }
    response.end(body)
  }

  const server = createServer((request, response) => {
    const userAgent = request.headers["user-agent"]
    const record: Recorded = {
      at: Date.now(),
      method: request.method ?? "GET",
      path: request.url ?? "/",
      userAgent,
      status: 0
    }
    requests.push(record)
    respond(request, response, record)
  })

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  url = `http://127.0.0.1:${port}`

  const beginOutage = async (next: Outage): Promise<void> => {
    if (outage !== undefined) throw new Error(`the replay is already down (${outage.kind})`)
    outage = next
    if (next.kind !== "refuse") return
    // Nothing listens: new connections are refused, and kept-alive ones are cut.
    await new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  }

  const endOutage = async (): Promise<void> => {
    const ended = outage
    outage = undefined
    if (ended?.kind !== "refuse") return
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject)
      // The same port, so that the server under test finds EDGAR where it was.
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject)
        resolve()
      })
    })
  }

  return {
    url,
    publish,
    publishOnTimeline,
    publishedAt,
    injectFault: (match, fault, times = 1) => {
      faults.push({ match, fault, remaining: times })
    },
    beginOutage,
    endOutage,
    requests,
    peakRequestsPerSecond: () => {
      const arrivals = requests.map((request) => request.at).sort((a, b) => a - b)
      let peak = 0
      let first = 0
      for (let last = 0; last < arrivals.length; last++) {
        while (arrivals[last]! - arrivals[first]! >= 1000) first++
        peak = Math.max(peak, last - first + 1)
      }
      return peak
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer)
        timers.clear()
        for (const cutShort of closing) cutShort()
        // Hanging and trickling responses would otherwise keep the server open for ever.
        server.closeAllConnections()
        // Down with its connections refused, the server is closed already.
        if (!server.listening) return resolve()
        server.close((error) => (error ? reject(error) : resolve()))
      })
  }
}

/**
 * The environment that points `filings serve` at a replay, with the client's patience and the
 * worker lease shortened so fault tests run in seconds.
 */
export const followEnv = (replay: EdgarReplay): Record<string, string> => ({
  FILINGS_SEC_USER_AGENT: "Filings Tests tests@filings.example",
  FILINGS_EDGAR_BASE_URL: replay.url,
  FILINGS_EDGAR_DATA_BASE_URL: replay.url,
  FILINGS_EDGAR_POLL_INTERVAL: "0.2",
  FILINGS_EDGAR_BACKOFF_BASE: "0.05",
  FILINGS_EDGAR_RATE_LIMIT_PAUSE: "0.5",
  FILINGS_EDGAR_REQUEST_TIMEOUT: "2",
  FILINGS_PIPELINE_LEASE: "2"
})
