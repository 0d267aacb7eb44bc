/**
 * Hand-written analyst questions of the development set, each with the page(s) of the parsed
 * document its answer is printed on (checked in the parsed document; pages are physical, 1-based).
 * They cover what XBRL facts do not: risk factors, MD&A drivers, segments, guidance, litigation,
 * capital returns, debt, 8-K events, press releases and remarks on earnings calls. A transcript is
 * one page, so a question on one is answered by finding the call.
 */
import type { DevQuestion } from "./devSet.js"

type HandQuestion = Omit<DevQuestion, "kind">

const mmm10k = "pdf/mmm-10k-fy2018.pdf"
const amcr = "pdf/amcr-q4-fy2023-earnings-release.pdf"

const question = (
  id: string,
  text: string,
  ticker: string,
  file: string,
  pages: ReadonlyArray<number>,
  topic: string,
  exhibit?: string
): HandQuestion => ({
  id: `hand:${id}`,
  question: text,
  ticker,
  file,
  ...(exhibit === undefined ? {} : { exhibit }),
  pages,
  format: file.startsWith("transcripts/") ? "transcript" : file.endsWith(".pdf") ? "pdf" : "html",
  topic
})

/** A question whose answer is one figure, written as `DevQuestion.figure` writes it (`1577`, `23.4`). */
const withFigure = (figure: string, ...args: Parameters<typeof question>): HandQuestion => ({
  ...question(...args),
  figure
})

/** The hand-written questions, without their kind. */
export const handQuestions: ReadonlyArray<HandQuestion> = [
  // 3M 10-K FY2018 (PDF): FinanceBench-style questions.
  withFigure(
    "1577",
    "mmm-capex",
    "What is the FY2018 capital expenditure amount (in USD millions) for 3M? Give a response to the question by relying on the details shown in the cash flow statement.",
    "MMM",
    mmm10k,
    [46, 49, 60],
    "capex"
  ),
  question("mmm-fcf", "What was 3M's free cash flow in 2018?", "MMM", mmm10k, [49], "free cash flow"),
  withFigure(
    "3193",
    "mmm-dividends",
    "How much did 3M pay in dividends to shareholders in FY2018?",
    "MMM",
    mmm10k,
    [47, 59, 60],
    "dividends"
  ),
  withFigure(
    "23.4",
    "mmm-tax-rate",
    "What was 3M's effective tax rate for full year 2018?",
    "MMM",
    mmm10k,
    [17],
    "tax rate"
  ),
  question("mmm-rd", "How much did 3M spend on R&D in 2018?", "MMM", mmm10k, [7, 56, 65], "R&D"),
  question("mmm-segments", "What are 3M's reportable business segments?", "MMM", mmm10k, [4], "segments"),
  question("mmm-employees", "How many employees did 3M have in the United States at the end of 2018?", "MMM", mmm10k, [
    39
  ], "employees"),
  question("mmm-pfas", "What regulatory and environmental risks does 3M face from PFOA and PFOS?", "MMM", mmm10k, [
    113,
    114,
    115
  ], "litigation"),
  question("mmm-debt", "Why did 3M's total debt increase in 2018?", "MMM", mmm10k, [43], "debt"),
  question(
    "mmm-dividend-per-share",
    "What quarterly dividend per share did 3M pay in 2018?",
    "MMM",
    mmm10k,
    [13, 14],
    "dividends"
  ),
  // Amcor earnings release (PDF).
  question(
    "amcr-outlook",
    "What adjusted EPS guidance did Amcor give for fiscal 2024?",
    "AMCR",
    amcr,
    [1, 5],
    "guidance"
  ),
  question("amcr-buyback", "How much stock did Amcor buy back in fiscal 2023?", "AMCR", amcr, [1, 2], "buybacks"),
  question("amcr-russia", "What gain did Amcor book on selling its Russian plants?", "AMCR", amcr, [2], "divestiture"),
  question("amcr-fcf", "Amcor adjusted free cash flow fiscal 2023", "AMCR", amcr, [1], "free cash flow"),
  question(
    "amcr-dividend",
    "What is Amcor's annual dividend per share after the increase?",
    "AMCR",
    amcr,
    [1],
    "dividends"
  ),
  // PepsiCo 8-K (PDF).
  question(
    "pep-credit",
    "What new revolving credit agreements did PepsiCo enter into in May 2023?",
    "PEP",
    "pdf/pep-8k-2023-05-30.pdf",
    [2],
    "8-K event"
  ),
  question(
    "pep-terminated",
    "Which credit facilities did PepsiCo terminate in 2023 and were any borrowings outstanding?",
    "PEP",
    "pdf/pep-8k-2023-05-30.pdf",
    [2],
    "8-K event"
  ),
  // Annual and quarterly reports (HTML).
  question(
    "aapl-employees",
    "How many full-time equivalent employees did Apple have at the end of fiscal 2024?",
    "AAPL",
    "10-K/aapl-10k-fy2024.htm",
    [6],
    "employees"
  ),
  question(
    "aapl-state-aid",
    "How did the European Commission State Aid Decision affect Apple's income taxes in 2024?",
    "AAPL",
    "10-K/aapl-10k-fy2024.htm",
    [27, 28],
    "tax"
  ),
  question(
    "aapl-dma",
    "What changes did Apple make to comply with the EU Digital Markets Act?",
    "AAPL",
    "10-K/aapl-10k-fy2024.htm",
    [12, 16, 20],
    "regulation"
  ),
  question(
    "aapl-buyback",
    "How many shares did Apple repurchase in fiscal 2024 and for how much?",
    "AAPL",
    "10-K/aapl-10k-fy2024.htm",
    [46],
    "buybacks"
  ),
  question(
    "aapl-china",
    "Apple Greater China net sales fiscal 2024 change",
    "AAPL",
    "10-K/aapl-10k-fy2024.htm",
    [24],
    "segments"
  ),
  question(
    "aapl-tariffs",
    "How could the new U.S. tariffs announced in 2025 affect Apple?",
    "AAPL",
    "10-Q/aapl-10q-2025-03-29.htm",
    [15],
    "risk"
  ),
  question(
    "nvda-china",
    "What share of NVIDIA's Data Center revenue came from China in fiscal 2024?",
    "NVDA",
    "10-K/nvda-10k-fy2024.htm",
    [20, 35],
    "segments"
  ),
  question(
    "nvda-export",
    "How do U.S. government export controls hurt NVIDIA's competitive position?",
    "NVDA",
    "10-K/nvda-10k-fy2024.htm",
    [10],
    "risk"
  ),
  question("goog-employees", "What was Alphabet's headcount at the end of 2023?", "GOOGL", "10-K/goog-10k-fy2023.htm", [
    11
  ], "employees"),
  question(
    "goog-epic",
    "What did the jury decide in Epic Games v. Google?",
    "GOOGL",
    "10-K/goog-10k-fy2023.htm",
    [21],
    "litigation"
  ),
  question(
    "goog-doj",
    "When did the DOJ start its antitrust investigation of Google?",
    "GOOGL",
    "10-K/goog-10k-fy2023.htm",
    [79],
    "litigation"
  ),
  question(
    "goog-severance",
    "How much severance did Alphabet record for its 2023 layoffs?",
    "GOOGL",
    "10-Q/goog-10q-2023-06-30.htm",
    [25],
    "restructuring"
  ),
  question(
    "gme-stores",
    "How many stores did GameStop close in fiscal 2023 and how many remain?",
    "GME",
    "10-K/gme-10k-fy2023.htm",
    [22],
    "operations"
  ),
  question(
    "gme-investments",
    "Who decides how GameStop invests its cash in securities?",
    "GME",
    "10-K/gme-10k-fy2023.htm",
    [21],
    "capital allocation"
  ),
  question("mara-mined", "How many bitcoin did Marathon Digital produce in 2023?", "MARA", "10-K/mara-10k-fy2023.htm", [
    6
  ], "operations"),
  question(
    "mara-weakness",
    "What material weaknesses did Marathon identify in internal control over financial reporting?",
    "MARA",
    "10-K/mara-10k-fy2023.htm",
    [13, 25],
    "controls"
  ),
  question(
    "mara-halving",
    "How does the bitcoin halving affect Marathon's mining rewards?",
    "MARA",
    "10-K/mara-10k-fy2023.htm",
    [7],
    "risk"
  ),
  question(
    "crr-russia",
    "Which Russian companies compete with CARBO in ceramic proppant?",
    "CRR",
    "10-K/crr-10k-fy2017.htm",
    [5],
    "competition"
  ),
  question(
    "crr-proppant",
    "What are the main types of proppant used in hydraulic fracturing and how do they compare on cost?",
    "CRR",
    "10-K/crr-10k-fy2017.htm",
    [3],
    "business"
  ),
  question(
    "aa-tariffs",
    "How did tariffs on imports from Canada affect Alcoa's aluminum segment in Q2 2018?",
    "AA",
    "10-Q/aa-10q-2018-06-30.htm",
    [43],
    "MD&A"
  ),
  question(
    "meta-ftc",
    "How much did Facebook accrue for the FTC inquiry in the first quarter of 2019?",
    "META",
    "10-Q/meta-10q-2019-03-31.htm",
    [21],
    "litigation"
  ),
  question(
    "meta-dau",
    "How many daily active users did Facebook have in March 2019?",
    "META",
    "10-Q/meta-10q-2019-03-31.htm",
    [25],
    "KPI"
  ),
  question(
    "wfc-consent",
    "What consent orders is Wells Fargo subject to?",
    "WFC",
    "10-K/wfc-10k-fy2024.htm",
    [8],
    "regulation"
  ),
  // Current reports and their releases.
  question(
    "aapl-notes",
    "What euro notes did Apple issue in November 2019?",
    "AAPL",
    "8-K/aapl-8k-2019-11-15-full-submission.txt",
    [2],
    "debt"
  ),
  question(
    "adbe-q1",
    "What were Adobe's Q1 fiscal 2023 revenue and Digital Media ARR?",
    "ADBE",
    "8-K/adbe-8k-2023-03-15-full-submission.txt",
    [1],
    "earnings",
    "99.1"
  ),
  question(
    "mmm-solventum",
    "When will 3M complete the Solventum spin-off and what is the record date?",
    "MMM",
    "8-K/mmm-8k-2024-03-08-full-submission.txt",
    [1],
    "8-K event",
    "99.1"
  ),
  question(
    "nvda-variable-comp",
    "What are the performance goals of NVIDIA's fiscal 2027 variable compensation plan?",
    "NVDA",
    "8-K/nvda-8k-2026-03-06-full-submission.txt",
    [2],
    "compensation"
  ),
  question(
    "jwn-salaries",
    "What base salaries did Nordstrom set for its executives in 2023?",
    "JWN",
    "8-K/jwn-8k-2023-03-06-full-submission.txt",
    [2],
    "compensation"
  ),
  question(
    "orcl-vote",
    "Which directors did Oracle stockholders elect at the 2024 annual meeting?",
    "ORCL",
    "8-K/orcl-8k-2024-11-14.htm",
    [2],
    "8-K event"
  ),
  question(
    "abvc-revenue",
    "How much did ABVC BioPharma's revenue grow in 2024?",
    "ABVC",
    "8-K/abvc-8k-2025-04-15-full-submission.txt",
    [1],
    "earnings",
    "99.1"
  ),
  question(
    "usb-net-income",
    "What was U.S. Bancorp's net income for full year 2021?",
    "USB",
    "press-releases/usb-8k-2022-01-ex99-1.htm",
    [1],
    "earnings"
  ),
  question(
    "usb-union-bank",
    "When does U.S. Bancorp expect to close the Union Bank acquisition?",
    "USB",
    "press-releases/usb-8k-2022-01-ex99-1.htm",
    [1],
    "M&A"
  ),
  question(
    "bke-q3",
    "What were Buckle's net income and comparable store sales for the third quarter of fiscal 2024?",
    "BKE",
    "press-releases/bke-8k-2024-11-22-ex99-1.htm",
    [1],
    "earnings"
  ),
  // Earnings calls.
  question(
    "aapl-call-supply",
    "What did Apple say about supply constraints in the December 2021 quarter?",
    "AAPL",
    "transcripts/aapl-q1-fy2022-earnings-call-prepared-and-qa.json",
    [1],
    "call"
  ),
  question(
    "aapl-call-fx",
    "How much did foreign exchange hurt Apple's December 2022 quarter?",
    "AAPL",
    "transcripts/aapl-q1-fy2023-earnings-call-speakers-named.json",
    [1],
    "call"
  ),
  question(
    "nvda-call-hopper",
    "NVIDIA data center revenue Hopper demand Q2 fiscal 2025 earnings call",
    "NVDA",
    "transcripts/nvda-q2-fy2025-earnings-call-prepared-and-qa.json",
    [1],
    "call"
  ),
  question(
    "msft-call-azure",
    "What did Microsoft management say about Azure on the Q1 FY2023 call?",
    "MSFT",
    "transcripts/msft-q1-fy2023-earnings-call.json",
    [1],
    "call"
  ),
  question(
    "mmm-call-guidance",
    "What EPS guidance range did 3M give on its third quarter 2021 call?",
    "MMM",
    "transcripts/mmm-q3-2021-earnings-call-ectsum.txt",
    [1],
    "call"
  ),
  question(
    "ko-call-away",
    "How did Coca-Cola's away-from-home channels recover in early 2021?",
    "KO",
    "transcripts/ko-q1-2021-earnings-call-ectsum.txt",
    [1],
    "call"
  ),
  question(
    "hd-call-pro",
    "Did Home Depot's Pro customers outpace DIY customers in Q3 2021?",
    "HD",
    "transcripts/hd-q3-2021-earnings-call-ectsum.txt",
    [1],
    "call"
  ),
  question(
    "mmm-call-organic",
    "What was 3M's organic growth in the first quarter of 2017?",
    "MMM",
    "transcripts/mmm-q1-2017-earnings-call-acl19.txt",
    [1],
    "call"
  ),
  question(
    "nke-call-digital",
    "How fast did Nike's owned digital business grow in fiscal 2021?",
    "NKE",
    "transcripts/nke-q4-2021-earnings-call-ectsum.txt",
    [1],
    "call"
  )
]
