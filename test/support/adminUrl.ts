/**
 * Where the tests find a PostgreSQL server: an admin URL in `FILINGS_TEST_DATABASE_URL` (CI sets
 * it). The libraries take the URL from their caller; this is the one place the tests read it.
 */

/** The variable the project's tests read the PostgreSQL admin URL from. */
export const adminUrlVariable = "FILINGS_TEST_DATABASE_URL"

/** The admin URL, or `undefined` where PostgreSQL tests are to be skipped. */
export const adminUrl: string | undefined = process.env[adminUrlVariable] || undefined

/** The title of tests that need PostgreSQL: where there is none to test on, it says they are skipped and why. */
export const titleNeedingPostgres = (title: string): string =>
  adminUrl === undefined ? `${title} (skipped: set ${adminUrlVariable} to an admin URL)` : title
