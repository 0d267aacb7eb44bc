/**
 * Small synthetic inline XBRL documents for the metric rules: a cover (dei facts), contexts and
 * units in a hidden `ix:header`, and body facts given as raw `ix:nonFraction` markup.
 */

export interface ContextSpec {
  readonly id: string
  readonly start?: string
  readonly end?: string
  readonly instant?: string
  /** `dimension=member` pairs, written as explicit members of the segment. */
  readonly members?: ReadonlyArray<string>
}

const contextXml = (context: ContextSpec): string => {
  const period = context.instant !== undefined
    ? `<xbrli:instant>${context.instant}</xbrli:instant>`
    : `<xbrli:startDate>${context.start}</xbrli:startDate><xbrli:endDate>${context.end}</xbrli:endDate>`
  const segment = context.members === undefined || context.members.length === 0 ?
    "" :
    `<xbrli:segment>${
      context.members.map((pair) => {
        const [dimension, member] = pair.split("=")
        return `<xbrldi:explicitMember dimension="${dimension}">${member}</xbrldi:explicitMember>`
      }).join("")
    }</xbrli:segment>`
  return `<xbrli:context id="${context.id}"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001</xbrli:identifier>${segment}</xbrli:entity><xbrli:period>${period}</xbrli:period></xbrli:context>`
}

export interface DocumentSpec {
  readonly periodEnd: string
  readonly fiscalYear: string
  readonly fiscalPeriod: string
  readonly documentType?: string
  /** The document's own context; defaults to the fiscal year ending at `periodEnd`. */
  readonly documentContext?: ContextSpec
  readonly contexts: ReadonlyArray<ContextSpec>
  readonly body: string
}

/** An inline XBRL document with the usual units `usd`, `shares` and `usdPerShare`. */
export const inlineDocument = (spec: DocumentSpec): string => {
  const documentContext = spec.documentContext ?? { id: "doc", start: "2023-10-01", end: spec.periodEnd }
  return `<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"><body>
<div style="display:none"><ix:header><ix:hidden>
<ix:nonNumeric name="dei:DocumentType" contextRef="${documentContext.id}">${spec.documentType ?? "10-K"}</ix:nonNumeric>
<ix:nonNumeric name="dei:DocumentFiscalYearFocus" contextRef="${documentContext.id}">${spec.fiscalYear}</ix:nonNumeric>
<ix:nonNumeric name="dei:DocumentFiscalPeriodFocus" contextRef="${documentContext.id}">${spec.fiscalPeriod}</ix:nonNumeric>
</ix:hidden><ix:resources>
${[documentContext, ...spec.contexts].map(contextXml).join("\n")}
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
<xbrli:unit id="eur"><xbrli:measure>iso4217:EUR</xbrli:measure></xbrli:unit>
<xbrli:unit id="shares"><xbrli:measure>xbrli:shares</xbrli:measure></xbrli:unit>
<xbrli:unit id="usdPerShare"><xbrli:divide><xbrli:unitNumerator><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unitNumerator><xbrli:unitDenominator><xbrli:measure>xbrli:shares</xbrli:measure></xbrli:unitDenominator></xbrli:divide></xbrli:unit>
</ix:resources></ix:header></div>
<p>For the period ended <ix:nonNumeric name="dei:DocumentPeriodEndDate" contextRef="${documentContext.id}" format="ixt:date-monthname-day-year-en">${
    longDate(spec.periodEnd)
  }</ix:nonNumeric></p>
<table>${spec.body}</table>
</body></html>`
}

const monthNames = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December"
]
const longDate = (iso: string): string => {
  const [year, month, day] = iso.split("-")
  return `${monthNames[Number(month) - 1]} ${Number(day)}, ${year}`
}

/** A numeric fact as a table cell. */
export const nonFraction = (
  name: string,
  contextRef: string,
  text: string,
  attributes: Record<string, string> = {}
): string => {
  const extra = Object.entries({
    unitRef: "usd",
    decimals: "-6",
    scale: "6",
    format: "ixt:num-dot-decimal",
    ...attributes
  })
    .map(([key, value]) => ` ${key}="${value}"`).join("")
  return `<tr><td><ix:nonFraction name="${name}" contextRef="${contextRef}"${extra}>${text}</ix:nonFraction></td></tr>`
}

/** Fiscal year 2024 (ending 2024-09-28) and the year before, as in a 10-K. */
export const annualContexts: ReadonlyArray<ContextSpec> = [
  { id: "fy24", start: "2023-10-01", end: "2024-09-28" },
  { id: "fy23", start: "2022-09-25", end: "2023-09-30" },
  { id: "i24", instant: "2024-09-28" },
  { id: "i23", instant: "2023-09-30" },
  { id: "cover", instant: "2024-10-18" }
]

/** A small inline XBRL 10-K for fiscal 2024: revenue of both years (in millions) and net income. */
export const annualReportFy2024 = inlineDocument({
  periodEnd: "2024-09-28",
  fiscalYear: "2024",
  fiscalPeriod: "FY",
  contexts: annualContexts,
  body: [
    nonFraction("us-gaap:Revenues", "fy24", "391,035"),
    nonFraction("us-gaap:Revenues", "fy23", "383,285"),
    nonFraction("us-gaap:NetIncomeLoss", "fy24", "93,736")
  ].join("")
})
