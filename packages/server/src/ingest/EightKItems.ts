/**
 * The items of Form 8-K. Submission headers name them by title ("Results of Operations and
 * Financial Condition"); the API names them by number (`Item 2.02`).
 */

const itemTitles: ReadonlyArray<readonly [string, string]> = [
  ["1.01", "Entry into a Material Definitive Agreement"],
  ["1.02", "Termination of a Material Definitive Agreement"],
  ["1.03", "Bankruptcy or Receivership"],
  ["1.04", "Mine Safety - Reporting of Shutdowns and Patterns of Violations"],
  ["1.05", "Material Cybersecurity Incidents"],
  ["2.01", "Completion of Acquisition or Disposition of Assets"],
  ["2.02", "Results of Operations and Financial Condition"],
  ["2.03", "Creation of a Direct Financial Obligation"],
  ["2.04", "Triggering Events That Accelerate or Increase a Direct Financial Obligation"],
  ["2.05", "Costs Associated with Exit or Disposal Activities"],
  ["2.06", "Material Impairments"],
  ["3.01", "Notice of Delisting or Failure to Satisfy a Continued Listing Rule or Standard"],
  ["3.02", "Unregistered Sales of Equity Securities"],
  ["3.03", "Material Modification to Rights of Security Holders"],
  ["4.01", "Changes in Registrant's Certifying Accountant"],
  ["4.02", "Non-Reliance on Previously Issued Financial Statements"],
  ["5.01", "Changes in Control of Registrant"],
  ["5.02", "Departure of Directors or Certain Officers"],
  ["5.03", "Amendments to Articles of Incorporation or Bylaws"],
  ["5.04", "Temporary Suspension of Trading Under Registrant's Employee Benefit Plans"],
  ["5.05", "Amendments to the Registrant's Code of Ethics"],
  ["5.06", "Change in Shell Company Status"],
  ["5.07", "Submission of Matters to a Vote of Security Holders"],
  ["5.08", "Shareholder Director Nominations"],
  ["6.01", "ABS Informational and Computational Material"],
  ["6.02", "Change of Servicer or Trustee"],
  ["6.03", "Change in Credit Enhancement or Other External Support"],
  ["6.04", "Failure to Make a Required Distribution"],
  ["6.05", "Securities Act Updating Disclosure"],
  ["6.06", "Static Pool"],
  ["7.01", "Regulation FD Disclosure"],
  ["8.01", "Other Events"],
  ["9.01", "Financial Statements and Exhibits"]
]

// Headers abbreviate and vary punctuation, so titles are compared as lower-case letters and digits.
const normalize = (title: string) => title.toLowerCase().replace(/[^a-z0-9]/g, "")

const byTitle = itemTitles.map(([number, title]) => [normalize(title), number] as const)

/** `Item 2.02` for "Results of Operations and Financial Condition"; undefined for an unknown title. */
export const itemFromTitle = (title: string): string | undefined => {
  const normalized = normalize(title)
  if (normalized === "") return undefined
  const match = byTitle.find(([known]) => normalized.startsWith(known) || known.startsWith(normalized))
  return match === undefined ? undefined : `Item ${match[1]}`
}
