/**
 * The opening of a synthetic EDGAR submission, `<SEC-DOCUMENT>` through `</SEC-HEADER>`, as the
 * regulator writes it: the lines the parser reads for accession number, form, dates and filer.
 */
export interface SubmissionHeader {
  readonly accession: string
  readonly form: string
  /** ISO dates. */
  readonly filedAsOf: string
  readonly periodOfReport: string
  readonly documentCount: number
  /** `ITEM INFORMATION` lines of an 8-K: the items' titles. */
  readonly itemTitles?: ReadonlyArray<string> | undefined
  readonly companyName: string
  readonly cik: string
  /** `MMDD`; left out when absent. */
  readonly fiscalYearEnd?: string | undefined
}

/** `2024-11-05` as the header writes it: `20241105`. */
export const compactDate = (date: string) => date.replace(/-/g, "")

export const submissionHeader = (header: SubmissionHeader): ReadonlyArray<string> => [
  `<SEC-DOCUMENT>${header.accession}.txt : ${compactDate(header.filedAsOf)}`,
  `<SEC-HEADER>${header.accession}.hdr.sgml : ${compactDate(header.filedAsOf)}`,
  `ACCESSION NUMBER:\t\t${header.accession}`,
  `CONFORMED SUBMISSION TYPE:\t${header.form}`,
  `PUBLIC DOCUMENT COUNT:\t\t${header.documentCount}`,
  `CONFORMED PERIOD OF REPORT:\t${compactDate(header.periodOfReport)}`,
  ...(header.itemTitles ?? []).map((title) => `ITEM INFORMATION:\t\t${title}`),
  `FILED AS OF DATE:\t\t${compactDate(header.filedAsOf)}`,
  "",
  "FILER:",
  "",
  "\tCOMPANY DATA:\t",
  `\t\tCOMPANY CONFORMED NAME:\t\t\t${header.companyName}`,
  `\t\tCENTRAL INDEX KEY:\t\t\t${header.cik}`,
  ...(header.fiscalYearEnd === undefined ? [] : [`\t\tFISCAL YEAR END:\t\t\t${header.fiscalYearEnd}`]),
  "</SEC-HEADER>"
]
