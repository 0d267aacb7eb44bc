/**
 * A synthetic 10-K with many small financial tables and an exhibit index, as a full submission
 * (the primary document and two of its exhibits) or as the primary document alone. The index
 * lists an exhibit incorporated by reference (3.1), two the submission carries (10.1, 31.1) and
 * exhibit 104, which lives inside the primary document.
 */
import { submissionHeader } from "./sgmlHeader.js"

export interface SyntheticTenK {
  readonly accession: string
  readonly cik: string
  readonly companyName: string
  /** ISO date. */
  readonly filedAsOf: string
  readonly tableCount: number
}

const bold = (text: string) => `<p style="font-weight:bold">${text}</p>`

const schedule = (index: number): string =>
  [
    bold(`Schedule ${index} of segment results`),
    "<table>",
    "<tr><td></td><td colspan=\"3\">2024</td><td colspan=\"3\">2023</td></tr>",
    `<tr><td>Revenue of line ${index}</td><td>$</td><td>1,${100 + index}</td><td></td><td>$</td><td>1,100</td></tr>`,
    `<tr><td>Cost of line ${index}</td><td></td><td>(75</td><td>)</td><td></td><td>(20</td><td>)</td></tr>`,
    "</table>"
  ].join("\n")

/** The 10-K's own HTML: `tableCount` tables in Item 8 and the exhibit index (one table more) in Item 15. */
export const tenKDocument = (filing: SyntheticTenK): string =>
  [
    "<html><body>",
    "<p style=\"text-align:center;font-weight:bold\">FORM 10-K</p>",
    bold("PART II"),
    bold("Item 8. Financial Statements and Supplementary Data"),
    ...Array.from({ length: filing.tableCount }, (_, index) => schedule(index + 1)),
    bold("PART IV"),
    bold("Item 15. Exhibits and Financial Statement Schedules"),
    "<table>",
    "<tr><td>Exhibit Number</td><td>Exhibit Description</td></tr>",
    "<tr><td>3.1</td><td>Restated Certificate of Incorporation (incorporated by reference to Exhibit 3.1 " +
    "to the Form 8-K filed May 1, 2020)</td></tr>",
    "<tr><td>10.1</td><td>Supply Agreement dated January 2, 2024</td></tr>",
    "<tr><td>31.1</td><td>Certification of the Chief Executive Officer</td></tr>",
    "<tr><td>104</td><td>Cover Page Interactive Data File (embedded within the Inline XBRL document)</td></tr>",
    "</table>",
    "<p>SIGNATURES</p>",
    "</body></html>"
  ].join("\n")

const exhibitDocument = (type: string, sequence: number, description: string, html: string) => [
  "<DOCUMENT>",
  `<TYPE>${type}`,
  `<SEQUENCE>${sequence}`,
  `<FILENAME>${type.toLowerCase().replace(/[^a-z0-9]/g, "")}.htm`,
  `<DESCRIPTION>${description}`,
  "<TEXT>",
  html,
  "</TEXT>",
  "</DOCUMENT>"
]

/** The full submission: header, the 10-K, and its EX-10.1 and EX-31.1 documents. */
export const tenKSubmission = (filing: SyntheticTenK): string =>
  [
    ...submissionHeader({
      accession: filing.accession,
      form: "10-K",
      filedAsOf: filing.filedAsOf,
      periodOfReport: "2024-03-31",
      documentCount: 3,
      companyName: filing.companyName,
      cik: filing.cik,
      fiscalYearEnd: "0331"
    }),
    "<DOCUMENT>",
    "<TYPE>10-K",
    "<SEQUENCE>1",
    "<FILENAME>primary-10k.htm",
    "<DESCRIPTION>10-K",
    "<TEXT>",
    tenKDocument(filing),
    "</TEXT>",
    "</DOCUMENT>",
    ...exhibitDocument(
      "EX-10.1",
      2,
      "SUPPLY AGREEMENT",
      "<html><body><h1>Supply Agreement</h1><p>This agreement is made on January 2, 2024.</p></body></html>"
    ),
    ...exhibitDocument(
      "EX-31.1",
      3,
      "CERTIFICATION",
      "<html><body><h1>Certification</h1><p>I certify that I have reviewed this report.</p></body></html>"
    ),
    "</SEC-DOCUMENT>",
    ""
  ].join("\n")
