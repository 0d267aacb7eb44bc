/**
 * Which XBRL concepts answer each metric, in order of preference. The first concept the filing
 * reports for the period wins; a metric whose concepts are all absent is omitted, never guessed.
 *
 * Choices:
 * - revenue: the total `Revenues` first, then the ASC 606 concepts and the pre-2018 `SalesRevenue*`.
 *   Banks and insurers often tag only interest or premium income: those are not revenue and are not
 *   listed, so such filings carry no revenue unless they tag `Revenues` themselves.
 * - net_income: `NetIncomeLoss` (attributable to the parent) first; `ProfitLoss` (including
 *   non-controlling interests) only when the former is absent; the amount available to common
 *   stockholders last.
 * - total_debt is read from several tag families and checked against the debt note's total: see
 *   `totalDebt.ts`.
 * - total_liabilities: `Liabilities` only. Many filers omit it; it is then absent rather than derived.
 * - cash_and_equivalents: `CashAndCashEquivalentsAtCarryingValue`, and the figure including restricted
 *   cash only when the former is absent.
 * - shares_outstanding: the cover page `dei:EntityCommonStockSharesOutstanding` (at its own date),
 *   then the balance sheet `CommonStockSharesOutstanding`. Filers with several share classes tag the
 *   cover per class (dimensions): no total is then reported, and the metric is absent.
 * - IFRS filers: the main `ifrs-full` concepts are listed after the US GAAP ones.
 */
import { ExtractionApi } from "@filings/domain"

/** The metric names of the API, in its order. */
export const metricNames = ExtractionApi.MetricNames

/** A metric name of the API: `revenue`, `eps_diluted`, ... (those of `@filings/domain`'s `ExtractionApi.MetricNames`). */
export type MetricName = (typeof ExtractionApi.MetricNames)[number]

/** What a metric measures: a flow over the period, a balance at its end, or a per-share amount. */
export type MetricKind = "duration" | "instant"

/** The unit class a metric's fact must have. */
export type MetricUnit = "currency" | "perShare" | "shares"

export interface MetricConcepts {
  readonly kind: MetricKind
  readonly unit: MetricUnit
  readonly concepts: ReadonlyArray<string>
}

/** A metric read straight from one concept (book value per share and total debt are derived). */
export type ConceptMetricName = Exclude<MetricName, "book_value_per_share" | "total_debt">

export const metricConcepts: { readonly [K in ConceptMetricName]: MetricConcepts } = {
  revenue: {
    kind: "duration",
    unit: "currency",
    concepts: [
      "us-gaap:Revenues",
      "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax",
      "us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax",
      "us-gaap:SalesRevenueNet",
      "us-gaap:SalesRevenueGoodsNet",
      "us-gaap:SalesRevenueServicesNet",
      "ifrs-full:Revenue"
    ]
  },
  net_income: {
    kind: "duration",
    unit: "currency",
    concepts: [
      "us-gaap:NetIncomeLoss",
      "us-gaap:ProfitLoss",
      "us-gaap:NetIncomeLossAvailableToCommonStockholdersBasic",
      "ifrs-full:ProfitLossAttributableToOwnersOfParent",
      "ifrs-full:ProfitLoss"
    ]
  },
  gross_profit: { kind: "duration", unit: "currency", concepts: ["us-gaap:GrossProfit", "ifrs-full:GrossProfit"] },
  operating_income: {
    kind: "duration",
    unit: "currency",
    concepts: ["us-gaap:OperatingIncomeLoss", "ifrs-full:ProfitLossFromOperatingActivities"]
  },
  eps_basic: {
    kind: "duration",
    unit: "perShare",
    concepts: [
      "us-gaap:EarningsPerShareBasic",
      "us-gaap:EarningsPerShareBasicAndDiluted",
      "ifrs-full:BasicEarningsLossPerShare"
    ]
  },
  eps_diluted: {
    kind: "duration",
    unit: "perShare",
    concepts: [
      "us-gaap:EarningsPerShareDiluted",
      "us-gaap:EarningsPerShareBasicAndDiluted",
      "ifrs-full:DilutedEarningsLossPerShare"
    ]
  },
  total_assets: { kind: "instant", unit: "currency", concepts: ["us-gaap:Assets", "ifrs-full:Assets"] },
  total_liabilities: { kind: "instant", unit: "currency", concepts: ["us-gaap:Liabilities", "ifrs-full:Liabilities"] },
  total_equity: {
    kind: "instant",
    unit: "currency",
    concepts: [
      "us-gaap:StockholdersEquity",
      "us-gaap:StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest",
      "ifrs-full:EquityAttributableToOwnersOfParent",
      "ifrs-full:Equity"
    ]
  },
  cash_and_equivalents: {
    kind: "instant",
    unit: "currency",
    concepts: [
      "us-gaap:CashAndCashEquivalentsAtCarryingValue",
      "us-gaap:CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents",
      "ifrs-full:CashAndCashEquivalents"
    ]
  },
  shares_outstanding: {
    kind: "instant",
    unit: "shares",
    concepts: ["dei:EntityCommonStockSharesOutstanding", "us-gaap:CommonStockSharesOutstanding"]
  }
}
