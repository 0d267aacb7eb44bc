/**
 * The documents the search benchmark stores: files of `../shared/corpus` with the metadata a
 * `filings ingest --manifest` row would give them (what the file does not say itself), stored
 * through the server's own ingestion (`Ingest.layer`), exactly as `filings ingest` stores them.
 *
 * A PDF rendition of a filing that is also stored as HTML gets an accession number of its own
 * (sequence 9xxxxx, which the regulator does not use), so both are kept side by side; so do the few
 * bare documents whose accession number the corpus does not record.
 */
import type { Admin } from "@filings/domain"
import { Ingestion } from "@filings/server/ingest/Ingestion"
import { Effect } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { basename, join } from "node:path"
import { repositoryRoot } from "../../support/processes.js"

/** The shared corpus, beside the repository. */
export const corpusDir = join(repositoryRoot, "..", "shared", "corpus")

/** Is the corpus there to benchmark on? */
export const corpusPresent = (): boolean => existsSync(corpusDir)

/** A corpus file to store, by its path under the corpus, with the metadata it needs. */
export interface CorpusEntry {
  readonly file: string
  readonly ticker?: string
  readonly cik?: string
  readonly companyName?: string
  readonly form?: string
  readonly accession?: string
  readonly filingDate?: string
}

const call = (file: string, ticker: string, companyName: string, filingDate: string): CorpusEntry => ({
  file,
  ticker,
  companyName,
  form: "EARNINGS_CALL",
  filingDate
})

/** Every stored document: filings first, so that transcripts find their companies. */
export const corpusEntries: ReadonlyArray<CorpusEntry> = [
  // Annual reports (inline XBRL).
  { file: "10-K/aapl-10k-fy2024.htm", accession: "0000320193-24-000123", filingDate: "2024-11-01" },
  { file: "10-K/nvda-10k-fy2024.htm", accession: "0001045810-24-000029", filingDate: "2024-02-21" },
  { file: "10-K/goog-10k-fy2023.htm", accession: "0001652044-24-000022", filingDate: "2024-01-31" },
  { file: "10-K/ibm-10k-fy2023.htm", accession: "0000051143-24-000012", filingDate: "2024-02-26" },
  { file: "10-K/gme-10k-fy2023.htm", accession: "0001326380-24-000012", filingDate: "2024-03-26" },
  { file: "10-K/mara-10k-fy2023.htm", accession: "0001628280-24-007680", filingDate: "2024-02-28" },
  {
    file: "10-K/crr-10k-fy2017.htm",
    ticker: "CRR",
    cik: "1009672",
    companyName: "CARBO Ceramics Inc.",
    accession: "0001564590-18-004771",
    filingDate: "2018-03-08"
  },
  { file: "10-K/wfc-10k-fy2024.htm", cik: "72971", accession: "0000072971-25-900001", filingDate: "2025-02-25" },
  // Quarterly reports (inline XBRL).
  { file: "10-Q/aapl-10q-2023-07-01.htm", accession: "0000320193-23-000077", filingDate: "2023-08-04" },
  { file: "10-Q/aapl-10q-2025-03-29.htm", accession: "0000320193-25-000057", filingDate: "2025-05-02" },
  { file: "10-Q/goog-10q-2023-06-30.htm", accession: "0001652044-23-000070", filingDate: "2023-07-26" },
  {
    file: "10-Q/meta-10q-2019-03-31.htm",
    ticker: "META",
    cik: "1326801",
    companyName: "Facebook, Inc.",
    accession: "0001326801-19-000037",
    filingDate: "2019-04-25"
  },
  { file: "10-Q/gme-10q-2023-07-29.htm", accession: "0001326380-23-000047", filingDate: "2023-09-06" },
  {
    file: "10-Q/aa-10q-2018-06-30.htm",
    ticker: "AA",
    cik: "1675149",
    companyName: "Alcoa Corporation",
    accession: "0001193125-18-236766",
    filingDate: "2018-08-02"
  },
  // PDFs: two filings printed to PDF, an 8-K and an earnings release.
  {
    file: "pdf/mmm-10k-fy2018.pdf",
    ticker: "MMM",
    cik: "66740",
    companyName: "3M Company",
    form: "10-K",
    accession: "0001558370-19-000470",
    filingDate: "2019-02-07"
  },
  {
    file: "pdf/aapl-10q-2023-07-01.pdf",
    ticker: "AAPL",
    cik: "320193",
    form: "10-Q",
    accession: "0000320193-23-900077",
    filingDate: "2023-08-04"
  },
  {
    file: "pdf/pep-8k-2023-05-30.pdf",
    ticker: "PEP",
    cik: "77476",
    companyName: "PepsiCo, Inc.",
    form: "8-K",
    accession: "0000077476-23-900001",
    filingDate: "2023-05-30"
  },
  {
    file: "pdf/amcr-q4-fy2023-earnings-release.pdf",
    ticker: "AMCR",
    cik: "1748790",
    companyName: "Amcor plc",
    form: "PRESS_RELEASE",
    filingDate: "2023-08-15"
  },
  // Current reports: full submissions (with their exhibits) where the corpus has them.
  { file: "8-K/aapl-8k-2019-11-15-full-submission.txt", ticker: "AAPL" },
  { file: "8-K/adbe-8k-2023-03-15-full-submission.txt", ticker: "ADBE" },
  { file: "8-K/jpm-8k-2026-06-25-full-submission.txt", ticker: "JPM" },
  { file: "8-K/jwn-8k-2023-03-06-full-submission.txt", ticker: "JWN" },
  { file: "8-K/meta-8k-2025-12-19-full-submission.txt", ticker: "META" },
  { file: "8-K/mmm-8k-2024-03-08-full-submission.txt", ticker: "MMM" },
  { file: "8-K/nvda-8k-2026-03-06-full-submission.txt", ticker: "NVDA" },
  { file: "8-K/abvc-8k-2025-04-15-full-submission.txt", ticker: "ABVC" },
  {
    file: "8-K/blk-8k-2023-02-24.htm",
    ticker: "BLK",
    cik: "1364742",
    accession: "0001193125-23-048785",
    filingDate: "2023-02-24"
  },
  {
    file: "8-K/bke-8k-2024-11-22.htm",
    ticker: "BKE",
    cik: "885245",
    accession: "0000885245-24-900001",
    filingDate: "2024-11-22"
  },
  {
    file: "8-K/orcl-8k-2024-11-14.htm",
    ticker: "ORCL",
    cik: "1341439",
    accession: "0001341439-24-900001",
    filingDate: "2024-11-14"
  },
  {
    file: "8-K/afcg-8k-2023-03-17.htm",
    ticker: "AFCG",
    cik: "1822523",
    accession: "0001822523-23-900001",
    filingDate: "2023-03-17"
  },
  // Press releases that came without their 8-K.
  {
    file: "press-releases/usb-8k-2022-01-ex99-1.htm",
    ticker: "USB",
    cik: "36104",
    companyName: "U.S. Bancorp",
    form: "PRESS_RELEASE",
    filingDate: "2022-01-19"
  },
  {
    file: "press-releases/bke-8k-2024-11-22-ex99-1.htm",
    ticker: "BKE",
    form: "PRESS_RELEASE",
    filingDate: "2024-11-22"
  },
  // Earnings calls.
  call("transcripts/aapl-q1-fy2022-earnings-call-prepared-and-qa.json", "AAPL", "Apple Inc.", "2022-01-27"),
  call("transcripts/aapl-q1-fy2023-earnings-call-speakers-named.json", "AAPL", "Apple Inc.", "2023-02-02"),
  call("transcripts/msft-q1-fy2023-earnings-call.json", "MSFT", "Microsoft Corporation", "2022-10-25"),
  call("transcripts/nvda-q2-fy2025-earnings-call-prepared-and-qa.json", "NVDA", "NVIDIA Corporation", "2024-08-28"),
  call("transcripts/ko-q1-2021-earnings-call-ectsum.txt", "KO", "The Coca-Cola Company", "2021-04-19"),
  call("transcripts/nke-q4-2021-earnings-call-ectsum.txt", "NKE", "NIKE, Inc.", "2021-06-24"),
  call("transcripts/hd-q3-2021-earnings-call-ectsum.txt", "HD", "The Home Depot, Inc.", "2021-11-16"),
  call("transcripts/mmm-q3-2021-earnings-call-ectsum.txt", "MMM", "3M Company", "2021-10-26"),
  call("transcripts/mmm-q1-2017-earnings-call-acl19.txt", "MMM", "3M Company", "2017-04-25")
]

const overridesOf = (entry: CorpusEntry): Admin.IngestMetadata =>
  ({
    ...(entry.ticker === undefined ? {} : { ticker: entry.ticker }),
    ...(entry.cik === undefined ? {} : { cik: entry.cik }),
    ...(entry.companyName === undefined ? {} : { company_name: entry.companyName }),
    ...(entry.form === undefined ? {} : { form: entry.form }),
    ...(entry.accession === undefined ? {} : { accession: entry.accession }),
    ...(entry.filingDate === undefined ? {} : { filing_date: entry.filingDate })
  }) as Admin.IngestMetadata

/** What storing one corpus file gave: the document's id and ticker, and the ids of any releases it furnished. */
export interface StoredEntry {
  readonly file: string
  readonly publicationId: string
  readonly ticker: string
}

/** Stores every corpus entry through ingestion; fails on the first file it cannot store. */
export const storeCorpus = Effect.gen(function*() {
  const ingestion = yield* Ingestion
  const stored: Array<StoredEntry> = []
  for (const entry of corpusEntries) {
    const bytes = new Uint8Array(readFileSync(join(corpusDir, entry.file)))
    const result = yield* ingestion.ingest({ fileName: basename(entry.file), bytes, overrides: overridesOf(entry) })
      .pipe(
        Effect.mapError((error) => new Error(`${entry.file}: ${"message" in error ? error.message : String(error)}`))
      )
    stored.push({ file: entry.file, publicationId: result.publication_id, ticker: result.ticker })
  }
  return stored
})
