/**
 * Small synthetic EDGAR submissions for contract tests: each carries its own accession number,
 * form, dates and company in an SGML header, and an HTML body laid out the way its form is (item
 * headings in bold, a financial table with "$" and ")" in cells of their own).
 */
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { compactDate, submissionHeader } from "./sgmlHeader.js"

export interface SyntheticFiling {
  readonly accession: string
  readonly form: string
  readonly filedAsOf: string
  readonly periodOfReport: string
}

const heading = (text: string) => `<p style="font-weight:bold">${text}</p>`

const financialTable = [
  "<table>",
  "<tr><td></td><td colspan=\"3\">2024</td><td colspan=\"3\">2023</td></tr>",
  "<tr><td>Revenue</td><td>$</td><td>1,250</td><td></td><td>$</td><td>1,100</td><td></td></tr>",
  "<tr><td>Net loss</td><td></td><td>(75</td><td>)</td><td></td><td>(20</td><td>)</td></tr>",
  "</table>"
]

const paragraph = (subject: string, period: string) =>
  `<p>Contract Test Corp reports on ${subject} for the period ended ${period}. ` +
  "The company makes test fixtures for contract tests and sells them to engineers who check APIs.</p>"

/** The body of a filing of `form`: the items its form has, each with some text. */
const body = (filing: SyntheticFiling): ReadonlyArray<string> => {
  const period = filing.periodOfReport
  switch (filing.form) {
    case "10-K":
      return [
        heading("PART I"),
        heading("Item 1. Business"),
        paragraph("its business", period),
        heading("Item 1A. Risk Factors"),
        paragraph("the risks it faces", period),
        heading("PART II"),
        heading("Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations"),
        paragraph("its results of operations", period),
        ...financialTable
      ]
    case "10-Q":
      return [
        heading("PART I — FINANCIAL INFORMATION"),
        heading("Item 1. Financial Statements"),
        ...financialTable,
        heading("Item 2. Management's Discussion and Analysis of Financial Condition and Results of Operations"),
        paragraph("its quarter", period),
        heading("PART II — OTHER INFORMATION"),
        heading("Item 1A. Risk Factors"),
        paragraph("the risks it faces this quarter", period),
        heading("Item 6. Exhibits"),
        "<p>None.</p>"
      ]
    default:
      return [
        heading("Item 2.02 Results of Operations and Financial Condition."),
        paragraph("its results", period),
        ...financialTable,
        heading("Item 9.01 Financial Statements and Exhibits."),
        "<p>Exhibit 99.1 Press release.</p>"
      ]
  }
}

export const submission = (filing: SyntheticFiling): string =>
  [
    ...submissionHeader({
      accession: filing.accession,
      form: filing.form,
      filedAsOf: filing.filedAsOf,
      periodOfReport: filing.periodOfReport,
      documentCount: 1,
      companyName: "CONTRACT TEST CORP",
      cik: "0000999999",
      fiscalYearEnd: "1231"
    }),
    "<DOCUMENT>",
    `<TYPE>${filing.form}`,
    "<SEQUENCE>1",
    `<FILENAME>ctc-${compactDate(filing.periodOfReport)}.htm`,
    `<DESCRIPTION>${filing.form}`,
    "<TEXT>",
    "<html><body>",
    `<p style="text-align:center;font-weight:bold">FORM ${filing.form}</p>`,
    ...body(filing),
    "<p>SIGNATURES</p>",
    "</body></html>",
    "</TEXT>",
    "</DOCUMENT>",
    "</SEC-DOCUMENT>",
    ""
  ].join("\n")

/** Writes the submission of `filing` to `directory` as `fileName`, for `filings ingest`; answers the file's path. */
export const writeSubmission = async (
  directory: string,
  fileName: string,
  filing: SyntheticFiling
): Promise<string> => {
  const file = join(directory, fileName)
  await writeFile(file, submission(filing))
  return file
}
