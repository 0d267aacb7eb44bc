/**
 * total_debt: the company's term debt (notes, bonds, debentures, term loans, credit facility
 * drawings) including its current portion, at the period end, as carried on the balance sheet.
 * Short-term borrowings and commercial paper are left out; finance lease obligations count only
 * where the filer reports them inside its debt lines; operating leases never count.
 *
 * Filers tag the same debt with different concepts, so it is read twice and the two readings are
 * checked against each other:
 *
 * - The balance-sheet lines: a current part and a noncurrent part, each from the first family the
 *   filer uses (`LongTermDebtCurrent` / `LongTermDebtNoncurrent`; the debt-and-finance-lease pair
 *   `LongTermDebtAndCapitalLeaseObligationsCurrent` / `LongTermDebtAndCapitalLeaseObligations`; else
 *   the instrument lines: notes, senior notes, convertible notes, loans, lines of credit, other
 *   long-term debt), plus notes payable to related parties, which filers show on a line of their
 *   own. When one part includes finance leases and the other does not, the other's finance lease
 *   liability is added, so both columns count the same things.
 * - The debt note's own total (current portion included): `LongTermDebt`, the debt-and-finance-lease
 *   total `LongTermDebtAndCapitalLeaseObligationsIncludingCurrentMaturities`, or an undimensioned
 *   `DebtInstrumentCarryingAmount`.
 *
 * A total that equals the lines is the value. A total that equals them at its own (coarser)
 * precision, or only before the unamortized discount and issuance costs, confirms the lines, which
 * are then the value (they are what the balance sheet carries). A total that equals only the
 * noncurrent line is the long-term column alone: the lines are the value. When the two disagree
 * otherwise, the larger is the value (the smaller misses a part) and a warning says so.
 */

/** One reported fact at an instant, as the selection reads it. */
export interface DebtFact {
  readonly concept: string
  readonly measure: string
  readonly value: number
  readonly decimals: number | undefined
}

/** Finds the undimensioned fact of a concept at an instant: absent, conflicting, or the fact. */
export type FactAt = (concept: string, date: string) => DebtFact | "conflict" | undefined

export interface TotalDebt {
  readonly value: number
  readonly measure: string
  /** The concept when one stated total is the value, else `derived`. */
  readonly source: string
}

interface Family {
  readonly current: ReadonlyArray<string>
  readonly noncurrent: ReadonlyArray<string>
  /** Whether the family's amounts include finance lease obligations. */
  readonly leases: boolean
}

/** The debt families, in order of preference; the instrument lines last, summed. */
const debtFamily: Family = {
  current: ["us-gaap:LongTermDebtCurrent"],
  noncurrent: ["us-gaap:LongTermDebtNoncurrent"],
  leases: false
}
const debtAndLeaseFamily: Family = {
  current: ["us-gaap:LongTermDebtAndCapitalLeaseObligationsCurrent"],
  noncurrent: ["us-gaap:LongTermDebtAndCapitalLeaseObligations"],
  leases: true
}
const instrumentLines: Family = {
  current: [
    "us-gaap:NotesPayableCurrent",
    "us-gaap:SeniorNotesCurrent",
    "us-gaap:ConvertibleNotesPayableCurrent",
    "us-gaap:ConvertibleDebtCurrent",
    "us-gaap:LoansPayableCurrent",
    "us-gaap:LinesOfCreditCurrent",
    "us-gaap:OtherLongTermDebtCurrent",
    "us-gaap:SecuredDebtCurrent",
    "us-gaap:UnsecuredDebtCurrent"
  ],
  noncurrent: [
    "us-gaap:LongTermNotesPayable",
    "us-gaap:SeniorLongTermNotes",
    "us-gaap:ConvertibleLongTermNotesPayable",
    "us-gaap:ConvertibleDebtNoncurrent",
    "us-gaap:LongTermLoansPayable",
    "us-gaap:LongTermLineOfCredit",
    "us-gaap:OtherLongTermDebtNoncurrent",
    "us-gaap:SecuredLongTermDebt",
    "us-gaap:UnsecuredLongTermDebt"
  ],
  leases: false
}
const families: ReadonlyArray<Family> = [debtFamily, debtAndLeaseFamily, instrumentLines]

/** Lines of their own on the balance sheet, beside the debt lines. */
const relatedPartyNotes = [
  "us-gaap:NotesPayableRelatedPartiesClassifiedCurrent",
  "us-gaap:NotesPayableRelatedPartiesNoncurrent"
]

/** Totals of the debt note, current portion included, in order of preference. */
const statedTotals: ReadonlyArray<string> = [
  "us-gaap:LongTermDebt",
  "us-gaap:LongTermDebtAndCapitalLeaseObligationsIncludingCurrentMaturities",
  "us-gaap:DebtInstrumentCarryingAmount"
]
const debtInstrumentCarryingAmount = "us-gaap:DebtInstrumentCarryingAmount"

const unamortizedDiscount = "us-gaap:DebtInstrumentUnamortizedDiscountPremiumAndDebtIssuanceCostsNet"
const financeLeaseCurrent = "us-gaap:FinanceLeaseLiabilityCurrent"
const financeLeaseNoncurrent = "us-gaap:FinanceLeaseLiabilityNoncurrent"
const shortTermParts = ["us-gaap:CommercialPaper", "us-gaap:ShortTermBorrowings"]

/** Every concept the rule reads, so a caller can find the instants a filing reports debt at. */
export const totalDebtConcepts: ReadonlyArray<string> = [
  ...families.flatMap((family) => [...family.current, ...family.noncurrent]),
  ...relatedPartyNotes,
  ...statedTotals,
  "us-gaap:DebtCurrent"
]

interface Amount {
  readonly value: number
  /** The coarsest precision of the facts summed (`undefined` when one has none). */
  readonly decimals: number | undefined
  readonly concepts: ReadonlyArray<string>
}

const coarser = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined || b === undefined ? undefined : Math.min(a, b)

const plus = (a: Amount | undefined, b: Amount | undefined): Amount | undefined =>
  a === undefined
    ? b
    : b === undefined
    ? a
    : { value: a.value + b.value, decimals: coarser(a.decimals, b.decimals), concepts: [...a.concepts, ...b.concepts] }

/** Equal at the coarser of the two precisions (the XBRL rule for duplicate facts). */
const agree = (a: Amount, b: Amount): boolean => {
  if (a.value === b.value) return true
  const decimals = Math.min(a.decimals ?? Infinity, b.decimals ?? Infinity)
  if (!Number.isFinite(decimals)) return Math.abs(a.value - b.value) < 0.5
  const round = (value: number) => Math.round(value * 10 ** decimals)
  return round(a.value) === round(b.value)
}

/**
 * Sums instrument lines, one value per concept. When one line equals the sum of the others, it is
 * their subtotal (senior notes tagged inside notes payable): it alone is counted.
 */
const sumLines = (amounts: ReadonlyArray<Amount>): Amount | undefined => {
  if (amounts.length <= 1) return amounts[0]
  for (const candidate of amounts) {
    const rest = amounts.filter((amount) => amount !== candidate).reduce<Amount | undefined>(plus, undefined)
    if (rest !== undefined && agree(candidate, rest)) return candidate
  }
  return amounts.reduce<Amount | undefined>(plus, undefined)
}

/**
 * total_debt at one instant, with the warnings met. `measure` restricts the facts to one unit (the
 * one found at the period end, when reading the year before).
 */
export const totalDebtAt = (
  factAt: FactAt,
  date: string,
  warnings: Array<string>,
  measure?: string | undefined
): TotalDebt | undefined => {
  let unit = measure
  let conflict = false
  const read = (concept: string): Amount | undefined => {
    const fact = factAt(concept, date)
    if (fact === "conflict") {
      conflict = true
      return undefined
    }
    if (fact === undefined) return undefined
    if (unit === undefined) unit = fact.measure
    if (fact.measure !== unit) return undefined
    return { value: fact.value, decimals: fact.decimals, concepts: [concept] }
  }
  const readAll = (concepts: ReadonlyArray<string>) =>
    concepts.map(read).filter((amount): amount is Amount => amount !== undefined)

  // The parts: each column from the first family that reports it.
  let current: { readonly amount: Amount; readonly family: Family } | undefined
  let noncurrent: { readonly amount: Amount; readonly family: Family } | undefined
  for (const family of families) {
    if (current === undefined) {
      const amount = sumLines(readAll(family.current))
      if (amount !== undefined) current = { amount, family }
    }
    if (noncurrent === undefined) {
      const amount = sumLines(readAll(family.noncurrent))
      if (amount !== undefined) noncurrent = { amount, family }
    }
  }
  let currentAmount = current?.amount
  if (currentAmount === undefined) {
    // `DebtCurrent` counts commercial paper and short-term borrowings too: only what is left of it.
    const debtCurrent = read("us-gaap:DebtCurrent")
    if (debtCurrent !== undefined) {
      const shortTerm = readAll(shortTermParts).reduce<Amount | undefined>(plus, undefined)
      currentAmount = shortTerm === undefined
        ? debtCurrent
        : { ...plus(debtCurrent, { ...shortTerm, value: -shortTerm.value })!, concepts: debtCurrent.concepts }
    }
  }
  let noncurrentAmount = noncurrent?.amount
  // Both columns count finance leases, or neither does.
  if (noncurrent?.family.leases === true && current?.family.leases !== true) {
    currentAmount = plus(currentAmount, read(financeLeaseCurrent))
  }
  if (current?.family.leases === true && noncurrent?.family.leases !== true) {
    noncurrentAmount = plus(noncurrentAmount, read(financeLeaseNoncurrent))
  }
  const core = plus(currentAmount, noncurrentAmount)
  const related = readAll(relatedPartyNotes).reduce<Amount | undefined>(plus, undefined)
  const lines = plus(core, related)

  const totals = statedTotals.flatMap((concept) => {
    const amount = read(concept)
    return amount === undefined ? [] : [amount]
  })
  if (conflict && lines === undefined && totals.length === 0) {
    warnings.push("total_debt: the debt facts have conflicting values for the period; metric omitted")
    return undefined
  }
  if (unit === undefined) return undefined
  const measureOf = unit
  const result = (amount: Amount, stated: boolean): TotalDebt => ({
    value: amount.value,
    measure: measureOf,
    source: stated && amount.concepts.length === 1 ? amount.concepts[0]! : "derived"
  })

  if (lines === undefined) {
    const total = totals[0]
    return total === undefined ? undefined : result(total, true)
  }
  if (totals.length === 0) return result(lines, lines.concepts.length === 1)

  const discount = read(unamortizedDiscount)
  for (const total of totals) {
    // Related-party notes may sit inside the filer's total or on a line beside it.
    const readings = related === undefined ? [total] : [total, plus(total, related)!]
    for (const reading of readings) {
      if (reading === total && reading.value === lines.value) return result(total, true)
      const beforeDiscount = discount === undefined ? undefined : { ...reading, value: reading.value - discount.value }
      if (agree(reading, lines) || (beforeDiscount !== undefined && agree(beforeDiscount, lines))) {
        return result(lines, false)
      }
    }
  }
  // An instrument's carrying amount is often its face value: it confirms the lines, never outweighs them.
  const first = totals.find((total) => total.concepts[0] !== debtInstrumentCarryingAmount)
  if (first === undefined) return result(lines, lines.concepts.length === 1)
  if (noncurrentAmount !== undefined && currentAmount !== undefined && agree(first, noncurrentAmount)) {
    warnings.push(
      `total_debt: ${first.concepts[0]} (${first.value}) is only the noncurrent debt; ` +
        `the current portion (${currentAmount.value}) is added`
    )
    return result(lines, false)
  }
  if (noncurrentAmount === undefined) {
    // No noncurrent debt line is tagged: the stated total is that line, beside the others.
    if (currentAmount !== undefined) {
      warnings.push(
        `total_debt: no noncurrent debt line besides ${first.concepts[0]} (${first.value}); ` +
          `it is read as the noncurrent line and the current portion (${currentAmount.value}) is added`
      )
    }
    return result(plus(lines, first)!, false)
  }
  const larger = first.value > lines.value ? first : lines
  warnings.push(
    `total_debt: the debt note's total ${first.concepts[0]} (${first.value}) and the balance-sheet debt lines ` +
      `${lines.concepts.join(" + ")} (${lines.value}) disagree; the larger is used`
  )
  return result(larger, larger === first)
}
