/**
 * @filings/edgar: the regulator's EDGAR system, read within its fair-access rules.
 */
export {}
