import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import type { ReplayFiling } from "./edgarReplay.js"
import { cli, type Storage } from "./filings.js"
import { submissionHeader } from "./sgmlHeader.js"

/**
 * A synthetic 8-K submission for pipeline tests: a company of its own, the items it reports (a
 * material agreement, results), and an EX-99.1 press release that announces an earnings call at
 * a given instant, written the way releases write it (Eastern Time, a date and a clock time).
 */
export interface SyntheticEightK {
  readonly accession: string
  readonly cik: string
  readonly companyName: string
  readonly ticker: string
  /** ISO date. */
  readonly filedAsOf: string
  /** Items as numbers: `1.01`, `2.02`, `9.01`. */
  readonly items: ReadonlyArray<string>
  /** When the release says the call starts; no call is announced when absent. */
  readonly callAt?: Date | undefined
  /** Adds an investor presentation as EX-99.2. */
  readonly presentation?: boolean | undefined
}

const itemTitles: Record<string, string> = {
  "1.01": "Entry into a Material Definitive Agreement",
  "2.02": "Results of Operations and Financial Condition",
  "7.01": "Regulation FD Disclosure",
  "9.01": "Financial Statements and Exhibits"
}

/** `November 22, 2026 at 4:30 p.m. ET`, in New York's wall-clock time. */
export const easternTime = (instant: Date): string => {
  const part = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", ...options }).format(instant)
  const date = part({ month: "long", day: "numeric", year: "numeric" })
  const time = part({ hour: "numeric", minute: "2-digit", hour12: true }).replace(/\s?AM$/, " a.m.").replace(
    /\s?PM$/,
    " p.m."
  )
  return `${date} at ${time} ET`
}

/** An EX-99.2 slide deck: the quarter's figures and the outlook, one slide to a heading. */
const presentationDocument = (filing: SyntheticEightK): ReadonlyArray<string> => [
  "<DOCUMENT>",
  "<TYPE>EX-99.2",
  "<SEQUENCE>3",
  `<FILENAME>${filing.ticker.toLowerCase()}-ex992.htm`,
  "<DESCRIPTION>INVESTOR PRESENTATION",
  "<TEXT>",
  "<html><body>",
  `<h1>${filing.companyName} Third Quarter Investor Presentation</h1>`,
  "<h2>Quarter highlights</h2>",
  "<p>Revenue grew 11% year over year to $48.2 million, and gross margin expanded 150 basis points to 41.5%.</p>",
  "<h2>Outlook</h2>",
  "<p>We raise our full-year revenue guidance to $190 million to $195 million.</p>",
  "</body></html>",
  "</TEXT>",
  "</DOCUMENT>"
]

export const eightKSubmission = (filing: SyntheticEightK): Uint8Array => {
  const items = filing.items.map((item) =>
    `<p style="font-weight:bold">Item ${item} ${itemTitles[item] ?? "Other"}.</p>
<p>${filing.companyName} reports under Item ${item} as described in this current report and its exhibit.</p>`
  )
  const call = filing.callAt === undefined
    ? ""
    : `<p>${filing.companyName} will host a conference call on ${
      easternTime(filing.callAt)
    } to discuss the results.</p>`
  const text = [
    ...submissionHeader({
      accession: filing.accession,
      form: "8-K",
      filedAsOf: filing.filedAsOf,
      periodOfReport: filing.filedAsOf,
      documentCount: filing.presentation === true ? 3 : 2,
      itemTitles: filing.items.map((item) => itemTitles[item] ?? "Other Events"),
      companyName: filing.companyName,
      cik: filing.cik,
      fiscalYearEnd: "1231"
    }),
    "<DOCUMENT>",
    "<TYPE>8-K",
    "<SEQUENCE>1",
    `<FILENAME>${filing.ticker.toLowerCase()}-8k.htm`,
    "<DESCRIPTION>8-K",
    "<TEXT>",
    "<html><body>",
    "<p style=\"text-align:center;font-weight:bold\">FORM 8-K</p>",
    `<p>Trading symbol: ${filing.ticker}</p>`,
    ...items,
    "<p>SIGNATURE</p>",
    `<p>${filing.companyName}<br/>By: /s/ Pat Example<br/>Chief Financial Officer<br/>Date: ${filing.filedAsOf}</p>`,
    "</body></html>",
    "</TEXT>",
    "</DOCUMENT>",
    "<DOCUMENT>",
    "<TYPE>EX-99.1",
    "<SEQUENCE>2",
    `<FILENAME>${filing.ticker.toLowerCase()}-ex991.htm`,
    "<DESCRIPTION>PRESS RELEASE",
    "<TEXT>",
    "<html><body>",
    `<p style="font-weight:bold">${filing.companyName} Reports Results and Signs a Supply Agreement</p>`,
    `<p>${filing.companyName} today reported revenue of $48.2 million and signed a five-year supply agreement.</p>`,
    call,
    "</body></html>",
    "</TEXT>",
    "</DOCUMENT>",
    ...(filing.presentation === true ? presentationDocument(filing) : []),
    "</SEC-DOCUMENT>",
    ""
  ].join("\n")
  return new TextEncoder().encode(text)
}

/**
 * Writes the 8-K into `directory` and stores it with `filings ingest`, as an operator would; fails
 * with what the command said when it does not succeed.
 */
export const ingestEightK = async (
  storage: Storage,
  directory: string,
  filing: SyntheticEightK,
  env: Record<string, string> = {}
): Promise<void> => {
  const file = join(directory, `${filing.accession}.txt`)
  await writeFile(file, eightKSubmission(filing))
  const ingested = await cli(storage, ["ingest", file, "--ticker", filing.ticker], env)
  if (ingested.exitCode !== 0) throw new Error(`filings ingest ${filing.accession} failed: ${ingested.stderr}`)
}

/** A company that files synthetic 8-Ks on the EDGAR replay. */
export interface ReplayCompany {
  /** 10 digits. */
  readonly cik: string
  readonly ticker: string
  readonly name: string
}

/**
 * The company's 8-K number `serial` of today, reporting `items`, as the EDGAR replay publishes it:
 * its accession number is the CIK, `26` and the serial.
 */
export const replayEightK = (
  company: ReplayCompany,
  serial: number,
  items: ReadonlyArray<string> = ["2.02", "9.01"]
): ReplayFiling => {
  const accession = `${company.cik}-26-${String(serial).padStart(6, "0")}`
  const today = new Date().toISOString().slice(0, 10)
  return {
    accessionNumber: accession,
    cik: company.cik,
    form: "8-K",
    companyName: company.name,
    submission: eightKSubmission({
      accession,
      cik: company.cik,
      companyName: company.name,
      ticker: company.ticker,
      filedAsOf: today,
      items
    }),
    filedDate: today
  }
}

/**
 * Makes the company's 8-Ks of today, numbered from 1 in the order they are made, each reporting
 * `items` (and announcing a call at `callAt`), as the EDGAR replay publishes it and with what it was
 * made of: its accession number is the CIK, `26` and the number.
 */
export const eightKsOf = (company: ReplayCompany) => {
  const today = new Date().toISOString().slice(0, 10)
  let serial = 0
  return (items: ReadonlyArray<string>, callAt?: Date): SyntheticEightK & ReplayFiling => {
    const accession = `${company.cik}-26-${String(++serial).padStart(6, "0")}`
    const filing: SyntheticEightK = {
      accession,
      cik: company.cik,
      companyName: company.name,
      ticker: company.ticker,
      filedAsOf: today,
      items,
      callAt
    }
    return {
      ...filing,
      accessionNumber: accession,
      form: "8-K",
      submission: eightKSubmission(filing),
      filedDate: today
    }
  }
}
