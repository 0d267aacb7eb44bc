/**
 * Item catalogs of the periodic and current report forms (10-K, 10-Q, 8-K, 20-F): each item's key,
 * its canonical title (the form's own wording, not the filer's) and the aliases readers use
 * (`MD&A`, `Risk Factors`). Section names and the `?section=` filter are both built from here.
 */

/** One item of a form. */
export interface CatalogItem {
  /** The item key of the API: `1A` (10-K), `2.02` (8-K), `part2item1a` (10-Q), `16A` (20-F). */
  readonly key: string
  /** The item number as printed: `1A`, `2.02`. */
  readonly number: string
  /** 10-Q only: the part the item belongs to. */
  readonly part?: 1 | 2 | undefined
  readonly title: string
  /** Other names of the item, compared after normalisation (see `normalizeQuery`). */
  readonly aliases: ReadonlyArray<string>
}

/** The forms whose items are catalogued. */
export type ItemForm = "10-K" | "10-Q" | "8-K" | "20-F"

export interface FormCatalog {
  readonly form: ItemForm
  /** In the order the items appear in a filing. */
  readonly items: ReadonlyArray<CatalogItem>
}

type Entry = readonly [number: string, title: string, ...aliases: Array<string>]

const mdna = ["MD&A", "MDA", "Management's Discussion and Analysis"]

const tenK: ReadonlyArray<Entry> = [
  ["1", "Business"],
  ["1A", "Risk Factors", "Risks"],
  ["1B", "Unresolved Staff Comments"],
  ["1C", "Cybersecurity"],
  ["2", "Properties"],
  ["3", "Legal Proceedings", "Litigation"],
  ["4", "Mine Safety Disclosures", "Submission of Matters to a Vote of Security Holders"],
  [
    "5",
    "Market for Registrant's Common Equity, Related Stockholder Matters and Issuer Purchases of Equity Securities",
    "Market for Registrant's Common Equity"
  ],
  ["6", "[Reserved]", "Selected Financial Data", "Reserved"],
  ["7", "Management's Discussion and Analysis of Financial Condition and Results of Operations", ...mdna],
  ["7A", "Quantitative and Qualitative Disclosures About Market Risk", "Market Risk"],
  ["8", "Financial Statements and Supplementary Data", "Financial Statements"],
  ["9", "Changes in and Disagreements with Accountants on Accounting and Financial Disclosure"],
  ["9A", "Controls and Procedures"],
  ["9B", "Other Information"],
  ["9C", "Disclosure Regarding Foreign Jurisdictions that Prevent Inspections"],
  ["10", "Directors, Executive Officers and Corporate Governance"],
  ["11", "Executive Compensation"],
  [
    "12",
    "Security Ownership of Certain Beneficial Owners and Management and Related Stockholder Matters",
    "Security Ownership"
  ],
  ["13", "Certain Relationships and Related Transactions, and Director Independence"],
  ["14", "Principal Accountant Fees and Services"],
  ["15", "Exhibits and Financial Statement Schedules", "Exhibits"],
  ["16", "Form 10-K Summary"]
]

const tenQPart1: ReadonlyArray<Entry> = [
  ["1", "Financial Statements"],
  ["2", "Management's Discussion and Analysis of Financial Condition and Results of Operations", ...mdna],
  ["3", "Quantitative and Qualitative Disclosures About Market Risk", "Market Risk"],
  ["4", "Controls and Procedures"]
]

const tenQPart2: ReadonlyArray<Entry> = [
  ["1", "Legal Proceedings", "Litigation"],
  ["1A", "Risk Factors", "Risks"],
  ["2", "Unregistered Sales of Equity Securities and Use of Proceeds"],
  ["3", "Defaults Upon Senior Securities"],
  ["4", "Mine Safety Disclosures"],
  ["5", "Other Information"],
  ["6", "Exhibits"]
]

// Current items (since August 2004) and the legacy numbering (1-12) older 8-Ks use; the two
// numberings never clash because current items always have two decimals.
const eightK: ReadonlyArray<Entry> = [
  ["1", "Changes in Control of Registrant"],
  ["1.01", "Entry into a Material Definitive Agreement"],
  ["1.02", "Termination of a Material Definitive Agreement"],
  ["1.03", "Bankruptcy or Receivership"],
  ["1.04", "Mine Safety - Reporting of Shutdowns and Patterns of Violations"],
  ["1.05", "Material Cybersecurity Incidents"],
  ["2", "Acquisition or Disposition of Assets"],
  ["2.01", "Completion of Acquisition or Disposition of Assets"],
  ["2.02", "Results of Operations and Financial Condition", "Earnings", "Results of Operations"],
  [
    "2.03",
    "Creation of a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement of a Registrant"
  ],
  [
    "2.04",
    "Triggering Events That Accelerate or Increase a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement"
  ],
  ["2.05", "Costs Associated with Exit or Disposal Activities"],
  ["2.06", "Material Impairments"],
  ["3", "Bankruptcy or Receivership"],
  ["3.01", "Notice of Delisting or Failure to Satisfy a Continued Listing Rule or Standard; Transfer of Listing"],
  ["3.02", "Unregistered Sales of Equity Securities"],
  ["3.03", "Material Modification to Rights of Security Holders"],
  ["4", "Changes in Registrant's Certifying Accountant"],
  ["4.01", "Changes in Registrant's Certifying Accountant"],
  [
    "4.02",
    "Non-Reliance on Previously Issued Financial Statements or a Related Audit Report or Completed Interim Review"
  ],
  ["5", "Other Events"],
  ["5.01", "Changes in Control of Registrant"],
  [
    "5.02",
    "Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers; Compensatory Arrangements of Certain Officers"
  ],
  ["5.03", "Amendments to Articles of Incorporation or Bylaws; Change in Fiscal Year"],
  ["5.04", "Temporary Suspension of Trading Under Registrant's Employee Benefit Plans"],
  ["5.05", "Amendments to the Registrant's Code of Ethics, or Waiver of a Provision of the Code of Ethics"],
  ["5.06", "Change in Shell Company Status"],
  ["5.07", "Submission of Matters to a Vote of Security Holders"],
  ["5.08", "Shareholder Director Nominations"],
  ["6", "Resignations of Registrant's Directors"],
  ["6.01", "ABS Informational and Computational Material"],
  ["6.02", "Change of Servicer or Trustee"],
  ["6.03", "Change in Credit Enhancement or Other External Support"],
  ["6.04", "Failure to Make a Required Distribution"],
  ["6.05", "Securities Act Updating Disclosure"],
  ["6.06", "Static Pool"],
  ["7", "Financial Statements and Exhibits"],
  ["7.01", "Regulation FD Disclosure", "Reg FD"],
  ["8", "Change in Fiscal Year"],
  ["8.01", "Other Events"],
  ["9", "Regulation FD Disclosure"],
  ["9.01", "Financial Statements and Exhibits", "Exhibits"],
  ["10", "Amendments to the Registrant's Code of Ethics, or Waiver of a Provision of the Code of Ethics"],
  ["11", "Temporary Suspension of Trading Under Registrant's Employee Benefit Plans"],
  ["12", "Results of Operations and Financial Condition"]
]

const twentyF: ReadonlyArray<Entry> = [
  ["1", "Identity of Directors, Senior Management and Advisers"],
  ["2", "Offer Statistics and Expected Timetable"],
  ["3", "Key Information", "Risk Factors"],
  ["4", "Information on the Company", "Business"],
  ["4A", "Unresolved Staff Comments"],
  ["5", "Operating and Financial Review and Prospects", "Operating and Financial Review", "MD&A"],
  ["6", "Directors, Senior Management and Employees"],
  ["7", "Major Shareholders and Related Party Transactions"],
  ["8", "Financial Information"],
  ["9", "The Offer and Listing"],
  ["10", "Additional Information"],
  ["11", "Quantitative and Qualitative Disclosures About Market Risk", "Market Risk"],
  ["12", "Description of Securities Other than Equity Securities"],
  ["13", "Defaults, Dividend Arrearages and Delinquencies"],
  ["14", "Material Modifications to the Rights of Security Holders and Use of Proceeds"],
  ["15", "Controls and Procedures"],
  ["16", "[Reserved]"],
  ["16A", "Audit Committee Financial Expert"],
  ["16B", "Code of Ethics"],
  ["16C", "Principal Accountant Fees and Services"],
  ["16D", "Exemptions from the Listing Standards for Audit Committees"],
  ["16E", "Purchases of Equity Securities by the Issuer and Affiliated Purchasers"],
  ["16F", "Change in Registrant's Certifying Accountant"],
  ["16G", "Corporate Governance"],
  ["16H", "Mine Safety Disclosure"],
  ["16I", "Disclosure Regarding Foreign Jurisdictions that Prevent Inspections"],
  ["16J", "Insider Trading Policies"],
  ["16K", "Cybersecurity"],
  ["17", "Financial Statements"],
  ["18", "Financial Statements"],
  ["19", "Exhibits"]
]

const toItems = (entries: ReadonlyArray<Entry>, part?: 1 | 2): Array<CatalogItem> =>
  entries.map(([number, title, ...aliases]) => ({
    key: part === undefined ? number : `part${part}item${number.toLowerCase()}`,
    number,
    part,
    title,
    aliases
  }))

const catalogs: Record<ItemForm, FormCatalog> = {
  "10-K": { form: "10-K", items: toItems(tenK) },
  "10-Q": { form: "10-Q", items: [...toItems(tenQPart1, 1), ...toItems(tenQPart2, 2)] },
  "8-K": { form: "8-K", items: toItems(eightK) },
  "20-F": { form: "20-F", items: toItems(twentyF) }
}

/**
 * The item form a form type belongs to: `10-K405`, `10-KSB`, `10-K/A`, `10-KT` are 10-Ks; `10-QSB`
 * a 10-Q; `8-K/A`, `8-K12B` 8-Ks; `20-F/A` a 20-F. Other forms (S-1, 6-K, DEF 14A) have no items.
 */
export const itemFormOf = (form: string | undefined): ItemForm | undefined => {
  if (form === undefined) return undefined
  const normalized = form.toUpperCase().replace(/\s+/g, "")
  if (/^10-?K/.test(normalized)) return "10-K"
  if (/^10-?Q/.test(normalized)) return "10-Q"
  if (/^8-?K/.test(normalized)) return "8-K"
  if (/^20-?F/.test(normalized)) return "20-F"
  return undefined
}

export const catalogFor = (form: ItemForm): FormCatalog => catalogs[form]

interface TitleVariant {
  /** Matched against the filer's heading, normalised (`normalizeQuery`): PDFs split words ("Dat a"). */
  readonly heading: RegExp
  readonly title: string
  /** The variant is the item's title in filings whose period ends before this date (ISO), whatever the heading. */
  readonly until?: string | undefined
}

// Items whose title changed over the years: a filing's item gets its own era's title, told by the
// filer's heading, else by the period the filing reports on.
const variants: Record<ItemForm, Record<string, ReadonlyArray<TitleVariant>>> = {
  "10-K": {
    // Item 4 was "Submission of Matters..." until the proxy disclosure rules of 28 February 2010.
    "4": [{
      heading: /submissionofmatters/,
      title: "Submission of Matters to a Vote of Security Holders",
      until: "2010-02-28"
    }],
    // Item 6 became "[Reserved]" for fiscal years ending on or after 9 August 2021 (earlier by choice).
    "6": [{ heading: /selected(?:consolidated)?financialdata/, title: "Selected Financial Data", until: "2021-08-09" }],
    "14": [{ heading: /exhibit/, title: "Exhibits, Financial Statement Schedules and Reports on Form 8-K" }]
  },
  "10-Q": {
    "part2item4": [{ heading: /submissionofmatters/, title: "Submission of Matters to a Vote of Security Holders" }]
  },
  "8-K": {},
  "20-F": {
    "15": [{ heading: /reserved/, title: "[Reserved]" }],
    "16": [{ heading: /reserved/, title: "[Reserved]" }]
  }
}

/**
 * The canonical title of an item in the filing's era: the older title the filer's heading names, else the
 * current one when the heading names it, else the title of the era `periodEnd` (ISO) falls in.
 */
export const canonicalTitle = (
  form: ItemForm,
  item: CatalogItem,
  filerTitle?: string | undefined,
  periodEnd?: string | undefined
): string => {
  const itemVariants = variants[form][item.key] ?? []
  const heading = filerTitle === undefined ? "" : normalizeQuery(filerTitle)
  const named = itemVariants.find((variant) => variant.heading.test(heading))
  if (named !== undefined) return named.title
  const current = normalizeQuery(item.title)
  if (heading !== "" && current !== "" && heading.includes(current)) return item.title
  const ofEra = itemVariants.find((variant) =>
    periodEnd !== undefined && variant.until !== undefined && periodEnd < variant.until
  )
  return ofEra?.title ?? item.title
}

/** The titles an item had in earlier eras ("Selected Financial Data" for a 10-K's Item 6). */
export const earlierTitles = (form: ItemForm, item: CatalogItem): ReadonlyArray<string> =>
  (variants[form][item.key] ?? []).map((variant) => variant.title)

/** The API's section name of an item, `Item <n>. <title>`: `Item 1A. Risk Factors`, `Item 2.02. Results of ...`. */
export const itemSectionName = (
  form: ItemForm,
  item: CatalogItem,
  filerTitle?: string | undefined,
  periodEnd?: string | undefined
): string => `Item ${item.number}. ${canonicalTitle(form, item, filerTitle, periodEnd)}`

/** Lower case, `&` as `and`, curly quotes straightened, punctuation and spaces dropped. */
export const normalizeQuery = (text: string): string =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/&/g, "and")
    .replace(/[^a-z0-9]/g, "")
