/**
 * Small synthetic EDGAR submissions for contract tests: each carries its own accession number,
 * form, dates and company in an SGML header, and an HTML body with a financial table.
 */
export interface SyntheticFiling {
  readonly accession: string
  readonly form: string
  readonly filedAsOf: string
  readonly periodOfReport: string
}

const compact = (date: string) => date.replace(/-/g, "")

export const submission = (filing: SyntheticFiling): string =>
  [
    `<SEC-DOCUMENT>${filing.accession}.txt : ${compact(filing.filedAsOf)}`,
    `<SEC-HEADER>${filing.accession}.hdr.sgml : ${compact(filing.filedAsOf)}`,
    `ACCESSION NUMBER:\t\t${filing.accession}`,
    `CONFORMED SUBMISSION TYPE:\t${filing.form}`,
    "PUBLIC DOCUMENT COUNT:\t\t1",
    `CONFORMED PERIOD OF REPORT:\t${compact(filing.periodOfReport)}`,
    `FILED AS OF DATE:\t\t${compact(filing.filedAsOf)}`,
    "",
    "FILER:",
    "",
    "\tCOMPANY DATA:\t",
    "\t\tCOMPANY CONFORMED NAME:\t\t\tCONTRACT TEST CORP",
    "\t\tCENTRAL INDEX KEY:\t\t\t0000999999",
    "\t\tFISCAL YEAR END:\t\t\t1231",
    "</SEC-HEADER>",
    "<DOCUMENT>",
    `<TYPE>${filing.form}`,
    "<SEQUENCE>1",
    `<FILENAME>ctc-${compact(filing.periodOfReport)}.htm`,
    `<DESCRIPTION>${filing.form}`,
    "<TEXT>",
    "<html><body>",
    `<p style="font-weight:bold">Item 2. Management's Discussion and Analysis</p>`,
    `<p>Contract Test Corp reports results for the period ended ${filing.periodOfReport}.</p>`,
    "<table>",
    // Laid out as EDGAR lays out financial tables: "$" and ")" in cells of their own.
    "<tr><td></td><td colspan=\"3\">2024</td><td colspan=\"3\">2023</td></tr>",
    "<tr><td>Revenue</td><td>$</td><td>1,250</td><td></td><td>$</td><td>1,100</td><td></td></tr>",
    "<tr><td>Net loss</td><td></td><td>(75</td><td>)</td><td></td><td>(20</td><td>)</td></tr>",
    "</table>",
    "</body></html>",
    "</TEXT>",
    "</DOCUMENT>",
    "</SEC-DOCUMENT>",
    ""
  ].join("\n")
